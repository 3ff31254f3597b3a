//go:build js && wasm

package main

import (
	"context"
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/jsarg"
	"github.com/ringscope/ringscope/webgpu"
)

// Device loss and recovery.
//
// The runner's host copy of the ring is the truth, and it changes only when
// a readback is absorbed (or the host publishes, masks, requeues). A
// submission whose readback never arrived because the device was lost left
// no trace in the host copy: its effects died with the device. Recovery
// requests a new adapter and device, Rebinds the runner (buffers and
// pipelines anew, the whole host copy re-uploaded) and carries on, so the
// lost submission is run again from the state of the last readback: every
// published item runs exactly once as far as the host can observe, even a
// non-idempotent one such as ATOMIC_ADD.
//
// Losses are noticed two ways: an operation fails with an error matching
// webgpu.ErrDeviceLost (runLocked), or the device's Lost channel closes
// while the page is idle (watchDevice). Both call recoverDevice, which
// recovers each lost device once.

// Recovery tuning.
const (
	// recoverAttempts bounds the new-device requests of one recovery.
	recoverAttempts = 4
	// maxRetriesAfterLoss bounds how often an API call is retried after
	// recoveries.
	maxRetriesAfterLoss = 2
	// loseTimeout bounds how long the test hook waits for submissions.
	loseTimeout = 30 * time.Second
	// lostConfirmWait bounds the wait for device.lost after a JS error.
	lostConfirmWait = 500 * time.Millisecond
)

// Loss is the record of one device loss and its recovery (snapshot's
// lastLoss).
type Loss struct {
	// Reason and Message are GPUDeviceLostInfo's.
	Reason, Message string
	// Cause is the error of the operation that met the loss ("" when the
	// Lost channel noticed it first, with no operation in flight).
	Cause string
	// Frame is the sequence number of the last good frame; DoneCount and
	// Published the host's record at the loss (the last readback's
	// DONE_COUNT, items published).
	Frame     uint64
	DoneCount uint32
	Published uint64
	// UserOpcodes names the user opcodes the lost submission could run:
	// a runaway user function loses the device (docs/OPCODES.md).
	UserOpcodes []string
	// RecoveredMillis is the time from noticing the loss to a rebound
	// runner; Recovered says whether it recovered.
	RecoveredMillis float64
	Recovered       bool
}

// acquireDevice requests an adapter and a device from it, asking for all the
// storage binding the adapter allows (the ring is one binding). An adapter
// gives one device, so every call requests a new adapter.
func (a *app) acquireDevice(ctx context.Context) (*webgpu.Adapter, *webgpu.Device, error) {
	adapter, err := webgpu.RequestAdapter(ctx, webgpu.RequestAdapterOptions{})
	if err != nil {
		return nil, nil, err
	}
	al := adapter.Limits()
	desc := webgpu.DeviceDescriptor{
		Label:          "ringscope",
		RequiredLimits: webgpu.Limits{MaxStorageBufferBindingSize: al.MaxStorageBufferBindingSize, MaxBufferSize: al.MaxBufferSize},
	}
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

// setDevice makes dev the page's device and watches it for a loss nobody
// asked for. Called with mu held.
func (a *app) setDevice(dev *webgpu.Device) {
	a.dev = dev
	a.liveDev.Store(dev)
	go a.watchDevice(dev)
}

// watchDevice recovers when dev is lost while no operation noticed it (the
// page idle, paused, or the loss from outside: a driver reset, a JS call).
func (a *app) watchDevice(dev *webgpu.Device) {
	<-dev.Lost()
	if err := a.recoverDevice(dev, nil); err != nil {
		jsGlobal.Get("console").Call("error", "ringscope: recovery:", err.Error())
	}
}

// runLocked runs f with mu held. When f fails because the runner's device
// was lost, it recovers (without mu, so snapshot and the UI stay
// responsive) and, up to retries times, runs f again on the new device; f
// must be safe to repeat after a failure (the runner's operations are: a
// failed Step changes nothing in the host copy). recovered reports a
// recovery; err is f's last error, or the recovery's.
func (a *app) runLocked(retries int, f func() error) (recovered bool, err error) {
	for attempt := 0; ; attempt++ {
		var dev *webgpu.Device
		// f runs under a deferred unlock: a panic in it (recovered by the
		// API's promise) must not leave mu held and the page wedged.
		func() {
			a.mu.Lock()
			defer a.mu.Unlock()
			err = f()
			if err != nil && a.runner != nil {
				dev = a.runner.Device()
				a.lossCause = lossCause{dev, err}
			}
		}()
		if dev == nil || !lostUnder(dev, err) {
			return recovered, err
		}
		lost := dev
		if rerr := a.recoverDevice(lost, err); rerr != nil {
			return recovered, rerr
		}
		recovered = true
		if attempt >= retries {
			return recovered, err
		}
	}
}

// lostUnder reports whether err is the loss of dev. A WebGPU promise can
// reject on a lost device (mapAsync: "AbortError: Buffer was unmapped
// before mapping was resolved") before device.lost resolves, so the error
// does not match webgpu.ErrDeviceLost yet: a JS error from the device waits
// a moment for the loss to be confirmed.
func lostUnder(dev *webgpu.Device, err error) bool {
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
	case <-time.After(lostConfirmWait):
		return false
	}
}

// lossCause is the last error an operation met, with the device it ran on:
// a recovery started by the Lost channel records it as the loss's cause.
type lossCause struct {
	dev *webgpu.Device
	err error
}

