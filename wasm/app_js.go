//go:build js && wasm

package main

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/browser"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/wasm/session"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl/workload"
)

// Page-level tuning.
const (
	// logCapacity is the log records a ring keeps per submission.
	logCapacity = 1024
	// memoryBudget is the device-memory budget runners are planned against.
	memoryBudget = 512 << 20
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

	dash *ui.Dashboard
	// view renders dash on display frames (view_js.go).
	view *view

	commands chan command
	settings chan ui.Settings // pending cmdApply payloads

	// mu serialises GPU work: the frame loop and API calls. Everything
	// below it is guarded by it.
	mu          sync.Mutex
	ctx         context.Context
	dev         *webgpu.Device
	runner      *megakernel.Runner
	settingsNow ui.Settings
	running     bool
	// sess is the live loop: the ring, its generator, watchdog, report,
	// readback choice and frames (wasm/session).
	sess *session.Session
	// warm runs before the first frame's Step (warmFirst).
	warm func()
	// workload is what publishWorkload last published (examples_js.go).
	workload workloadRun
	// studio is the flight recorder, replay and exports; subs the
	// subscribers (capture_js.go).
	studio *capture.Studio
	subs   subscribers
	// software says the adapter is a CPU or fallback one (auto readback
	// picks full there).
	software bool

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

	ready *browser.Readiness
	// cleanup removes the page's listeners and releases its js.Funcs
	// (the page never runs it: it lives as long as the module).
	cleanup browser.Cleanup
}

func newApp(cfg api.PageConfig) *app {
	a := &app{
		cfg:      cfg,
		ctx:      context.Background(),
		commands: make(chan command, 16),
		settings: make(chan ui.Settings, 4),
	}
	a.ready = browser.NewReadiness(&a.cleanup)
	a.dash = &ui.Dashboard{Status: ui.StatusLoading, Settings: cfg.Settings, Formats: workload.Formats}
	a.view = newView(a.dash, &a.cleanup)
	send := func(c command) func() {
		return func() {
			select {
			case a.commands <- c:
			default: // a burst of clicks: the loop is behind, drop
			}
		}
	}
	a.dash.OnRun, a.dash.OnPause, a.dash.OnStep, a.dash.OnReset = send(cmdRun), send(cmdPause), send(cmdStep), send(cmdReset)
	def := ui.DefaultSettings()
	a.studio = capture.NewStudio(ringscopeVersion, def.SketchDepth, def.SketchWidth)
	a.sess = session.New(browser.Now, recorderObserver{a})
	a.warm = a.warmFirst
	a.dash.OnRequestRing = func() { a.sess.AskRing(api.RingInspect) }
	a.dash.OnInspectSlot = a.sess.Inspect
	a.dash.OnApplySettings = func(s ui.Settings) {
		select {
		case a.settings <- s:
			send(cmdApply)()
		default:
		}
	}
	return a
}

// ui runs f on the dashboard under the EventEnv lock and re-renders.
func (a *app) ui(f func(d *ui.Dashboard)) { a.view.update(f) }

func (a *app) fail(err error) {
	a.ui(func(d *ui.Dashboard) { d.Status, d.Running = ui.ErrorStatus(err), false })
	a.ready.Settle(err)
}

// start finds the adapter and device and opens the runner, then runs the
// frame loop. With bad URL parameters (cfgErr) the status names the
// parameter and ready rejects, but the page still opens a runner on the
// default settings, paused, so the controls and the API keep working.
func (a *app) start(cfgErr error) {
	browser.Mark("ringscope:start")
	// Whatever happens, the dashboard renders: liveFrame opens the gate
	// on the first frame, this on every other way on.
	defer a.view.openGate()
	adapter, dev, err := a.acquireDevice(a.ctx)
	browser.Mark("ringscope:device")
	if errors.Is(err, webgpu.ErrNoWebGPU) {
		a.ui(func(d *ui.Dashboard) { d.Status = ui.StatusNoWebGPU })
		a.ready.Settle(err)
		return
	}
	if err != nil {
		a.fail(err)
		return
	}
	info := api.Adapter(adapter.Info(), adapter.IsFallback(), adapter.IsCPU(), dev.Limits(), dev.Features())
	a.studio.SetAdapter(&capture.Adapter{Vendor: info.Vendor, Architecture: info.Architecture, Device: info.Device,
		Description: info.Description, IsFallback: info.IsFallback, IsCPU: info.IsCPU})
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
	browser.Mark("ringscope:opened")
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
	a.ready.Settle(err)
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
	summary := mode == ui.ReadbackSummary
	if summary {
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
	a.setKernelNames(&opts.Kernel) // a preset runs the built-in kernel
	a.settingsNow = s
	a.openSession(session.Ring{Generator: gen, Summary: summary, Why: why})
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
			a.view.openGate() // paused (autostart=0): no first frame to wait for
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
			a.paceAttachment() // attached: within its budget, at most one frame per display frame
		}
		t0 := time.Now()
		var f *frame.Frame
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
			a.view.openGate()
			continue // the next frame runs on the new device
		case err != nil:
			a.view.openGate()
			a.fail(err)
			a.setRunning(false)
			continue
		}
		if f != nil {
			if f.Seq == 1 {
				browser.Mark("ringscope:first-frame")
			}
			a.ui(func(d *ui.Dashboard) { d.Apply(f) })
		}
		a.attachSpent(t0)
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

// liveFrame is one epoch of the live loop (session.LiveFrame). Called
// with mu held.
func (a *app) liveFrame() (*frame.Frame, error) {
	f, err := a.sess.LiveFrame(a.ctx, a.warm)
	var ended *megakernel.EndedError
	if errors.As(err, &ended) {
		return nil, a.attachmentEnded(ended)
	}
	return f, err
}

// warmFirst starts compiling the first frame's pipelines and lets the
// first render run meanwhile (renderLoop waits for the gate). Called with
// mu held, just before a Step.
func (a *app) warmFirst() {
	a.view.openGateAfter(func() { a.runner.Warm(a.ctx) })
}

// openSession makes the runner the session's ring, as r says, with the
// sketch shape of the settings now, and shows its readback. Called with mu
// held.
func (a *app) openSession(r session.Ring) {
	r.Runner = runnerSource{a.runner}
	r.SketchDepth, r.SketchWidth = a.settingsNow.SketchDepth, a.settingsNow.SketchWidth
	a.sess.Open(r)
	a.showReadback()
}
