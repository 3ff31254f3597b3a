//go:build js && wasm

package controller

import (
	"context"
	"errors"
	"fmt"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/settings"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/session"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/workload"
)

// The ring's half of the embedding API (docs/EMBEDDING.md): what
// ringscope.open, publish, setTenantMask, drain and snapshot do once the
// JS package (wasm/jsapi) has read their arguments. Each runs under mu,
// one at a time with the live loop; one that drives the ring itself pauses
// the loop first, so an embedder's ring is not mixed with the default
// workload (publish pauses only that: DoPublish).

// Do runs f with the runner under mu, the live loop paused when pause
// (calls that only change what the next submission sees, such as masks,
// keep it running). The result is encoded (api.Encode) before mu is
// released: it may alias the runner's storage, which the next submission
// overwrites. When the device is lost under f, the page recovers and f
// runs again (runLocked).
func (c *Controller) Do(pause bool, f func(ctx context.Context, r *megakernel.Runner) (any, error)) (any, error) {
	return c.do(func() bool { return pause }, f)
}

// DoPublish is Do for a call that publishes into the ring (publish,
// publishWorkload): it pauses the live loop only while the loop runs the
// page's own workload, which the items must not mix with. An embedder's
// ring (open) runs on: its live loop drains what the embedder publishes,
// before start() or after it.
func (c *Controller) DoPublish(f func(ctx context.Context, r *megakernel.Runner) (any, error)) (any, error) {
	return c.do(func() bool { return c.sess.Generator() != nil }, f)
}

