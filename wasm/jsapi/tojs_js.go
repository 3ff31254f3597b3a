//go:build js && wasm

package jsapi

import "syscall/js"

var jsArray = jsGlobal.Get("Array")

// ToJS converts a value of api.Plain (maps, slices and scalars) to JS as
// js.ValueOf does, but sets each object's keys in sorted order: a Go map
// ranges in a random order, and js.ValueOf's objects then took their keys
// in a different order on every read, so two snapshots of one paused
// frame stringified differently (a diff or de-duplication of frames saw
// changes that were not there).
func ToJS(v any) js.Value {
	switch v := v.(type) {
	case map[string]any:
		var buf [16]string // most objects: no allocation for the keys
		keys := buf[:0]
		for k := range v {
			keys = append(keys, k)
		}
		// Insertion sort: an object has a few dozen keys at most, and a
		// generic sort would add its code to the page for this alone.
		for i := 1; i < len(keys); i++ {
			for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
				keys[j], keys[j-1] = keys[j-1], keys[j]
			}
		}
		o := jsObject.New()
		for _, k := range keys {
			o.Set(k, ToJS(v[k]))
		}
		return o
	case []any:
		a := jsArray.New(len(v))
		for i, e := range v {
			a.SetIndex(i, ToJS(e))
		}
		return a
	}
	return js.ValueOf(v)
}
