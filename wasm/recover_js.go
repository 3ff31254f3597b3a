//go:build js && wasm

package main

import (
	"fmt"
	"time"

	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/devloss"
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
)

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
				a.losses.Met(dev, err)
			}
		}()
		if dev == nil || !devloss.LostUnder(dev, err) {
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
	loss := a.losses.Begin(devloss.Loss{Reason: reason, Message: msg, Frame: a.sess.Seq(),
		DoneCount: a.runner.Telemetry().Control.DoneCount, Published: a.runner.Published(),
		UserOpcodes: a.runner.InFlightUserOpcodes()}, lost, cause, a.sess.Seq())
	a.mu.Unlock()
	t0 := time.Now()
	note := fmt.Sprintf("device lost (%s", reason)
	if msg != "" {
		note += ": " + msg
	}
	note += "); requesting a new device"
	a.ui(func(d *ui.Dashboard) { d.Stale, d.StaleReason = true, note })

	a.losses.WaitHold() // the test hook holdRecovery
	var dev *webgpu.Device
	var err error
	for i := range recoverAttempts {
		if _, dev, err = devloss.Acquire(a.ctx); err == nil {
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
		a.losses.Last = &loss
		a.mu.Unlock()
		err = fmt.Errorf("device lost (%s) and not recovered: %w", reason, err)
		a.fail(err)
		return err
	}
	a.setDevice(dev)
	a.losses.Recoveries++
	n := a.losses.Recoveries
	loss.Recovered, loss.RecoveredMillis = true, float64(time.Since(t0).Microseconds())/1000
	a.losses.Last = &loss
	a.mu.Unlock()
	a.ui(func(d *ui.Dashboard) {
		d.Recoveries = n
		d.StaleReason = fmt.Sprintf("device lost (%s), recovered on a new device (recovery %d)", reason, n)
	})
	return nil
}
