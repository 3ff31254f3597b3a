//go:build js && wasm

package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/vugu/vugu"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/render"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/workload"
)

// Page-level tuning.
const (
	// logCapacity is the log records a ring keeps per submission.
	logCapacity = 1024
	// memoryBudget is the device-memory budget runners are planned against.
	memoryBudget = 512 << 20
	// maxPublishRetries bounds the batch retries after back-pressure.
	maxPublishRetries = abiPriorityLevels
	abiPriorityLevels = 5
)

// command is an intent from the dashboard's controls, handled by the frame
// loop (callbacks never block: they run inside Vugu's event handling).
type command int

const (
	cmdRun command = iota
	cmdPause
	cmdStep
	cmdReset
	cmdApply
)

// app is the page: one device, one runner, one workload, one dashboard.
type app struct {
	cfg api.PageConfig

	dash     *ui.Dashboard
	renderer *render.Renderer
	env      vugu.EventEnv

	commands chan command
	settings chan ui.Settings // pending cmdApply payloads

	// mu serialises GPU work: the frame loop and API calls. Everything
	// below it is guarded by it.
	mu          sync.Mutex
	ctx         context.Context
	dev         *webgpu.Device
	runner      *megakernel.Runner
	gen         *workload.Generator
	settingsNow ui.Settings
	running     bool
	items       []host.Item
	watchdog    *decode.Watchdog
	report      decode.MegakernelReport
	frames      [2]frameBuf
	next        int
	seq         uint64
	// watchN is the watchdog's N for rings the API opens (0: default).
	watchN int
	// workload is what publishWorkload last published (examples_js.go).
	workload workloadRun

	// Readback (readback.go): software says the adapter is a CPU or
	// fallback one (auto picks full there); readback is the mode the ring
	// runs in (ui.ReadbackSummary or ui.ReadbackFull) and readbackWhy the
	// reason; ringPolicy decides the ring reads of summary mode, and
	// ringAsk carries reasons from the UI (which must not wait for mu) to
	// the loop. ringReads counts the frames that read the
	// ring; lastReadBack is the last frame's bytes read back.
	software     bool
	readback     string
	readbackWhy  string
	ringPolicy   api.RingPolicy
	ringAsk      atomic.Uint32
	ringReads    uint64
	lastReadBack uint64
	// snapTel and snapScratch decode the host copy for snapshot({slots}).
	snapTel     decode.RingTelemetry
	snapScratch decode.DecodeScratch
	// inspect is the slot the inspector shows (the UI stores it; -1:
	// none). Under summary readback each live frame copies that slot from
	// the host copy of the ring right after its Step (inspected, taken by
	// capture into ui.Frame.HostSlot), so the inspector needs no ring read.
	inspect     atomic.Int32
	inspected   decode.RingSlotSnapshot
	inspectedOK bool

	// Device loss (recover_js.go): recoveries so far, the last loss, and
	// whether the shown frame (seq staleSeq) predates a loss.
	recoveries int
	lastLoss   *Loss
	staleSet   bool
	staleSeq   uint64
	lossCause  lossCause

	// recMu serialises recoveries; liveDev is the current device for the
	// test hook, which must not wait for mu; hold is the test hook's
	// recovery hold (guarded by holdMu).
	recMu   sync.Mutex
	liveDev atomic.Pointer[webgpu.Device]
	holdMu  sync.Mutex
	hold    chan struct{}

	ready *readiness

	// renderGate holds the first render back until the first frame asked
	// for its pipelines (liveFrame) or start knows there is none.
	renderGate chan struct{}
	gateOnce   sync.Once
}

// frameBuf is one frame's decode destinations. Two alternate, since the
// dashboard reads the shown frame until the next Apply.
type frameBuf struct {
	ui       ui.Frame
	ring     decode.RingTelemetry
	counters decode.RuntimeCounters
	watch    decode.WatchdogState
	sketch   decode.SketchTelemetry
	launch   decode.LaunchRecommendation
	dispatch decode.MegakernelTelemetry
	report   decode.MegakernelReport
	log      decode.Log
	priority decode.PriorityRequeueAccounting
	// statusMap is the frame's copy of a summary's packed status map.
	statusMap []uint32
}

