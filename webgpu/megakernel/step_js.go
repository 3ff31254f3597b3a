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
	return r.opts.recommend(r.dev.Limits(), pendingItems(control), r.lay, tel)
}

// Warm starts compiling the pipelines the next Step would use for what is
// published now, and returns before they are ready: the compile (300 ms
// for the first JIT program on SwiftShader) then overlaps what the caller
// does next, such as the page's first render. The next Step waits for it;
// a failed compile is that Step's to report.
func (r *Runner) Warm(ctx context.Context) {
	if r.warming != nil || r.usable("warm") != nil {
		return
	}
	rec, err := r.planLaunch()
	if err != nil {
		return
	}
	done := make(chan struct{})
	r.warming = done
	go func() {
		defer close(done)
		if _, key, hit, err := r.pipeline(ctx, rec.WorkgroupSizeX, r.opts.jit(rec)); err == nil && !hit {
			r.warmed = key
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
	t0 := time.Now()
	before := r.dev.Stats()

	// Plan.
	control := r.q.Control()
	queued := pendingItems(control)
	rec, err := r.planLaunch()
	if err != nil {
		var oom *decode.OutOfMemoryError
		if errors.As(err, &oom) {
			return err
		}
		return r.fail("plan launch", err)
	}
	width := rec.WorkgroupSizeX
	grid := r.opts.gridFor(rec, queued, clampU32(r.dev.Limits().MaxComputeWorkgroupsPerDimension), r.cpuAdapter())
	jit := r.opts.jit(rec)

	// Resources.
	created, err := r.ensureBuffers(ctx)
	if err != nil {
		return err
	}
	if r.warming != nil {
		<-r.warming
		r.warming = nil
	}
	drain, key, hit, err := r.pipeline(ctx, width, jit)
	if err != nil {
		return err
	}
	if key == r.warmed {
		hit, r.warmed = false, ""
	}
	var reduce *reducePipelines
	if r.summaryOn() {
		var sumHit bool
		if reduce, sumHit, err = r.ensureSummary(ctx, width, created); err != nil {
			return err
		}
		hit = hit && sumHit
	}
	tPrepared := time.Now()

	// Upload.
	if err := r.upload(ctx); err != nil {
		return err
	}
	tUploaded := time.Now()

	// Encode and submit.
	readRing := r.opts.RingReadback == RingAlways || r.wantRing
	headsBefore := heads(control)
	stage := r.staging[r.epochs%2]
	if err := r.submit(drain, grid, stage, readRing, reduce, width); err != nil {
		return err
	}
	r.epochs++
	r.current = [3]bool{}
	tSubmitted := time.Now()

	// Read back: one map of the staging range this step filled.
	from, to := r.lay.controlOffset(), r.lay.ringOffset()
	if r.querySet != nil {
		from = 0
	}
	if readRing {
		to += r.lay.ring
	}
	if uint64(len(r.rb)) < r.lay.staging() {
		r.rb = make([]byte, r.lay.staging())
	}
	bound := r.opts.submissionTimeout()
	r.watch.arm(r.dev, bound)
	err = stage.MapReadInto(ctx, r.rb[from:to], from)
	if r.watch.disarm() {
		return r.runaway(bound)
	}
	if err != nil {
		return r.fail("read back", err)
	}
	tRead := time.Now()

	// Absorb and decode.
	cb := r.rb[r.lay.controlOffset() : r.lay.controlOffset()+r.lay.control]
	lb := r.rb[r.lay.logOffset() : r.lay.logOffset()+r.lay.log]
	var rb []byte
	if readRing {
		rb = r.rb[r.lay.ringOffset() : r.lay.ringOffset()+r.lay.ring]
	}
	var gpu time.Duration
	if r.querySet != nil {
		r.ts = webgpu.DecodeTimestamps(r.ts, r.rb[:timestampBytes])
		if len(r.ts) == 2 {
			gpu, _ = webgpu.TimestampInterval(r.ts[0], r.ts[1])
		}
	}
	if err := r.q.Absorb(cb, rb, lb); err != nil {
		return r.fail("absorb", err)
	}
	r.current = [3]bool{host.ControlBuffer: true, host.LogBuffer: true, host.RingBuffer: readRing}
	if readRing {
		r.wantRing = false
	}
	// One decode of what came back: the ring, the GPU summary, or control
	// alone (the host copy's slots are then what the host wrote, which
	// Telemetry decodes when asked, slotsStale, not every Step).
	b := decode.Buffers{Control: r.q.Control(), Log: r.q.Log()}
	summary := r.summaryOn() && !readRing
	switch {
	case summary:
		b.Summary = r.rb[r.lay.summaryOffset():r.lay.statusMapOffset()]
		b.StatusMap = r.rb[r.lay.statusMapOffset():r.lay.ringOffset()]
	case readRing:
		b.Ring = r.q.Ring()
	}
	if _, _, err := r.dec.Decode(b); err != nil {
		return r.fail("decode", err)
	}
	r.slotsStale = !summary && !readRing
	if summary {
		// The GPU writes only the STATUS words of the slots it claims, so
		// the status map brings the host copy up to date without the ring:
		// publishes, requeues and fault reclaims need no ring read.
		if err := r.q.AbsorbStatusMap(b.StatusMap); err != nil {
			return r.fail("absorb status map", err)
		}
	}
	tDecoded := time.Now()

	// Account.
	after := r.dev.Stats()
	t := rec.DispatchTelemetry()
	if jit {
		t.ExecutionMode = decode.ModeJIT
	} else {
		t.ExecutionMode = decode.ModeInterpreter
	}
	t.BytesUploaded = after.BytesWritten - before.BytesWritten
	t.BytesReadBack = after.BytesRead - before.BytesRead
	t.BytesMoved = t.BytesUploaded + t.BytesReadBack
	t.ResidentAllocations = uint32(after.BuffersCreated - before.BuffersCreated)
	t.KernelLaunches = uint32(after.DispatchCalls - before.DispatchCalls)
	t.SyncPoints = uint32(after.PromisesAwaited - before.PromisesAwaited)
	t.ReadbackBuffers = uint32(after.Maps - before.Maps)
	t.CompiledPipelineCacheHit = hit
	t.ResidentInputCacheHit = !created
	*ep = Epoch{
		Index:    r.epochs,
		Launch:   rec,
		Program:  key,
		Grid:     grid,
		Width:    width,
		Queued:   queued,
		GPUTime:  gpu,
		Claimed:  claimed(headsBefore, heads(r.q.Control())),
		RingRead: readRing,
	}
	t.OccupancyProxyBps = decode.OccupancyProxyBps(ep.Claimed, ep.Lanes())
	t.FrontierDensityBps = decode.FrontierDensityBps(uint64(r.scan.active), uint64(r.q.Slots()))
	ep.Telemetry = t
	ep.Timings = Timings{
		Publish:  r.pubTime,
		Prepare:  tPrepared.Sub(t0),
		Upload:   tUploaded.Sub(tPrepared),
		Submit:   tSubmitted.Sub(tUploaded),
		Readback: tRead.Sub(tSubmitted),
		Decode:   tDecoded.Sub(tRead),
		Total:    tDecoded.Sub(t0),
	}
	r.pubTime = 0
	return nil
}

// submit encodes the drain and finalize dispatches, the reduce pass when
// reduce is not nil (RingSummary), and the copies into stage, in one
// command buffer, and submits it.
func (r *Runner) submit(drain *webgpu.ComputePipeline, grid uint32, stage *webgpu.Buffer, readRing bool, reduce *reducePipelines, width uint32) error {
	enc, err := r.dev.CreateCommandEncoder("ringscope step")
	if err != nil {
		return r.fail("encode", err)
	}
	if reduce != nil {
		r.sum.encodeClear(enc)
	}
	desc := webgpu.ComputePassDescriptor{Label: "ringscope drain"}
	if r.querySet != nil {
		r.drainTimestamps = webgpu.ComputePassTimestampWrites{QuerySet: r.querySet, BeginningOfPassWriteIndex: 0, EndOfPassWriteIndex: 1}
		desc.TimestampWrites = &r.drainTimestamps // the runner's: no allocation per submission
	}
	r.encodeStaged(enc)
	pass := enc.BeginComputePass(desc)
	pass.SetPipeline(drain)
	pass.SetBindGroup(abi.BindGroup, r.bindGroup)
	pass.DispatchWorkgroups(grid, 1, 1)
	// A dispatch boundary is a global barrier: finalize sees every
	// overshooting ticket of the drain.
	pass.SetPipeline(r.finalize)
	pass.DispatchWorkgroups(1, 1, 1)
	pass.End()
	// Its own pass, so the drain pass's timestamps time the drain alone.
	if reduce != nil {
		r.sum.encodePass(enc, r.reduceTarget(), reduce, width)
	}
	if r.querySet != nil {
		enc.ResolveQuerySet(r.querySet, 0, 2, r.resolve, 0)
		enc.CopyBufferToBuffer(r.resolve, 0, stage, 0, timestampBytes)
	}
	enc.CopyBufferToBuffer(r.bufs[bufControl], 0, stage, r.lay.controlOffset(), r.lay.control)
	enc.CopyBufferToBuffer(r.bufs[bufLog], 0, stage, r.lay.logOffset(), r.lay.log)
	if reduce != nil {
		enc.CopyBufferToBuffer(r.sum.buf, 0, stage, r.lay.summaryOffset(), r.lay.summary)
		enc.CopyBufferToBuffer(r.sum.statusMap, 0, stage, r.lay.statusMapOffset(), r.lay.statusMap)
	}
	if readRing {
		enc.CopyBufferToBuffer(r.bufs[bufRing], 0, stage, r.lay.ringOffset(), r.lay.ring)
	}
	cmd, err := enc.Finish()
	if err != nil {
		return r.fail("encode", err)
	}
	if err := r.dev.Queue().Submit(cmd); err != nil {
		return r.fail("submit", err)
	}
	return r.remapStaged()
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

func (r *Runner) progress(rep *decode.MegakernelReport) {
	rep.RecordProgress(r.pubItems, uint64(word(r.q.Control(), abi.CtrlDoneCount)))
}

func (r *Runner) account(st host.RequeueStats) {
	for i := 0; i < st.Requeued-st.Promoted; i++ {
		r.acct.RecordRequeue(st.MaxAge)
	}
	for i := 0; i < st.Promoted; i++ {
		r.acct.RecordAgedPromotion(abi.PriorityAgeThreshold)
	}
}
