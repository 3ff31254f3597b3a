//go:build js && wasm

package webgpu

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"syscall/js"
	"time"
)

// BufferDescriptor is GPUBufferDescriptor.
type BufferDescriptor struct {
	Label            string
	Size             uint64 // bytes
	Usage            BufferUsage
	MappedAtCreation bool
}

// Buffer is a GPUBuffer.
type Buffer struct {
	d         *Device
	v         js.Value
	label     string
	size      uint64
	usage     BufferUsage
	destroyed atomic.Bool
	// borrowed marks a buffer JavaScript created (WrapBuffer): it is its
	// creator's to destroy, so Destroy leaves it alone.
	borrowed bool
	// A MAP_WRITE buffer's map in flight (BeginMapWrite) and, once mapped
	// (MapWrite), a Uint8Array over all of it, until Unmap.
	mapping *pending
	mapped  js.Value
}

// CreateBuffer creates a buffer. Descriptors WebGPU would reject for a
// reason known here (no usage, MAP_READ with usages other than COPY_DST,
// size above maxBufferSize) fail at once with a Go error; others surface
// through error scopes.
func (d *Device) CreateBuffer(desc BufferDescriptor) (*Buffer, error) {
	op := "create buffer " + quote(desc.Label)
	if err := d.check(op); err != nil {
		return nil, err
	}
	switch {
	case desc.Usage == 0:
		return nil, fmt.Errorf("webgpu: %s: usage is empty", op)
	case desc.Usage&BufferUsageMapRead != 0 && desc.Usage&^(BufferUsageMapRead|BufferUsageCopyDst) != 0:
		return nil, fmt.Errorf("webgpu: %s: MAP_READ combines only with COPY_DST (usage %#x)", op, uint32(desc.Usage))
	case desc.Usage&BufferUsageMapWrite != 0 && desc.Usage&^(BufferUsageMapWrite|BufferUsageCopySrc) != 0:
		return nil, fmt.Errorf("webgpu: %s: MAP_WRITE combines only with COPY_SRC (usage %#x)", op, uint32(desc.Usage))
	case d.limits.MaxBufferSize != 0 && desc.Size > d.limits.MaxBufferSize:
		return nil, fmt.Errorf("webgpu: %s: size %d exceeds maxBufferSize %d", op, desc.Size, d.limits.MaxBufferSize)
	case desc.MappedAtCreation && desc.Size%4 != 0:
		return nil, fmt.Errorf("webgpu: %s: size %d of a buffer mapped at creation is not a multiple of 4", op, desc.Size)
	}
	o := map[string]any{"size": float64(desc.Size), "usage": uint32(desc.Usage)}
	if desc.Label != "" {
		o["label"] = desc.Label
	}
	if desc.MappedAtCreation {
		o["mappedAtCreation"] = true
	}
	var v js.Value
	if err := try(func() { v = d.v.Call("createBuffer", o) }); err != nil {
		return nil, d.fail(op, err)
	}
	d.stats.buffersCreated.Add(1)
	return &Buffer{d: d, v: v, label: desc.Label, size: desc.Size, usage: desc.Usage}, nil
}

// Size returns the buffer's size in bytes.
func (b *Buffer) Size() uint64 { return b.size }

// Usage returns the buffer's usage flags.
func (b *Buffer) Usage() BufferUsage { return b.usage }

// Label returns the buffer's label.
func (b *Buffer) Label() string { return b.label }

// Destroy destroys the buffer; later use is a validation error. Destroying
// twice, on a lost device, or a borrowed buffer (WrapBuffer), does nothing.
func (b *Buffer) Destroy() {
	if b.borrowed || b.destroyed.Swap(true) {
		return
	}
	b.d.stats.buffersDestroyed.Add(1)
	if p := b.mapping; p != nil {
		b.mapping = nil
		go p.wait(context.Background()) // destroy rejects the map: release its funcs
	}
	b.mapped = js.Undefined()
	if b.d.isAbandoned() {
		return // its device's work may never end: leave it alone (Device.Abandon)
	}
	_ = try(func() { b.v.Call("destroy") })
}

// BeginMapWrite starts mapping a MAP_WRITE buffer for writing, all of it
// (mapAsync(WRITE)), without waiting; MapWrite waits for it. Started right
// after the submission that last read the buffer, the map is ready by the
// time the next upload needs it, and MapWrite costs no extra wait.
func (b *Buffer) BeginMapWrite() error {
	const op = "map for writing"
	d := b.d
	if err := d.check(op); err != nil {
		return err
	}
	switch {
	case b.usage&BufferUsageMapWrite == 0:
		return fmt.Errorf("webgpu: %s: buffer %s lacks MAP_WRITE usage", op, quote(b.label))
	case b.destroyed.Load():
		return fmt.Errorf("webgpu: %s: buffer %s is destroyed", op, quote(b.label))
	case b.mapping != nil || b.mapped.Truthy():
		return fmt.Errorf("webgpu: %s: buffer %s is already mapped or mapping", op, quote(b.label))
	}
	var p js.Value
	if err := try(func() { p = b.v.Call("mapAsync", uint32(MapModeWrite), 0, float64(b.size)) }); err != nil {
		return d.fail(op, err)
	}
	b.mapping = d.pending.watch(p)
	return nil
}

