//go:build js && wasm

package megakernel

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// binding indices of Runner.bufs, in PROTOCOL §1 order.
const (
	bufControl = abi.BindingControl
	bufRing    = abi.BindingRing
	bufLog     = abi.BindingLog
	bufParams  = abi.BindingParams
	bufData    = abi.BindingData
	bufCount   = 5
)

// ErrClosed is returned by every method of a closed Runner.
var ErrClosed = errors.New("megakernel: runner is closed")

// Runner drives the megakernel on one WebGPU device: it owns the host copy
// of the ring (a host.Queue, the truth), the resident device buffers, the
// compiled pipelines and the readback staging, and turns each submission
// into an Epoch. It is not safe for concurrent use; call its methods from
// one goroutine (never from inside a JS callback). The zero value is not
// usable: create one with Open.
type Runner struct {
	dev  *webgpu.Device
	cpu  cpuCache
	opts Options
	lay  layout
	q    *host.Queue
	io   host.IOFunc

	// Device resources, created lazily by Step and dropped by Rebind.
	drainModule, finalizeModule *webgpu.ShaderModule
	bgl                         *webgpu.BindGroupLayout
	pipeLayout                  *webgpu.PipelineLayout
	pipelines                   map[string]*webgpu.ComputePipeline
	finalize                    *webgpu.ComputePipeline
	// warming is closed when Warm's compile ends (nil: none in flight);
	// warmed is the pipeline key it compiled, which the next Step counts
	// as a miss: that Step waited for the compile.
	warming   chan struct{}
	warmed    string
	bufs      [bufCount]*webgpu.Buffer
	staging   [2]*webgpu.Buffer
	bindGroup *webgpu.BindGroup
	// Timestamp queries of the drain pass, when the device has the
	// timestamp-query feature.
	querySet *webgpu.QuerySet
	resolve  *webgpu.Buffer
	ts       []uint64

	// fresh marks device buffers that hold none of the host copy yet (new,
	// or on a new device): the next upload writes them whole.
	fresh [bufCount]bool
	// current marks host copies equal to the device's outside the dirty
	// ranges (read back since the last submission): only then may an
	// upload merge ranges across clean words.
	current  [3]bool
	wantRing bool
	// slotsStale marks tel's slot fields as older than the host copy: the
	// last Step read no ring and decoded control alone (Telemetry decodes
	// the slots when asked). The launch policy reads the slot fields of the
	// last ring decode meanwhile.
	slotsStale bool

	sum summary // RingSummary's resources
	up  upStage // the ring's mapped upload staging (upload_js.go)

	// userBufs are the user buffers of opts.Kernel (wasm/openopts reads them);
	// prepared a drain module PrepareKernel compiled for the next Reset.
	userBufs []*webgpu.Buffer
	prepared preparedKernel

	rb      []byte // readback destination, reused
	writes  []host.ByteRange
	scan    ringScan
	lastKey struct {
		key     string
		width   uint32
		jit     bool
		opcodes []uint32
	}
	params [paramsBytes]byte
	// dec decodes every readback (decode.Decoder): its telemetry and log
	// are Telemetry and Log.
	dec      decode.Decoder
	acct     decode.PriorityRequeueAccounting
	epochs   uint64
	pubItems uint64
	pubTime  time.Duration
	closed   bool
}

// Open validates opts against dev's limits (Options.Validate: nothing is
// allocated for options it refuses), creates the host copy of a fresh ring
// and compiles the two shader modules. Buffers and pipelines are created
// by the first Step, which reports them.
func Open(ctx context.Context, dev *webgpu.Device, opts Options) (*Runner, error) {
	if dev == nil {
		return nil, errors.New("megakernel: open: nil device")
	}
	if err := dev.Err(); err != nil {
		return nil, fmt.Errorf("megakernel: open: %w", err)
	}
	opts = cloneOptions(opts)
	lay, err := opts.plan(dev.Limits())
	if err != nil {
		return nil, err
	}
	q, err := host.NewQueue(opts.controlConfig(), opts.LogCapacity)
	if err != nil {
		return nil, fmt.Errorf("megakernel: open: %w", err)
	}
	r := &Runner{dev: dev, opts: opts, lay: lay, q: q}
	if err := r.compileModules(ctx); err != nil {
		return nil, err
	}
	r.decodeHostCopy()
	return r, nil
}

