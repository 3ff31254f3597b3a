//go:build js && wasm

package megakernel

import (
	"context"

	"github.com/ringscope/ringscope/decode/tasktrace"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// tracer is a traced runner's trace buffer (binding abi.BindingTrace),
// its readback staging and the window of what came back. Each submission
// starts the buffer empty with the clock where the last one left it (a
// 16-byte header write), copies the buffer to staging after the drain
// pass, and maps it after the submission's own readback.
type tracer struct {
	dev  *webgpu.Device
	opts *Options // the runner's options (Reset replaces them in place)

	buf, stage *webgpu.Buffer
	// parents: the buffer ends with the parent table of a spawning kernel
	// (abi.TraceParents), cleared before the next submission when clear.
	parents, clear bool
	header         []byte
	rb             []byte
	dec            tasktrace.Buffer
	clock          uint32 // the next ticket: the clock word after the last pass
	budget         uint32 // BUDGET_EXHAUSTED before the submission
	win            TraceWindow
}

// traced is a Runner's tracer, embedded so that Trace is the runner's
// method while the tracer's own stay behind the field tr.
type traced struct{ tr tracer }

// traceLayoutEntries is the trace binding of k's layout, when it traces.
func traceLayoutEntries(traced bool) []webgpu.BindGroupLayoutEntry {
	if !traced {
		return nil
	}
	return []webgpu.BindGroupLayoutEntry{{Binding: abi.BindingTrace, Buffer: webgpu.BufferBindingLayout{Type: webgpu.BufferBindingStorage}}}
}

// ensure creates the trace buffer and its staging when tracing is on
// and they are missing or of another capacity (inside ensureBuffers'
// error scopes), and returns the bind group entry of the buffer.
func (t *tracer) ensure() ([]webgpu.BindGroupEntry, error) {
	capacity := t.opts.TraceCapacity
	if capacity == 0 {
		t.release()
		return nil, nil
	}
	size := traceBytes(capacity, t.opts.Slots, t.opts.Kernel.Spawns())
	if t.buf == nil || t.buf.Size() != size {
		t.release()
		var err error
		t.buf, err = t.dev.CreateBuffer(webgpu.BufferDescriptor{Label: "ringscope trace", Size: size,
			Usage: webgpu.BufferUsageStorage | webgpu.BufferUsageCopySrc | webgpu.BufferUsageCopyDst})
		if err != nil {
			return nil, err
		}
		t.parents, t.clear = t.opts.Kernel.Spawns(), false // a new buffer is zero
		t.stage, err = t.dev.CreateBuffer(webgpu.BufferDescriptor{Label: "ringscope trace readback", Size: tasktrace.Bytes(capacity),
			Usage: webgpu.BufferUsageMapRead | webgpu.BufferUsageCopyDst})
		if err != nil {
			t.release()
			return nil, err
		}
	}
	return []webgpu.BindGroupEntry{{Binding: abi.BindingTrace, Buffer: t.buf}}, nil
}

// traceBytes is the trace buffer of capacity records, with the parent
// table of a ring of slots (an entry of abi.TraceVecWords each) when the
// kernel spawns.
func traceBytes(capacity, slots uint32, spawns bool) uint64 {
	b := tasktrace.Bytes(capacity)
	if spawns {
		b += uint64(slots) * abi.TraceVecWords * abi.WordBytes
	}
	return b
}

// stale reports whether the trace buffer is not the one the options need.
func (t *tracer) stale() bool {
	o := t.opts
	if o.TraceCapacity == 0 {
		return t.buf != nil
	}
	return t.buf == nil || t.buf.Size() != traceBytes(o.TraceCapacity, o.Slots, o.Kernel.Spawns())
}

func (t *tracer) release() {
	if t.buf != nil {
		t.buf.Destroy()
	}
	if t.stage != nil {
		t.stage.Destroy()
	}
	t.buf, t.stage = nil, nil
}

// before writes the trace header for the next submission (an empty
// buffer, the clock where the last pass left it) and clears a parent
// table that a Reset left stale.
func (t *tracer) before(enc *webgpu.CommandEncoder, control []byte) error {
	if t.buf == nil {
		return nil
	}
	if t.parents && t.clear {
		at := tasktrace.Bytes(t.opts.TraceCapacity)
		enc.ClearBuffer(t.buf, at, t.buf.Size()-at)
		t.clear = false
	}
	t.header = tasktrace.Header(t.header[:0], t.opts.TraceCapacity, t.clock, t.parents)
	t.budget = abi.Word(control, abi.CtrlBudgetExhausted)
	if err := t.dev.Queue().WriteBuffer(t.buf, 0, t.header); err != nil {
		return failOn(t.dev, "write trace header", err)
	}
	return nil
}

// encode copies the trace buffer to its staging, after the drain pass.
func (t *tracer) encode(enc *webgpu.CommandEncoder) {
	if t.buf != nil {
		enc.CopyBufferToBuffer(t.buf, 0, t.stage, 0, t.stage.Size())
	}
}

// after maps the trace back and adds the pass to the window: its
// tickets [clock before, clock after), the drain pass's timestamps when
// the device has them (ts), and whether its lanes spent their budget.
func (t *tracer) after(ctx context.Context, ts []uint64, control []byte) error {
	if t.buf == nil {
		return nil
	}
	size := int(t.stage.Size())
	if cap(t.rb) < size {
		t.rb = make([]byte, size)
	}
	t.rb = t.rb[:size]
	if err := t.stage.MapReadInto(ctx, t.rb, 0); err != nil {
		return failOn(t.dev, "read back trace", err)
	}
	if err := tasktrace.DecodeDrainInto(&t.dec, t.rb); err != nil {
		return failOn(t.dev, "decode trace", err)
	}
	p := tasktrace.Pass{First: t.clock, End: t.dec.Clock}
	if len(ts) == 2 {
		if _, ok := webgpu.TimestampInterval(ts[0], ts[1]); ok {
			p.BeginNS, p.EndNS, p.Timed = ts[0], ts[1], true
		}
	}
	t.clock = t.dec.Clock
	budget := abi.Word(control, abi.CtrlBudgetExhausted) != t.budget
	t.win.add(p, budget, t.dec.Records, t.dec.Overflow, maxWindowRecords(t.opts.TraceCapacity))
	return nil
}

// Trace is the runner's trace window (docs/TRACE.md), nil when it does not
// trace. It aliases the runner's storage: the next Step appends to it.
func (t *traced) Trace() *TraceWindow {
	if t.tr.opts == nil || t.tr.opts.TraceCapacity == 0 {
		return nil
	}
	return &t.tr.win
}

// restart starts the window of a ring opened or reset on t.opts: empty,
// with the options' capacity from then on (not only once a submission
// made the buffer), and the parent table to clear (a new generation's
// slots have no parents yet).
func (t *tracer) restart() {
	t.win.Clear()
	t.win.Capacity = t.opts.TraceCapacity
	t.clear = true
}
