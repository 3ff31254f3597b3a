//go:build js && wasm

package controller

import (
	"context"
	"errors"

	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/webgpu/megakernel"
)

// The live loop from the API (ringscope.start, stop, step, setShutdown):
// an embedder opens a ring, publishes, and lets the page's frame loop
// drain and show it, or steps it one frame at a time. After open the live
// loop publishes nothing itself; it drains what the embedder published.
// setShutdown and setTenantMask keep it running.

// Run starts the live loop (ringscope.start).
func (c *Controller) Run() (any, error) {
	c.mu.Lock()
	ready := c.runner != nil
	c.mu.Unlock()
	if !ready {
		return nil, api.ErrNotReady
	}
	c.commands <- CmdRun // the loop may be blocked waiting for a command
	return api.LiveState{Running: true}, nil
}

// Stop stops the live loop once the frame in flight, if any, is done
// (ringscope.stop).
func (c *Controller) Stop() (any, error) {
	c.mu.Lock()
	if c.runner == nil {
		c.mu.Unlock()
		return nil, api.ErrNotReady
	}
	c.running = false
	c.mu.Unlock()
	c.update(func(s *State) { s.Running = false }, nil)
	return api.LiveState{Running: false}, nil
}

// PauseLive stops the live loop and says whether it ran: a replayed frame
// stays on screen (the capture adapter's replay).
func (c *Controller) PauseLive() bool {
	c.mu.Lock()
	was := c.running
	c.running = false
	c.mu.Unlock()
	if was {
		c.update(func(s *State) { s.Running = false }, nil)
	}
	return was
}

// Step runs one frame of the live loop, which stays paused
// (ringscope.step).
func (c *Controller) Step() (any, error) {
	var res api.LiveStep
	var f *frame.Frame
	wasRunning := false
	recovered, err := c.runLocked(maxRetriesAfterLoss, func() error {
		if c.runner == nil {
			return api.ErrNotReady
		}
		wasRunning = wasRunning || c.running
		c.running = false
		var err error
		if f, err = c.liveFrame(); err != nil {
			return err
		}
		if f == nil { // attached, and the host has a buffer mapped
			return errors.New("step: the host has a watched buffer mapped; no frame this time, try again")
		}
		src := c.sess.Source()
		res = api.LiveStep{Seq: f.Seq, DoneCount: f.Ring.Control.DoneCount, Published: src.Published(),
			Pending: src.Pending(), Watchdog: *f.Watchdog, Diagnosis: api.DiagnosisOf(f.Diagnosis)}
		return nil
	})
	if err != nil {
		if wasRunning {
			c.update(func(s *State) { s.Running = false }, nil)
		}
		return nil, err
	}
	res.Recovered = recovered
	c.update(func(s *State) { s.Running = false }, f)
	return res, nil
}

// SetShutdown sets the control buffer's SHUTDOWN for the next
// submissions; the live loop keeps running.
func (c *Controller) SetShutdown(on bool) (any, error) {
	return c.Do(false, func(_ context.Context, r *megakernel.Runner) (any, error) {
		r.SetShutdown(on)
		return on, nil
	})
}
