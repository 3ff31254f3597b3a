//go:build js && wasm

package webgpu

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"
)

// DeviceDescriptor is GPUDeviceDescriptor. The zero value asks for a device
// with default limits and no optional features.
type DeviceDescriptor struct {
	Label string
	// RequiredLimits: a zero field is not requested. Ask for more than the
	// default where the adapter offers it (a device gets 128 MiB
	// maxStorageBufferBindingSize unless it asks).
	RequiredLimits   Limits
	RequiredFeatures []string
}

// Device is a GPUDevice. It is safe to use from several goroutines in the
// sense that Go wasm runs them one at a time; error scopes are a per-device
// stack, so a goroutine's Push/PopErrorScope pair must not interleave with
// another's.
//
// Once the device is lost (device.lost resolved, or Destroy was called),
// every call that returns an error fails with a *DeviceLostError matching
// ErrDeviceLost.
type Device struct {
	v        js.Value
	label    string
	queue    *Queue
	limits   Limits
	features []string    // sorted
	descs    descCache   // encoder and pass descriptors, built once
	pending  pendingPool // promise handlers kept for the next await

	lostOnce sync.Once
	lost     chan struct{} // closed when lost
	// abandoned is closed by Abandon: every await on the device returns.
	abandoned   chan struct{}
	abandonOnce sync.Once
	behind      int        // AbandonedBehind; guarded by abandonedDevices
	mu          sync.Mutex // guards lostReason, lostMessage, filters, afterSubmit
	lostReason  string
	lostMessage string
	filters     []ErrorFilter // the error scopes pushed, innermost last

	// afterSubmit, when set, runs after each successful Queue.Submit
	// (OnSubmit): fault injection at an exact point of a run.
	afterSubmit func(submits uint64) // guarded by mu

	stats struct {
		buffersCreated, buffersDestroyed atomic.Uint64
		bytesWritten, bytesRead, maps    atomic.Uint64
		submits, commandBuffers          atomic.Uint64
		dispatches                       atomic.Uint64
		shaderModules, pipelines         atomic.Uint64
		promises                         atomic.Uint64
	}
}

// RequestDevice calls adapter.requestDevice. Required features the adapter
// lacks, and required maximums above the adapter's, fail here with a message
// naming them. An adapter gives one device (WebGPU marks it "consumed"):
// request a new adapter for another device.
func (a *Adapter) RequestDevice(ctx context.Context, desc DeviceDescriptor) (*Device, error) {
	if a.consumed {
		return nil, errors.New("webgpu: request device: the adapter already gave a device; request a new adapter")
	}
	for _, f := range desc.RequiredFeatures {
		if !a.HasFeature(f) {
			return nil, fmt.Errorf("webgpu: request device: adapter lacks feature %q", f)
		}
	}
	o := map[string]any{}
	if desc.Label != "" {
		o["label"] = desc.Label
	}
	if len(desc.RequiredFeatures) > 0 {
		fs := make([]any, len(desc.RequiredFeatures))
		for i, f := range desc.RequiredFeatures {
			fs[i] = f
		}
		o["requiredFeatures"] = fs
	}
	req := desc.RequiredLimits
	have := a.limits
	haveFields := have.fields()
	lim := map[string]any{}
	for i, f := range req.fields() {
		if *f.p == 0 {
			continue
		}
		if most := *haveFields[i].p; strings.HasPrefix(f.name, "max") && most != 0 && *f.p > most {
			return nil, fmt.Errorf("webgpu: request device: %s %d exceeds the adapter's %d", f.name, *f.p, most)
		}
		lim[f.name] = float64(*f.p)
	}
	if len(lim) > 0 {
		o["requiredLimits"] = lim
	}
	var p js.Value
	if err := try(func() { p = a.v.Call("requestDevice", o) }); err != nil {
		return nil, fmt.Errorf("webgpu: request device: %w", err)
	}
	a.consumed = true
	v, err := await(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("webgpu: request device: %w", err)
	}
	if !truthy(v) {
		return nil, errors.New("webgpu: request device: requestDevice returned null")
	}
	d := &Device{
		v:         v,
		label:     desc.Label,
		lost:      make(chan struct{}),
		abandoned: make(chan struct{}),
		limits:    readLimits(v.Get("limits")),
		features:  readFeatures(v.Get("features")),
	}
	d.queue = &Queue{d: d, v: v.Get("queue"), submitArr: env().array.New()}
	d.watchLost()
	return d, nil
}

