//go:build js && wasm

package webgpu

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"syscall/js"
	"unsafe"
)

// Queue is a device's GPUQueue.
type Queue struct {
	d          *Device
	v          js.Value
	staging    js.Value // reused Uint8Array for WriteBuffer; grows, never shrinks
	stagingCap int
	mem        goMemory // Go's memory, written from in place where found
	submitArr  js.Value // reused JS Array for Submit
}

// WriteBuffer writes data into b at offset through queue.writeBuffer.
// writeBuffer reads the bytes where they lie in the Go program's memory
// (goMemory); where that memory cannot be found they go through one staging
// Uint8Array per queue (js.CopyBytesToJS), grown only when data is larger
// than any before. offset and len(data) must be multiples of 4.
func (q *Queue) WriteBuffer(b *Buffer, offset uint64, data []byte) error {
	const op = "write buffer"
	d := q.d
	if err := d.check(op); err != nil {
		return err
	}
	n := len(data)
	switch {
	case b == nil:
		return errors.New("webgpu: write buffer: nil buffer")
	case offset%4 != 0 || n%4 != 0:
		return fmt.Errorf("webgpu: %s: offset %d and length %d must be multiples of 4", op, offset, n)
	case offset+uint64(n) > b.size:
		return fmt.Errorf("webgpu: %s: range [%d, %d) exceeds buffer %s of %d bytes", op, offset, offset+uint64(n), quote(b.label), b.size)
	case n == 0:
		return nil
	}
	if mem, ok := q.mem.buffer(); ok {
		// writeBuffer copies before it returns, so data need not outlive
		// the call; KeepAlive keeps it alive until then.
		at := uintptr(unsafe.Pointer(&data[0]))
		err := try(func() { q.v.Call("writeBuffer", b.v, offset, mem, at, n) })
		runtime.KeepAlive(data)
		if err != nil {
			return d.fail(op, err)
		}
		d.stats.bytesWritten.Add(uint64(n))
		return nil
	}
	if n > q.stagingCap {
		c := max(n, 2*q.stagingCap, 4096)
		q.staging = env().uint8Array.New(c)
		q.stagingCap = c
	}
	js.CopyBytesToJS(q.staging, data)
	if err := try(func() { q.v.Call("writeBuffer", b.v, offset, q.staging, 0, n) }); err != nil {
		return d.fail(op, err)
	}
	d.stats.bytesWritten.Add(uint64(n))
	return nil
}

// DirectUpload reports whether WriteBuffer reads Go memory in place (no
// staging copy): true under wasm_exec.js as Go ships it.
func (q *Queue) DirectUpload() bool {
	_, ok := q.mem.buffer()
	return ok
}

// Submit submits command buffers, in order. A command buffer can be
// submitted once.
func (q *Queue) Submit(cbs ...*CommandBuffer) error {
	const op = "submit"
	d := q.d
	if err := d.check(op); err != nil {
		return err
	}
	for i, cb := range cbs {
		if cb == nil {
			return fmt.Errorf("webgpu: %s: command buffer %d is nil", op, i)
		}
		if cb.submitted {
			return fmt.Errorf("webgpu: %s: command buffer %d was already submitted", op, i)
		}
	}
	arr := q.submitArr
	for i, cb := range cbs {
		arr.SetIndex(i, cb.v)
		cb.submitted = true
	}
	err := try(func() { q.v.Call("submit", arr) })
	arr.Set("length", 0) // drop the references
	if err != nil {
		return d.fail(op, err)
	}
	n := d.stats.submits.Add(1)
	d.stats.commandBuffers.Add(uint64(len(cbs)))
	d.mu.Lock()
	after := d.afterSubmit
	d.mu.Unlock()
	if after != nil {
		after(n)
	}
	return nil
}

// OnSubmittedWorkDone waits until the work submitted so far has completed.
func (q *Queue) OnSubmittedWorkDone(ctx context.Context) error {
	const op = "wait for submitted work"
	d := q.d
	if err := d.check(op); err != nil {
		return err
	}
	var p js.Value
	if err := try(func() { p = q.v.Call("onSubmittedWorkDone") }); err != nil {
		return d.fail(op, err)
	}
	if _, err := d.await(ctx, p); err != nil {
		return d.fail(op, err)
	}
	return nil
}

// CommandBuffer is a finished GPUCommandBuffer, ready for Queue.Submit.
type CommandBuffer struct {
	v         js.Value
	submitted bool
}

