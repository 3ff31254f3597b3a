//go:build js && wasm

package controller

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/settings"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/browser"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/wasm/devloss"
	"github.com/ringscope/ringscope/wasm/pace"
	"github.com/ringscope/ringscope/wasm/session"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/workload"
)

// Page-level tuning.
const (
	// MemoryBudget is the device-memory budget runners are planned against.
	MemoryBudget = 512 << 20
)

// Display is what the controller shows and tells: its State and frames,
// the page's ready promise, the first render's gate, and who names the
// kernel's opcodes. The page (package main) implements it over its view
// and studio.
type Display interface {
	// Show shows st and, unless nil, the frame f, and re-renders;
	// ShowQuiet shows st without asking for a render (a frame follows).
	Show(st State, f *frame.Frame)
	ShowQuiet(st State)
	// StatusText is the status the page shows now (ringscope.status),
	// read without waiting for a render.
	StatusText() string
	// Settle settles ringscope.ready (rejects with err, if any).
	Settle(err error)
	// OpenGate lets the first render run; OpenGateAfter runs f first,
	// unless the gate is open already.
	OpenGate()
	OpenGateAfter(f func())
	// Adapter is the adapter the page's device runs on, once known (the
	// recorder's captures name it).
	Adapter(info *settings.AdapterInfo)
	// RingOpened says a ring opened with kernel k (whose opcodes the
	// panels, log and exports name) and sketches of depth × width (the
	// recorder decodes its frames' sketches in that shape).
	RingOpened(k *wgsl.Kernel, sketchDepth, sketchWidth int)
	// Tasks shows a traced ring's window on the timeline panel, numbered
	// seq (nil hides the panel).
	Tasks(seq uint64, t *capture.TaskTrace)
	// Verdict says that the session gave the verdict on frame f anew in
	// place (a loss, a stuck submission and its end): the subscribers
	// hear it, as they hear a new frame.
	Verdict(f *frame.Frame)
}

// Controller is the page's ring: one device, one runner, one session (the
// live loop's ring, its generator, watchdog and frames), the attachment
// when there is one, and the lock that serialises the frame loop with the
// API's calls. Everything the dashboard shows, it tells Display.
type Controller struct {
	display Display
	cfg     api.PageConfig
	query   map[string][]string

	commands chan Command
	settings chan settings.Settings // pending cmdApply payloads

	// state is what the page shows (state_js.go), under stateMu: it
	// changes with mu held and without.
	stateMu sync.Mutex
	state   State

	// mu serialises GPU work: the frame loop and API calls. Everything
	// below it is guarded by it.
	mu          sync.Mutex
	taskSeq     uint64 // the timeline panel's data, numbered (trace_js.go)
	hunter      capture.Hunter
	ctx         context.Context
	dev         *webgpu.Device
	runner      *megakernel.Runner
	settingsNow settings.Settings
	running     bool
	// opcodeName names the ring's opcodes, its kernel's own among them
	// (the API's log text).
	opcodeName func(op uint32) string
	// sess is the live loop: the ring, its generator, watchdog, report,
	// readback choice and frames (wasm/session).
	sess *session.Session
	// warm runs before the first frame's Step (warmFirst).
	warm func()
	// software says the adapter is a CPU or fallback one (auto readback
	// picks full there).
	software bool
	// ioOff: the page's WAIT_IO service is off (setIOService, io_js.go).
	ioOff bool
	// attached is the attachment (attach_js.go), nil when none.
	attached *attachState
	// budget is the attachment's main-thread pacing (nil: none), read
	// without mu by the render loop, which spends renders on it.
	budget atomic.Pointer[pace.Budget]

	// busy is the submission waited on past the grace (busy_js.go), read
	// without mu; stuckShown says the diagnosis shows it (under mu).
	busy       atomic.Pointer[api.Busy]
	stuckShown bool

	// losses is the record of device losses (recover_js.go, wasm/devloss).
	losses devloss.Record
	// recMu serialises recoveries; liveDev is the current device for the
	// test hooks, which must not wait for mu.
	recMu   sync.Mutex
	liveDev atomic.Pointer[webgpu.Device]

	// pace waits for display frames between attached frames.
	pace *browser.AnimationFrames
}

// Options are what a controller is made of.
type Options struct {
	// Config is the page's configuration (api.ParseQuery of Query, the
	// URL's parameters, which refusals name).
	Config api.PageConfig
	Query  map[string][]string
	// Display shows and tells; Observer sees every frame the session
	// assembles (the recorder); Cleanup releases what the controller adds
	// to the page.
	Display  Display
	Observer session.Observer
	Cleanup  *browser.Cleanup
}