// watchLost waits for device.lost without blocking anyone: the callback
// records the reason, closes d.lost and releases itself from a goroutine.
func (d *Device) watchLost() {
	var fn js.Func
	fn = funcOf(func(_ js.Value, args []js.Value) any {
		info := arg0(args)
		reason, msg := "unknown", ""
		if truthy(info) {
			if r := stringProp(info, "reason"); r != "" {
				reason = r
			}
			msg = stringProp(info, "message")
		}
		d.markLost(reason, msg)
		go release(fn)
		return nil
	})
	d.v.Get("lost").Call("then", fn)
}

func (d *Device) markLost(reason, msg string) {
	d.lostOnce.Do(func() {
		d.mu.Lock()
		d.lostReason, d.lostMessage = reason, msg
		d.mu.Unlock()
		close(d.lost)
		d.pending.close()
	})
}

// Lost returns a channel closed when the device is lost or destroyed.
func (d *Device) Lost() <-chan struct{} { return d.lost }

// LostReason returns GPUDeviceLostInfo's reason ("destroyed", "unknown") and
// message; both are empty while the device is alive.
func (d *Device) LostReason() (reason, message string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.lostReason, d.lostMessage
}

// Err returns nil while the device is alive, then a *DeviceLostError.
func (d *Device) Err() error { return d.check("") }

// check returns a *DeviceLostError for op if the device is lost. It does not
// allocate while the device is alive.
func (d *Device) check(op string) error {
	select {
	case <-d.lost:
		reason, msg := d.LostReason()
		return &DeviceLostError{Op: op, Reason: reason, Message: msg}
	default:
		return nil
	}
}

// fail wraps err, met during op. A failure on a device that is lost by now
// is reported as the loss.
func (d *Device) fail(op string, err error) error {
	if lost := d.check(op); lost != nil {
		return lost
	}
	// A device destroyed from JavaScript (not through Destroy) rejects a
	// pending mapAsync with an AbortError before device.lost resolves:
	// give the loss a moment to arrive, so the caller sees ErrDeviceLost
	// and can recover instead of failing on a bare AbortError.
	var jsErr *JSError
	if errors.As(err, &jsErr) && jsErr.Name == "AbortError" {
		select {
		case <-d.lost:
			return d.check(op)
		case <-time.After(abortLossGrace):
		}
	}
	return fmt.Errorf("webgpu: %s: %w", op, err)
}

// abortLossGrace is how long fail waits for device.lost after an AbortError.
const abortLossGrace = 500 * time.Millisecond

// await is the package await, counted in the device's Stats, through the
// device's pool of handlers (pendingPool).
func (d *Device) await(ctx context.Context, p js.Value) (js.Value, error) {
	d.stats.promises.Add(1)
	v, err := d.pending.watch(p).waitOr(ctx, d.abandoned)
	if err == errAbandoned {
		return v, d.check("")
	}
	return v, err
}

// Destroy destroys the device. The device counts as lost at once (reason
// "destroyed"); device.lost resolves later. An abandoned device is left
// alone.
func (d *Device) Destroy() {
	if d.isAbandoned() {
		return // destroying it would wait for work that never ends (Abandon)
	}
	d.markLost("destroyed", "device was destroyed")
	_ = try(func() { d.v.Call("destroy") })
	d.queue.staging = js.Undefined()
	d.queue.stagingCap = 0
}