func newApp(cfg api.PageConfig) *app {
	a := &app{
		cfg:      cfg,
		ctx:      context.Background(),
		commands: make(chan command, 16),
		settings: make(chan ui.Settings, 4),
		watchdog: decode.NewWatchdog(0),
		ready:    newReadiness(),

		renderGate: make(chan struct{}),
	}
	a.dash = &ui.Dashboard{Status: ui.StatusLoading, Settings: cfg.Settings, Formats: workload.Formats}
	send := func(c command) func() {
		return func() {
			select {
			case a.commands <- c:
			default: // a burst of clicks: the loop is behind, drop
			}
		}
	}
	a.dash.OnRun, a.dash.OnPause, a.dash.OnStep, a.dash.OnReset = send(cmdRun), send(cmdPause), send(cmdStep), send(cmdReset)
	a.dash.OnRequestRing = func() { a.askRing(api.RingInspect) }
	a.inspect.Store(-1)
	a.dash.OnInspectSlot = func(i int) { a.inspect.Store(int32(max(i, -1))) }
	a.dash.OnApplySettings = func(s ui.Settings) {
		select {
		case a.settings <- s:
			send(cmdApply)()
		default:
		}
	}
	return a
}

// renderLoop mounts the dashboard on #app and renders it whenever an event or
// a frame (EventEnv.UnlockRender) asks.
func (a *app) renderLoop() {
	var err error
	a.renderer, err = render.New("#app")
	if err != nil {
		a.setStatusDirect("error: mount dashboard: " + err.Error())
		select {}
	}
	a.env = a.renderer.EventEnv()
	buildEnv, err := vugu.NewBuildEnv(a.env)
	if err != nil {
		a.setStatusDirect("error: vugu: " + err.Error())
		select {}
	}
	// The first render (building and laying out the whole dashboard,
	// 250-500 ms here) waits until the first frame has asked for its
	// pipelines (liveFrame), so it runs while the GPU process compiles
	// them rather than before. The loader's page says "loading" until
	// then; a start that hangs delays it by at most firstRenderWait.
	select {
	case <-a.renderGate:
	case <-time.After(firstRenderWait):
	}
	frames := newAnimationFrames()
	var lastStart time.Time
	var lastCost time.Duration
	for ok := true; ok; ok = a.renderer.EventWait() {
		// Renders are spaced so that the live loop keeps its share of the
		// main thread (renderSpacing), then wait for the next display frame:
		// one render, just before the browser lays it out and paints it,
		// shows every frame and event since the last one.
		if wait := min(time.Until(lastStart.Add(renderSpacing*lastCost)), maxRenderWait); wait > 0 {
			time.Sleep(wait)
		}
		frames.wait()
		if !a.renderer.Coalesce() {
			break
		}
		lastStart = time.Now()
		if err := a.renderer.Render(buildEnv.RunBuild(a.dash)); err != nil {
			jsGlobal.Get("console").Call("error", "ringscope: render:", err.Error())
		}
		lastCost = time.Since(lastStart)
	}
}

// renderSpacing: a render starts at least this many times its
// predecessor's cost (Build, the DOM sync and the canvases) after that one
// started. The browser's style, layout and paint of a render cost about as
// much again, so rendering takes at most about two thirds of the main
// thread and the live loop, which shares it, the rest. Measured on the
// H200 in Chromium at 65,536 slots (node bench/ab.mjs, 4 rounds of 6 s):
// one render per frame ran 31 frames/s and 30 renders/s; spacing 3, 46
// frames/s and 23 renders/s; spacing 4, 55 and 15. Frames are the GPU
// drains the page observes; renders only what a person sees.
const renderSpacing = 3

// maxRenderWait caps that spacing, so that one slow render (a collection, a
// tab brought back, the slot inspector's first draw) does not hold the next
// one back: measured on the H200 without it, one 790 ms render kept the
// dashboard still for 2.4 s.
const maxRenderWait = 100 * time.Millisecond

// animationFrames waits for the browser's next animation frame
// (requestAnimationFrame), or at most maxFrameWait where none comes (a
// hidden tab), with one callback and one timer for the page's lifetime.
type animationFrames struct {
	callback js.Func
	fired    chan struct{}
	timeout  *time.Timer
}

