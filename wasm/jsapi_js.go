//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/wasm/devloss"
	"github.com/ringscope/ringscope/wasm/jsarg"
	"github.com/ringscope/ringscope/wasm/jsmethod"
	"github.com/ringscope/ringscope/wasm/openopts"
	"github.com/ringscope/ringscope/wasm/push"
	"github.com/ringscope/ringscope/wasm/session"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/workload"
)

// installAPI defines the global ringscope object. Every method returns a
// Promise; they run one at a time with the live loop (app.mu). A method that
// drives the ring itself (open, publish, drain) pauses the live loop first,
// so an embedder's ring is not mixed with the default workload.
func installAPI(a *app) {
	obj := jsObject.New()
	obj.Set("ready", a.ready.Promise())
	jsmethod.Method(obj, "open", a.apiOpen)
	jsmethod.Method(obj, "publish", a.apiPublish)
	jsmethod.Method(obj, "setTenantMask", a.apiSetTenantMask)
	jsmethod.Method(obj, "drain", a.apiDrain)
	jsmethod.Method(obj, "snapshot", func(args []js.Value) (any, error) { return a.apiSnapshot(args) })
	for _, install := range apiConcerns {
		if install != nil { // testHooks outside the e2e build
			install(a, obj)
		}
	}
	jsGlobal.Set("ringscope", obj)
}

// apiConcerns add the rest of the ringscope object, one concern each,
// beside its code: the whole API is this list and installAPI's own
// methods (docs/EMBEDDING.md).
var apiConcerns = []func(a *app, obj js.Value){
	installLiveAPI,    // start, stop, step, setShutdown (live_js.go)
	installCaptureAPI, // decode, exports, import, replay, subscribe (capture_js.go)
	installAttachAPI,  // attach, detach, attachInfo (attach_js.go)
	installEmbedAPI,   // panels, mount (wasm/mount)
	installKernelAPI,  // readBuffer, examples, example, publishWorkload, checkExample (wasm/kernelapi)
	installPushAPI,    // pushMetrics, ?push= (wasm/push)
	testHooks,         // __test, the e2e build only: fault injection (testhooks_js.go)
}

// withRunner runs f with the runner, the live loop paused. The result is
// encoded (api.Encode) before the lock is released: it may alias the
// runner's storage, which the next submission overwrites. When the device
// is lost under f, the page recovers and f runs again (runLocked).
func (a *app) withRunner(f func() (any, error)) (any, error) {
	return a.withRunnerLive(true, f)
}

// withRunnerLive is withRunner; pause says whether the live loop pauses
// (calls that only change what the next submission sees, such as masks,
// keep it running).
func (a *app) withRunnerLive(pause bool, f func() (any, error)) (any, error) {
	var v any
	wasRunning := false
	_, err := a.runLocked(maxRetriesAfterLoss, func() error {
		if a.runner == nil {
			return api.ErrNotReady
		}
		if attachedNow() != nil {
			return errAttached // attach_js.go
		}
		if pause {
			wasRunning = wasRunning || a.running
			a.running = false
		}
		var err error
		v, err = f()
		if err == nil {
			v = api.Encode(v)
		}
		return err
	})
	if wasRunning {
		a.ui(func(d *ui.Dashboard) { d.Running = false })
	}
	return v, err
}

// OpenResult is what open resolves to.
type OpenResult struct {
	Generation uint32
	Slots      uint32
	Partitions [abi.PriorityLevels + 1]uint32
	// WatchdogIntervals is the watchdog's N: stalled intervals in a row
	// before the stall alert.
	WatchdogIntervals int
}

