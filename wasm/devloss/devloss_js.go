//go:build js && wasm

package devloss

import (
	"context"
	"errors"
	"github.com/ringscope/ringscope/internal/nocompare"
	"sync"
	"time"

	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/webgpu"
)

// LostConfirmWait bounds the wait for device.lost after a JS error.
const LostConfirmWait = 500 * time.Millisecond

// Acquire requests an adapter and a device from it with the adapter's own
// limits wherever a kernel meets one (KernelLimits). An adapter gives one
// device, so every call requests a new adapter.
func Acquire(ctx context.Context) (*webgpu.Adapter, *webgpu.Device, error) {
	adapter, err := webgpu.RequestAdapter(ctx, webgpu.RequestAdapterOptions{})
	if err != nil {
		return nil, nil, err
	}
	desc := webgpu.DeviceDescriptor{Label: "ringscope", RequiredLimits: KernelLimits(adapter.Limits())}
	if adapter.HasFeature(webgpu.FeatureTimestampQuery) {
		// The runner then times each drain pass on the device (the
		// dispatch panel's GPU time).
		desc.RequiredFeatures = []string{webgpu.FeatureTimestampQuery}
	}
	dev, err := adapter.RequestDevice(ctx, desc)
	if err != nil {
		return adapter, nil, err
	}
	return adapter, dev, nil
}

// KernelLimits is what the page's device asks of adapter limits al: all
// the storage binding it allows (the ring is one binding), all the storage
// buffers per shader stage (the drain binds four, user buffers the rest:
// a device asking nothing gets the default 8, so 4 user buffers whatever
// the adapter), the bindings, and the workgroup and grid sizes the launch
// policy plans within.
func KernelLimits(al webgpu.Limits) webgpu.Limits {
	return webgpu.Limits{
		MaxStorageBufferBindingSize:       al.MaxStorageBufferBindingSize,
		MaxBufferSize:                     al.MaxBufferSize,
		MaxStorageBuffersPerShaderStage:   al.MaxStorageBuffersPerShaderStage,
		MaxBindingsPerBindGroup:           al.MaxBindingsPerBindGroup,
		MaxComputeInvocationsPerWorkgroup: al.MaxComputeInvocationsPerWorkgroup,
		MaxComputeWorkgroupSizeX:          al.MaxComputeWorkgroupSizeX,
		MaxComputeWorkgroupsPerDimension:  al.MaxComputeWorkgroupsPerDimension,
	}
}

// LostUnder reports whether err is the loss of dev. A WebGPU promise can
// reject on a lost device (mapAsync: "AbortError: Buffer was unmapped
// before mapping was resolved") before device.lost resolves, so the error
// does not match webgpu.ErrDeviceLost yet: a JS error from the device waits
// a moment for the loss to be confirmed.
func LostUnder(dev *webgpu.Device, err error) bool {
	if errors.Is(err, webgpu.ErrDeviceLost) {
		return true
	}
	var jsErr *webgpu.JSError
	if !errors.As(err, &jsErr) {
		return false
	}
	select {
	case <-dev.Lost():
		return true
	case <-time.After(LostConfirmWait):
		return false
	}
}

// Record is the page's record of device losses: the recoveries so far, the
// last loss, whether the frame on screen predates a loss, and the last
// error an operation met. The page guards it with its own lock; the
// recovery hold (a test hook) has a lock of its own, since a hook must not
// wait for the page.
type Record struct {
	_ nocompare.T

	Recoveries int
	Last       *api.Loss
	staleSet   bool
	staleSeq   uint64
	cause      struct {
		dev *webgpu.Device
		err error
	}

	holdMu sync.Mutex
	hold   chan struct{}
}

// Met records that an operation on dev failed with err: a recovery the
// Lost channel starts records it as the loss's cause.
func (r *Record) Met(dev *webgpu.Device, err error) { r.cause.dev, r.cause.err = dev, err }

// Begin starts the record of lost's loss: l with the cause (cause, or the
// error an operation met on lost before the Lost channel noticed), and the
// frame seq on screen marked stale.
func (r *Record) Begin(l api.Loss, lost *webgpu.Device, cause error, seq uint64) api.Loss {
	if cause == nil && r.cause.dev == lost {
		cause = r.cause.err
	}
	if cause != nil {
		l.Cause = cause.Error()
	}
	r.staleSet, r.staleSeq = true, seq
	return l
}

// Stale says whether frame seq is the one on screen at the last loss (no
// frame since).
func (r *Record) Stale(seq uint64) bool { return r.staleSet && seq == r.staleSeq }

// Hold, while on, stops a recovery at WaitHold (the test hook
// holdRecovery): the stale state stays observable.
func (r *Record) Hold(on bool) {
	r.holdMu.Lock()
	defer r.holdMu.Unlock()
	switch {
	case on && r.hold == nil:
		r.hold = make(chan struct{})
	case !on && r.hold != nil:
		close(r.hold)
		r.hold = nil
	}
}

// WaitHold waits while a Hold is on.
func (r *Record) WaitHold() {
	r.holdMu.Lock()
	h := r.hold
	r.holdMu.Unlock()
	if h != nil {
		<-h
	}
}
