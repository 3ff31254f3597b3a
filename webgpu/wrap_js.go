//go:build js && wasm

package webgpu

import (
	"context"
	"fmt"
	"math"
	"syscall/js"
)

// Objects this package did not create: a host page's own GPUDevice and
// GPUBuffers, which ringscope watches (megakernel.Attach) but never owns.
// WrapDevice and WrapBuffer check the JS value's type before reading it, so
// no JS input can crash the Go program; a wrapped buffer is borrowed
// (Destroy does nothing: it is the host's to destroy).

// WrapDevice wraps a GPUDevice created by JavaScript. It fails, naming
// what it got, when v is not a GPUDevice (an instance of the GPUDevice
// class where the global exists, else an object with a queue and
// createCommandEncoder). The wrapper reads the device's limits and
// features once and watches device.lost; its Destroy destroys the JS
// device, so a caller that borrows the device must not call it.
func WrapDevice(v js.Value) (*Device, error) {
	if err := isInstance(v, "GPUDevice", "createCommandEncoder"); err != nil {
		return nil, fmt.Errorf("webgpu: device: %w", err)
	}
	q := v.Get("queue")
	if q.Type() != js.TypeObject || q.Get("submit").Type() != js.TypeFunction {
		return nil, fmt.Errorf("webgpu: device: it has no GPUQueue (queue is %s)", q.Type())
	}
	d := &Device{
		v:        v,
		label:    stringProp(v, "label"),
		lost:     make(chan struct{}),
		limits:   readLimits(v.Get("limits")),
		features: readFeatures(v.Get("features")),
	}
	d.queue = &Queue{d: d, v: q, submitArr: env().array.New()}
	if lost := v.Get("lost"); lost.Type() == js.TypeObject && lost.Get("then").Type() == js.TypeFunction {
		d.watchLost()
	}
	return d, nil
}

// SameDevice reports whether d wraps the JS device v (so that wrapping a
// device again can reuse d, and its one device.lost watcher).
func (d *Device) SameDevice(v js.Value) bool { return d.v.Equal(v) }

// AdapterInfo returns the device's GPUDevice.adapterInfo where the
// implementation has it (ok false otherwise): a borrowed device comes
// without its adapter.
func (d *Device) AdapterInfo() (info AdapterInfo, ok bool) {
	v := d.v.Get("adapterInfo")
	if v.Type() != js.TypeObject {
		return info, false
	}
	info = AdapterInfo{
		Vendor:       stringProp(v, "vendor"),
		Architecture: stringProp(v, "architecture"),
		Device:       stringProp(v, "device"),
		Description:  stringProp(v, "description"),
	}
	info.IsFallbackAdapter = v.Get("isFallbackAdapter").Truthy()
	return info, true
}

// WrapBuffer wraps a GPUBuffer of d created by JavaScript; name says which
// buffer it is in errors ("control"). It reads size and usage (checked to
// be whole numbers) and the label; it fails when v is not a GPUBuffer. The
// buffer is borrowed: Destroy does nothing.
func WrapBuffer(d *Device, v js.Value, name string) (*Buffer, error) {
	if d == nil {
		return nil, fmt.Errorf("webgpu: wrap buffer %s: nil device", name)
	}
	if err := isInstance(v, "GPUBuffer", "mapAsync"); err != nil {
		return nil, fmt.Errorf("webgpu: %s: %w", name, err)
	}
	size, usage := v.Get("size"), v.Get("usage")
	if size.Type() != js.TypeNumber || usage.Type() != js.TypeNumber {
		return nil, fmt.Errorf("webgpu: %s: size and usage must be numbers, got %s and %s", name, size.Type(), usage.Type())
	}
	s, u := size.Float(), usage.Float()
	if s < 0 || s != math.Trunc(s) || s > 1<<53 || u < 0 || u != math.Trunc(u) || u > math.MaxUint32 {
		return nil, fmt.Errorf("webgpu: %s: size %v and usage %v are not a GPUBuffer's", name, s, u)
	}
	label := stringProp(v, "label")
	return &Buffer{d: d, v: v, label: label, size: uint64(s), usage: BufferUsage(u), borrowed: true}, nil
}

// isInstance checks that v is an instance of the global class name, or,
// where the global does not exist, an object with the method method.
func isInstance(v js.Value, class, method string) error {
	if v.Type() != js.TypeObject {
		return fmt.Errorf("want a %s, got %s", class, v.Type())
	}
	if c := js.Global().Get(class); c.Type() == js.TypeFunction {
		if !v.InstanceOf(c) {
			return fmt.Errorf("want a %s, got an object that is not one (%s)", class, constructorName(v))
		}
		return nil
	}
	if v.Get(method).Type() != js.TypeFunction {
		return fmt.Errorf("want a %s, got an object without %s()", class, method)
	}
	return nil
}

func constructorName(v js.Value) string {
	if c := v.Get("constructor"); c.Type() == js.TypeFunction {
		if n := stringProp(c, "name"); n != "" {
			return n
		}
	}
	return "Object"
}

// Mapped reports whether the buffer is mapped or a map is pending
// (GPUBuffer.mapState other than "unmapped"): a copy from it would fail
// validation, so a watcher waits for the next frame instead.
func (b *Buffer) Mapped() bool {
	s := b.v.Get("mapState")
	return s.Type() == js.TypeString && s.String() != "unmapped"
}

// ErrorScope is a validation error scope pushed and popped around some
// synchronous work (Device.ValidationScope); Wait gives what it caught.
type ErrorScope struct {
	d   *Device
	pop js.Value
}

// ValidationScope runs fn, which must not yield (no awaits, no channel
// operations), inside a validation error scope of its own: push, fn, pop
// happen in one JS task, so the scope nests correctly inside any scope the
// device's JavaScript owner has pushed and is awaiting, and an error of fn's
// work (a copy from a buffer the host destroyed) is caught here instead of
// reaching the host's uncapturederror handler and the console.
func (d *Device) ValidationScope(fn func()) (*ErrorScope, error) {
	if err := d.check("validation scope"); err != nil {
		return nil, err
	}
	pop, err := d.scoped(fn)
	if err != nil {
		return nil, d.fail("validation scope", err)
	}
	return &ErrorScope{d: d, pop: pop}, nil
}

// Wait waits for the scope's pop and returns the *ValidationError it
// caught, or nil.
func (s *ErrorScope) Wait(ctx context.Context) error {
	v, err := s.d.await(ctx, s.pop)
	if err != nil {
		return s.d.fail("pop error scope", err)
	}
	return gpuError(ErrorFilterValidation, v)
}

// JSValue returns the GPUDevice this wraps, for handing to JavaScript (a Go
// wasm program that owns its device and lets a page's script use it).
func (d *Device) JSValue() js.Value { return d.v }

// JSValue returns the GPUBuffer this wraps.
func (b *Buffer) JSValue() js.Value { return b.v }
