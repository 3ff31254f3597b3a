//go:build js && wasm

package controller

import (
	"context"
	"errors"
	"fmt"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/openopts"
	"github.com/ringscope/ringscope/wasm/session"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/workload"
)

// The ring's half of the embedding API (docs/EMBEDDING.md): what
// ringscope.open, publish, setTenantMask, drain and snapshot do once the
// page's JS adapter has read their arguments. Each runs under mu, one at a
// time with the live loop; one that drives the ring itself pauses the loop
// first, so an embedder's ring is not mixed with the default workload.

// Do runs f with the runner under mu, the live loop paused when pause
// (calls that only change what the next submission sees, such as masks,
// keep it running). The result is encoded (api.Encode) before mu is
// released: it may alias the runner's storage, which the next submission
// overwrites. When the device is lost under f, the page recovers and f
// runs again (runLocked).
func (c *Controller) Do(pause bool, f func(ctx context.Context, r *megakernel.Runner) (any, error)) (any, error) {
	var v any
	wasRunning := false
	_, err := c.runLocked(maxRetriesAfterLoss, func() error {
		if c.runner == nil {
			return api.ErrNotReady
		}
		if c.attached != nil {
			return errAttached // attach_js.go
		}
		if pause {
			wasRunning = wasRunning || c.running
			c.running = false
		}
		var err error
		v, err = f(c.ctx, c.runner)
		if err == nil {
			v = api.Encode(v)
		}
		return err
	})
	if wasRunning {
		c.display.Update(func(d *ui.Dashboard) { d.Running = false })
	}
	return v, err
}

// OpenDefaults are what open's absent options take.
func (c *Controller) OpenDefaults() openopts.Defaults {
	return openopts.Defaults{Slots: c.cfg.Settings.RingSlots, LogCapacity: LogCapacity, MemoryBudgetBytes: MemoryBudget}
}

// Open starts a fresh ring and generation on opts (ringscope.open). Refused
// options leave everything as it was, the live loop included: they are
// checked, and a user kernel compiled, before the loop pauses.
func (c *Controller) Open(opts openopts.Options) (any, error) {
	c.mu.Lock()
	s := c.settingsNow
	s.Readback = opts.Readback
	summary, why := readbackFor(s, c.software)
	if summary {
		summaryReadback(&opts.Options, s) // Validate checks the sketch fits the summary
	}
	var err error
	if c.runner != nil {
		err = opts.Validate(c.runner.Device().Limits())
	}
	if err == nil && c.runner != nil && !opts.Kernel.IsZero() {
		err = c.runner.PrepareKernel(c.ctx, opts.Kernel)
	}
	c.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("open: %w", explainOOM(opts.Options, err))
	}
	return c.Do(true, func(context.Context, *megakernel.Runner) (any, error) {
		if err := c.runner.Reset(opts.Options); err != nil {
			return nil, err
		}
		c.display.RingOpened(&opts.Kernel, c.settingsNow.SketchDepth, c.settingsNow.SketchWidth)
		// No generator: the embedder publishes; the live loop only drains.
		c.openSession(session.Ring{Summary: summary, Why: "the embedding API's open: " + why,
			WatchdogIntervals: opts.WatchdogIntervals})
		q := c.runner.Control()
		res := api.OpenResult{Generation: abi.Word(q, abi.CtrlGeneration), Slots: opts.Slots,
			WatchdogIntervals: c.sess.WatchdogIntervals()}
		for p := range res.Partitions {
			res.Partitions[p] = abi.Word(q, abi.CtrlPriorityOffsets+p)
		}
		// The form and header show the API's ring, not the last preset.
		s := c.settingsNow
		s.Preset, s.RingSlots, s.Budget = "custom", int(opts.Slots), int(opts.Budget)
		s.WorkgroupSizeX, s.WorkerCap = int(opts.WorkgroupSize), int(opts.WorkerGroups)
		s.Tenants = int(opts.Tenants)
		if opts.Masks != nil {
			s.Tenants = len(opts.Masks)
		}
		s.WindowOpcodes = ui.OpcodeList(opts.WindowOpcodes)
		s.Readback = opts.Readback
		c.settingsNow = s
		c.display.Update(func(d *ui.Dashboard) { d.Settings = s })
		c.afterReset(nil)
		return res, nil
	})
}

