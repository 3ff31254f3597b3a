//go:build js && wasm

package controller

import (
	"context"

	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl/host"
)

// The page's IO service (ringscope.setIOService): between submissions the
// runner services WAIT_IO slots with its IOFunc, which in the page answers
// every request at once (a NOP: megakernel.Runner's default). Turned off,
// it answers "not ready", so WAIT_IO slots stay waiting, as behind a host
// service that hangs; the diagnosis is told (its wait-io cause then names
// the missing service). The choice is the page's, not a ring's: it holds
// across open, reset and device recovery until changed.

// SetIOService turns the page's WAIT_IO service on or off for the next
// requeues; the live loop keeps running.
func (c *Controller) SetIOService(on bool) (any, error) {
	return c.Do(false, func(_ context.Context, r *megakernel.Runner) (any, error) {
		c.ioOff = !on
		c.applyIOService()
		return on, nil
	})
}

// applyIOService gives the runner and the diagnosis the IO service's
// state. Called with mu held.
func (c *Controller) applyIOService() {
	if c.ioOff {
		c.runner.SetIOFunc(ioNotReady)
	} else {
		var io host.IOFunc // every request answered at once
		if g := c.sess.Generator(); g != nil {
			io = g.IO() // a preset's own service: priority inversion's lock
		}
		c.runner.SetIOFunc(io)
	}
	f := c.sess.Facts()
	f.IOService = !c.ioOff
	c.sess.SetFacts(f)
}

// ioNotReady is the IOFunc of a page whose IO service is off.
func ioNotReady(host.Item) (host.Item, bool) { return host.Item{}, false }