// maxFrameWait bounds the wait for an animation frame: a hidden page, which
// gets none, still renders at 10 Hz for an embedder that reads its DOM.
const maxFrameWait = 100 * time.Millisecond

func newAnimationFrames() *animationFrames {
	f := &animationFrames{fired: make(chan struct{}, 1), timeout: time.NewTimer(maxFrameWait)}
	f.callback = js.FuncOf(func(js.Value, []js.Value) any {
		select {
		case f.fired <- struct{}{}:
		default:
		}
		return nil
	})
	return f
}

func (f *animationFrames) wait() {
	select {
	case <-f.fired: // a frame asked for by a wait that timed out
	default:
	}
	jsGlobal.Call("requestAnimationFrame", f.callback)
	f.timeout.Reset(maxFrameWait)
	select {
	case <-f.fired:
	case <-f.timeout.C:
	}
	f.timeout.Stop()
}

// firstRenderWait bounds how long the first render waits for the gate.
const firstRenderWait = 2 * time.Second

// openRenderGate lets renderLoop's first render run (once).
func (a *app) openRenderGate() { a.gateOnce.Do(func() { close(a.renderGate) }) }

// setStatusDirect writes the loader's status element when the dashboard
// could not mount.
func (a *app) setStatusDirect(text string) {
	el := jsGlobal.Get("document").Call("querySelector", `[data-testid="status"]`)
	if el.Truthy() {
		el.Set("textContent", text)
	}
}

// ui runs f on the dashboard under the EventEnv lock and re-renders.
func (a *app) ui(f func(d *ui.Dashboard)) {
	for a.env == nil {
		time.Sleep(time.Millisecond) // renderLoop has not mounted yet
	}
	a.env.Lock()
	f(a.dash)
	a.env.UnlockRender()
}

func (a *app) fail(err error) {
	a.ui(func(d *ui.Dashboard) { d.Status, d.Running = ui.ErrorStatus(err), false })
	a.ready.settle(err)
}

// start finds the adapter and device and opens the runner, then runs the
// frame loop. With bad URL parameters (cfgErr) the status names the
// parameter and ready rejects, but the page still opens a runner on the
// default settings, paused, so the controls and the API keep working.
func (a *app) start(cfgErr error) {
	mark("ringscope:start")
	// Whatever happens, the dashboard renders: liveFrame opens the gate
	// on the first frame, this on every other way on.
	defer a.openRenderGate()
	adapter, dev, err := a.acquireDevice(a.ctx)
	mark("ringscope:device")
	if errors.Is(err, webgpu.ErrNoWebGPU) {
		a.ui(func(d *ui.Dashboard) { d.Status = ui.StatusNoWebGPU })
		a.ready.settle(err)
		return
	}
	if err != nil {
		a.fail(err)
		return
	}
	info := api.Adapter(adapter.Info(), adapter.IsFallback(), adapter.IsCPU(), dev.Limits(), dev.Features())
	a.mu.Lock()
	a.software = info.Software()
	a.setDevice(dev)
	if cfgErr == nil {
		if err = a.openWorkload(a.cfg.Settings, a.cfg.Seed); err != nil {
			cfgErr = a.urlOptionError(explainOOM(megakernel.Options{Slots: uint32(a.cfg.Settings.RingSlots)}, err))
		}
	}
	if cfgErr != nil {
		a.cfg.Settings, a.cfg.Autostart = ui.DefaultSettings(), false
		err = a.openWorkload(a.cfg.Settings, a.cfg.Seed)
	}
	a.running = a.cfg.Autostart
	a.mu.Unlock()
	mark("ringscope:opened")
	if err == nil {
		err = cfgErr
	}
	a.ui(func(d *ui.Dashboard) {
		d.Adapter, d.Running, d.Settings = info, a.cfg.Autostart, a.cfg.Settings
		if err == nil {
			d.Status = ui.StatusReady
		}
	})
	if err != nil {
		a.fail(err)
		if a.runner == nil {
			return
		}
	}
	a.ready.settle(err)
	a.frameLoop()
}