// New is the page's controller.
func New(o Options) *Controller {
	c := &Controller{
		display:  o.Display,
		cfg:      o.Config,
		query:    o.Query,
		ctx:      context.Background(),
		commands: make(chan Command, 16),
		settings: make(chan settings.Settings, 4),
		pace:     browser.NewAnimationFrames(o.Cleanup, maxFrameWait),
	}
	c.state = State{Settings: o.Config.Settings}
	c.sess = session.New(browser.Now, o.Observer)
	c.warm = c.warmFirst
	return c
}

// AskRing asks the next frame to read the whole ring (the slot
// inspector's refresh); Inspect picks the slot it shows.
func (c *Controller) AskRing()         { c.sess.AskRing(api.RingInspect) }
func (c *Controller) Inspect(slot int) { c.sess.Inspect(slot) }

// fail shows err as the page's status and rejects ready with it.
func (c *Controller) fail(err error) {
	c.update(func(s *State) { s.Status, s.Err, s.Running, s.BusyLost = StatusError, err, false, false }, nil)
	c.display.Settle(err)
}

// Start finds the adapter and device and opens the runner, then runs the
// frame loop (it returns only when the page has no device). With bad URL parameters (cfgErr) the status names the
// parameter and ready rejects, but the page still opens a runner on the
// default settings, paused, so the controls and the API keep working.
func (c *Controller) Start(cfgErr error) {
	browser.Mark("ringscope:start")
	// Whatever happens, the dashboard renders: liveFrame opens the gate
	// on the first frame, this on every other way on.
	defer c.display.OpenGate()
	adapter, dev, err := devloss.Acquire(c.ctx)
	browser.Mark("ringscope:device")
	if errors.Is(err, webgpu.ErrNoWebGPU) {
		c.update(func(s *State) { s.Status = StatusNoWebGPU }, nil)
		c.display.Settle(err)
		return
	}
	if err != nil {
		c.fail(err)
		return
	}
	info := api.Adapter(adapter.Info(), adapter.IsFallback(), adapter.IsCPU(), dev.Limits(), dev.Features())
	c.display.Adapter(info)
	c.mu.Lock()
	c.software = info.Software()
	c.setDevice(dev)
	if cfgErr == nil {
		if err = c.openWorkload(c.cfg.Settings, c.cfg.Seed); err != nil {
			cfgErr = c.urlOptionError(explainOOM(megakernel.Options{Slots: uint32(c.cfg.Settings.RingSlots)}, err))
		}
	}
	if cfgErr != nil {
		c.cfg.Settings, c.cfg.Autostart = settings.DefaultSettings(), false
		err = c.openWorkload(c.cfg.Settings, c.cfg.Seed)
	}
	c.running = c.cfg.Autostart
	c.mu.Unlock()
	browser.Mark("ringscope:opened")
	if err == nil {
		err = cfgErr
	}
	c.update(func(s *State) {
		s.Adapter, s.Running, s.Settings = info, c.cfg.Autostart, c.cfg.Settings
		if err == nil {
			s.Status = StatusReady
		}
	}, nil)
	if err != nil {
		c.fail(err)
		if c.runner == nil {
			return
		}
	}
	c.display.Settle(err)
	c.frameLoop()
}

// urlOptionError names the URL parameter behind the runner's refusal of the
// URL's settings.
func (c *Controller) urlOptionError(err error) error {
	query := c.query
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
func (c *Controller) openWorkload(s settings.Settings, seed uint64) error {
	if c.attached != nil {
		return api.ErrAttached // the settings form and Reset act on the runner (attach_js.go)
	}
	gen, err := workload.New(workload.Spec{Preset: s.Preset, Slots: uint32(s.RingSlots), Tenants: uint32(s.Tenants),
		WindowOpcodes: s.WindowOpcodeList(), Seed: seed})
	if err != nil {
		return err
	}
	opts := megakernel.Options{
		Slots: uint32(s.RingSlots), Masks: gen.Masks(), Observable: workload.ObservableWords,
		LogCapacity: uint32(s.LogCapacity), Budget: uint32(s.Budget), WorkgroupSize: uint32(s.WorkgroupSizeX),
		WorkerGroups: uint32(s.WorkerCap), WindowOpcodes: s.WindowOpcodeList(),
		MemoryBudgetBytes: MemoryBudget, Data: gen.Data(), TraceCapacity: uint32(s.TraceCapacity),
	}
	summary, why := readbackFor(s, c.software)
	if summary {
		summaryReadback(&opts, s) // the form checked the sketch fits the summary
	}
	if c.runner == nil {
		if c.runner, err = megakernel.Open(c.ctx, c.dev, opts); err == nil {
			c.runner.OnWait(c.onWait)
		}
	} else {
		err = c.runner.Reset(opts)
	}
	if err != nil {
		return err
	}
	c.display.RingOpened(&opts.Kernel, s.SketchDepth, s.SketchWidth) // a preset runs the built-in kernel
	c.settingsNow = s
	c.openSession(session.Ring{Generator: gen, Summary: summary, Why: why})
	return nil
}
