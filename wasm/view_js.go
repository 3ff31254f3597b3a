//go:build js && wasm

package main

import (
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/vugu/vugu"

	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/browser"
	"github.com/ringscope/ringscope/wasm/controller"
	"github.com/ringscope/ringscope/wasm/render"
)

// view is the dashboard on the page: the component tree, our renderer
// (wasm/render) and the loop that renders it on display frames.
type view struct {
	dash     *ui.Dashboard
	cleanup  *browser.Cleanup
	renderer *render.Renderer
	env      vugu.EventEnv
	// gate holds the first render back until the first frame asked for
	// its pipelines (liveFrame) or start knows there is none.
	gate chan struct{}
	// rendered, when set, is told each render's cost.
	rendered func(time.Duration)
	// held, set by the test hooks alone (__test.holdRender), skips renders:
	// the attach benchmark's bisect of a frame's cost.
	held     atomic.Bool
	gateOnce sync.Once
	// rings is the controller's ring count the dashboard last showed: a
	// new one clears its history (show).
	rings uint64
}

func newView(dash *ui.Dashboard, cleanup *browser.Cleanup) *view {
	return &view{dash: dash, cleanup: cleanup, gate: make(chan struct{})}
}

// run mounts the dashboard on selector through helper (render.New) and
// renders it whenever an event or a frame (EventEnv.UnlockRender) asks,
// until the renderer stops (stop).
func (v *view) run(helper js.Value, selector string) {
	var err error
	v.renderer, err = render.New(helper, selector)
	if err != nil {
		browser.SetText(statusSelector, "error: mount dashboard: "+err.Error())
		select {}
	}
	v.env = v.renderer.EventEnv()
	ui.Resized = v.renderer.Request
	buildEnv, err := vugu.NewBuildEnv(v.env)
	if err != nil {
		browser.SetText(statusSelector, "error: vugu: "+err.Error())
		select {}
	}
	// The first render (building and laying out the whole dashboard, the
	// longest of the page's renders: bench/results-render.md) waits until the first frame has asked for its
	// pipelines (liveFrame), so it runs while the GPU process compiles
	// them rather than before. The loader's page says "loading" until
	// then; a start that hangs delays it by at most firstRenderWait.
	select {
	case <-v.gate:
	case <-time.After(firstRenderWait):
	}
	frames := browser.NewAnimationFrames(v.cleanup, maxFrameWait)
	var lastStart time.Time
	var lastCost time.Duration
	var events uint64 // the renderer's Events at the last render
	for ok := true; ok; ok = v.renderer.EventWait() {
		// Renders are spaced so that the live loop keeps its share of the
		// main thread (renderSpacing), then wait for the next display frame:
		// one render, just before the browser lays it out and paints it,
		// shows every frame and event since the last one.
		if wait := min(time.Until(lastStart.Add(renderSpacing*lastCost)), maxRenderWait); wait > 0 {
			time.Sleep(wait)
		}
		frames.Wait()
		if !v.renderer.Coalesce() {
			break
		}
		if v.held.Load() {
			continue
		}
		lastStart = time.Now()
		// A DOM event may have changed what a throttled table shows.
		n := v.renderer.Events()
		v.dash.BuildAll, events = n != events, n
		if err := v.renderer.Render(buildEnv.RunBuild(v.dash)); err != nil {
			jsGlobal.Get("console").Call("error", "ringscope: render:", err.Error())
		}
		lastCost = time.Since(lastStart)
		if v.rendered != nil {
			v.rendered(lastCost) // an attachment's budget counts renders (wasm/pace)
		}
	}
}

// renderSpacing: a render starts at least this many times its
// predecessor's cost (Build, the DOM sync and the canvases) after that one
// started. The browser's style, layout and paint of a render cost about as
// much again, so rendering takes at most about two thirds of the main
// thread and the live loop, which shares it, the rest. The choice of 3
// over 1 and 4 is measured in bench/results-h200.md (render spacing,
// bench/ab.mjs): frames are the GPU drains the page observes; renders
// only what a person sees.
const renderSpacing = 3

// maxRenderWait caps that spacing, so that one slow render (a collection, a
// tab brought back, the slot inspector's first draw) does not hold the next
// one back: on the H200 without it, one slow render kept the dashboard
// still for several times its own cost (bench/results-render.md).
const maxRenderWait = 100 * time.Millisecond