// urlOptionError names the URL parameter behind the runner's refusal of the
// URL's settings.
func (a *app) urlOptionError(err error) error {
	query := pageQuery()
	var oe *megakernel.OptionError
	var oom *decode.OutOfMemoryError
	switch {
	case errors.As(err, &oe):
		return api.OptionParamError(query, oe.Field, err)
	case errors.As(err, &oom):
		return api.OptionParamError(query, "Slots", err)
	}
	return api.OptionParamError(query, "", err)
}

// openWorkload (re)opens the runner on settings s with a fresh generator.
// Called with mu held.
func (a *app) openWorkload(s ui.Settings, seed uint64) error {
	if attachedNow() != nil {
		return errAttached // the settings form and Reset act on the runner (attach_js.go)
	}
	gen, err := workload.New(workload.Spec{Preset: s.Preset, Slots: uint32(s.RingSlots), Tenants: uint32(s.Tenants),
		WindowOpcodes: s.WindowOpcodeList(), Seed: seed})
	if err != nil {
		return err
	}
	opts := megakernel.Options{
		Slots: uint32(s.RingSlots), Masks: gen.Masks(), Observable: workload.ObservableWords,
		LogCapacity: logCapacity, Budget: uint32(s.Budget), WorkgroupSize: uint32(s.WorkgroupSizeX),
		WorkerGroups: uint32(s.WorkerCap), WindowOpcodes: s.WindowOpcodeList(),
		MemoryBudgetBytes: memoryBudget, Data: gen.Data(),
	}
	mode, why := ui.ResolveReadback(s, a.software)
	if mode == ui.ReadbackSummary {
		summaryReadback(&opts, s) // the form checked the sketch fits the summary
	}
	if a.runner == nil {
		a.runner, err = megakernel.Open(a.ctx, a.dev, opts)
	} else {
		err = a.runner.Reset(opts)
	}
	if err != nil {
		return err
	}
	setKernelNames(&opts.Kernel) // a preset runs the built-in kernel
	a.gen, a.settingsNow = gen, s
	a.watchdog = decode.NewWatchdog(0)
	a.report = decode.MegakernelReport{}
	a.setReadback(mode, why)
	return nil
}

// frameLoop publishes and drains one epoch per display frame while running,
// and handles the controls. A lost device is recovered (the frame is
// skipped); an Apply the runner refuses leaves the previous ring running.
func (a *app) frameLoop() {
	for {
		a.mu.Lock()
		running := a.running
		a.mu.Unlock()
		var cmd command = -1
		if !running {
			a.openRenderGate() // paused (autostart=0): no first frame to wait for
		}
		if running {
			// No pacing beyond the work itself: a frame's GPU waits are
			// when the dashboard renders the previous frame, so waiting
			// for requestAnimationFrame would serialise the two.
			select {
			case cmd = <-a.commands:
			default:
			}
		} else {
			cmd = <-a.commands
		}
		step := running
		switch cmd {
		case cmdRun:
			a.setRunning(true)
			continue
		case cmdPause:
			a.setRunning(false)
			continue
		case cmdStep:
			a.setRunning(false)
			step = true
		case cmdReset:
			_, err := a.runLocked(maxRetriesAfterLoss, func() error { return a.openWorkload(a.settingsNow, a.cfg.Seed) })
			a.afterReset(err)
			continue
		case cmdApply:
			a.apply(<-a.settings)
			continue
		}
		if !step {
			continue
		}
		if cmd != cmdStep {
			a.paceAttachment() // attached: one frame per display frame
		}
		var f *ui.Frame
		recovered, err := a.runLocked(0, func() error {
			if cmd != cmdStep && !a.running {
				return nil // stopped (the API's stop) since the check above
			}
			var err error
			f, err = a.liveFrame()
			return err
		})
		switch {
		case recovered:
			a.openRenderGate()
			continue // the next frame runs on the new device
		case err != nil:
			a.openRenderGate()
			a.fail(err)
			a.setRunning(false)
			continue
		}
		if f != nil {
			if f.Seq == 1 {
				mark("ringscope:first-frame")
			}
			a.ui(func(d *ui.Dashboard) { d.Apply(f) })
		}
	}
}

