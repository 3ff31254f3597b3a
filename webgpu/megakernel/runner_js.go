//go:build js && wasm

package megakernel

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// The Runner: its state, Open, Reset and Close, and the host-side API
// (publish, masks, epochs, the host copy and its telemetry) that does no
// device work. The device work is split by what changes it: resources
// (resources_js.go) when shapes change, pipelines (pipelines_js.go) when
// the program changes, uploads (upload_js.go) and submissions
// (step_js.go) every frame.

// binding indices of Runner.bufs, in PROTOCOL §1 order.
const (
	bufControl = abi.BindingControl
	bufRing    = abi.BindingRing
	bufLog     = abi.BindingLog
	bufParams  = abi.BindingParams
	bufData    = abi.BindingData
	bufCount   = 5
)

// zeroWord is the data binding's contents when Options.Data is empty: a
// binding holds at least a word.
var zeroWord [abi.WordBytes]byte

// ErrClosed is returned by every method of a closed Runner.
var ErrClosed = errors.New("megakernel: runner is closed")

// Runner drives the megakernel on one WebGPU device: it owns the host copy
// of the ring (a host.Queue, the truth), the resident device buffers, the
// compiled pipelines and the readback staging, and turns each submission
// into an Epoch. It is not safe for concurrent use; call its methods from
// one goroutine (never from inside a JS callback). The zero value is not
// usable: create one with Open.
type Runner struct {
	// HostView is what the last Step read: its decoder, the host copy (the
	// queue's) and the GPU summary's bytes; Telemetry, Log, Control, Ring
	// and the others are its methods.
	HostView

	dev  *webgpu.Device
	cpu  cpuCache
	opts Options
	lay  layout
	q    *host.Queue
	io   host.IOFunc

	prog programs   // shader modules and pipelines (pipelines_js.go)
	res  resources  // device buffers and the bind group (resources_js.go)
	tq   timestamps // the drain pass's timestamp queries
	sum  summary    // decode.ReadbackSummary's resources
	sp   spawnRun   // the spawn extension (spawn_js.go)
	up   upStage    // the ring's mapped upload staging (upload_js.go)
	// traced is Options.TraceCapacity's trace buffer and window (the
	// field tr, trace_js.go); its Trace is the runner's.
	traced
	// watch bounds each submission's readback wait (runaway_js.go);
	// waits tells that wait to an observer past a grace (busy_js.go).
	watch watchdog
	waits waiter

	// current marks host copies equal to the device's outside the dirty
	// ranges (read back since the last submission): only then may an
	// upload merge ranges across clean words.
	current [3]bool
	rb      []byte // readback destination, reused
	writes  []host.ByteRange
	scan    ringScan
	acct    decode.PriorityRequeueAccounting
	epochs  uint64
	// pub is what Publish did since the last Step (time) and since Open
	// or Reset (items).
	pub struct {
		items uint64
		time  time.Duration
	}
	closed bool
}

// timestamps are the drain pass's timestamp queries, when the device has
// the timestamp-query feature: the query set, the buffer it resolves
// into, the decoded values and the pass's writes (the runner's, so a
// submission allocates none).
type timestamps struct {
	querySet *webgpu.QuerySet
	resolve  *webgpu.Buffer
	vals     []uint64
	writes   webgpu.ComputePassTimestampWrites
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
	r.sp.set(&r.opts)
	r.tr.dev, r.tr.opts = dev, &r.opts
	r.tr.restart()
	if err := r.prog.compile(ctx, r.dev, &r.opts.Kernel); err != nil {
		return nil, err
	}
	r.decodeHostCopy()
	return r, nil
}

// decodeHostCopy points the view at the queue and decodes the fresh host
// copy, so Telemetry describes the new ring (every slot EMPTY) before the
// first Step rather than nothing.
func (r *Runner) decodeHostCopy() {
	r.SetCopies(r.q, r.opts.WindowOpcodes)
	_ = r.decodeCopies()
}

func cloneOptions(o Options) Options {
	if o.Masks != nil {
		o.Masks = append([]uint32(nil), o.Masks...)
	}
	o.WindowOpcodes = append([]uint32(nil), o.WindowOpcodes...)
	o.Data = append([]byte(nil), o.Data...)
	o.Kernel = o.Kernel.Clone()
	o.Kernel.Trace = o.TraceCapacity > 0
	return o
}

// failOn wraps err for op, adding webgpu.ErrDeviceLost when dev is gone,
// so that every error path of a lost device, the Runner's and the
// Attachment's, matches it.
func failOn(dev *webgpu.Device, op string, err error) error {
	if lost := dev.Err(); lost != nil && !errors.Is(err, webgpu.ErrDeviceLost) {
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
	r.pub.time += time.Since(t0)
	r.pub.items += uint64(n)
	if err != nil {
		return n, fmt.Errorf("megakernel: publish: %w", err)
	}
	return n, nil
}

// Published is the number of items published since Open or the last Reset.
func (r *Runner) Published() uint64 { return r.pub.items }

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

// Observable is OBSERVABLE[0…] as the last Step read it back.
func (r *Runner) Observable() []uint32 { return r.dec.Telemetry().Control.Observable }

// Accounting is the priority-requeue accounting of Drain's requeues since
// Open or the last Reset.
func (r *Runner) Accounting() decode.PriorityRequeueAccounting { return r.acct }

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
	} else if len(r.res.userBufs) > 0 {
		// A new generation starts the user buffers from their (new) initial bytes.
		r.res.releaseUserBuffers()
		r.res.bindGroup = nil
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
		r.res.fresh[bufData] = true
	}
	r.opts, r.lay = opts, lay
	clearRingOnReset(r)
	r.sp.set(&r.opts)
	r.sum.fresh = true // the summary params may have changed
	r.current = [3]bool{}
	r.pub.items, r.pub.time, r.acct = 0, 0, decode.PriorityRequeueAccounting{}
	r.tr.restart()
	r.decodeHostCopy()
	return nil
}

// Close destroys the runner's buffers. The device stays the caller's.
func (r *Runner) Close() {
	if r.closed {
		return
	}
	r.release()
	r.waits.stop()
	r.closed = true
}
