//go:build js && wasm

package controller

import (
	"slices"

	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/webgpu/megakernel"
)

// A submission outstanding past the runner's busy grace
// (megakernel.BusyGrace: 1 s, at most a quarter of the bound): the status
// reads "busy: waiting on the GPU for … s" instead of ready, ringscope.status()
// says the same without waiting for the page's lock (which the waiting
// call holds), and past twice the grace the diagnosis names a
// submission-stuck cause with the opcodes in flight. The readback ends it;
// a runaway's loss hands over to the recovery (recover_js.go).

// onWait is the runner's wait observer (megakernel.Runner.OnWait). It runs
// on the goroutine of the Step that waits, with mu held.
func (c *Controller) onWait(w megakernel.Wait) {
	if w.Done {
		c.busy.Store(nil)
		var f *frame.Frame
		if c.stuckShown && !w.Lost {
			f = c.sess.ClearStuck()
		}
		c.stuckShown = false
		c.retell(f)
		c.update(func(s *State) {
			if s.Busy != nil {
				s.BusyLost = w.Lost // until the recovery says how it went
			}
			s.Busy = nil
		}, f)
		return
	}
	b := &api.Busy{WaitedMillis: megakernel.Ms(w.Waited), BoundMillis: megakernel.Ms(w.Bound),
		GraceMillis: megakernel.Ms(megakernel.BusyGrace(w.Bound)), UserOpcodes: slices.Clone(w.Opcodes)}
	c.busy.Store(b)
	var f *frame.Frame
	if !c.stuckShown && w.Waited >= 2*megakernel.BusyGrace(w.Bound) {
		c.stuckShown = true
		f = c.sess.MarkStuck(b.WaitedMillis, b.BoundMillis, w.Opcodes)
		c.retell(f)
	}
	c.update(func(s *State) { s.Busy = b }, f)
}

// Busy is the submission the page waits on past the grace, or nil
// (ringscope.status). It reads no state mu guards.
func (c *Controller) Busy() *api.Busy { return c.busy.Load() }

// Status is the page's status and the submission it waits on, if any
// (ringscope.status): at once, without mu, which a call waiting on the
// GPU holds.
func (c *Controller) Status() api.Status {
	return api.Status{Status: c.display.StatusText(), Busy: c.busy.Load()}
}
