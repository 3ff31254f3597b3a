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
// what it got, when v is not a GPUDevice. Every property is read through
// the GPUDevice prototype's own getter with v as the receiver (a brand
// check: it throws, caught here, unless v really is one), never through
// v itself, whose getters could throw where Go cannot catch it (js.Value.Get
// does not). The wrapper reads the device's limits and features once and
// watches device.lost; its Destroy destroys the JS device, so a caller that
// borrows the device must not call it.
func WrapDevice(v js.Value) (*Device, error) {
	get := func(name string) (js.Value, error) { return brandGet(v, "GPUDevice", "createCommandEncoder", name) }
	q, err := get("queue")
	if err != nil {
		return nil, fmt.Errorf("webgpu: device: %w", err)
	}
	if q.Type() != js.TypeObject {
		return nil, fmt.Errorf("webgpu: device: it has no GPUQueue (queue is %s)", q.Type())
	}
	limits, err := get("limits")
	if err != nil {
		return nil, fmt.Errorf("webgpu: device: %w", err)
	}
	features, err := get("features")
	if err != nil {
		return nil, fmt.Errorf("webgpu: device: %w", err)
	}
	label, _ := get("label")
	d := &Device{
		v:         v,
		lost:      make(chan struct{}),
		abandoned: make(chan struct{}),
		limits:    readLimits(limits),
		features:  readFeatures(features),
	}
	if label.Type() == js.TypeString {
		d.label = label.String()
	}
	d.queue = &Queue{d: d, v: q, submitArr: env().array.New()}
	if lost, err := get("lost"); err == nil && lost.Type() == js.TypeObject {
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
	v, err := brandGet(d.v, "GPUDevice", "createCommandEncoder", "adapterInfo")
	if err != nil || v.Type() != js.TypeObject {
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
// be whole numbers) and the label, through GPUBuffer's getters as
// WrapDevice does; it fails when v is not a GPUBuffer. The buffer is
// borrowed: Destroy does nothing.
func WrapBuffer(d *Device, v js.Value, name string) (*Buffer, error) {
	if d == nil {
		return nil, fmt.Errorf("webgpu: wrap buffer %s: nil device", name)
	}
	var vals [3]js.Value
	for i, p := range []string{"size", "usage", "label"} {
		var err error
		if vals[i], err = brandGet(v, "GPUBuffer", "mapAsync", p); err != nil {
			return nil, fmt.Errorf("webgpu: %s: %w", name, err)
		}
	}
	size, usage := vals[0], vals[1]
	if size.Type() != js.TypeNumber || usage.Type() != js.TypeNumber {
		return nil, fmt.Errorf("webgpu: %s: size and usage must be numbers, got %s and %s", name, size.Type(), usage.Type())
	}
	s, u := size.Float(), usage.Float()
	if s < 0 || s != math.Trunc(s) || s > 1<<53 || u < 0 || u != math.Trunc(u) || u > math.MaxUint32 {
		return nil, fmt.Errorf("webgpu: %s: size %v and usage %v are not a GPUBuffer's", name, s, u)
	}
	label := ""
	if vals[2].Type() == js.TypeString {
		label = vals[2].String()
	}
	return &Buffer{d: d, v: v, label: label, size: uint64(s), usage: BufferUsage(u), borrowed: true}, nil
}

// brandGet reads property name of v, which must be an instance of the
// global class: Reflect.get(class.prototype, name, v), the prototype's own
// getter with v as the receiver, which the implementation brand-checks
// (it throws unless v is a real one), or, where the prototype has no such
// getter, Reflect.get(v, name). Where the global class does not
// exist, it reads Reflect.get(v, name) of an object with the method
// method. Either way the read goes through Call, whose exceptions become
// errors here.
func brandGet(v js.Value, class, method, name string) (js.Value, error) {
	if v.Type() != js.TypeObject {
		return js.Undefined(), fmt.Errorf("want a %s, got %s", class, v.Type())
	}
	reflect := js.Global().Get("Reflect")
	var out js.Value
	if c := js.Global().Get(class); c.Type() == js.TypeFunction {
		proto := c.Get("prototype")
		var is bool
		if err := try(func() { is = proto.Call("isPrototypeOf", v).Bool() }); err != nil || !is {
			return js.Undefined(), fmt.Errorf("want a %s, got an object that is not one", class)
		}
		if err := try(func() { out = reflect.Call("get", proto, name, v) }); err != nil {
			return js.Undefined(), fmt.Errorf("want a %s, got an object posing as one (%s: %w)", class, name, err)
		}
		if out.IsUndefined() {
			// An implementation that defines the attribute on each
			// instance (Dawn for Node) rather than on the prototype.
			if err := try(func() { out = reflect.Call("get", v, name) }); err != nil {
				return js.Undefined(), fmt.Errorf("%s: %w", name, err)
			}
		}
		return out, nil
	}
	var m js.Value
	if err := try(func() { m = reflect.Call("get", v, method) }); err != nil || m.Type() != js.TypeFunction {
		return js.Undefined(), fmt.Errorf("want a %s, got an object without %s()", class, method)
	}
	if err := try(func() { out = reflect.Call("get", v, name) }); err != nil {
		return js.Undefined(), fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// Mapped reports whether the buffer is mapped or a map is pending
// (GPUBuffer.mapState other than "unmapped"): a copy from it would fail
// validation, so a watcher waits for the next frame instead.
func (b *Buffer) Mapped() bool {
	s, err := brandGet(b.v, "GPUBuffer", "mapAsync", "mapState")
	return err == nil && s.Type() == js.TypeString && s.String() != "unmapped"
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
func (d *Device) ValidationScope(fn func()) (ErrorScope, error) {
	if err := d.check("validation scope"); err != nil {
		return ErrorScope{}, err
	}
	pop, err := d.scoped(fn)
	if err != nil {
		return ErrorScope{}, d.fail("validation scope", err)
	}
	return ErrorScope{d: d, pop: pop}, nil
}

// Wait waits for the scope's pop and returns the *ValidationError it
// caught, or nil.
func (s ErrorScope) Wait(ctx context.Context) error {
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