// do is Do, with pause asked under mu.
func (c *Controller) do(pause func() bool, f func(ctx context.Context, r *megakernel.Runner) (any, error)) (any, error) {
	var v any
	wasRunning := false
	_, err := c.runLocked(maxRetriesAfterLoss, func() error {
		if c.runner == nil {
			return api.ErrNotReady
		}
		if c.attached != nil {
			return api.ErrAttached // attach_js.go
		}
		if pause() {
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
		c.update(func(s *State) { s.Running = false }, nil)
	}
	return v, err
}

// OpenRequest is open's options as the JS adapter (wasm/jsapi) read them:
// the runner's and the page's own.
type OpenRequest struct {
	megakernel.Options
	// WatchdogIntervals is the watchdog's N (stalled intervals in a row
	// before the stall alert).
	WatchdogIntervals int
	// Readback is one of decode.PageReadbacks.
	Readback decode.Readback
}

// OpenDefaults are what open's absent options take: the page's ring size
// and tuning.
type OpenDefaults struct {
	Slots, LogCapacity int
	MemoryBudgetBytes  uint64
}

// OpenDefaults are what open's absent options take.
func (c *Controller) OpenDefaults() OpenDefaults {
	return OpenDefaults{Slots: c.cfg.Settings.RingSlots, LogCapacity: settings.DefaultLogCapacity, MemoryBudgetBytes: MemoryBudget}
}

// Open starts a fresh ring and generation on opts (ringscope.open). Refused
// options leave everything as it was, the live loop included: they are
// checked, and a user kernel compiled, before the loop pauses.
func (c *Controller) Open(opts OpenRequest) (any, error) {
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
		c.showTasks(nil) // the last ring's tasks are not this ring's slots
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
		s.WindowOpcodes = settings.OpcodeList(opts.WindowOpcodes)
		s.Readback, s.LogCapacity = opts.Readback, int(opts.LogCapacity)
		c.settingsNow = s
		c.update(func(st *State) { st.Settings = s }, nil)
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
	return c.DoPublish(func(_ context.Context, r *megakernel.Runner) (any, error) {
		o := r.Options()
		if err := api.CheckTenants(items, o.RingTenants()); err != nil {
			return nil, err
		}
		n, err := r.Publish(items)
		var full *host.PartitionFullError
		if errors.As(err, &full) {
			// Back-pressure: the diagnosis counts what the full partition
			// turned away.
			c.sess.NoteRefused(full.Priority, countPriority(items, full.Priority))
		}
		if err != nil {
			return nil, fmt.Errorf("publish: %w", err)
		}
		return n, nil
	})
}

// countPriority counts the items at priority p.
func countPriority(items []host.Item, p uint32) int {
	n := 0
	for _, it := range items {
		if it.Priority == p {
			n++
		}
	}
	return n
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

// Drain runs submissions until the ring is drained, makes no progress or
// max of them ran, and shows the result on the dashboard (ringscope.drain).
// The watchdog and the diagnosis judge every submission, so a drain that
// stops on no progress says why: it stops once N submissions
// in a row completed nothing, N the watchdog's intervals, and the verdict
// is settled (the watchdog says stalled and the diagnosis names a cause),
// or drainGrace submissions later. A drain a device loss cut short
// resolves with outcome "lost" and what the host copy holds; a runaway
// submission rejects naming its opcodes (recover_js.go), as before.
func (c *Controller) Drain(max int) (any, error) {
	v, err := c.Do(true, func(ctx context.Context, r *megakernel.Runner) (any, error) {
		o := megakernel.DrainOptions{MaxSubmissions: max, StallSubmissions: c.sess.WatchdogIntervals(), StallGrace: drainGrace,
			Observe: func(ep *megakernel.Epoch, st *host.RequeueStats, drained bool) bool {
				c.sess.TimeSubmission(ep)
				w, d := c.sess.ObserveSubmission(*st, drained)
				return w != nil && w.Stalled && d != nil && len(d.Causes) > 0
			}}
		if w := r.Trace(); w != nil {
			w.Clear() // drain's result has its own submissions' records
		}
		run, err := r.DrainWith(ctx, o)
		if err != nil {
			return nil, fmt.Errorf("drain: %w", err)
		}
		res, err := c.drainResult(run, run.Submissions > 0, nil)
		tt := c.tasks()
		res.Trace = api.TraceOf(tt)
		c.showTasks(tt)
		return res, err
	})
	var runaway *megakernel.RunawayError
	if err != nil && !errors.As(err, &runaway) && c.deviceLost(err) {
		return c.lostDrain(err)
	}
	return v, err
}

// drainGrace is how many stalled submissions past the watchdog's N a drain
// makes while its verdict is not settled: the watchdog needs N intervals
// after its first look, and a cause shows once its rule held for 2 frames.
const drainGrace = 2

// drainResult assembles the drain's frame, shows it and says what the
// drain did. Called with mu held.
func (c *Controller) drainResult(run megakernel.DrainRun, observed bool, lost error) (api.DrainResult, error) {
	f, err := c.sess.DrainFrame(run.Report, observed)
	if err != nil {
		return api.DrainResult{}, err
	}
	c.showFrame(f)
	c.nameMetrics(f.Ring)
	res := api.DrainResult{Outcome: run.Outcome.String(), Submissions: run.Submissions, Stuck: api.StuckOf(f.Ring),
		Report: run.Report, Telemetry: f.Ring, Counters: f.Counters, Observable: f.Ring.Control.Observable,
		Log: api.LogOf(f.Log, workload.Formats, c.opcodeName), Diagnosis: api.DiagnosisOf(f.Diagnosis), Spawn: f.Spawn}
	if lost != nil {
		res.Error = lost.Error()
	}
	return res, nil
}

// deviceLost reports whether err met a device loss the page did not get
// past (recovery failed, or the retries were spent).
func (c *Controller) deviceLost(err error) bool {
	if errors.Is(err, webgpu.ErrDeviceLost) {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.runner != nil && c.runner.Device().Err() != nil
}

// lostDrain is drain's result when a device loss cut it short: outcome
// "lost", what the host copy holds (the truth: the lost submission's
// effects died with the device) and the report so far.
func (c *Controller) lostDrain(cause error) (any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.runner == nil || c.attached != nil {
		return nil, cause
	}
	run := megakernel.DrainRun{Outcome: megakernel.DrainLost, Report: *c.sess.Report()}
	res, err := c.drainResult(run, false, cause)
	if err != nil {
		return nil, cause
	}
	return api.Encode(res), nil
}

// Snapshot is the last decoded state (ringscope.snapshot). Under summary
// readback its telemetry is the summary's, without slots; with slots it is
// the host copy of the ring decoded (every slot, as the GPU left them and
// the host changed them since: no ring read).
func (c *Controller) Snapshot(slots, trace bool) (any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.runner == nil {
		return nil, api.ErrNotReady
	}
	src := c.sess.Source() // the runner, or an attachment (attach_js.go)
	tel := src.View().Telemetry()
	if slots && c.sess.Summary() {
		var err error
		if tel, err = c.sess.HostRing(); err != nil {
			return nil, fmt.Errorf("snapshot: %w", err)
		}
	}
	c.nameMetrics(tel)
	counters, _ := tel.RuntimeCounters()
	rb := c.sess.Readback()
	snap := api.Snapshot{Telemetry: tel, Counters: &counters, Observable: tel.Control.Observable,
		Log: api.LogOf(src.View().Log(), workload.Formats, c.opcodeName), Report: c.sess.Report(), Published: src.Published(), Pending: src.Pending(),
		Running: c.running, Stale: c.losses.Stale(c.sess.Seq()) || c.State().Stale, Recoveries: c.losses.Recoveries, LastLoss: c.losses.Last,
		Readback: rb.Mode, RingReads: rb.RingReads, LastBytesReadBack: rb.LastBytes}
	if f := c.sess.LastFrame(); f != nil {
		snap.Watchdog, snap.Diagnosis = f.Watchdog, api.DiagnosisOf(f.Diagnosis)
		snap.Waits, snap.Spawn = f.Waits, f.Spawn
	}
	if trace {
		snap.Trace = api.TraceOf(c.tasks())
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

// nameMetrics names the user opcodes of tel's per-opcode metrics, as the
// metrics export labels them (the buffers do not say them). An attached
// ring's kernel is the host's: its opcodes stay unnamed. Called with mu
// held.
func (c *Controller) nameMetrics(tel *decode.RingTelemetry) {
	if c.attached != nil || tel == nil {
		return
	}
	k := c.runner.Options().Kernel
	for i := range tel.Control.Metrics {
		m := &tel.Control.Metrics[i]
		m.Name = k.Name(m.Opcode)
	}
}