// apiOpen: open(options) starts a fresh ring and generation. Options:
// slots, tenants, masks (array of 0/1 per tenant), observable, logCapacity,
// budget, workgroupSize, workerGroups, windowOpcodes, memoryBudgetBytes
// (the device-memory budget the ring is planned against),
// watchdogIntervals (the watchdog's N, default 3) and readback ("full", the
// default: every frame reads the whole ring and snapshot() has every slot;
// "summary": frames read control, log, the GPU summary and the status map,
// snapshot()'s telemetry has the summary's fields and no slots, and drain()
// still reads the ring; "auto": the page's choice for this adapter). Absent
// fields take the page's defaults; invalid ones reject before any GPU work,
// the previous ring untouched.
func (a *app) apiOpen(args []js.Value) (any, error) {
	opts, err := openopts.Read(jsarg.Arg(args, 0),
		openopts.Defaults{Slots: a.cfg.Settings.RingSlots, LogCapacity: logCapacity, MemoryBudgetBytes: memoryBudget})
	if err != nil {
		return nil, err
	}
	// Refused options leave everything as it was, the live loop included.
	a.mu.Lock()
	s := a.settingsNow
	s.Readback = opts.Readback
	summary, why := readbackFor(s, a.software)
	if summary {
		summaryReadback(&opts.Options, s) // Validate checks the sketch fits the summary
	}
	if a.runner != nil {
		err = opts.Validate(a.runner.Device().Limits())
	}
	if err == nil && a.runner != nil && !opts.Kernel.IsZero() {
		// A kernel that does not compile is refused here, before the live
		// loop pauses: the ring that runs keeps running.
		err = a.runner.PrepareKernel(a.ctx, opts.Kernel)
	}
	a.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("open: %w", explainOOM(opts.Options, err))
	}
	return a.withRunner(func() (any, error) {
		if err := a.runner.Reset(opts.Options); err != nil {
			return nil, err
		}
		a.setKernelNames(&opts.Kernel)
		// No generator: the embedder publishes; the live loop only drains.
		a.openSession(session.Ring{Summary: summary, Why: "the embedding API's open: " + why,
			WatchdogIntervals: opts.WatchdogIntervals})
		q := a.runner.Control()
		res := OpenResult{Generation: abi.Word(q, abi.CtrlGeneration), Slots: opts.Slots,
			WatchdogIntervals: a.sess.WatchdogIntervals()}
		for p := range res.Partitions {
			res.Partitions[p] = abi.Word(q, abi.CtrlPriorityOffsets+p)
		}
		// The form and header show the API's ring, not the last preset.
		s := a.settingsNow
		s.Preset, s.RingSlots, s.Budget = "custom", int(opts.Slots), int(opts.Budget)
		s.WorkgroupSizeX, s.WorkerCap = int(opts.WorkgroupSize), int(opts.WorkerGroups)
		s.Tenants = int(opts.Tenants)
		if opts.Masks != nil {
			s.Tenants = len(opts.Masks)
		}
		s.WindowOpcodes = ui.OpcodeList(opts.WindowOpcodes)
		s.Readback = opts.Readback
		a.settingsNow = s
		a.ui(func(d *ui.Dashboard) { d.Settings = s })
		a.uiReset()
		return res, nil
	})
}

// apiPublish: publish(items) validates the whole batch, then publishes it;
// it resolves to the number published and rejects, publishing nothing, on
// the first invalid item or a full partition.
//
// An opcode the kernel does not implement is refused too, since it can only
// fault UNKNOWN_OPCODE; publish(items, {allowUnknownOpcodes: true})
// publishes it anyway, to exercise that fault.
func (a *app) apiPublish(args []js.Value) (any, error) {
	if err := jsarg.Options(jsarg.Arg(args, 1), "publish"); err != nil {
		return nil, err
	}
	max := a.ringSlots()
	if max == 0 {
		return nil, api.ErrNotReady
	}
	items, err := jsarg.Items(jsarg.Arg(args, 0), max)
	if err != nil {
		return nil, err
	}
	if !jsarg.OptBool(jsarg.Arg(args, 1), "allowUnknownOpcodes") {
		if err := api.CheckKnownOpcodes(items, a.implements); err != nil {
			return nil, err
		}
	}
	return a.withRunner(func() (any, error) {
		n, err := a.runner.Publish(items)
		if err != nil {
			return nil, fmt.Errorf("publish: %w", err)
		}
		return n, nil
	})
}

// apiSetTenantMask: setTenantMask(tenant, on). It does not pause the live
// loop: the next submission sees the mask.
func (a *app) apiSetTenantMask(args []js.Value) (any, error) {
	t := jsarg.Arg(args, 0)
	if jsarg.TypeName(t) != "number" {
		return nil, errors.New("setTenantMask: tenant must be a number, got " + jsarg.TypeName(t))
	}
	tenant, err := api.Uint32("setTenantMask: tenant", t.Float())
	if err != nil {
		return nil, err
	}
	on := jsarg.Truthy(jsarg.Arg(args, 1))
	return a.withRunnerLive(false, func() (any, error) {
		if err := a.runner.SetTenantMask(tenant, on); err != nil {
			return nil, fmt.Errorf("setTenantMask: %w", err)
		}
		return nil, nil
	})
}

// DrainResult is what drain resolves to.
type DrainResult struct {
	Report     decode.MegakernelReport
	Telemetry  *decode.RingTelemetry
	Counters   *decode.RuntimeCounters
	Observable []uint32
	// Log is the frame's log, each record named and resolved as the
	// page's log panel shows it (api.LogOf).
	Log *api.Log
}

