//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"math"
	"syscall/js"

	"github.com/ringscope/ringscope/wasm/api"
)

// JS globals, looked up once.
var (
	jsGlobal  = js.Global()
	jsPromise = jsGlobal.Get("Promise")
	jsError   = jsGlobal.Get("Error")
	jsObject  = jsGlobal.Get("Object")
	jsJSON    = jsGlobal.Get("JSON")
)

// promise returns a JS Promise settled by work, which runs on its own
// goroutine: a JS callback must never block (syscall/js.FuncOf), and the
// work awaits GPU promises. The result is converted with api.Plain, so
// field names are lowerCamelCase (an api.RawJSON, already written in that
// form, goes through JSON.parse); an error rejects with its message.
func promise(work func() (any, error)) js.Value {
	var executor js.Func
	executor = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		executor.Release() // the executor runs exactly once, synchronously
		go func() {
			v, err := work()
			if err != nil {
				reject.Invoke(jsError.New(err.Error()))
				return
			}
			if raw, ok := v.(api.RawJSON); ok {
				resolve.Invoke(jsJSON.Call("parse", string(raw)))
				return
			}
			resolve.Invoke(js.ValueOf(api.Plain(v)))
		}()
		return nil
	})
	return jsPromise.New(executor)
}

// method installs a JS method on obj whose calls become promises. The
// js.Func lives as long as the page: the API object is never torn down.
func method(obj js.Value, name string, work func(args []js.Value) (any, error)) {
	obj.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) any {
		return promise(func() (any, error) { return work(args) })
	}))
}

// arg returns args[i], or undefined when the caller passed fewer.
func arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

// optUint32 reads an optional unsigned integer property of a JS options
// object: def when absent, an error naming where when not an integer.
func optUint32(obj js.Value, what, name string, def uint32) (uint32, error) {
	f, ok, err := optNumber(obj, what, name)
	if !ok || err != nil {
		return def, err
	}
	return api.Uint32(what+": "+name, f)
}

// optNumber reads an optional number property: ok is false when obj or the
// property is absent, and err names where a non-number was given.
func optNumber(obj js.Value, what, name string) (f float64, ok bool, err error) {
	if obj.IsUndefined() || obj.IsNull() {
		return 0, false, nil
	}
	v := obj.Get(name)
	if v.IsUndefined() || v.IsNull() {
		return 0, false, nil
	}
	if v.Type() != js.TypeNumber {
		return 0, false, errors.New(what + ": " + name + " must be a number, got " + v.Type().String())
	}
	return v.Float(), true, nil
}

// optUint64 is optUint32 for byte counts: an integer 0…2^53 (JavaScript's
// exact range).
func optUint64(obj js.Value, what, name string, def uint64) (uint64, error) {
	f, ok, err := optNumber(obj, what, name)
	if !ok || err != nil {
		return def, err
	}
	if f != math.Trunc(f) || f < 0 || f > 1<<53 {
		return 0, fmt.Errorf("%s: %s must be an integer 0…2^53, got %v", what, name, f)
	}
	return uint64(f), nil
}

// optBool reads an optional boolean property (absent: false).
func optBool(obj js.Value, name string) bool {
	if obj.IsUndefined() || obj.IsNull() || obj.Type() != js.TypeObject {
		return false
	}
	return obj.Get(name).Truthy()
}
