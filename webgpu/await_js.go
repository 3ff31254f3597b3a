//go:build js && wasm

package webgpu

import (
	"context"
	"sync"
	"sync/atomic"
	"syscall/js"
)

// jsGlobals are the JS globals this package uses, looked up once (by env).
type jsGlobals struct {
	gpu        js.Value // navigator.gpu, or undefined
	uint8Array js.Value
	array      js.Value
	str        js.Value // String
}

var (
	envOnce sync.Once
	envVals jsGlobals
)

// env is inlined at its callers, so the lookup is a named function: a
// closure there would be compiled once per caller.
func env() *jsGlobals {
	envOnce.Do(lookUpEnv)
	return &envVals
}

func lookUpEnv() {
	g := js.Global()
	envVals.gpu = js.Undefined()
	if nav := g.Get("navigator"); truthy(nav) {
		envVals.gpu = nav.Get("gpu")
	}
	envVals.uint8Array = g.Get("Uint8Array")
	envVals.array = g.Get("Array")
	envVals.str = g.Get("String")
}

func truthy(v js.Value) bool { return !v.IsUndefined() && !v.IsNull() && v.Truthy() }

// liveFuncs counts js.Funcs made by funcOf and not yet released.
var liveFuncs atomic.Int64

// LiveFuncs returns how many js.Func callbacks this package holds: one per
// Promise being awaited (or abandoned by a cancelled context and not yet
// settled) and one per live device (its device.lost watcher). It is a debug
// hook: with no work in flight and no devices it returns to zero.
func LiveFuncs() int64 { return liveFuncs.Load() }

func funcOf(fn func(this js.Value, args []js.Value) any) js.Func {
	liveFuncs.Add(1)
	return js.FuncOf(fn)
}

func release(f js.Func) {
	f.Release()
	liveFuncs.Add(-1)
}

type settled struct {
	v   js.Value
	err error
}

// await waits for promise to settle and returns its value, or its rejection
// reason as a *JSError, or ctx.Err() if ctx ends first: watch, then wait.
//
// await blocks the calling goroutine until the JS event loop runs the
// promise's reactions, so it must never be called inside a JS callback
// (a js.FuncOf body): there the event loop cannot run and it deadlocks.
func await(ctx context.Context, promise js.Value) (js.Value, error) {
	return watch(promise).wait(ctx)
}

// pending is a promise with its handlers attached (watch), not yet waited for.
type pending struct {
	ch       chan settled
	ok, fail js.Func
}

// watch attaches handlers to promise at once, so that a rejection is
// handled even if nobody waits (a rejection nobody handles kills a Node
// process); the handlers only send on a buffered channel.
func watch(promise js.Value) *pending {
	p := &pending{ch: make(chan settled, 1)}
	p.ok = funcOf(func(_ js.Value, args []js.Value) any {
		p.ch <- settled{v: arg0(args)}
		return nil
	})
	p.fail = funcOf(func(_ js.Value, args []js.Value) any {
		p.ch <- settled{err: jsErrorOf(arg0(args))}
		return nil
	})
	promise.Call("then", p.ok, p.fail)
	return p
}

// wait waits for the promise watch watched. Both js.Funcs are released: at
// once when the promise settles in time, otherwise by a goroutine once it
// does settle (a promise that never settles keeps them; LiveFuncs shows it).
func (p *pending) wait(ctx context.Context) (js.Value, error) {
	select {
	case r := <-p.ch:
		release(p.ok)
		release(p.fail)
		return r.v, r.err
	case <-ctx.Done():
		go func() {
			<-p.ch
			release(p.ok)
			release(p.fail)
		}()
		return js.Undefined(), ctx.Err()
	}
}

func arg0(args []js.Value) js.Value {
	if len(args) == 0 {
		return js.Undefined()
	}
	return args[0]
}

// jsErrorOf turns a thrown value or rejection reason into a *JSError.
func jsErrorOf(v js.Value) *JSError {
	if v.Type() == js.TypeObject {
		name, msg := v.Get("name"), v.Get("message")
		if name.Type() == js.TypeString && msg.Type() == js.TypeString {
			e := &JSError{Name: name.String(), Message: msg.String()}
			if r := v.Get("reason"); r.Type() == js.TypeString {
				e.Reason = r.String()
			}
			return e
		}
	}
	return &JSError{Message: env().str.Invoke(v).String()}
}

// try runs fn and turns a JS exception it throws into a *JSError.
func try(fn func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if je, ok := r.(js.Error); ok {
				err = jsErrorOf(je.Value)
				return
			}
			panic(r)
		}
	}()
	fn()
	return nil
}