// CommandEncoder is a GPUCommandEncoder. Its recording methods return
// nothing: a JS exception one of them throws is kept and returned by Finish
// (the first one); WebGPU validation errors surface in error scopes.
type CommandEncoder struct {
	d   *Device
	v   js.Value
	err error
}

// CreateCommandEncoder creates a command encoder.
func (d *Device) CreateCommandEncoder(label string) (*CommandEncoder, error) {
	op := "create command encoder"
	if err := d.check(op); err != nil {
		return nil, err
	}
	var v js.Value
	err := try(func() {
		if label == "" {
			v = d.v.Call("createCommandEncoder")
		} else {
			v = d.v.Call("createCommandEncoder", d.descs.get(descKey{label: label}, func() any {
				return map[string]any{"label": label}
			}))
		}
	})
	if err != nil {
		return nil, d.fail(op, err)
	}
	return &CommandEncoder{d: d, v: v}, nil
}

func (e *CommandEncoder) record(op string, fn func()) {
	if e.err != nil {
		return
	}
	if err := try(fn); err != nil {
		e.err = fmt.Errorf("webgpu: %s: %w", op, err)
	}
}

func (e *CommandEncoder) recordf(format string, args ...any) {
	if e.err == nil {
		e.err = fmt.Errorf("webgpu: "+format, args...)
	}
}

// CopyBufferToBuffer records a copy of size bytes (a multiple of 4, at
// offsets that are multiples of 4).
func (e *CommandEncoder) CopyBufferToBuffer(src *Buffer, srcOffset uint64, dst *Buffer, dstOffset, size uint64) {
	if src == nil || dst == nil {
		e.recordf("copy buffer to buffer: nil buffer")
		return
	}
	e.record("copy buffer to buffer", func() {
		e.v.Call("copyBufferToBuffer", src.v, srcOffset, dst.v, dstOffset, size)
	})
}

// ClearBuffer records zeroing size bytes of b at offset.
func (e *CommandEncoder) ClearBuffer(b *Buffer, offset, size uint64) {
	if b == nil {
		e.recordf("clear buffer: nil buffer")
		return
	}
	e.record("clear buffer", func() { e.v.Call("clearBuffer", b.v, offset, size) })
}

// ResolveQuerySet records resolving count queries from first into dst at
// dstOffset (a multiple of 256; dst needs BufferUsageQueryResolve). Each
// timestamp becomes a little-endian u64 of nanoseconds: DecodeTimestamps.
func (e *CommandEncoder) ResolveQuerySet(qs *QuerySet, first, count uint32, dst *Buffer, dstOffset uint64) {
	if qs == nil || dst == nil {
		e.recordf("resolve query set: nil query set or buffer")
		return
	}
	e.record("resolve query set", func() {
		e.v.Call("resolveQuerySet", qs.v, first, count, dst.v, dstOffset)
	})
}

// ComputePassTimestampWrites is GPUComputePassTimestampWrites. A negative
// index is not written.
type ComputePassTimestampWrites struct {
	QuerySet                  *QuerySet
	BeginningOfPassWriteIndex int
	EndOfPassWriteIndex       int
}

// ComputePassDescriptor is GPUComputePassDescriptor. The zero value is an
// unlabelled pass without timestamps.
type ComputePassDescriptor struct {
	Label           string
	TimestampWrites *ComputePassTimestampWrites
}

// BeginComputePass begins a compute pass. The descriptor's JS object is
// built once per distinct descriptor (Device.descs), so a pass begun every
// frame builds none.
func (e *CommandEncoder) BeginComputePass(desc ComputePassDescriptor) *ComputePassEncoder {
	p := &ComputePassEncoder{e: e}
	if desc.Label == "" && desc.TimestampWrites == nil {
		e.record("begin compute pass", func() { p.v = e.v.Call("beginComputePass") })
		return p
	}
	key := descKey{pass: true, label: desc.Label}
	if tw := desc.TimestampWrites; tw != nil {
		if tw.QuerySet == nil {
			e.recordf("begin compute pass: timestampWrites without a query set")
			return p
		}
		key.timestamps, key.querySet = true, tw.QuerySet
		key.begin, key.end = tw.BeginningOfPassWriteIndex, tw.EndOfPassWriteIndex
	}
	o := e.d.descs.get(key, func() any { return passDescriptor(desc) })
	e.record("begin compute pass", func() { p.v = e.v.Call("beginComputePass", o) })
	return p
}