// MapWrite maps a MAP_WRITE buffer for writing: it waits for the map
// BeginMapWrite started (starting one if none is), then takes one
// getMappedRange of the whole buffer, which WriteMapped fills from Go
// memory until Unmap hands the bytes to the GPU (a copyBufferToBuffer
// then moves them where they go). A buffer already mapped returns nil.
func (b *Buffer) MapWrite(ctx context.Context) error {
	const op = "map for writing"
	d := b.d
	if b.mapped.Truthy() {
		return nil
	}
	if b.mapping == nil {
		if err := b.BeginMapWrite(); err != nil {
			return err
		}
	}
	p := b.mapping
	b.mapping = nil
	d.stats.promises.Add(1)
	if _, err := p.wait(ctx); err != nil {
		if errors.Is(err, ctx.Err()) {
			_ = try(func() { b.v.Call("unmap") }) // abort the map, as MapReadInto does
		}
		return d.fail(op, err)
	}
	err := try(func() { b.mapped = env().uint8Array.New(b.v.Call("getMappedRange", 0, float64(b.size))) })
	if err != nil {
		return d.fail(op, err)
	}
	return nil
}

// WriteMapped copies data into the mapped buffer at offset
// (js.CopyBytesToJS); MapWrite must have mapped it. It counts as bytes
// written (Stats.BytesWritten), as Queue.WriteBuffer does.
func (b *Buffer) WriteMapped(offset uint64, data []byte) error {
	const op = "write mapped"
	switch {
	case !b.mapped.Truthy():
		return fmt.Errorf("webgpu: %s: buffer %s is not mapped for writing", op, quote(b.label))
	case offset+uint64(len(data)) > b.size:
		return fmt.Errorf("webgpu: %s: range [%d, %d) exceeds buffer %s of %d bytes", op, offset, offset+uint64(len(data)), quote(b.label), b.size)
	case len(data) == 0:
		return nil
	}
	err := try(func() {
		js.CopyBytesToJS(b.mapped.Call("subarray", float64(offset), float64(offset)+float64(len(data))), data)
	})
	if err != nil {
		return b.d.fail(op, err)
	}
	b.d.stats.bytesWritten.Add(uint64(len(data)))
	return nil
}

// Unmap unmaps a buffer that MapWrite mapped; the GPU may use it again.
func (b *Buffer) Unmap() {
	if !b.mapped.Truthy() {
		return
	}
	b.mapped = js.Undefined()
	_ = try(func() { b.v.Call("unmap") })
}

// MapReadInto reads len(dst) bytes at offset from a MAP_READ buffer into dst:
// mapAsync(READ) over the range, getMappedRange, js.CopyBytesToGo, unmap.
// offset must be a multiple of 8; the mapped range is len(dst) rounded up to
// a multiple of 4 and must lie inside the buffer. Reuse dst across calls:
// nothing is allocated in proportion to its length.
//
// If ctx ends while the map is pending, the map is aborted (unmap) and the
// context's error is returned. A buffer has one map pending at most: do not
// call MapReadInto on the same buffer from two goroutines at once
// (double-buffer instead).
func (b *Buffer) MapReadInto(ctx context.Context, dst []byte, offset uint64) error {
	_, err := b.MapReadIntoTimed(ctx, dst, offset)
	return err
}

// MapReadIntoTimed is MapReadInto that also returns how long it waited for
// the map (the main thread is free meanwhile: the rest is the copy).
func (b *Buffer) MapReadIntoTimed(ctx context.Context, dst []byte, offset uint64) (wait time.Duration, err error) {
	const op = "map readback"
	d := b.d
	if err := d.check(op); err != nil {
		return 0, err
	}
	n := uint64(len(dst))
	size := (n + 3) &^ 3
	switch {
	case b.usage&BufferUsageMapRead == 0:
		return 0, fmt.Errorf("webgpu: %s: buffer %s lacks MAP_READ usage", op, quote(b.label))
	case offset%8 != 0:
		return 0, fmt.Errorf("webgpu: %s: offset %d is not a multiple of 8", op, offset)
	case offset+size > b.size:
		return 0, fmt.Errorf("webgpu: %s: range [%d, %d) exceeds buffer %s of %d bytes", op, offset, offset+size, quote(b.label), b.size)
	case b.destroyed.Load():
		return 0, fmt.Errorf("webgpu: %s: buffer %s is destroyed", op, quote(b.label))
	}
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("webgpu: %s: %w", op, err)
	}
	if n == 0 {
		return 0, nil
	}
	var p js.Value
	if err := try(func() { p = b.v.Call("mapAsync", uint32(MapModeRead), offset, size) }); err != nil {
		return wait, d.fail(op, err)
	}
	t0 := time.Now()
	_, err = d.await(ctx, p)
	wait = time.Since(t0)
	if err != nil {
		if errors.Is(err, ctx.Err()) {
			// Abort the pending map so its Promise settles (releasing
			// await's funcs) and the buffer can be mapped again.
			_ = try(func() { b.v.Call("unmap") })
		}
		return wait, d.fail(op, err)
	}
	err = try(func() {
		defer b.v.Call("unmap")
		view := env().uint8Array.New(b.v.Call("getMappedRange", offset, size))
		js.CopyBytesToGo(dst, view)
	})
	if err != nil {
		return wait, d.fail(op, err)
	}
	d.stats.maps.Add(1)
	d.stats.bytesRead.Add(n)
	return wait, nil
}

func quote(label string) string { return fmt.Sprintf("%q", label) }
