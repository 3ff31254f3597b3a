//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/settings"
	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/browser"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/wasm/controller"
	"github.com/ringscope/ringscope/wasm/jsapi"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/workload"
)

// app is the page: the ring (wasm/controller: device, runner, session,
// attachment), the dashboard and the view that renders it, the studio
// (recorder, replay, exports) and the ready promise. It wires them; each
// does its own job.
type app struct {
	dash *ui.Dashboard
	// view renders dash on display frames (view_js.go).
	view *view
	ring *controller.Controller
	// studio is the flight recorder, replay and exports; capture the API's
	// capture concern over it, with the subscribers (wasm/jsapi).
	studio  *capture.Studio
	capture *jsapi.Capture
	imports uint64 // imports that carried a trace window (timeline_js.go)
	// liveTasks is the live ring's timeline, which the panel shows unless
	// showingImport: an import replays (timeline_js.go). Both are the UI
	// goroutine's (a.ui).
	liveTasks     *ui.Timeline
	showingImport bool
	ready         *browser.Readiness
	// cleanup removes the page's listeners and releases its js.Funcs
	// (dispose() runs it; the page itself lives as long as the module).
	cleanup browser.Cleanup
	// boot is createRingscope's hand-over (readBoot), undefined for the
	// page's own program; query the configuration's URL parameters.
	boot  js.Value
	query map[string][]string
}

func newApp(cfg api.PageConfig, query map[string][]string) *app {
	a := &app{query: query}
	a.ready = browser.NewReadiness(&a.cleanup)
	a.dash = &ui.Dashboard{Status: ui.StatusLoading, Settings: cfg.Settings, Formats: workload.Formats}
	a.view = newView(a.dash, &a.cleanup)
	def := settings.DefaultSettings()
	a.studio = capture.NewStudio(ringscopeVersion, def.SketchDepth, def.SketchWidth)
	a.ring = controller.New(controller.Options{Config: cfg, Query: query, Display: appDisplay{a},
		Observer: recorderObserver{a}, Cleanup: &a.cleanup})
	send := func(c controller.Command) func() { return func() { a.ring.Send(c) } }
	a.dash.OnRun, a.dash.OnPause = send(controller.CmdRun), send(controller.CmdPause)
	a.dash.OnStep, a.dash.OnReset = send(controller.CmdStep), send(controller.CmdReset)
	a.dash.OnRequestRing = a.ring.AskRing
	a.dash.OnInspectSlot = a.ring.Inspect
	a.dash.OnApplySettings = a.ring.Apply
	a.view.rendered = a.ring.RenderSpent
	return a
}

// installAPI makes the ringscope object (wasm/jsapi) over the page's
// parts and hands it over: to createRingscope's deliver for an instance
// (with dispose), else as the global window.ringscope. An instance takes
// the files dropped on its own dashboard, the page's program those
// dropped anywhere on the page: one drop loads into one program.
func (a *app) installAPI() {
	p := jsapi.Page{Ring: a.ring, Studio: a.studio, Show: capturePage{a}, Dashboard: mountView{a.view},
		Ready: a.ready.Promise(), Query: a.query, Drops: jsGlobal.Get("document"), Cleanup: &a.cleanup}
	if a.boot.Truthy() {
		if el := jsGlobal.Get("document").Call("querySelector", a.boot.Get("selector")); el.Truthy() {
			p.Drops = el // the mount point, which the dashboard adopts and mount() moves
		}
		p.Dispose = func() {
			a.ring.Close()
			a.view.stop() // main then runs a.cleanup and returns
		}
	}
	var obj js.Value
	obj, a.capture = jsapi.New(p)
	a.wireCaptureBar()
	if testHooks != nil { // the e2e build only (testhooks_js.go)
		testHooks(a, obj)
	}
	if a.boot.Truthy() {
		a.boot.Call("deliver", obj)
		return
	}
	jsGlobal.Set("ringscope", obj)
}

// ui runs f on the dashboard under the EventEnv lock and re-renders.
func (a *app) ui(f func(d *ui.Dashboard)) { a.view.update(f) }

// appDisplay is the page as the controller's Display.
type appDisplay struct{ a *app }

func (d appDisplay) Settle(err error)       { d.a.ready.Settle(err) }
func (d appDisplay) OpenGate()              { d.a.view.openGate() }
func (d appDisplay) OpenGateAfter(f func()) { d.a.view.openGateAfter(f) }

// Show shows the controller's state and frame f (nil: none) and
// re-renders; ShowQuiet asks no render (a frame's show follows).
func (d appDisplay) Show(st controller.State, f *frame.Frame) { d.a.view.show(&st, f, true) }
func (d appDisplay) ShowQuiet(st controller.State)            { d.a.view.show(&st, nil, false) }
func (d appDisplay) StatusText() string                       { return d.a.view.statusText() }

func (d appDisplay) Adapter(info *settings.AdapterInfo) {
	d.a.studio.SetAdapter(&capture.Adapter{Vendor: info.Vendor, Architecture: info.Architecture, Device: info.Device,
		Description: info.Description, IsFallback: info.IsFallback, IsCPU: info.IsCPU})
}

func (d appDisplay) Verdict(f *frame.Frame) { d.a.capture.Retell(f) }

// Tasks shows a traced ring's window on the timeline panel, and the hang
// the hunter kept with it, which one click exports.
func (d appDisplay) Tasks(seq uint64, t *capture.TaskTrace) {
	var tl *ui.Timeline
	if t != nil {
		var export func()
		if t.Hang != nil {
			export = func() { go d.a.capture.ExportHang(t) } // not under the event lock the click holds
		}
		tl = timeline(seq, t, export)
	}
	d.a.ui(func(dash *ui.Dashboard) {
		d.a.liveTasks = tl
		if !d.a.showingImport {
			dash.Tasks = tl
		}
	})
}

// RingOpened makes the panels, log and exports name k's opcodes, and the
// recorder decode sketches in the ring's shape.
func (d appDisplay) RingOpened(k *wgsl.Kernel, depth, width int) {
	names := ui.Names{}
	for _, op := range k.Opcodes {
		names[op.Value] = op.Name
	}
	d.a.ui(func(dash *ui.Dashboard) { dash.OpcodeNames = names })
	d.a.studio.SetUserOpcodes(namedUserOpcodes(names))
	d.a.studio.SetSketchShape(depth, width)
}