// Publish publishes items, all or none (ringscope.publish). An opcode the
// kernel does not implement is refused unless allowUnknown, since it can
// only fault UNKNOWN_OPCODE.
func (c *Controller) Publish(items []host.Item, allowUnknown bool) (any, error) {
	if !allowUnknown {
		if err := api.CheckKnownOpcodes(items, c.Implements); err != nil {
			return nil, err
		}
	}
	return c.Do(true, func(_ context.Context, r *megakernel.Runner) (any, error) {
		n, err := r.Publish(items)
		if err != nil {
			return nil, fmt.Errorf("publish: %w", err)
		}
		return n, nil
	})
}

// SetTenantMask masks tenant on or off for the next submission; the live
// loop keeps running.
func (c *Controller) SetTenantMask(tenant uint32, on bool) (any, error) {
	return c.Do(false, func(_ context.Context, r *megakernel.Runner) (any, error) {
		if err := r.SetTenantMask(tenant, on); err != nil {
			return nil, fmt.Errorf("setTenantMask: %w", err)
		}
		return nil, nil
	})
}

// Drain runs submissions until the ring is drained or max of them ran,
// and shows the result on the dashboard (ringscope.drain).
func (c *Controller) Drain(max int) (any, error) {
	return c.Do(true, func(ctx context.Context, r *megakernel.Runner) (any, error) {
		rep, err := r.Drain(ctx, max)
		if err != nil {
			return nil, fmt.Errorf("drain: %w", err)
		}
		f, err := c.sess.DrainFrame(rep)
		if err != nil {
			return nil, err
		}
		c.display.Update(func(d *ui.Dashboard) { d.Apply(f) })
		return api.DrainResult{Report: rep, Telemetry: f.Ring, Counters: f.Counters,
			Observable: f.Ring.Control.Observable, Log: api.LogOf(f.Log, workload.Formats),
			Diagnosis: api.DiagnosisOf(f.Diagnosis)}, nil
	})
}

// Snapshot is the last decoded state (ringscope.snapshot). Under summary
// readback its telemetry is the summary's, without slots; with slots it is
// the host copy of the ring decoded (every slot, as the GPU left them and
// the host changed them since: no ring read).
func (c *Controller) Snapshot(slots bool) (any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.runner == nil {
		return nil, api.ErrNotReady
	}
	src := c.sess.Source() // the runner, or an attachment (attach_js.go)
	tel := src.Telemetry()
	if slots && c.sess.Summary() {
		var err error
		if tel, err = c.sess.HostRing(); err != nil {
			return nil, fmt.Errorf("snapshot: %w", err)
		}
	}
	counters, _ := tel.RuntimeCounters()
	rb := c.sess.Readback()
	snap := api.Snapshot{Telemetry: tel, Counters: &counters, Observable: tel.Control.Observable,
		Log: api.LogOf(src.Log(), workload.Formats), Report: c.sess.Report(), Published: src.Published(), Pending: src.Pending(),
		Running: c.running, Stale: c.losses.Stale(c.sess.Seq()), Recoveries: c.losses.Recoveries, LastLoss: c.losses.Last,
		Readback: rb.Mode, RingReads: rb.RingReads, LastBytesReadBack: rb.LastBytes}
	if f := c.sess.LastFrame(); f != nil {
		snap.Watchdog, snap.Diagnosis = f.Watchdog, api.DiagnosisOf(f.Diagnosis)
		snap.Waits = f.Waits
	}
	return api.Encode(snap), nil
}

// Slots is the open ring's size, which bounds a publish batch (0 before a
// runner opens: the batch is then refused as not ready).
func (c *Controller) Slots() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.runner == nil {
		return 0
	}
	return int(c.runner.Options().Slots)
}

// Implements reports whether the running kernel runs op (publish's check).
func (c *Controller) Implements(op uint32) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.runner != nil && c.runner.Implements(op)
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
