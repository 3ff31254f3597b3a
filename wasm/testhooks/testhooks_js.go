//go:build js && wasm && ringscope_testhooks

package testhooks

import (
	"fmt"
	"syscall/js"
	"time"

	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/jsapi"
	"github.com/ringscope/ringscope/webgpu"
)

// Page is what the hooks reach of the page.
type Page interface {
	// Device is the page's current device, nil before it has one; it must
	// not wait for the page's lock (a hook lands in the middle of a Step).
	Device() *webgpu.Device
	// HoldRecovery, while on, stops a recovery after it marked the frame
	// stale, before it asks for a device.
	HoldRecovery(on bool)
}

// loseTimeout bounds how long loseDevice waits for submissions;
// idleTimeout how long abandonedIdle waits for abandoned work to end (a
// test's finite runaway, slower on a loaded machine).
const (
	loseTimeout = 30 * time.Second
	idleTimeout = 60 * time.Second
)

// Install adds ringscope.__test: fault injection for tests only,
// not part of the embedding API (its shape may change at any time).
//
//	loseDevice({afterSubmits})  destroys the device now, or once it has made
//	                            afterSubmits more submissions (so the loss
//	                            falls between a submit and its readback);
//	                            resolves to {reason, submits}
//	abandonedIdle()             waits until no abandoned device's work
//	                            runs (a finite runaway ended); resolves
//	                            to how many still run after idleTimeout
//	holdRecovery(on)            while on, a recovery stops after marking
//	                            the frame stale, before asking for a device
//	deviceStats()               the current device's counters (buffers,
//	                            bytes written and read, submits, …)
//	attachSteps({device, control, ring, log?, frames, readback?, detach?})
//	                            a bare megakernel.Attachment stepped
//	                            frames times (attachsteps_js.go)
//	crash(message)              ends the Go program with a panic outside
//	                            any API call (static/guard.js's case);
//	                            never settles
func Install(obj js.Value, p Page) {
	t := js.Global().Get("Object").New()
	jsapi.Method(t, "loseDevice", func(args []js.Value) (any, error) { return loseDevice(p, args) })
	jsapi.Method(t, "abandonedIdle", abandonedIdle)
	jsapi.Method(t, "holdRecovery", func(args []js.Value) (any, error) {
		on := jsapi.Truthy(jsapi.Arg(args, 0))
		p.HoldRecovery(on)
		return on, nil
	})
	jsapi.Method(t, "deviceStats", func([]js.Value) (any, error) {
		dev := p.Device()
		if dev == nil {
			return nil, api.ErrNotReady
		}
		return dev.Stats(), nil
	})
	jsapi.Method(t, "attachSteps", attachSteps)
	jsapi.Method(t, "crash", crash)
	obj.Set("__test", t)
}

// LoseResult is what __test.loseDevice resolves to.
type LoseResult struct {
	Reason  string
	Submits uint64 // the lost device's submissions
}

// loseDevice destroys the page's device without taking its lock: now, or
// right after its afterSubmits-th submission from now, so the loss lands
// between that submission and its readback.
func loseDevice(p Page, args []js.Value) (any, error) {
	after, err := jsapi.OptUint32(jsapi.Arg(args, 0), "__test.loseDevice", "afterSubmits", 0)
	if err != nil {
		return nil, err
	}
	dev := p.Device()
	if dev == nil {
		return nil, api.ErrNotReady
	}
	if after == 0 {
		dev.Destroy()
	} else {
		// Destroyed inside the afterSubmits-th Submit, before its caller
		// can ask for the readback: the loss lands there every time.
		want := dev.Stats().Submits + uint64(after)
		lost := make(chan struct{})
		dev.OnSubmit(func(n uint64) {
			if n >= want {
				dev.OnSubmit(nil)
				dev.Destroy()
				close(lost)
			}
		})
		select {
		case <-lost:
		case <-time.After(loseTimeout):
			dev.OnSubmit(nil)
			return nil, fmt.Errorf("__test.loseDevice: %d submissions did not happen within %v", after, loseTimeout)
		}
	}
	reason, _ := dev.LostReason()
	return LoseResult{Reason: reason, Submits: dev.Stats().Submits}, nil
}

// abandonedIdle waits, up to idleTimeout, until no abandoned device's
// work runs, and says how many still do.
func abandonedIdle([]js.Value) (any, error) {
	deadline := time.Now().Add(idleTimeout)
	for webgpu.AbandonedRunning() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	return webgpu.AbandonedRunning(), nil
}

// crash is ringscope.__test.crash(message): a panic on a goroutine of
// its own, which nothing recovers, so the Go program exits as it would on
// a bug outside the API (the live loop, the renderer). The e2e tests use
// it to check what the page says then (static/guard.js). It never returns.
func crash(args []js.Value) (any, error) {
	msg := "injected"
	if s, err := jsapi.String(jsapi.Arg(args, 0), "", jsapi.MaxName); err == nil {
		msg = s
	}
	done := make(chan struct{})
	go func() { panic("ringscope.__test.crash: " + msg) }()
	<-done
	return nil, nil
}
