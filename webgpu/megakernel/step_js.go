//go:build js && wasm

package megakernel

import (
	"context"
	"errors"
	"runtime"
	"time"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// The Runner's submissions: Step plans the launch, uploads, encodes one
// command buffer (drain, finalize, reduce, copies to staging), submits,
// reads back, absorbs and decodes; Drain repeats it with the requeues in
// between. The hot path of every frame: once the resources and pipelines
// exist, a submission allocates little more than the JS objects it gets
// back (TestCachesAndTransfers bounds it).

// Step makes one submission: it plans the launch (the policy's
// recommendation from the last readback, the device's limits, the queue
// length and the memory budget), makes sure buffers and pipelines exist
// (reusing them when shapes match), uploads the dirty byte ranges and the
// params uniform, encodes the drain and the finalize dispatch and the
// copies to a staging buffer in one command buffer, submits, maps the
// staging buffer, absorbs the readback into the host copy and decodes it.
// It does not republish parked slots: Drain does.
func (r *Runner) Step(ctx context.Context) (*Epoch, error) {
	ep := new(Epoch)
	if err := r.step(ctx, ep); err != nil {
		return nil, err
	}
	return ep, nil
}

// planLaunch is the launch the next Step makes for the host copy as it
// is now (the launch policy on the pending work and the ring's occupancy).
func (r *Runner) planLaunch() (decode.LaunchRecommendation, error) {
	control := r.q.Control()
	tel := r.dec.Telemetry()
	r.scan.scan(control, r.q, &tel.Occupancy)
	var frontier uint16
	if r.sp.on {
		frontier = spawnFrontierBps(r.sp.tel.History, r.sp.ran, r.q.Slots())
	}
	return r.opts.recommend(r.dev.Limits(), pendingItems(control), r.lay, tel, frontier)
}

// Warm starts compiling the pipelines the next Step would use for what is
// published now, and returns before they are ready: the compile (the
// first JIT program's is the longest part of a SwiftShader startup) then
// overlaps what the caller does next, such as the page's first render. The next Step waits for it;
// a failed compile is that Step's to report.
func (r *Runner) Warm(ctx context.Context) {
	if r.prog.warming != nil || r.usable("warm") != nil {
		return
	}
	rec, err := r.planLaunch()
	if err != nil {
		return
	}
	done := make(chan struct{})
	r.prog.warming = done
	go func() {
		defer close(done)
		if _, key, hit, err := r.pipeline(ctx, rec.WorkgroupSizeX, r.opts.jit(rec)); err == nil && !hit {
			r.prog.warmed = key
		}
	}()
	// The goroutine runs until it waits for its compiles, so they are
	// asked for before Warm's caller goes on.
	runtime.Gosched()
}

func (r *Runner) step(ctx context.Context, ep *Epoch) error {
	if err := r.usable("step"); err != nil {
		return err
	}
	s := submission{t0: time.Now(), before: r.dev.Stats()}
	if err := s.plan(r); err != nil {
		return err
	}
	if err := s.prepare(ctx, r); err != nil {
		return err
	}
	if err := r.upload(ctx); err != nil {
		return err
	}
	s.tUploaded = time.Now()
	if err := s.submit(r); err != nil {
		return err
	}
	if err := s.readBack(ctx, r); err != nil {
		return err
	}
	if err := s.absorb(r); err != nil {
		return err
	}
	s.account(r, ep)
	return nil
}

// submission is one Step's state from phase to phase: plan, prepare
// (buffers and pipelines), upload, encode and submit, read back, absorb
// and decode, account. It lives on step's stack: no allocation.
type submission struct {
	t0     time.Time
	before webgpu.Stats

	// plan
	rec                 decode.LaunchRecommendation
	queued, width, grid uint32
	jit                 bool
	headsBefore         [abi.PriorityLevels]uint32
	// prepare
	created, hit bool
	drain        *webgpu.ComputePipeline
	key          string
	reduce       *reducePipelines
	// submit, read back
	readRing bool
	stage    *webgpu.Buffer
	gpu      time.Duration

	tPrepared, tUploaded, tSubmitted, tRead, tDecoded time.Time
}

// plan is the launch: the policy's recommendation from the last
// readback, the device's limits, the queue length and the memory budget.
func (s *submission) plan(r *Runner) error {
	control := r.q.Control()
	s.queued = pendingItems(control)
	rec, err := r.planLaunch()
	if err != nil {
		var oom *decode.OutOfMemoryError
		if errors.As(err, &oom) {
			return err
		}
		return failOn(r.dev, "plan launch", err)
	}
	s.rec, s.width = rec, rec.WorkgroupSizeX
	s.grid = r.opts.gridFor(rec, s.queued, clampU32(r.dev.Limits().MaxComputeWorkgroupsPerDimension), r.cpu.of(r.dev))
	s.jit = r.opts.jit(rec)
	s.headsBefore = heads(control)
	if r.sp.on {
		// Later passes run what this one's items spawn: size the grid
		// for a full ring, not for what is queued now.
		s.grid = r.opts.gridFor(rec, max(s.queued, r.q.Slots()), clampU32(r.dev.Limits().MaxComputeWorkgroupsPerDimension), r.cpu.of(r.dev))
	}
	return nil
}

// prepare makes sure the buffers and pipelines exist, reusing them when
// shapes match; a compile Warm started is waited for and counts as a miss.
func (s *submission) prepare(ctx context.Context, r *Runner) error {
	var err error
	if s.created, err = r.ensureBuffers(ctx); err != nil {
		return err
	}
	if r.prog.warming != nil {
		<-r.prog.warming
		r.prog.warming = nil
	}
	if s.drain, s.key, s.hit, err = r.pipeline(ctx, s.width, s.jit); err != nil {
		return err
	}
	if s.key == r.prog.warmed {
		s.hit, r.prog.warmed = false, ""
	}
	if r.sp.on {
		if err := r.sp.ensure(ctx, r); err != nil {
			return err
		}
	}
	if r.opts.summaryOn() {
		var sumHit bool
		if s.reduce, sumHit, err = r.sum.ensure(ctx, r.reduceTarget(), s.width, s.created); err != nil {
			return err
		}
		s.hit = s.hit && sumHit
	}
	s.tPrepared = time.Now()
	return nil
}

// submit encodes the drain and finalize dispatches, the reduce pass under
// decode.ReadbackSummary, and the copies into this step's staging, in one command
// buffer, and submits it.
func (s *submission) submit(r *Runner) error {
	s.readRing = r.opts.readsRing() || r.wantRing
	s.stage = r.res.staging[r.epochs%2]
	enc, err := r.dev.CreateCommandEncoder("ringscope step")
	if err != nil {
		return failOn(r.dev, "encode", err)
	}
	if s.reduce != nil {
		r.sum.encodeClear(enc)
	}
	r.up.encode(enc, r.res.bufs[bufRing])
	if err := r.tr.before(enc, r.q.Control()); err != nil {
		return err
	}
	s.encodeDrain(r, enc)
	// Its own pass, so the drain pass's timestamps time the drain alone.
	if s.reduce != nil {
		r.sum.encodePass(enc, r.reduceTarget(), s.reduce, s.width)
	}
	s.encodeCopies(r, enc)
	cmd, err := enc.Finish()
	if err != nil {
		return failOn(r.dev, "encode", err)
	}
	if err := r.dev.Queue().Submit(cmd); err != nil {
		return failOn(r.dev, "submit", err)
	}
	if err := r.up.remap(r.dev); err != nil {
		return err
	}
	r.epochs++
	r.current = [3]bool{}
	s.tSubmitted = time.Now()
	return nil
}

// encodeDrain records the drain pass: the drain dispatch, then finalize.
func (s *submission) encodeDrain(r *Runner, enc *webgpu.CommandEncoder) {
	desc := webgpu.ComputePassDescriptor{Label: "ringscope drain"}
	if r.tq.querySet != nil {
		r.tq.writes = webgpu.ComputePassTimestampWrites{QuerySet: r.tq.querySet, BeginningOfPassWriteIndex: 0, EndOfPassWriteIndex: 1}
		desc.TimestampWrites = &r.tq.writes // the runner's: no allocation per submission
	}
	pass := enc.BeginComputePass(desc)
	pass.SetBindGroup(abi.BindGroup, r.res.bindGroup)
	if r.sp.on {
		r.sp.encode(pass, s.drain, s.grid, r.q.Control(), r.q.Slots())
		pass.End()
		r.tr.encode(enc)
		return
	}
	pass.SetPipeline(s.drain)
	pass.DispatchWorkgroups(s.grid, 1, 1)
	// A dispatch boundary is a global barrier: finalize sees every
	// overshooting ticket of the drain.
	pass.SetPipeline(r.prog.finalize)
	pass.DispatchWorkgroups(1, 1, 1)
	pass.End()
	r.tr.encode(enc)
}

// encodeCopies records the copies of what this step reads back into its
// staging: the timestamps, control, the log, the summary and status map,
// the ring when it is read.
func (s *submission) encodeCopies(r *Runner, enc *webgpu.CommandEncoder) {
	stage, lay := s.stage, &r.lay
	if r.tq.querySet != nil {
		enc.ResolveQuerySet(r.tq.querySet, 0, 2, r.tq.resolve, 0)
		enc.CopyBufferToBuffer(r.tq.resolve, 0, stage, 0, timestampBytes)
	}
	enc.CopyBufferToBuffer(r.res.bufs[bufControl], 0, stage, lay.controlOffset(), lay.control)
	enc.CopyBufferToBuffer(r.res.bufs[bufLog], 0, stage, lay.logOffset(), lay.log)
	if s.reduce != nil {
		enc.CopyBufferToBuffer(r.sum.buf, 0, stage, lay.summaryOffset(), lay.summary)
		enc.CopyBufferToBuffer(r.sum.statusMap, 0, stage, lay.statusMapOffset(), lay.statusMap)
	}
	if lay.spawn != 0 {
		enc.CopyBufferToBuffer(r.res.userBufs[len(r.res.userBufs)-1], 0, stage, lay.spawnOffset(), lay.spawn)
	}
	if s.readRing {
		enc.CopyBufferToBuffer(r.res.bufs[bufRing], 0, stage, lay.ringOffset(), lay.ring)
	}
}

// readBack maps the staging range this step filled, within the
// submission bound (a runaway past it), and decodes the timestamps.
func (s *submission) readBack(ctx context.Context, r *Runner) error {
	from, to := r.lay.controlOffset(), r.lay.ringOffset()
	if r.tq.querySet != nil {
		from = 0
	}
	if s.readRing {
		to += r.lay.ring
	}
	if uint64(len(r.rb)) < r.lay.staging() {
		r.rb = make([]byte, r.lay.staging())
	}
	bound := r.opts.submissionTimeout()
	r.watch.arm(r.dev, bound)
	err := r.waits.mapRead(ctx, r.dev, s.stage, r.rb[from:to], from, bound, r.InFlightUserOpcodes)
	if r.watch.disarm() {
		return r.watch.runaway(r.InFlightUserOpcodes())
	}
	if err != nil {
		return failOn(r.dev, "read back", err)
	}
	if r.tq.querySet != nil {
		r.tq.vals = webgpu.DecodeTimestamps(r.tq.vals, r.rb[:timestampBytes])
		if len(r.tq.vals) == 2 {
			s.gpu, _ = webgpu.TimestampInterval(r.tq.vals[0], r.tq.vals[1])
		}
	}
	control := r.rb[r.lay.controlOffset() : r.lay.controlOffset()+r.lay.control]
	if err := r.tr.after(ctx, r.tq.vals, control); err != nil {
		return err
	}
	if r.sp.on && !s.readRing && r.opts.summaryOn() {
		// The host copy learns the GPU-made slots (opcode, args, status)
		// by what the submission spawned, not by a ring read.
		if err := r.sp.read.read(ctx, r, s.stage, control); err != nil {
			return err
		}
	}
	s.tRead = time.Now()
	return nil
}

// absorb takes the readback into the host copy and decodes it once: the
// ring, the GPU summary, or control alone (the host copy's slots are then
// what the host wrote, which Telemetry decodes when asked, not every Step).
func (s *submission) absorb(r *Runner) error {
	lay := &r.lay
	cb := r.rb[lay.controlOffset() : lay.controlOffset()+lay.control]
	lb := r.rb[lay.logOffset() : lay.logOffset()+lay.log]
	var rb []byte
	if s.readRing {
		rb = r.rb[lay.ringOffset() : lay.ringOffset()+lay.ring]
	}
	if err := r.q.Absorb(cb, rb, lb); err != nil {
		return failOn(r.dev, "absorb", err)
	}
	if r.sp.on {
		if err := r.sp.absorb(r.rb[lay.spawnOffset():lay.ringOffset()], r.q.NeedsSubmit()); err != nil {
			return failOn(r.dev, "absorb spawn state", err)
		}
	}
	r.current = [3]bool{host.ControlBuffer: true, host.LogBuffer: true, host.RingBuffer: s.readRing}
	if s.readRing {
		r.wantRing = false
	}
	r.sumBytes, r.mapBytes = nil, nil
	if r.opts.summaryOn() {
		r.sumBytes, r.mapBytes = r.rb[lay.summaryOffset():lay.statusMapOffset()], r.rb[lay.statusMapOffset():lay.spawnOffset()]
	}
	b := decode.Buffers{Control: r.q.Control(), Log: r.q.Log()}
	summary := r.opts.summaryOn() && !s.readRing
	switch {
	case summary:
		b.Summary, b.StatusMap = r.sumBytes, r.mapBytes
	case s.readRing:
		b.Ring = r.q.Ring()
	}
	if err := r.Decode(b); err != nil {
		return failOn(r.dev, "decode", err)
	}
	r.stale = !summary && !s.readRing
	if summary {
		// The GPU writes only the STATUS words of the slots it claims, so
		// the status map brings the host copy up to date without the ring:
		// publishes, requeues and fault reclaims need no ring read.
		if err := r.q.AbsorbStatusMap(b.StatusMap); err != nil {
			return failOn(r.dev, "absorb status map", err)
		}
	}
	s.tDecoded = time.Now()
	return nil
}

// account fills ep: the launch, the device's counters over the step and
// its phases' host times.
func (s *submission) account(r *Runner, ep *Epoch) {
	after := r.dev.Stats()
	t := s.rec.DispatchTelemetry()
	if s.jit {
		t.ExecutionMode = decode.ModeJIT
	} else {
		t.ExecutionMode = decode.ModeInterpreter
	}
	t.BytesUploaded = after.BytesWritten - s.before.BytesWritten
	t.BytesReadBack = after.BytesRead - s.before.BytesRead
	t.BytesMoved = t.BytesUploaded + t.BytesReadBack
	t.ResidentAllocations = uint32(after.BuffersCreated - s.before.BuffersCreated)
	t.KernelLaunches = uint32(after.DispatchCalls - s.before.DispatchCalls)
	t.SyncPoints = uint32(after.PromisesAwaited - s.before.PromisesAwaited)
	t.ReadbackBuffers = uint32(after.Maps - s.before.Maps)
	t.CompiledPipelineCacheHit = s.hit
	t.ResidentInputCacheHit = !s.created
	*ep = Epoch{
		Index:    r.epochs,
		Launch:   s.rec,
		Program:  s.key,
		Grid:     s.grid,
		Width:    s.width,
		Queued:   s.queued,
		GPUTime:  s.gpu,
		Claimed:  claimed(s.headsBefore, heads(r.q.Control())),
		RingRead: s.readRing,

		Generations: 1,
	}
	t.OccupancyProxyBps = decode.OccupancyProxyBps(ep.Claimed, ep.Lanes())
	t.FrontierDensityBps = decode.FrontierDensityBps(uint64(r.scan.active), uint64(r.q.Slots()))
	if r.sp.on {
		// The frontier the GPU made: what the last pass spawned.
		ep.Generations, ep.GenerationsReason = r.sp.ran, r.sp.why
		t.FrontierDensityBps = decode.FrontierDensityBps(uint64(r.sp.tel.Frontier()), uint64(r.q.Slots()))
	}
	ep.Telemetry = t
	ep.Timings = Timings{
		Publish:  r.pub.time,
		Prepare:  s.tPrepared.Sub(s.t0),
		Upload:   s.tUploaded.Sub(s.tPrepared),
		Submit:   s.tSubmitted.Sub(s.tUploaded),
		Readback: s.tRead.Sub(s.tSubmitted),
		Decode:   s.tDecoded.Sub(s.tRead),
		Total:    s.tDecoded.Sub(s.t0),
	}
	r.pub.time = 0
}

// needsSubmit reports whether a submission would claim anything: SHUTDOWN
// is clear and some partition has HEAD < TAIL. After the finalize clamp
// HEAD and TAIL are exact, so a BUDGET_EXHAUSTED that grew is not needed
// as a signal (and is not sufficient: a lane that spends its budget while
// other lanes still claim the last items counts it, though nothing is left;
// host.Queue.NeedsSubmit would then ask for an empty submission).
func (r *Runner) needsSubmit() bool {
	return r.q.NeedsSubmit() && r.Pending() > 0
}

// Pending is the number of items published and not yet claimed
// (Σ TAIL[p] − HEAD[p] in the host copy).
func (r *Runner) Pending() uint32 { return pendingItems(r.q.Control()) }

// progress records the generation's items in r's report rep: published
// (since Open or Reset), spawned on the GPU, and DONE_COUNT of control.
func (r *Runner) progress(rep *decode.MegakernelReport, control []byte) {
	var spawned uint64
	if t, on := r.Spawn(); on {
		spawned = uint64(t.Spawned)
	}
	rep.RecordProgress(r.pub.items, spawned, uint64(abi.Word(control, abi.CtrlDoneCount)))
}

// accountRequeues records the requeues and aged promotions st counted.
func accountRequeues(acct *decode.PriorityRequeueAccounting, st host.RequeueStats) {
	for i := 0; i < st.Requeued-st.Promoted; i++ {
		acct.RecordRequeue(st.MaxAge)
	}
	for i := 0; i < st.Promoted; i++ {
		acct.RecordAgedPromotion(abi.PriorityAgeThreshold)
	}
}