// decodeHostCopy decodes the fresh host copy, so Telemetry describes the
// new ring (every slot EMPTY) before the first Step rather than nothing.
func (r *Runner) decodeHostCopy() {
	r.dec.Reset()
	r.dec.SetWindowOpcodes(r.opts.WindowOpcodes)
	r.slotsStale = false
	_, _, _ = r.dec.Decode(decode.Buffers{Control: r.q.Control(), Ring: r.q.Ring()})
}

func cloneOptions(o Options) Options {
	if o.Masks != nil {
		o.Masks = append([]uint32(nil), o.Masks...)
	}
	o.WindowOpcodes = append([]uint32(nil), o.WindowOpcodes...)
	o.Data = append([]byte(nil), o.Data...)
	o.Kernel = o.Kernel.Clone()
	return o
}

// fail wraps err for op, adding webgpu.ErrDeviceLost when the device is
// gone so that every error path of a lost device matches it.
func (r *Runner) fail(op string, err error) error {
	if lost := r.dev.Err(); lost != nil && !errors.Is(err, webgpu.ErrDeviceLost) {
		return fmt.Errorf("megakernel: %s: %w (%w)", op, err, lost)
	}
	return fmt.Errorf("megakernel: %s: %w", op, err)
}

func (r *Runner) usable(op string) error {
	if r.closed {
		return ErrClosed
	}
	if err := r.dev.Err(); err != nil {
		return fmt.Errorf("megakernel: %s: %w", op, err)
	}
	return nil
}

// compileModules compiles the drain and finalize modules at once: each
// waits for its compilation info, and the implementation compiles them in
// parallel (startup waits for the slower, not the sum).
func (r *Runner) compileModules(ctx context.Context) error {
	var drainErr, finalizeErr error
	var wg sync.WaitGroup
	if r.drainModule == nil {
		wg.Go(func() {
			var m *webgpu.ShaderModule
			if m, drainErr = compileDrain(ctx, r.dev, &r.opts.Kernel); drainErr == nil {
				r.drainModule = m
			}
		})
	}
	if r.finalizeModule == nil {
		wg.Go(func() {
			var m *webgpu.ShaderModule
			if m, finalizeErr = r.dev.CreateShaderModule(ctx, "ringscope finalize", wgsl.FinalizeSource()); finalizeErr == nil {
				r.finalizeModule = m
			}
		})
	}
	wg.Wait()
	var ce *CompileError
	if errors.As(drainErr, &ce) {
		return drainErr
	}
	if drainErr != nil {
		return r.fail("compile drain", drainErr)
	}
	if finalizeErr != nil {
		return r.fail("compile finalize", finalizeErr)
	}
	return nil
}

// Device returns the device the runner works on.
func (r *Runner) Device() *webgpu.Device { return r.dev }

// Options returns the runner's options (a copy of what Open or Reset got).
func (r *Runner) Options() Options { return cloneOptions(r.opts) }

// SetIOFunc sets the function Drain services WAIT_IO slots with; nil (the
// default) answers every request at once with a NOP (host.Queue.Requeue).
func (r *Runner) SetIOFunc(io host.IOFunc) { r.io = io }

// Publish appends items to the ring's host copy (host.Queue.Publish: the
// batch is validated whole, a full partition is back-pressure); the next
// Step uploads them. It returns the number published.
func (r *Runner) Publish(items []host.Item) (int, error) {
	if r.closed {
		return 0, ErrClosed
	}
	t0 := time.Now()
	n, err := r.q.Publish(items)
	r.pubTime += time.Since(t0)
	r.pubItems += uint64(n)
	if err != nil {
		return n, fmt.Errorf("megakernel: publish: %w", err)
	}
	return n, nil
}

