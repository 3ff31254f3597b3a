//go:build js && wasm

package jsapi

import (
	"errors"
	"fmt"
	"math"
	"syscall/js"

	"github.com/ringscope/ringscope/wasm/api"
)

// Arg returns args[i], or undefined when the caller passed fewer.
func Arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

// OptUint32 reads an optional unsigned integer property of a JS options
// object: def when absent, an error naming where when not an integer.
func OptUint32(obj js.Value, what, name string, def uint32) (uint32, error) {
	f, ok, err := OptNumber(obj, what, name)
	if !ok || err != nil {
		return def, err
	}
	return api.Uint32(what+": "+name, f)
}

// OptNumber reads an optional number property: ok is false when obj or the
// property is absent, and err names where a non-number was given (or obj
// is not an object, or reading the property threw).
func OptNumber(obj js.Value, what, name string) (f float64, ok bool, err error) {
	v, err := OptProp(obj, what, name)
	if err != nil || v.IsUndefined() || v.IsNull() {
		return 0, false, err
	}
	if t := TypeName(v); t != "number" {
		return 0, false, errors.New(what + ": " + name + " must be a number, got " + t)
	}
	return v.Float(), true, nil
}

// OptUint64 is OptUint32 for byte counts: an integer 0…2^53 (JavaScript's
// exact range).
func OptUint64(obj js.Value, what, name string, def uint64) (uint64, error) {
	f, ok, err := OptNumber(obj, what, name)
	if !ok || err != nil {
		return def, err
	}
	if f != math.Trunc(f) || f < 0 || f > 1<<53 {
		return 0, fmt.Errorf("%s: %s must be an integer 0…2^53, got %v", what, name, f)
	}
	return uint64(f), nil
}

// Bool reads a boolean argument, what naming it in the error for
// anything else: a string "false" or an object must not read as true.
func Bool(v js.Value, what string) (bool, error) {
	if t := TypeName(v); t != "boolean" {
		return false, errors.New(what + " must be a boolean, got " + t)
	}
	return v.Bool(), nil
}

// OptBool reads an optional boolean property of an options object: false
// when the object or the property is absent (undefined or null), an error
// naming it when it is not a boolean or reading it threw.
func OptBool(obj js.Value, what, name string) (bool, error) {
	v, err := OptProp(obj, what, name)
	if err != nil || v.IsUndefined() || v.IsNull() {
		return false, err
	}
	return Bool(v, what+": "+name)
}