// apply re-opens the runner on the settings form's s. The form checked s;
// the runner may still refuse it (device memory, window opcodes): then the
// form shows why and the previous ring keeps running, untouched.
func (a *app) apply(s ui.Settings) {
	_, err := a.runLocked(maxRetriesAfterLoss, func() error { return a.openWorkload(s, a.cfg.Seed) })
	if err != nil {
		err = explainOOM(megakernel.Options{Slots: uint32(s.RingSlots)}, err)
		a.ui(func(d *ui.Dashboard) { d.ApplyError = "not applied, the previous ring keeps running: " + err.Error() })
		return
	}
	a.ui(func(d *ui.Dashboard) { d.Settings, d.ApplyError = s, "" })
	a.afterReset(nil)
}

func (a *app) setRunning(on bool) {
	a.mu.Lock()
	a.running = on
	a.mu.Unlock()
	a.ui(func(d *ui.Dashboard) { d.Running = on })
}

// uiReset clears the dashboard's history after the ring was re-initialised.
func (a *app) uiReset() { a.afterReset(nil) }

func (a *app) afterReset(err error) {
	if err != nil {
		a.fail(err)
		return
	}
	a.ui(func(d *ui.Dashboard) {
		d.ClearHistory()
		if d.Status != ui.StatusNoWebGPU {
			d.Status = ui.StatusReady
		}
	})
}

// liveFrame is one epoch of the live loop: publish the workload's next
// items, one submission, republish parked slots, decode. Called with mu held.
func (a *app) liveFrame() (*ui.Frame, error) {
	if st := attachedNow(); st != nil {
		return a.attachedFrame(st) // attach_js.go: the host's ring, not the runner's
	}
	t0 := time.Now()
	if a.gen != nil { // nil after the API's open: the embedder publishes
		a.items = a.gen.Next(a.items[:0], a.gen.PerFrame())
		if err := a.publishWithBackPressure(); err != nil {
			return nil, err
		}
	}
	publish := time.Since(t0)
	a.planRingRead()
	// The first frame: its pipelines compile while the dashboard renders
	// for the first time (renderLoop waits for the gate).
	a.gateOnce.Do(func() {
		a.runner.Warm(a.ctx)
		close(a.renderGate)
	})
	ep, err := a.runner.Step(a.ctx)
	if err != nil {
		return nil, err
	}
	a.ringPolicy.Stepped(ep.RingRead)
	if ep.RingRead {
		a.ringReads++
	}
	a.lastReadBack = ep.Telemetry.BytesReadBack
	if i := int(a.inspect.Load()); a.summaryMode() && i >= 0 {
		// Before Requeue moves parked slots: the slot as the GPU left it.
		a.inspected, a.inspectedOK = decode.DecodeSlot(a.runner.Ring(), i)
	}
	if _, err := a.runner.Requeue(); err != nil {
		return nil, err
	}
	f := a.capture(ep, publish)
	// Faults were captured above; free their slots for new work.
	a.runner.ReclaimFaults()
	return f, nil
}

// publishWithBackPressure publishes a.items; when a priority partition is
// full its items wait for a later frame (they are dropped from this batch:
// the generator makes more), the way a producer sheds load.
func (a *app) publishWithBackPressure() error {
	items := a.items
	for range maxPublishRetries + 1 {
		if len(items) == 0 {
			return nil
		}
		_, err := a.runner.Publish(items)
		var full *host.PartitionFullError
		if !errors.As(err, &full) {
			return err
		}
		kept := items[:0]
		for _, it := range items {
			if it.Priority != full.Priority {
				kept = append(kept, it)
			}
		}
		items = kept
	}
	return nil
}