// Published is the number of items published since Open or the last Reset.
func (r *Runner) Published() uint64 { return r.pubItems }

// SetTenantMask enables or disables tenant for the following submissions.
// Slots of a disabled tenant end YIELD (DENIED) and stay parked until it is
// enabled again.
func (r *Runner) SetTenantMask(tenant uint32, on bool) error {
	if r.closed {
		return ErrClosed
	}
	if err := r.q.SetTenantMask(tenant, on); err != nil {
		return fmt.Errorf("megakernel: %w", err)
	}
	return nil
}

// SetShutdown sets or clears the SHUTDOWN word for the following
// submissions; the SHUTDOWN opcode sets it from the GPU.
func (r *Runner) SetShutdown(on bool) { r.q.SetShutdown(on) }

// NewEpoch starts the next host epoch (host.Queue.NewEpoch): every
// tenant's quota is available again, and fault records of the following
// submissions carry the new epoch (params.epoch).
func (r *Runner) NewEpoch() { r.q.NewEpoch() }

// ReclaimFaults frees every FAULT slot (host.Queue.ReclaimFaults) so its
// partition can reuse it; read the faults' telemetry first.
func (r *Runner) ReclaimFaults() int { return r.q.ReclaimFaults() }

// RequestRing makes the next Step read the ring back under RingOnDemand.
func (r *Runner) RequestRing() { r.wantRing = true }

// Telemetry is the decoded readback of the last Step. It aliases the
// runner's storage, reused by the next Step. After a Step that read no
// ring (RingOnDemand), its slots are the host copy's, decoded here on the
// first call rather than by every Step.
func (r *Runner) Telemetry() *decode.RingTelemetry {
	r.decodeStaleSlots()
	return r.dec.Telemetry()
}

// decodeStaleSlots decodes the host copy's slots into Telemetry when the
// last Step left them undecoded.
func (r *Runner) decodeStaleSlots() {
	if r.slotsStale {
		r.slotsStale = false
		_, _, _ = r.dec.Decode(decode.Buffers{Control: r.q.Control(), Ring: r.q.Ring()})
	}
}

// Log is the decoded log of the last Step; it aliases the runner's storage.
func (r *Runner) Log() *decode.Log { return r.dec.Log() }

// Observable is OBSERVABLE[0…] as the last Step read it back.
func (r *Runner) Observable() []uint32 { return r.dec.Telemetry().Control.Observable }

// Accounting is the priority-requeue accounting of Drain's requeues since
// Open or the last Reset.
func (r *Runner) Accounting() decode.PriorityRequeueAccounting { return r.acct }

// Control, Ring and LogBytes are the host copies of the three buffers: the
// last readback plus the host's changes since. They alias the runner's
// storage; do not modify them.
func (r *Runner) Control() []byte  { return r.q.Control() }
func (r *Runner) Ring() []byte     { return r.q.Ring() }
func (r *Runner) LogBytes() []byte { return r.q.Log() }

// RingChanges is the byte ranges of the host copy of the ring, in whole
// slots, that changed since ClearRingChanges (host.Queue.RingChanges): under
// RingSummary a frame's few thousand slots, under a ring read all of them.
func (r *Runner) RingChanges() []host.ByteRange { return r.q.RingChanges() }

// ClearRingChanges forgets them.
func (r *Runner) ClearRingChanges() { r.q.ClearRingChanges() }

