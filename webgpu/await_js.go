//go:build js && wasm

package webgpu

import (
	"context"
	"errors"
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
// settled), and per live device its device.lost watcher and up to
// 2×maxPooled kept for its next awaits (pendingPool). It is a debug hook:
// with no work in flight and no devices it returns to zero.
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
	pool     *pendingPool // where it goes once its promise settled; nil: released
}

// watch attaches handlers to promise at once, so that a rejection is
// handled even if nobody waits (a rejection nobody handles kills a Node
// process); the handlers only send on a buffered channel.
func watch(promise js.Value) *pending {
	p := newPending()
	promise.Call("then", p.ok, p.fail)
	return p
}

func newPending() *pending {
	p := &pending{ch: make(chan settled, 1)}
	p.ok = funcOf(func(_ js.Value, args []js.Value) any {
		p.ch <- settled{v: arg0(args)}
		return nil
	})
	p.fail = funcOf(func(_ js.Value, args []js.Value) any {
		p.ch <- settled{err: jsErrorOf(arg0(args))}
		return nil
	})
	return p
}

// wait waits for the promise watch watched. Its js.Funcs are done with at
// once when the promise settles in time, otherwise by a goroutine once it
// does settle (a promise that never settles keeps them; LiveFuncs shows
// it): released, or kept in its pool for another promise.
func (p *pending) wait(ctx context.Context) (js.Value, error) { return p.waitOr(ctx, nil) }

// errAbandoned is waitOr's error when stop closed first.
var errAbandoned = errors.New("webgpu: device abandoned")

// waitOr is wait that also returns errAbandoned once stop is closed (a
// nil stop never is): Device.Abandon's, whose promises may never settle.
func (p *pending) waitOr(ctx context.Context, stop <-chan struct{}) (js.Value, error) {
	select {
	case r := <-p.ch:
		p.done()
		return r.v, r.err
	case <-ctx.Done():
		p.later()
		return js.Undefined(), ctx.Err()
	case <-stop:
		p.later()
		return js.Undefined(), errAbandoned
	}
}

// later is done, once p's promise settles (if it ever does).
func (p *pending) later() {
	go func() {
		<-p.ch
		p.done()
	}()
}

// done hands p, its promise settled and its result taken, to its pool, or
// releases its funcs.
func (p *pending) done() {
	if p.pool == nil || !p.pool.put(p) {
		release(p.ok)
		release(p.fail)
	}
}

// pendingPool keeps the pendings of a device's settled promises for its
// next ones: a handler is called once per promise it is attached to, so a
// pair whose result was taken serves the next promise as well. A readback
// per frame then makes and releases no js.Func: with a new pair an await
// of a settled promise took longer in Node here (BenchmarkAwait, pooled
// and not).
// Once closed (the device lost) it keeps none. The zero value is an empty
// pool.
type pendingPool struct {
	mu     sync.Mutex
	free   []*pending
	closed bool
}

// maxPooled bounds a pool: more than the promises a device has in flight
// at once in a frame (two readback maps, an upload map, error scopes).
const maxPooled = 8

// watch is the package watch, with a pending from the pool when it has one.
func (pp *pendingPool) watch(promise js.Value) *pending {
	pp.mu.Lock()
	var p *pending
	if n := len(pp.free); n > 0 {
		p, pp.free = pp.free[n-1], pp.free[:n-1]
	}
	pp.mu.Unlock()
	if p == nil {
		p = newPending()
		p.pool = pp
	}
	promise.Call("then", p.ok, p.fail)
	return p
}

// put keeps p for a later watch and reports whether it did.
func (pp *pendingPool) put(p *pending) bool {
	pp.mu.Lock()
	defer pp.mu.Unlock()
	if pp.closed || len(pp.free) >= maxPooled {
		return false
	}
	pp.free = append(pp.free, p)
	return true
}

// close releases the pool's pendings; those still waiting are released as
// their promises settle.
func (pp *pendingPool) close() {
	pp.mu.Lock()
	free := pp.free
	pp.free, pp.closed = nil, true
	pp.mu.Unlock()
	for _, p := range free {
		release(p.ok)
		release(p.fail)
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