// OnSubmit sets f to run right after each successful Queue.Submit, with
// the device's submission count; nil removes it. Tests use it to destroy
// the device between a submission and its readback (wasm/testhooks):
// a timer cannot land there reliably, a readback may resolve before it.
func (d *Device) OnSubmit(f func(submits uint64)) {
	d.mu.Lock()
	d.afterSubmit = f
	d.mu.Unlock()
}

// Label returns the label the device was requested with.
func (d *Device) Label() string { return d.label }

// Limits returns the device's limits: the defaults raised by RequiredLimits.
func (d *Device) Limits() Limits { return d.limits }

// Features returns the device's enabled features, sorted.
func (d *Device) Features() []string { return slices.Clone(d.features) }

// HasFeature reports whether the named feature is enabled on the device.
func (d *Device) HasFeature(name string) bool {
	_, ok := slices.BinarySearch(d.features, name)
	return ok
}

// Queue returns the device's queue.
func (d *Device) Queue() *Queue { return d.queue }

// Stats returns a snapshot of the device's counters.
func (d *Device) Stats() Stats {
	s := &d.stats
	return Stats{
		BuffersCreated:   s.buffersCreated.Load(),
		BuffersDestroyed: s.buffersDestroyed.Load(),
		BytesWritten:     s.bytesWritten.Load(),
		BytesRead:        s.bytesRead.Load(),
		Maps:             s.maps.Load(),
		Submits:          s.submits.Load(),
		CommandBuffers:   s.commandBuffers.Load(),
		DispatchCalls:    s.dispatches.Load(),
		ShaderModules:    s.shaderModules.Load(),
		Pipelines:        s.pipelines.Load(),
		PromisesAwaited:  s.promises.Load(),
	}
}

// PushErrorScope pushes an error scope catching errors of filter's kind.
func (d *Device) PushErrorScope(filter ErrorFilter) error {
	if err := d.check("push error scope"); err != nil {
		return err
	}
	if err := try(func() { d.v.Call("pushErrorScope", string(filter)) }); err != nil {
		return d.fail("push error scope", err)
	}
	d.mu.Lock()
	d.filters = append(d.filters, filter)
	d.mu.Unlock()
	return nil
}

// PopErrorScope pops the innermost error scope and returns the first error it
// caught: a *ValidationError, *OutOfMemoryError or *InternalError (by the
// scope's filter), or nil if it caught none. Popping with no scope pushed,
// or on a lost device, is an error of its own.
func (d *Device) PopErrorScope(ctx context.Context) error {
	if err := d.check("pop error scope"); err != nil {
		return err
	}
	d.mu.Lock()
	if len(d.filters) == 0 {
		d.mu.Unlock()
		return errors.New("webgpu: pop error scope: no error scope pushed")
	}
	filter := d.filters[len(d.filters)-1]
	d.filters = d.filters[:len(d.filters)-1]
	d.mu.Unlock()
	var p js.Value
	if err := try(func() { p = d.v.Call("popErrorScope") }); err != nil {
		return d.fail("pop error scope", err)
	}
	v, err := d.await(ctx, p)
	if err != nil {
		return d.fail("pop error scope", err)
	}
	return gpuError(filter, v)
}

// gpuError turns a GPUError caught by a scope with filter into a Go error.
func gpuError(filter ErrorFilter, v js.Value) error {
	if !truthy(v) {
		return nil
	}
	msg := stringProp(v, "message")
	switch filter {
	case ErrorFilterOutOfMemory:
		return &OutOfMemoryError{Message: msg}
	case ErrorFilterInternal:
		return &InternalError{Message: msg}
	default:
		return &ValidationError{Message: msg}
	}
}

// scoped runs fn, which must not yield, inside a validation error scope, and
// returns the Promise of the scope's pop. Creating an object that way keeps
// its validation error from going to the console as uncaptured, and the
// push, the work and the pop cannot interleave with another goroutine's.
func (d *Device) scoped(fn func()) (pop js.Value, err error) {
	err = try(func() {
		d.v.Call("pushErrorScope", string(ErrorFilterValidation))
		defer func() { pop = d.v.Call("popErrorScope") }()
		fn()
	})
	return pop, err
}