// passDescriptor is desc as the map js.ValueOf makes a GPUComputePassDescriptor of.
func passDescriptor(desc ComputePassDescriptor) map[string]any {
	o := map[string]any{}
	if desc.Label != "" {
		o["label"] = desc.Label
	}
	if tw := desc.TimestampWrites; tw != nil {
		w := map[string]any{"querySet": tw.QuerySet.v}
		if tw.BeginningOfPassWriteIndex >= 0 {
			w["beginningOfPassWriteIndex"] = tw.BeginningOfPassWriteIndex
		}
		if tw.EndOfPassWriteIndex >= 0 {
			w["endOfPassWriteIndex"] = tw.EndOfPassWriteIndex
		}
		o["timestampWrites"] = w
	}
	return o
}

// descCache holds the JS descriptor objects of command encoders and
// compute passes by what they describe. WebGPU reads a descriptor when it
// is called, so one object serves every call: a submission per frame then
// builds no Go map and no JS object for them. It keeps at most
// maxDescriptors (a label made per call would otherwise grow it); the
// zero value is empty.
type descCache struct {
	m map[descKey]js.Value
}

// descKey is what a cached descriptor describes.
type descKey struct {
	pass, timestamps bool
	label            string
	querySet         *QuerySet
	begin, end       int
}

const maxDescriptors = 32

// get returns key's JS object, making it from build's value (js.ValueOf)
// on a miss.
func (c *descCache) get(key descKey, build func() any) js.Value {
	if v, ok := c.m[key]; ok {
		return v
	}
	if c.m == nil || len(c.m) >= maxDescriptors {
		c.m = make(map[descKey]js.Value)
	}
	v := js.ValueOf(build())
	c.m[key] = v
	return v
}

// Finish finishes recording. It returns the first error a recording method
// met, if any.
func (e *CommandEncoder) Finish() (*CommandBuffer, error) {
	const op = "finish command encoder"
	if err := e.d.check(op); err != nil {
		return nil, err
	}
	if e.err != nil {
		return nil, e.err
	}
	var v js.Value
	if err := try(func() { v = e.v.Call("finish") }); err != nil {
		return nil, e.d.fail(op, err)
	}
	return &CommandBuffer{v: v}, nil
}

// ComputePassEncoder is a GPUComputePassEncoder. Errors its methods meet are
// reported by the command encoder's Finish.
type ComputePassEncoder struct {
	e *CommandEncoder
	v js.Value
}

// SetPipeline sets the pipeline of following dispatches.
func (p *ComputePassEncoder) SetPipeline(pl *ComputePipeline) {
	if pl == nil {
		p.e.recordf("set pipeline: nil pipeline")
		return
	}
	p.e.record("set pipeline", func() { p.v.Call("setPipeline", pl.v) })
}

// SetBindGroup sets the bind group at index, with dynamic offsets if its
// layout has any.
func (p *ComputePassEncoder) SetBindGroup(index uint32, g *BindGroup, dynamicOffsets ...uint32) {
	if g == nil {
		p.e.recordf("set bind group %d: nil bind group", index)
		return
	}
	p.e.record("set bind group", func() {
		if len(dynamicOffsets) == 0 {
			p.v.Call("setBindGroup", index, g.v)
			return
		}
		offs := make([]any, len(dynamicOffsets))
		for i, o := range dynamicOffsets {
			offs[i] = o
		}
		p.v.Call("setBindGroup", index, g.v, offs)
	})
}

// DispatchWorkgroups records a dispatch of x×y×z workgroups.
func (p *ComputePassEncoder) DispatchWorkgroups(x, y, z uint32) {
	p.e.d.stats.dispatches.Add(1)
	p.e.record("dispatch workgroups", func() { p.v.Call("dispatchWorkgroups", x, y, z) })
}

// DispatchWorkgroupsIndirect records a dispatch whose workgroup counts are
// three u32 at offset in buf (BufferUsageIndirect).
func (p *ComputePassEncoder) DispatchWorkgroupsIndirect(buf *Buffer, offset uint64) {
	if buf == nil {
		p.e.recordf("dispatch workgroups indirect: nil buffer")
		return
	}
	p.e.d.stats.dispatches.Add(1)
	p.e.record("dispatch workgroups indirect", func() { p.v.Call("dispatchWorkgroupsIndirect", buf.v, offset) })
}

// End ends the pass.
func (p *ComputePassEncoder) End() {
	p.e.record("end compute pass", func() { p.v.Call("end") })
}