// apiDrain: drain({maxSubmissions}) runs submissions until the ring is
// drained or the cap (default 64), and shows the result on the dashboard.
func (a *app) apiDrain(args []js.Value) (any, error) {
	max, err := jsarg.OptUint32(jsarg.Arg(args, 0), "drain", "maxSubmissions", 64)
	if err != nil {
		return nil, err
	}
	if max == 0 {
		return nil, errors.New("drain: maxSubmissions must be at least 1")
	}
	return a.withRunner(func() (any, error) {
		rep, err := a.runner.Drain(a.ctx, int(max))
		if err != nil {
			return nil, fmt.Errorf("drain: %w", err)
		}
		f, err := a.sess.DrainFrame(rep)
		if err != nil {
			return nil, err
		}
		a.ui(func(d *ui.Dashboard) { d.Apply(f) })
		return DrainResult{Report: rep, Telemetry: f.Ring, Counters: f.Counters,
			Observable: f.Ring.Control.Observable, Log: api.LogOf(f.Log, workload.Formats)}, nil
	})
}

// Snapshot is what snapshot resolves to: the last decoded state.
type Snapshot struct {
	Telemetry  *decode.RingTelemetry
	Counters   *decode.RuntimeCounters
	Observable []uint32
	Log        *api.Log // as drain's
	Report     *decode.MegakernelReport
	Published  uint64
	Pending    uint32
	// Running is the live loop's state; Watchdog its last verdict (nil
	// before the first frame).
	Running  bool
	Watchdog *decode.WatchdogState
	// Stale: the shown telemetry is the last good snapshot from before a
	// device loss, no frame since. Recoveries counts recovered losses;
	// LastLoss records the latest.
	Stale      bool
	Recoveries int
	LastLoss   *devloss.Loss
	// Readback is the mode the ring runs in ("summary" or "full");
	// RingReads the frames of this ring that read the whole ring back
	// (every one in full mode); LastBytesReadBack the last frame's bytes
	// read back (its dispatch's BytesReadBack).
	Readback          string
	RingReads         uint64
	LastBytesReadBack uint64
}

// apiSnapshot: snapshot({slots}) returns the last decoded state. Under
// summary readback its telemetry is the summary's, without slots; with
// slots: true it is the host copy of the ring decoded (every slot, as the
// GPU left them and the host changed them since: no ring read).
func (a *app) apiSnapshot(args []js.Value) (any, error) {
	o := jsarg.Arg(args, 0)
	if err := jsarg.Options(o, "snapshot"); err != nil {
		return nil, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.runner == nil {
		return nil, api.ErrNotReady
	}
	src := a.sess.Source() // the runner, or an attachment (attach_js.go)
	tel := src.Telemetry()
	if jsarg.OptBool(o, "slots") && a.sess.Summary() {
		var err error
		if tel, err = a.sess.HostRing(); err != nil {
			return nil, fmt.Errorf("snapshot: %w", err)
		}
	}
	counters, _ := tel.RuntimeCounters()
	rb := a.sess.Readback()
	snap := Snapshot{Telemetry: tel, Counters: &counters, Observable: tel.Control.Observable,
		Log: api.LogOf(src.Log(), workload.Formats), Report: a.sess.Report(), Published: src.Published(), Pending: src.Pending(),
		Running: a.running, Stale: a.losses.Stale(a.sess.Seq()), Recoveries: a.losses.Recoveries, LastLoss: a.losses.Last,
		Readback: rb.Mode, RingReads: rb.RingReads, LastBytesReadBack: rb.LastBytes}
	if f := a.sess.LastFrame(); f != nil {
		snap.Watchdog = f.Watchdog
	}
	return api.Encode(snap), nil
}

// explainOOM says which options make a ring exceed its memory budget; the
// policy's own message speaks of launch requests, not of page options.
func explainOOM(o megakernel.Options, err error) error {
	var oom *decode.OutOfMemoryError
	if !errors.As(err, &oom) {
		return err
	}
	return fmt.Errorf("a ring of %d slots needs %d bytes of device memory, more than the memory budget of %d bytes "+
		"(memoryBudgetBytes): use fewer slots or a larger budget: %w", o.Slots, oom.Requested, oom.Available, err)
}

// installPushAPI adds pushMetrics (wasm/push), which pushes the studio's
// Prometheus export.
func installPushAPI(a *app, obj js.Value) {
	push.Install(obj, func() ([]byte, error) {
		b, _, err := a.studio.Export(capture.ExportPrometheus, time.Now())
		return b, err
	}, pageQuery())
}