// maxFrameWait bounds the wait for an animation frame: a hidden page, which
// gets none, still renders at 10 Hz for an embedder that reads its DOM.
const maxFrameWait = 100 * time.Millisecond

// statusSelector is the loader's status element, written directly when
// the dashboard could not mount.
const statusSelector = `[data-testid="status"]`

// firstRenderWait bounds how long the first render waits for the gate.
const firstRenderWait = 2 * time.Second

// stop ends run's loop once it has mounted (dispose).
func (v *view) stop() {
	for v.env == nil {
		time.Sleep(time.Millisecond) // run has not mounted yet
	}
	go v.renderer.Stop()
}

// openGate lets the first render run (once).
func (v *view) openGate() { v.gateOnce.Do(func() { close(v.gate) }) }

// openGateAfter runs f, then lets the first render run, unless the gate
// is open already (f does not run then).
func (v *view) openGateAfter(f func()) {
	v.gateOnce.Do(func() {
		f()
		close(v.gate)
	})
}

// update runs f on the dashboard under the EventEnv lock and re-renders.
func (v *view) update(f func(d *ui.Dashboard)) {
	for v.env == nil {
		time.Sleep(time.Millisecond) // run has not mounted yet
	}
	v.env.Lock()
	f(v.dash)
	v.env.UnlockRender()
}

// show maps the controller's state onto the dashboard, then shows frame
// f, if any: the one place the page's view learns the ring's state. With
// render it re-renders; without, before the dashboard mounted, it does
// nothing (the next show has the state).
func (v *view) show(st *controller.State, f *frame.Frame, render bool) {
	if v.env == nil {
		if !render {
			return
		}
		for v.env == nil {
			time.Sleep(time.Millisecond) // run has not mounted yet
		}
	}
	v.env.Lock()
	d := v.dash
	switch {
	case st.BusyLost:
		d.Status = ui.BusyLostStatus
	case st.Busy != nil:
		d.Status = ui.BusyStatus(st.Busy.WaitedMillis, st.Busy.BoundMillis, st.Busy.UserOpcodes)
	case st.Status == controller.StatusLoading:
		d.Status = ui.StatusLoading
	case st.Status == controller.StatusReady:
		d.Status = ui.StatusReady
	case st.Status == controller.StatusNoWebGPU:
		d.Status = ui.StatusNoWebGPU
	case st.Status == controller.StatusError:
		d.Status = ui.ErrorStatus(st.Err)
	}
	d.Running, d.Stale, d.StaleReason = st.Running, st.Stale, st.StaleReason
	d.Recoveries, d.ApplyError = st.Recoveries, st.ApplyError
	d.Readback, d.ReadbackWhy = st.Readback, st.ReadbackWhy
	d.Pacing, d.Throttled, d.Attached = st.Pacing, st.Throttled, st.Attached
	d.Settings = st.Settings
	if st.Adapter != nil {
		d.Adapter = st.Adapter
	}
	if st.Rings != v.rings {
		v.rings = st.Rings
		d.ClearHistory()
	}
	if f != nil && d.Frame() != f { // a frame re-diagnosed in place is shown, not added
		d.Apply(f)
	}
	if render {
		v.env.UnlockRender()
	} else {
		v.env.UnlockOnly()
	}
}

// statusText is the dashboard's status now, without a render ("loading"
// before it mounted).
func (v *view) statusText() string {
	if v.env == nil {
		return ui.StatusLoading
	}
	v.env.Lock()
	defer v.env.UnlockOnly()
	return v.dash.StatusText()
}

// updateQuiet runs f on the dashboard under the EventEnv lock without
// asking for a render (a frame's Apply follows, which asks); before the
// dashboard mounted it does nothing, and the next update shows it.
func (v *view) updateQuiet(f func(d *ui.Dashboard)) {
	if v.env == nil {
		return
	}
	v.env.Lock()
	f(v.dash)
	v.env.UnlockOnly()
}

// root is the element the dashboard renders into, once it rendered.
func (v *view) root() js.Value {
	if r := v.renderer; r != nil {
		return r.Root()
	}
	return js.Undefined()
}
