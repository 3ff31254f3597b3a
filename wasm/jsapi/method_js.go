//go:build js && wasm

package jsapi

import (
	"errors"
	"fmt"
	"runtime/debug"
	"syscall/js"

	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl"
)

// JS globals, looked up once.
var (
	jsPromise = jsGlobal.Get("Promise")
	jsError   = jsGlobal.Get("Error")
	jsJSON    = jsGlobal.Get("JSON")
)

// Promise returns a JS Promise settled by work, which runs on its own
// goroutine: a JS callback must never block (syscall/js.FuncOf), and the
// work awaits GPU promises. The result is converted with api.Plain, so
// field names are lowerCamelCase (an api.RawJSON, already written in that
// form, goes through JSON.parse; a js.Value resolves as it is); an error
// rejects with its message.
//
// A panic in work (a check the method forgot) must not end the page's Go
// program, which would freeze the dashboard and every later call: it is
// recovered here, logged with its stack, and rejects with a message that
// names the method and its arguments' types. Locks work holds are released
// by their defers as the panic unwinds (runLocked's included).
func Promise(name string, args []js.Value, work func() (any, error)) js.Value {
	var executor js.Func
	executor = js.FuncOf(func(_ js.Value, pargs []js.Value) any {
		resolve, reject := pargs[0], pargs[1]
		executor.Release() // the executor runs exactly once, synchronously
		go func() {
			defer func() {
				if r := recover(); r != nil {
					msg := fmt.Sprintf("%s: internal error (the call was abandoned; the page carries on): %v; arguments %s",
						name, PanicError(r), DescribeArgs(args))
					jsGlobal.Get("console").Call("error", "ringscope: "+msg+"\n"+string(debug.Stack()))
					reject.Invoke(jsError.New(msg))
				}
			}()
			v, err := work()
			if err != nil {
				reject.Invoke(ErrorValue(api.Named(name, err)))
				return
			}
			switch v := v.(type) {
			case api.RawJSON:
				resolve.Invoke(jsJSON.Call("parse", string(v)))
			case js.Value:
				resolve.Invoke(v)
			default:
				resolve.Invoke(ToJS(api.Plain(v)))
			}
		}()
		return nil
	})
	return jsPromise.New(executor)
}

// Method installs a JS method on obj whose calls become promises. The
// js.Func lives as long as the page: the API object is never torn down.
func Method(obj js.Value, name string, work func(args []js.Value) (any, error)) {
	obj.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) any {
		return Promise(name, args, func() (any, error) { return work(args) })
	}))
}

// RawMethod is Method for results that are already JS values (a
// Uint8Array), which api.Plain would flatten.
func RawMethod(obj js.Value, name string, work func(args []js.Value) (js.Value, error)) {
	Method(obj, name, func(args []js.Value) (any, error) {
		v, err := work(args)
		if err != nil {
			return nil, err
		}
		return v, nil
	})
}

// ErrorValue is the Error a call rejects with: err's message, and for a
// kernel refusal what a tool needs to point at it without parsing the
// message: field (a wgsl.DeclError's, as open's options spell it, and its
// line in the user's WGSL where it has one) and
// diagnostics ([{field, opcode, line, column, type, message}] of a
// megakernel.CompileError, at the user's own lines).
func ErrorValue(err error) js.Value {
	e := jsError.New(err.Error())
	var de *wgsl.DeclError
	if errors.As(err, &de) {
		e.Set("field", de.Field)
		if de.Line > 0 {
			e.Set("line", de.Line)
		}
	}
	var ce *megakernel.CompileError
	if errors.As(err, &ce) {
		e.Set("diagnostics", ToJS(api.Plain(ce.Diagnostics)))
	}
	return e
}