// DecodeHostRing decodes the host copies of control and the ring into dst
// (every slot): under RingSummary, where Telemetry holds the summary's
// fields, the slots a ring read would show, without one (the host copy
// follows the status map).
func (r *Runner) DecodeHostRing(dst *decode.RingTelemetry, scratch *decode.DecodeScratch) error {
	if err := r.dec.DecodeRing(dst, scratch, r.q.Control(), r.q.Ring()); err != nil {
		return fmt.Errorf("megakernel: decode the host copy: %w", err)
	}
	return nil
}

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
	if err := stage.MapReadInto(ctx, r.rb[from:to], from); err != nil {
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

// ensureBuffers creates the device buffers whose shape changed (or that do
// not exist), inside an out-of-memory and a validation error scope, and
// reports whether it created any.
func (r *Runner) ensureBuffers(ctx context.Context) (bool, error) {
	sizes := [bufCount]uint64{
		bufControl: r.lay.control,
		bufRing:    r.lay.ring,
		bufLog:     r.lay.log,
		bufParams:  paramsBytes,
		bufData:    r.lay.data,
	}
	usages := [bufCount]webgpu.BufferUsage{
		bufControl: webgpu.BufferUsageStorage | webgpu.BufferUsageCopySrc | webgpu.BufferUsageCopyDst,
		bufRing:    webgpu.BufferUsageStorage | webgpu.BufferUsageCopySrc | webgpu.BufferUsageCopyDst,
		bufLog:     webgpu.BufferUsageStorage | webgpu.BufferUsageCopySrc | webgpu.BufferUsageCopyDst,
		bufParams:  webgpu.BufferUsageUniform | webgpu.BufferUsageCopyDst,
		bufData:    webgpu.BufferUsageStorage | webgpu.BufferUsageCopyDst,
	}
	names := [bufCount]string{"control", "ring", "log", "params", "data"}
	missing := r.bindGroup == nil || len(r.userBufs) != len(r.opts.Kernel.Buffers)
	for i, b := range r.bufs {
		missing = missing || b == nil || b.Size() != sizes[i]
	}
	for _, s := range r.staging {
		missing = missing || s == nil || s.Size() != r.lay.staging()
	}
	timestamps := r.dev.HasFeature(webgpu.FeatureTimestampQuery)
	missing = missing || (timestamps && r.querySet == nil)
	if !missing {
		return false, nil
	}
	if err := r.ensureLayout(); err != nil {
		return false, err
	}
	if err := r.pushScopes(); err != nil {
		return false, err
	}
	var err error
	for i := range r.bufs {
		if r.bufs[i] != nil && r.bufs[i].Size() == sizes[i] {
			continue
		}
		if r.bufs[i] != nil {
			r.bufs[i].Destroy()
		}
		r.bufs[i], err = r.dev.CreateBuffer(webgpu.BufferDescriptor{
			Label: "ringscope " + names[i], Size: sizes[i], Usage: usages[i],
		})
		if err != nil {
			r.bufs[i] = nil
			break
		}
		r.fresh[i] = true
	}
	if err == nil {
		err = r.ensureUserBuffers()
	}
	for i := range r.staging {
		if err != nil || (r.staging[i] != nil && r.staging[i].Size() == r.lay.staging()) {
			continue
		}
		if r.staging[i] != nil {
			r.staging[i].Destroy()
		}
		r.staging[i], err = r.dev.CreateBuffer(webgpu.BufferDescriptor{
			Label: fmt.Sprintf("ringscope readback %d", i), Size: r.lay.staging(),
			Usage: webgpu.BufferUsageMapRead | webgpu.BufferUsageCopyDst,
		})
		if err != nil {
			r.staging[i] = nil
		}
	}
	if err == nil && timestamps && r.querySet == nil {
		r.querySet, err = r.dev.CreateQuerySet(webgpu.QuerySetDescriptor{Label: "ringscope drain pass", Type: webgpu.QueryTypeTimestamp, Count: 2})
		if err == nil {
			r.resolve, err = r.dev.CreateBuffer(webgpu.BufferDescriptor{Label: "ringscope timestamps", Size: timestampBytes,
				Usage: webgpu.BufferUsageQueryResolve | webgpu.BufferUsageCopySrc})
		}
		if err != nil {
			r.querySet, r.resolve = nil, nil
		}
	}
	if err == nil {
		entries := make([]webgpu.BindGroupEntry, bufCount)
		for i, b := range r.bufs {
			entries[i] = webgpu.BindGroupEntry{Binding: uint32(i), Buffer: b}
		}
		entries = append(entries, r.userEntries()...)
		r.bindGroup, err = r.dev.CreateBindGroup(webgpu.BindGroupDescriptor{
			Label: "ringscope bindings", Layout: r.bgl, Entries: entries,
		})
	}
	if serr := r.popScopes(ctx); err == nil {
		err = serr
	}
	if err != nil {
		r.bindGroup = nil
		return true, r.fail("create buffers", err)
	}
	return true, nil
}

func (r *Runner) pushScopes() error {
	if err := r.dev.PushErrorScope(webgpu.ErrorFilterOutOfMemory); err != nil {
		return r.fail("push error scope", err)
	}
	if err := r.dev.PushErrorScope(webgpu.ErrorFilterValidation); err != nil {
		return r.fail("push error scope", err)
	}
	return nil
}

func (r *Runner) popScopes(ctx context.Context) error {
	verr := r.dev.PopErrorScope(ctx)
	oerr := r.dev.PopErrorScope(ctx)
	return errors.Join(oerr, verr)
}

// ensureLayout creates the explicit bind group and pipeline layouts of
// PROTOCOL §1, shared by the drain and the finalize pipelines.
func (r *Runner) ensureLayout() error {
	if r.pipeLayout != nil {
		return nil
	}
	storage := webgpu.BufferBindingLayout{Type: webgpu.BufferBindingStorage}
	entries := []webgpu.BindGroupLayoutEntry{
		{Binding: abi.BindingControl, Buffer: storage},
		{Binding: abi.BindingRing, Buffer: storage},
		{Binding: abi.BindingLog, Buffer: storage},
		{Binding: abi.BindingParams, Buffer: webgpu.BufferBindingLayout{Type: webgpu.BufferBindingUniform}},
		{Binding: abi.BindingData, Buffer: webgpu.BufferBindingLayout{Type: webgpu.BufferBindingReadOnlyStorage}},
	}
	entries = append(entries, r.userLayoutEntries()...)
	bgl, err := r.dev.CreateBindGroupLayout(webgpu.BindGroupLayoutDescriptor{Label: "ringscope abi v1", Entries: entries})
	if err != nil {
		return r.fail("create bind group layout", err)
	}
	pl, err := r.dev.CreatePipelineLayout(webgpu.PipelineLayoutDescriptor{Label: "ringscope abi v1", BindGroupLayouts: []*webgpu.BindGroupLayout{bgl}})
	if err != nil {
		return r.fail("create pipeline layout", err)
	}
	r.bgl, r.pipeLayout = bgl, pl
	return nil
}

// pipeline returns the drain pipeline for width and mode, compiling it on
// a cache miss, with its cache key; hit reports that both the drain and
// the finalize pipeline were reused.
func (r *Runner) pipeline(ctx context.Context, width uint32, jit bool) (p *webgpu.ComputePipeline, key string, hit bool, err error) {
	if err := r.compileModules(ctx); err != nil {
		return nil, "", false, err
	}
	if err := r.ensureLayout(); err != nil {
		return nil, "", false, err
	}
	// Warm's compile may end after Rebind or Close released the
	// pipelines: its results belong to the layout it started with.
	layout := r.pipeLayout
	key = r.pipelineKey(width, jit)
	hit = r.finalize != nil
	p = r.pipelines[key]
	// The finalize and drain pipelines compile at once (the first Step
	// needs both): the implementation compiles them in parallel.
	var finalizeErr error
	var wg sync.WaitGroup
	if r.finalize == nil {
		wg.Go(func() {
			fp := wgsl.Finalize()
			var fin *webgpu.ComputePipeline
			fin, finalizeErr = r.dev.CreateComputePipelineAsync(ctx, webgpu.ComputePipelineDescriptor{
				Label: fp.Label, Layout: r.pipeLayout, Module: r.finalizeModule, EntryPoint: fp.EntryPoint, Constants: fp.Constants,
			})
			if finalizeErr == nil && r.pipeLayout == layout {
				r.finalize = fin
			}
		})
	}
	if p != nil {
		wg.Wait()
		if finalizeErr != nil {
			return nil, key, false, r.fail("create finalize pipeline", finalizeErr)
		}
		return p, key, hit, nil
	}
	var prog wgsl.Program
	if jit {
		prog = r.opts.Kernel.JIT(width, r.scan.opcodes)
	} else {
		prog = r.opts.Kernel.Drain(width)
	}
	consts := maps.Clone(prog.Constants)
	if r.workgroupClaims() {
		consts[wgsl.WorkgroupClaims] = 1
	}
	p, err = r.dev.CreateComputePipelineAsync(ctx, webgpu.ComputePipelineDescriptor{
		Label: prog.Label, Layout: r.pipeLayout, Module: r.drainModule, EntryPoint: prog.EntryPoint, Constants: consts,
	})
	wg.Wait()
	if finalizeErr != nil {
		return nil, key, false, r.fail("create finalize pipeline", finalizeErr)
	}
	if err != nil {
		return nil, key, false, r.fail("create drain pipeline", err)
	}
	if r.pipeLayout != layout {
		return nil, key, false, errors.New("megakernel: pipelines released while compiling")
	}
	if r.pipelines == nil {
		r.pipelines = make(map[string]*webgpu.ComputePipeline)
	}
	r.pipelines[key] = p
	return p, key, false, nil
}

// testCompareExchange, when set by a test, clears ParamFlagUnlapped from
// every upload: the drain claims every slot by compare-exchange.
var testCompareExchange bool

// testWorkgroupClaims, when set by a test, overrides workgroupClaims.
var testWorkgroupClaims *bool

// workgroupClaims reports whether the drain claims tickets by workgroup
// (wgsl.WorkgroupClaims): only on an adapter known to be a GPU. On a CPU
// adapter (SwiftShader) the barriers cost more than the per-lane atomics
// they replace (bench/results-ring-earlier.md), and a device without
// adapter info, or whose info lacks isFallbackAdapter but names SwiftShader
// (Chromium's page measured 0.69x the frame rate with them on), keeps the
// per-lane loop.
func (r *Runner) workgroupClaims() bool {
	if testWorkgroupClaims != nil {
		return *testWorkgroupClaims
	}
	info, ok := r.dev.AdapterInfo()
	if !ok || info.IsFallbackAdapter {
		return false
	}
	name := strings.ToLower(info.Vendor + " " + info.Architecture + " " + info.Device + " " + info.Description)
	return !strings.Contains(name, "swiftshader") && !strings.Contains(name, "llvmpipe")
}

// pipelineKey names the drain pipeline of width and mode; the last key is
// kept, so a steady state builds no string.
func (r *Runner) pipelineKey(width uint32, jit bool) string {
	k := &r.lastKey
	if k.key != "" && k.width == width && k.jit == jit && (!jit || slices.Equal(k.opcodes, r.scan.opcodes)) {
		return k.key
	}
	k.width, k.jit, k.opcodes = width, jit, append(k.opcodes[:0], r.scan.opcodes...)
	if jit {
		k.key = fmt.Sprintf("%s/x%d", r.opts.Kernel.JITKey(r.scan.opcodes), width)
	} else {
		k.key = fmt.Sprintf("interpreter/x%d", width)
	}
	return k.key
}

// upload writes what the device lacks: whole buffers that are fresh, else
// the host queue's dirty ranges (coalesced), the params uniform, and the
// data binding when fresh. A large upload of dirty ring ranges goes
// through the mapped staging (stageRing) instead of writeBuffer; a fresh
// ring (the first Step, Rebind) keeps writeBuffer, so a page's startup
// creates no staging it may never use again.
func (r *Runner) upload(ctx context.Context) error {
	wq := r.dev.Queue()
	srcs := [3][]byte{host.ControlBuffer: r.q.Control(), host.RingBuffer: r.q.Ring(), host.LogBuffer: r.q.Log()}
	bind := [3]int{host.ControlBuffer: bufControl, host.RingBuffer: bufRing, host.LogBuffer: bufLog}
	for b, src := range srcs {
		dst := r.bufs[bind[b]]
		if r.fresh[bind[b]] {
			r.writes = append(r.writes[:0], host.ByteRange{Start: 0, End: len(src)})
		} else {
			gap := 0
			if r.current[b] {
				gap = mergeGap
			}
			r.writes = coalesce(r.writes, r.q.Dirty(host.Buffer(b)), gap)
		}
		if b == int(host.RingBuffer) && !r.fresh[bufRing] {
			staged, err := r.stageRing(ctx, src, r.writes)
			if err != nil {
				return err
			}
			if staged {
				continue
			}
		}
		for _, w := range r.writes {
			if err := wq.WriteBuffer(dst, uint64(w.Start), src[w.Start:w.End]); err != nil {
				return r.fail("upload "+host.Buffer(b).String(), err)
			}
		}
	}
	if r.fresh[bufData] {
		data := r.opts.Data
		if len(data) == 0 {
			data = r.params[:abi.WordBytes] // the params array is rewritten below
			clear(data)
		}
		if err := wq.WriteBuffer(r.bufs[bufData], 0, data); err != nil {
			return r.fail("upload data", err)
		}
	}
	params := r.q.Params(r.opts.Budget)
	if testCompareExchange {
		params.Flags &^= abi.ParamFlagUnlapped
	}
	r.params = params.Bytes()
	if err := wq.WriteBuffer(r.bufs[bufParams], 0, r.params[:]); err != nil {
		return r.fail("upload params", err)
	}
	r.q.ClearDirty()
	r.fresh = [bufCount]bool{}
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
	reducePass := func() {}
	if reduce != nil {
		reducePass = r.encodeSummary(enc, reduce, width)
	}
	desc := webgpu.ComputePassDescriptor{Label: "ringscope drain"}
	if r.querySet != nil {
		desc.TimestampWrites = &webgpu.ComputePassTimestampWrites{QuerySet: r.querySet, BeginningOfPassWriteIndex: 0, EndOfPassWriteIndex: 1}
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
	reducePass()
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

// Drain makes submissions until nothing more can progress (SHUTDOWN is
// set, or no partition has HEAD < TAIL once parked slots are republished)
// or maxSubmissions were made. Every Step reads
// the ring back; after each, YIELD slots are republished (those of a
// disabled tenant stay parked), REQUEUE slots republished with priority
// ageing and WAIT_IO slots serviced by the IOFunc. The report covers this
// call's submissions; its item counts are the generation's (published
// since Open or Reset, DONE_COUNT). Telemetry has every slot afterwards:
// under RingSummary a Drain with nothing to submit decodes the host copy,
// which equals the GPU's ring (it follows the status map).
func (r *Runner) Drain(ctx context.Context, maxSubmissions int) (decode.MegakernelReport, error) {
	var rep decode.MegakernelReport
	if err := r.usable("drain"); err != nil {
		return rep, err
	}
	var ep Epoch
	for i := 0; ; i++ {
		// Republish what the last submission parked, then decide.
		st, err := r.q.Requeue(r.io)
		r.account(st)
		if err != nil {
			r.progress(&rep)
			return rep, fmt.Errorf("megakernel: requeue: %w", err)
		}
		if i >= maxSubmissions || !r.needsSubmit() {
			if i == 0 && r.summaryOn() {
				if _, _, err := r.dec.Decode(decode.Buffers{Control: r.q.Control(), Ring: r.q.Ring()}); err != nil {
					return rep, fmt.Errorf("megakernel: decode the host copy: %w", err)
				}
			}
			break
		}
		r.wantRing = true
		if err := r.step(ctx, &ep); err != nil {
			r.progress(&rep)
			return rep, err
		}
		ep.AddTo(&rep)
	}
	r.progress(&rep)
	return rep, nil
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

// Reset starts a new generation with opts (GENERATION + 1, a fresh ring,
// counters at 0), keeping the device buffers whose shapes still match and
// every compiled pipeline. Options are validated first; on error nothing
// changes.
func (r *Runner) Reset(opts Options) error {
	if err := r.usable("reset"); err != nil {
		return err
	}
	opts = cloneOptions(opts)
	lay, err := opts.plan(r.dev.Limits())
	if err != nil {
		return err
	}
	if !opts.Kernel.SameProgram(&r.opts.Kernel) {
		if err := r.switchKernel(context.Background(), &opts.Kernel); err != nil {
			return err
		}
	} else if len(r.userBufs) > 0 {
		// A new generation starts the user buffers from their (new) initial bytes.
		r.releaseUserBuffers()
		r.bindGroup = nil
	}
	if opts.LogCapacity == r.opts.LogCapacity {
		if err := r.q.Reset(opts.controlConfig()); err != nil {
			return fmt.Errorf("megakernel: reset: %w", err)
		}
	} else {
		cfg := opts.controlConfig()
		cfg.Generation = r.q.Generation() + 1
		q, err := host.NewQueue(cfg, opts.LogCapacity)
		if err != nil {
			return fmt.Errorf("megakernel: reset: %w", err)
		}
		r.q = q
	}
	if string(opts.Data) != string(r.opts.Data) {
		r.fresh[bufData] = true
	}
	r.opts, r.lay = opts, lay
	r.sum.fresh = true // the summary params may have changed
	r.current = [3]bool{}
	r.pubItems, r.pubTime, r.acct = 0, 0, decode.PriorityRequeueAccounting{}
	r.decodeHostCopy()
	return nil
}

// Rebind moves the runner to dev, normally a new device after the old one
// was lost. Buffers and pipelines are created anew there by the next Step,
// which uploads the whole host copy: the host copy is the truth, so nothing
// published is lost, and slots already DONE in it stay DONE (work the lost
// device did after the last readback is redone).
func (r *Runner) Rebind(ctx context.Context, dev *webgpu.Device) error {
	if r.closed {
		return ErrClosed
	}
	if dev == nil {
		return errors.New("megakernel: rebind: nil device")
	}
	if err := dev.Err(); err != nil {
		return fmt.Errorf("megakernel: rebind: %w", err)
	}
	if _, err := r.opts.plan(dev.Limits()); err != nil {
		return err
	}
	r.release()
	r.dev = dev
	r.current = [3]bool{}
	return r.compileModules(ctx)
}

// release drops every device resource (destroying the buffers).
func (r *Runner) release() {
	for i, b := range r.bufs {
		if b != nil {
			b.Destroy()
		}
		r.bufs[i] = nil
	}
	for i, b := range r.staging {
		if b != nil {
			b.Destroy()
		}
		r.staging[i] = nil
	}
	r.up.release()
	if r.querySet != nil {
		r.querySet.Destroy()
	}
	if r.resolve != nil {
		r.resolve.Destroy()
	}
	r.querySet, r.resolve = nil, nil
	r.bindGroup, r.bgl, r.pipeLayout = nil, nil, nil
	r.drainModule, r.finalizeModule = nil, nil
	r.pipelines, r.finalize = nil, nil
	r.warming, r.warmed = nil, "" // a compile in flight stores nothing (pipeline)
	r.fresh = [bufCount]bool{}
	r.releaseUserBuffers()
	r.prepared = preparedKernel{}
	r.releaseSummary()
}

// Close destroys the runner's buffers. The device stays the caller's.
func (r *Runner) Close() {
	if r.closed {
		return
	}
	r.release()
	r.closed = true
}
