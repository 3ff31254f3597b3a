//go:build js && wasm

package webgpu

import (
	"syscall/js"
	"unsafe"
)

// goMemory is the ArrayBuffer behind the Go program's linear memory, so
// that writeBuffer can read a Go slice where it lies (its address is its
// byte offset there) instead of through a JS staging copy: a 64 MiB ring
// then costs Dawn's one memcpy, not a js.CopyBytesToJS before it.
//
// Go's wasm port exports no handle to its memory, so goMemory finds it
// through js.CopyBytesToJS itself: wasm_exec.js copies with
// dst.set(src.subarray(0, dst.length)), where src is a Uint8Array over the
// memory. The destination here passes its instanceof Uint8Array check
// (its prototype is Uint8Array.prototype), says its length is 1, and its
// set is Array.prototype.push bound to an array, which keeps the view. No
// callback into Go and no eval: it works under a page's strict CSP too.
// Where any step gives something else (another wasm_exec), ok is false
// and uploads keep the staging copy.
//
// The buffer detaches when the memory grows; buffer returns a fresh one
// then.
type goMemory struct {
	buf   js.Value // ArrayBuffer, or undefined before the first find
	tried bool     // find failed once: do not try again
}

// buffer returns the memory's current ArrayBuffer, or ok false where it
// cannot be found.
func (m *goMemory) buffer() (js.Value, bool) {
	if m.buf.Truthy() && m.buf.Get("byteLength").Int() > 0 {
		return m.buf, true
	}
	if m.tried && !m.buf.Truthy() {
		return js.Value{}, false
	}
	m.tried = true
	m.buf = js.Undefined()
	if b, ok := findGoMemory(); ok {
		m.buf = b
		return b, true
	}
	return js.Value{}, false
}

// probe is the byte findGoMemory asks CopyBytesToJS to copy; its address
// checks that the view found is over Go's memory.
var probe [1]byte

func findGoMemory() (buf js.Value, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	g := js.Global()
	object := g.Get("Object")
	kept := env().array.New()
	push := env().array.Get("prototype").Get("push").Call("bind", kept)
	dst := object.Call("create", env().uint8Array.Get("prototype"))
	object.Call("defineProperty", dst, "length", map[string]any{"value": 1})
	object.Call("defineProperty", dst, "set", map[string]any{"value": push})
	js.CopyBytesToJS(dst, probe[:])
	if kept.Length() != 1 {
		return js.Value{}, false
	}
	view := kept.Index(0)
	if !view.InstanceOf(env().uint8Array) {
		return js.Value{}, false
	}
	buf = view.Get("buffer")
	at := uintptr(unsafe.Pointer(&probe[0]))
	if view.Get("byteOffset").Int() != int(at) || buf.Get("byteLength").Int() <= int(at) {
		return js.Value{}, false
	}
	return buf, true
}
