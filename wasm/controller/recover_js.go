//go:build js && wasm

package controller

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/browser"
	"github.com/ringscope/ringscope/wasm/devloss"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/webgpu/megakernel"
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
func (c *Controller) setDevice(dev *webgpu.Device) {
	c.dev = dev
	c.liveDev.Store(dev)
	go c.watchDevice(dev)
}

// watchDevice recovers when dev is lost while no operation noticed it (the
// page idle, paused, or the loss from outside: a driver reset, a JS call).
func (c *Controller) watchDevice(dev *webgpu.Device) {
	<-dev.Lost()
	if err := c.recoverDevice(dev, nil); err != nil {
		browser.ConsoleError("ringscope: recovery:", err.Error())
	}
}

// runLocked runs f with mu held. When f fails because the runner's device
// was lost, it recovers (without mu, so snapshot and the UI stay
// responsive) and, up to retries times, runs f again on the new device; f
// must be safe to repeat after a failure (the runner's operations are: a
// failed Step changes nothing in the host copy). recovered reports a
// recovery; err is f's last error, or the recovery's.
func (c *Controller) runLocked(retries int, f func() error) (recovered bool, err error) {
	for attempt := 0; ; attempt++ {
		var dev *webgpu.Device
		// f runs under a deferred unlock: a panic in it (recovered by the
		// API's promise) must not leave mu held and the page wedged.
		func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			err = f()
			if err != nil && c.runner != nil {
				dev = c.runner.Device()
				c.losses.Met(dev, err)
			}
		}()
		if dev == nil || !devloss.LostUnder(dev, err) {
			return recovered, err
		}
		lost := dev
		if rerr := c.recoverDevice(lost, err); rerr != nil {
			return recovered, rerr
		}
		recovered = true
		// A runaway is not retried: it would run away again.
		if attempt >= retries || isRunaway(lost) {
			return recovered, err
		}
	}
}

// recoverDevice replaces lost, if it is still the page's device: it marks
// the shown frame stale, requests a new adapter and device, rebinds the
// runner and counts the recovery. cause is the error that met the loss, or
// nil. Recoveries are serialised; a device already replaced is not
// recovered twice.
func (c *Controller) recoverDevice(lost *webgpu.Device, cause error) error {
	c.recMu.Lock()
	defer c.recMu.Unlock()
	c.mu.Lock()
	if c.dev != lost || c.runner == nil || lost.Err() == nil {
		c.mu.Unlock()
		return nil
	}
	reason, msg := lost.LostReason()
	runaway := isRunaway(lost)
	why := reason
	if msg != "" {
		why += ": " + msg
	}
	// Before the loss is recorded: a ring with no frame yet gets one
	// (MarkLost), which must not count as a frame after the loss.
	lostFrame := c.sess.MarkLost(why, c.runner.InFlightUserOpcodes(), lost.AbandonedBehind())
	c.retell(lostFrame)
	c.hunt(lostFrame)
	loss := c.losses.Begin(api.Loss{Reason: reason, Message: msg, Frame: c.sess.Seq(),
		DoneCount: c.runner.Telemetry().Control.DoneCount, Published: c.runner.Published(),
		UserOpcodes: c.runner.InFlightUserOpcodes(), Runaway: runaway}, lost, cause, c.sess.Seq())
	if runaway {
		c.running = false // the live loop would run it away again
	}
	c.mu.Unlock()
	if lostFrame != nil {
		c.showFrame(lostFrame)
	}
	t0 := time.Now()
	note := fmt.Sprintf("device lost (%s", reason)
	if msg != "" {
		note += ": " + msg
	}
	note += "); requesting a new device"
	c.update(func(s *State) { s.Stale, s.StaleReason = true, note }, nil)

	c.losses.WaitHold() // the test hook holdRecovery
	var dev *webgpu.Device
	var err error
	for i := range recoverAttempts {
		if _, dev, err = devloss.Acquire(c.ctx); err == nil {
			break
		}
		time.Sleep(time.Duration(50<<i) * time.Millisecond)
	}
	c.mu.Lock()
	if err == nil {
		if err = c.runner.Rebind(c.ctx, dev); err != nil {
			dev.Destroy()
		}
	}
	if err != nil {
		c.losses.Last = &loss
		c.mu.Unlock()
		err = fmt.Errorf("device lost (%s) and not recovered: %w", reason, err)
		c.fail(err)
		return err
	}
	if runaway {
		// The recovered ring is empty (docs/OPCODES.md §1): the host copy
		// still holds the work that ran away, and a drain of it would run
		// away again. Which of the work in flight looped the watchdog cannot
		// tell, so every item published and not ended is dropped and
		// counted; the ring keeps its options and kernel, in a new
		// generation.
		loss.Dropped = dropped(loss)
		if err = c.runner.Reset(c.runner.Options()); err != nil {
			dev.Destroy()
			c.losses.Last = &loss
			c.mu.Unlock()
			err = fmt.Errorf("device lost (%s), and the ring not emptied: %w", reason, err)
			c.fail(err)
			return err
		}
	}
	// The host has no copy of the user's buffers: Rebind (and Reset)
	// gave them their initial bytes again.
	loss.BuffersReset = len(c.runner.Options().Kernel.Buffers) > 0
	c.setDevice(dev)
	c.losses.Recoveries++
	n := c.losses.Recoveries
	loss.Recovered, loss.RecoveredMillis = true, float64(time.Since(t0).Microseconds())/1000
	c.losses.Last = &loss
	c.mu.Unlock()
	c.update(func(s *State) {
		s.Recoveries, s.BusyLost = n, false
		s.StaleReason = fmt.Sprintf("device lost (%s), recovered on a new device (recovery %d)", reason, n)
		if runaway {
			// Not ready: the page says what ran away and what it dropped
			// until the next open() or reset.
			s.Status, s.Err, s.Running = StatusError, runawayStatus(loss), false
		}
	}, nil)
	return nil
}

// isRunaway reports whether the runner's watchdog gave dev up.
func isRunaway(dev *webgpu.Device) bool {
	reason, _ := dev.LostReason()
	return reason == megakernel.LostRunaway
}

// runawayStatus is the status of a page whose last loss was a runaway.
func runawayStatus(l api.Loss) error {
	names := "no user opcode"
	if len(l.UserOpcodes) > 0 {
		names = strings.Join(l.UserOpcodes, ", ")
	}
	return fmt.Errorf("runaway submission (%s: %s); recovered on a new device with an empty ring, %d items dropped", names, l.Message, l.Dropped)
}

// dropped is the work a runaway's recovery drops: the items published and
// not ended as of the last readback.
func dropped(l api.Loss) uint64 {
	if l.Published > uint64(l.DoneCount) {
		return l.Published - uint64(l.DoneCount)
	}
	return 0
}

// LastLoss is the page's last device loss, and whether there was one: its
// Runaway and UserOpcodes say whether the page's watchdog gave the device
// up and which user opcodes were in flight (the diagnosis's device-lost
// facts).
func (c *Controller) LastLoss() (api.Loss, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.losses.Last == nil {
		return api.Loss{}, false
	}
	l := *c.losses.Last
	l.UserOpcodes = slices.Clone(l.UserOpcodes)
	return l, true
}

// Device is the page's current device (nil before it has one), read
// without mu: the test hooks land in the middle of a Step.
func (c *Controller) Device() *webgpu.Device { return c.liveDev.Load() }

// HoldRecovery, while on, stops a recovery after it marked the frame stale,
// before it asks for a device (the test hook holdRecovery).
func (c *Controller) HoldRecovery(on bool) { c.losses.Hold(on) }