// recoverDevice replaces lost, if it is still the page's device: it marks
// the shown frame stale, requests a new adapter and device, rebinds the
// runner and counts the recovery. cause is the error that met the loss, or
// nil. Recoveries are serialised; a device already replaced is not
// recovered twice.
func (a *app) recoverDevice(lost *webgpu.Device, cause error) error {
	a.recMu.Lock()
	defer a.recMu.Unlock()
	a.mu.Lock()
	if a.dev != lost || a.runner == nil || lost.Err() == nil {
		a.mu.Unlock()
		return nil
	}
	reason, msg := lost.LostReason()
	loss := Loss{Reason: reason, Message: msg, Frame: a.sess.Seq(),
		DoneCount: a.runner.Telemetry().Control.DoneCount, Published: a.runner.Published(),
		UserOpcodes: a.runner.InFlightUserOpcodes()}
	if cause == nil && a.lossCause.dev == lost {
		cause = a.lossCause.err // an operation met it before the Lost channel
	}
	if cause != nil {
		loss.Cause = cause.Error()
	}
	a.staleSet, a.staleSeq = true, a.sess.Seq()
	a.mu.Unlock()
	t0 := time.Now()
	note := fmt.Sprintf("device lost (%s", reason)
	if msg != "" {
		note += ": " + msg
	}
	note += "); requesting a new device"
	a.ui(func(d *ui.Dashboard) { d.Stale, d.StaleReason = true, note })

	if hold := a.recoveryHold(); hold != nil {
		<-hold // test hook: the stale state stays observable
	}
	var dev *webgpu.Device
	var err error
	for i := range recoverAttempts {
		if _, dev, err = a.acquireDevice(a.ctx); err == nil {
			break
		}
		time.Sleep(time.Duration(50<<i) * time.Millisecond)
	}
	a.mu.Lock()
	if err == nil {
		if err = a.runner.Rebind(a.ctx, dev); err != nil {
			dev.Destroy()
		}
	}
	if err != nil {
		a.lastLoss = &loss
		a.mu.Unlock()
		err = fmt.Errorf("device lost (%s) and not recovered: %w", reason, err)
		a.fail(err)
		return err
	}
	a.setDevice(dev)
	a.recoveries++
	n := a.recoveries
	loss.Recovered, loss.RecoveredMillis = true, float64(time.Since(t0).Microseconds())/1000
	a.lastLoss = &loss
	a.mu.Unlock()
	a.ui(func(d *ui.Dashboard) {
		d.Recoveries = n
		d.StaleReason = fmt.Sprintf("device lost (%s), recovered on a new device (recovery %d)", reason, n)
	})
	return nil
}

// recoveryHold returns the channel a recovery waits on before requesting a
// new device (the test hook holdRecovery), or nil.
func (a *app) recoveryHold() chan struct{} {
	a.holdMu.Lock()
	defer a.holdMu.Unlock()
	return a.hold
}

// installTestHooks adds ringscope.__test: fault injection for tests only,
// not part of the embedding API (its shape may change at any time).
//
//	loseDevice({afterSubmits})  destroys the device now, or once it has made
//	                            afterSubmits more submissions (so the loss
//	                            falls between a submit and its readback);
//	                            resolves to {reason, submits}
//	holdRecovery(on)            while on, a recovery stops after marking
//	                            the frame stale, before asking for a device
//	deviceStats()               the current device's counters (buffers,
//	                            bytes written and read, submits, …)
//	crash(message)              ends the Go program with a panic outside
//	                            any API call (static/guard.js's case);
//	                            never settles
func installTestHooks(a *app, obj js.Value) {
	t := jsObject.New()
	method(t, "loseDevice", a.testLoseDevice)
	method(t, "holdRecovery", func(args []js.Value) (any, error) {
		on := jsarg.Truthy(jsarg.Arg(args, 0))
		a.holdMu.Lock()
		defer a.holdMu.Unlock()
		switch {
		case on && a.hold == nil:
			a.hold = make(chan struct{})
		case !on && a.hold != nil:
			close(a.hold)
			a.hold = nil
		}
		return on, nil
	})
	method(t, "deviceStats", func([]js.Value) (any, error) {
		dev := a.liveDev.Load()
		if dev == nil {
			return nil, errNotReady
		}
		return dev.Stats(), nil
	})
	method(t, "crash", testCrash)
	obj.Set("__test", t)
}

// LoseResult is what __test.loseDevice resolves to.
type LoseResult struct {
	Reason  string
	Submits uint64 // the lost device's submissions
}

// testLoseDevice destroys the page's device without taking mu, so it can
// land in the middle of a Step that awaits its readback.
func (a *app) testLoseDevice(args []js.Value) (any, error) {
	after, err := jsarg.OptUint32(jsarg.Arg(args, 0), "__test.loseDevice", "afterSubmits", 0)
	if err != nil {
		return nil, err
	}
	dev := a.liveDev.Load()
	if dev == nil {
		return nil, errNotReady
	}
	want := dev.Stats().Submits + uint64(after)
	deadline := time.Now().Add(loseTimeout)
	for dev.Stats().Submits < want {
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("__test.loseDevice: %d submissions did not happen within %v", after, loseTimeout)
		}
		time.Sleep(time.Millisecond) // wakes while a Step awaits mapAsync
	}
	dev.Destroy()
	reason, _ := dev.LostReason()
	return LoseResult{Reason: reason, Submits: dev.Stats().Submits}, nil
}