// capture copies the runner's state after a submission into the next frame
// buffer and derives the panels' values. Called with mu held.
func (a *app) capture(ep *megakernel.Epoch, publish time.Duration) *ui.Frame {
	fb := &a.frames[a.next]
	a.next ^= 1
	a.seq++
	t0 := time.Now()
	src := a.frameSrc() // the runner, or an attachment (attach_js.go)
	copyTelemetry(&fb.ring, src.Telemetry())
	fb.counters, _ = fb.ring.RuntimeCounters()
	now := performanceNow()
	fb.watch = a.watchdog.Observe(now, &fb.ring)
	s := a.settingsNow
	var sketchErr error
	if a.summaryMode() {
		// A summary frame has no slots to sketch: the GPU sketched them
		// (the same counters, bit for bit).
		sketchErr = src.Sketches(&fb.sketch)
	} else {
		sketchErr = fb.ring.SketchInto(&fb.sketch, s.SketchDepth, s.SketchWidth)
	}
	copyLog(&fb.log, src.Log())
	fb.priority = src.Accounting()
	f := &fb.ui
	*f = ui.Frame{Seq: a.seq, AtMillis: now, Ring: &fb.ring, Counters: &fb.counters, Watchdog: &fb.watch,
		Priority: &fb.priority, Log: &fb.log}
	if sm := &src.Telemetry().StatusMap; sm.Len() > 0 {
		fb.statusMap = append(fb.statusMap[:0], sm.Words()...)
		f.StatusMap, f.StatusSlots = fb.statusMap, sm.Len()
		f.HostSlot, f.HostSlotOK = a.inspected, a.inspectedOK
	}
	a.inspectedOK = false
	if sketchErr == nil {
		f.Sketch = &fb.sketch
	}
	if ep != nil {
		fb.launch, fb.dispatch = ep.Launch, ep.Telemetry
		ep.AddTo(&a.report)
		f.Launch, f.Dispatch = &fb.launch, &fb.dispatch
		t := ep.Timings
		f.Timings = ui.Timings{
			PublishMS:   megakernel.Ms(publish + t.Upload),
			DispatchMS:  megakernel.Ms(t.Prepare + t.Submit),
			ReadbackMS:  megakernel.Ms(t.Readback),
			RoundTripMS: megakernel.Ms(t.Submit + t.Readback),
			GPUMS:       megakernel.Ms(ep.GPUTime),
		}
	}
	a.report.RecordProgress(src.Published(), uint64(fb.ring.Control.DoneCount))
	fb.report = a.report
	f.Report = &fb.report
	f.Timings.DecodeMS = megakernel.Ms(time.Since(t0))
	if ep != nil {
		f.Timings.DecodeMS += megakernel.Ms(ep.Timings.Decode)
	}
	// The flight recorder copies the runner's buffers of this moment, before
	// the caller reclaims faults (capture_js.go).
	a.recordFrame(f, ep)
	return f
}

func performanceNow() float64 { return jsGlobal.Get("performance").Call("now").Float() }

// mark records a User Timing mark (performance.mark): startup's phases
// show in DevTools' performance panel, and the startup benchmark reads
// them (e2e/tests/bench.spec.mjs).
func mark(name string) { jsGlobal.Get("performance").Call("mark", name) }

// copyTelemetry copies src into dst reusing dst's slices. The status map
// is left empty (its words would alias src's storage): capture copies it
// into the frame (ui.Frame.StatusMap).
func copyTelemetry(dst, src *decode.RingTelemetry) {
	metrics, observable, slots, windows := dst.Control.Metrics, dst.Control.Observable, dst.Slots, dst.Windows
	*dst = *src
	dst.StatusMap = decode.StatusMap{}
	dst.Control.Metrics = append(metrics[:0], src.Control.Metrics...)
	dst.Control.Observable = append(observable[:0], src.Control.Observable...)
	dst.Slots = append(slots[:0], src.Slots...)
	dst.Windows = append(windows[:0], src.Windows...)
}

func copyLog(dst, src *decode.Log) {
	records := dst.Records
	*dst = *src
	dst.Records = append(records[:0], src.Records...)
}

// readiness is ringscope.ready: a Promise settled once the page knows
// whether it can run (a runner is open) or not (no WebGPU, an error).
type readiness struct {
	promise         js.Value
	resolve, reject js.Value
	once            sync.Once
}

func newReadiness() *readiness {
	r := &readiness{}
	executor := js.FuncOf(func(_ js.Value, args []js.Value) any {
		r.resolve, r.reject = args[0], args[1]
		return nil
	})
	r.promise = jsPromise.New(executor)
	executor.Release()
	// A page that never awaits ready must not log an unhandled rejection.
	r.promise.Call("catch", js.FuncOf(func(js.Value, []js.Value) any { return nil }))
	return r
}

func (r *readiness) settle(err error) {
	r.once.Do(func() {
		if err != nil {
			r.reject.Invoke(jsError.New(fmt.Sprintf("ringscope: %v", err)))
			return
		}
		r.resolve.Invoke(js.Undefined())
	})
}
