//go:build js && wasm

package browser

import (
	"fmt"
	"sync"
	"syscall/js"
	"time"
)

// AnimationFrames waits for the browser's next animation frame
// (requestAnimationFrame), or at most maxWait where none comes (a hidden
// tab), with one callback and one timer for its lifetime.
type AnimationFrames struct {
	callback js.Func
	fired    chan struct{}
	timeout  *time.Timer
	maxWait  time.Duration
}

// NewAnimationFrames returns a waiter whose callback c releases.
func NewAnimationFrames(c *Cleanup, maxWait time.Duration) *AnimationFrames {
	f := &AnimationFrames{fired: make(chan struct{}, 1), timeout: time.NewTimer(maxWait), maxWait: maxWait}
	f.callback = c.Func(func(js.Value, []js.Value) any {
		select {
		case f.fired <- struct{}{}:
		default:
		}
		return nil
	})
	return f
}

// Wait returns at the next animation frame, or after maxWait.
func (f *AnimationFrames) Wait() {
	select {
	case <-f.fired: // a frame asked for by a wait that timed out
	default:
	}
	jsGlobal.Call("requestAnimationFrame", f.callback)
	f.timeout.Reset(f.maxWait)
	select {
	case <-f.fired:
	case <-f.timeout.C:
	}
	f.timeout.Stop()
}

// Readiness is a Promise settled once (ringscope.ready): resolved, or
// rejected with an Error of the reason.
type Readiness struct {
	promise         js.Value
	resolve, reject js.Value
	once            sync.Once
}

// NewReadiness returns an unsettled Readiness. Its Promise has a catch
// handler, which c releases: a page that never awaits it must not log an
// unhandled rejection.
func NewReadiness(c *Cleanup) *Readiness {
	r := &Readiness{}
	executor := js.FuncOf(func(_ js.Value, args []js.Value) any {
		r.resolve, r.reject = args[0], args[1]
		return nil
	})
	r.promise = jsGlobal.Get("Promise").New(executor)
	executor.Release() // the executor runs once, synchronously
	r.promise.Call("catch", c.Func(func(js.Value, []js.Value) any { return nil }))
	return r
}

// Promise is the Promise that Settle settles.
func (r *Readiness) Promise() js.Value { return r.promise }

// Settle resolves the Promise (err nil) or rejects it; later calls do
// nothing.
func (r *Readiness) Settle(err error) {
	r.once.Do(func() {
		if err != nil {
			r.reject.Invoke(jsGlobal.Get("Error").New(fmt.Sprintf("ringscope: %v", err)))
			return
		}
		r.resolve.Invoke(js.Undefined())
	})
}

// Now is the page's clock, performance.now(), in milliseconds.
func Now() float64 { return jsGlobal.Get("performance").Call("now").Float() }

// Mark records a User Timing mark (performance.mark): startup's phases
// show in DevTools' performance panel, and the startup benchmark reads
// them (e2e/tests/bench.spec.mjs).
func Mark(name string) { jsGlobal.Get("performance").Call("mark", name) }

// ConsoleError logs parts with console.error (strings, numbers: values
// js.ValueOf takes).
func ConsoleError(parts ...any) { jsGlobal.Get("console").Call("error", parts...) }

// SetValue sets the value property of the element the selector finds,
// if any (a range input's position, which its attribute alone does not
// move once the person dragged it).
func SetValue(selector string, v any) {
	if el := jsGlobal.Get("document").Call("querySelector", selector); el.Truthy() {
		el.Set("value", v)
	}
}

// SetText sets the textContent of the element the selector finds, if any.
func SetText(selector, text string) {
	if el := jsGlobal.Get("document").Call("querySelector", selector); el.Truthy() {
		el.Set("textContent", text)
	}
}
