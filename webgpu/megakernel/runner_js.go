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
	querySet        *webgpu.QuerySet
	resolve         *webgpu.Buffer
	ts              []uint64
	drainTimestamps webgpu.ComputePassTimestampWrites

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
	// watch bounds each submission's readback wait (runaway_js.go).
	watch watchdog

	rb      []byte // readback destination, reused
	writes  []host.ByteRange
	scan    ringScan
	lastKey struct {
		key     string
		width   uint32
		jit     bool
		opcodes []uint32
	}
	params [paramsBytes]byte // the params uniform's bytes on the device
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

// Close destroys the runner's buffers. The device stays the caller's.
func (r *Runner) Close() {
	if r.closed {
		return
	}
	r.release()
	r.closed = true
}
