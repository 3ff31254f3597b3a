//go:build js && wasm

package render

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall/js"

	"github.com/vugu/vugu"
	vjs "github.com/vugu/vugu/js"
)

// Renderer renders a component tree into the page's mount element, with
// static/render.js (window.ringscopeRender) applying the writes.
type Renderer struct {
	tree Tree
	life lifecycle

	// helper is window.ringscopeRender; apply its apply, and buf its
	// instruction array of bufLen bytes, looked up once: a render calls
	// apply once, with a number.
	helper, apply, buf js.Value
	bufLen             int
	onEvent            js.Func

	mu   sync.RWMutex // held for reading by Render, for writing by event handlers
	wait requests
	env  *vugu.EventEnvImpl
	// events counts the DOM events dispatched to handlers (Events).
	events atomic.Uint64
}

// Events counts the DOM events whose handlers have run: a render after
// one may need components that skip builds (KeepAttr) to build again.
func (r *Renderer) Events() uint64 { return r.events.Load() }

// New makes a renderer for the element selector names (it must exist
// when the first render runs), applied by helper: static/render.js's
// window.ringscopeRender, or one of its create() for an instance of its
// own (createRingscope); undefined means window.ringscopeRender.
func New(helper js.Value, selector string) (*Renderer, error) {
	if helper.IsUndefined() {
		helper = js.Global().Get("ringscopeRender")
	}
	if !helper.Truthy() {
		return nil, errors.New("render: window.ringscopeRender is not defined: load render.js before main.wasm")
	}
	r := &Renderer{tree: Tree{Selector: selector}, helper: helper, wait: make(requests, 64)}
	r.env = vugu.NewEventEnvImpl(&r.mu, r.wait)
	r.apply = helper.Get("apply")
	r.buf = helper.Get("buffer")
	r.bufLen = r.buf.Length()
	r.onEvent = js.FuncOf(r.event)
	helper.Call("setEventHandler", r.onEvent)
	return r, nil
}

// Request asks for a render without the components' lock, for a change
// outside them that a render should show (a canvas's new size). It never
// blocks: a full queue already asks for one.
func (r *Renderer) Request() {
	select {
	case r.wait <- true:
	default:
	}
}

// EventEnv is the lock and render request of this renderer's components.
func (r *Renderer) EventEnv() vugu.EventEnv { return r.env }

// Root is the mount element, once the first render adopted it (null
// before).
func (r *Renderer) Root() js.Value { return r.helper.Get("root") }

// Stop makes the render loop end: EventWait or Coalesce reports false.
func (r *Renderer) Stop() { r.wait <- false }

// EventWait blocks until a render is asked for.
func (r *Renderer) EventWait() bool { return r.wait.wait() }

// Coalesce takes the render requests pending now without blocking, so
// that one render answers them all: the page waits for its moment (the
// next animation frame) after EventWait, then calls Coalesce.
func (r *Renderer) Coalesce() bool { return r.wait.coalesce() }

// Render writes br to the DOM, then calls the vg-js handlers and the
// components' Rendered. A failure while applying (a script of the page
// removed the mount element, say) makes the next render rebuild the DOM
// from scratch.
func (r *Renderer) Render(br *vugu.BuildResults) (err error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	ops, err := r.tree.Sync(br)
	if err != nil {
		return err
	}
	els, err := r.write(ops)
	if err != nil {
		r.tree.Reset()
		return err
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("render: after the DOM writes: %v", p)
		}
	}()
	for i, c := range r.tree.callbacks() {
		c.h.JSValueHandle(vjs.Value(els.Index(i)))
	}
	r.life.run(br, r.env)
	return nil
}

// write hands ops to render.js: one copy and one call. It returns the
// elements of the opCallback ops, in order.
func (r *Renderer) write(ops []byte) (els js.Value, err error) {
	defer func() {
		if p := recover(); p != nil { // a JS exception, as syscall/js panics with it
			err = fmt.Errorf("render: applying the DOM writes: %v", p)
		}
	}()
	if len(ops) > r.bufLen {
		r.buf = r.helper.Call("grow", len(ops))
		r.bufLen = r.buf.Length()
	}
	js.CopyBytesToJS(r.buf, ops)
	return r.apply.Invoke(len(ops)), nil
}

// event is render.js's listener: (id, slot, type, summary JSON, event).
// It never blocks: with the lock taken (a render in progress, or an
// update) the handler runs on a goroutine once it is free.
func (r *Renderer) event(_ js.Value, args []js.Value) any {
	if len(args) < 5 || args[0].Type() != js.TypeNumber || args[1].Type() != js.TypeNumber ||
		args[2].Type() != js.TypeString || args[3].Type() != js.TypeString {
		return nil
	}
	id, slot, typ := uint32(args[0].Int()), uint32(args[1].Int()), args[2].String()
	ev := &domEvent{summary: parseSummary(args[3].String()), env: r.env, ev: args[4]}
	if r.mu.TryLock() {
		ev.live = true
		r.dispatch(id, slot, typ, ev)
		ev.live = false
		return nil
	}
	go func() {
		r.mu.Lock()
		r.dispatch(id, slot, typ, ev)
	}()
	return nil
}

// dispatch runs the handler with the lock held, releases it and asks for
// a render. A panicking handler is reported, not fatal.
func (r *Renderer) dispatch(id, slot uint32, typ string, ev *domEvent) {
	defer func() {
		if p := recover(); p != nil {
			js.Global().Get("console").Call("error", fmt.Sprintf("ringscope: %s handler: %v", typ, p))
		}
		r.env.UnlockRender()
	}()
	if h, ok := r.tree.handler(id, slot, typ); ok && h.Func != nil {
		h.Func(ev)
		r.events.Add(1)
	}
}
