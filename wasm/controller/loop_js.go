//go:build js && wasm

package controller

import (
	"errors"
	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/diagnose"
	"github.com/ringscope/ringscope/settings"
	"time"

	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wasm/browser"
	"github.com/ringscope/ringscope/wasm/session"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl"
)

// The frame loop: one epoch per display frame while running, the
// dashboard's controls and the API's start/stop as commands.

// Command is an intent from the dashboard's controls or the API, handled
// by the frame loop (callbacks never block: they run inside Vugu's event
// handling).
type Command int

const (
	CmdRun Command = iota
	CmdPause
	CmdStep
	CmdReset
	cmdApply // Apply's, with its settings
)

// maxFrameWait bounds the wait for an animation frame between attached
// frames: a hidden page, which gets none, still reads at 10 Hz.
const maxFrameWait = 100 * time.Millisecond

// Resume runs the live loop again after PauseLive.
func (c *Controller) Resume() { c.commands <- CmdRun }

// Send asks the frame loop for cmd; a burst beyond what the loop keeps up
// with is dropped (a person clicking fast).
func (c *Controller) Send(cmd Command) {
	select {
	case c.commands <- cmd:
	default:
	}
}

// Apply asks the frame loop to re-open the runner on the settings form's
// s (apply).
func (c *Controller) Apply(s settings.Settings) {
	select {
	case c.settings <- s:
		c.Send(cmdApply)
	default:
	}
}

// frameLoop publishes and drains one epoch per display frame while running,
// and handles the controls. A lost device is recovered (the frame is
// skipped); an Apply the runner refuses leaves the previous ring running.
func (c *Controller) frameLoop() {
	for {
		c.mu.Lock()
		running := c.running
		c.mu.Unlock()
		var cmd Command = -1
		if !running {
			c.display.OpenGate() // paused (autostart=0): no first frame to wait for
		}
		if running {
			// No pacing beyond the work itself: a frame's GPU waits are
			// when the dashboard renders the previous frame, so waiting
			// for requestAnimationFrame would serialise the two.
			select {
			case cmd = <-c.commands:
			default:
			}
		} else {
			cmd = <-c.commands
		}
		step := running
		switch cmd {
		case CmdRun:
			c.setRunning(true)
			continue
		case CmdPause:
			c.setRunning(false)
			continue
		case CmdStep:
			c.setRunning(false)
			step = true
		case CmdReset:
			_, err := c.runLocked(maxRetriesAfterLoss, func() error { return c.openWorkload(c.settingsNow, c.cfg.Seed) })
			c.afterReset(err)
			continue
		case cmdApply:
			c.apply(<-c.settings)
			continue
		}
		if !step {
			continue
		}
		if cmd != CmdStep {
			c.paceAttachment() // attached: within its budget, at most one frame per display frame
		}
		t0 := time.Now()
		var f *frame.Frame
		recovered, err := c.runLocked(0, func() error {
			if cmd != CmdStep && !c.running {
				return nil // stopped (the API's stop) since the check above
			}
			var err error
			f, err = c.liveFrame()
			return err
		})
		switch {
		case recovered:
			c.display.OpenGate()
			continue // the next frame runs on the new device
		case err != nil:
			c.display.OpenGate()
			c.fail(err)
			c.setRunning(false)
			continue
		}
		if f != nil {
			if f.Seq == 1 {
				browser.Mark("ringscope:first-frame")
			}
			c.showFrame(f)
		}
		c.attachSpent(t0)
	}
}

// apply re-opens the runner on the settings form's s. The form checked s;
// the runner may still refuse it (device memory, window opcodes): then the
// form shows why and the previous ring keeps running, untouched.
func (c *Controller) apply(s settings.Settings) {
	_, err := c.runLocked(maxRetriesAfterLoss, func() error { return c.openWorkload(s, c.cfg.Seed) })
	if err != nil {
		err = explainOOM(megakernel.Options{Slots: uint32(s.RingSlots)}, err)
		c.update(func(s *State) { s.ApplyError = "not applied, the previous ring keeps running: " + err.Error() }, nil)
		return
	}
	c.update(func(st *State) { st.Settings, st.ApplyError = s, "" }, nil)
	c.afterReset(nil)
}

func (c *Controller) setRunning(on bool) {
	c.mu.Lock()
	c.running = on
	c.mu.Unlock()
	c.update(func(s *State) { s.Running = on }, nil)
}

func (c *Controller) afterReset(err error) {
	if err != nil {
		c.fail(err)
		return
	}
	c.update(func(s *State) {
		s.Rings++
		if s.Status != StatusNoWebGPU {
			s.Status, s.Err, s.BusyLost = StatusReady, nil, false
		}
	}, nil)
}

// liveFrame is one epoch of the live loop (session.LiveFrame). Called
// with mu held.
func (c *Controller) liveFrame() (*frame.Frame, error) {
	f, err := c.sess.LiveFrame(c.ctx, c.warm)
	var ended *megakernel.EndedError
	if errors.As(err, &ended) {
		return nil, c.attachmentEnded(ended)
	}
	if err == nil {
		c.hunt(f)
		c.showAttachedTasks()
	}
	return f, err
}

// warmFirst starts compiling the first frame's pipelines and lets the
// first render run meanwhile (the view's first render waits for its gate). Called with
// mu held, just before a Step.
func (c *Controller) warmFirst() {
	c.display.OpenGateAfter(func() { c.runner.Warm(c.ctx) })
}

// openSession makes the runner the session's ring, as r says, with the
// sketch shape of the settings now, and shows its readback. Called with mu
// held.
func (c *Controller) openSession(r session.Ring) {
	r.Runner = c.runner
	r.SketchDepth, r.SketchWidth = c.settingsNow.SketchDepth, c.settingsNow.SketchWidth
	c.sess.Open(r)
	facts := ringFacts(c.runner.Options())
	c.opcodeName = facts.OpcodeName
	c.sess.SetFacts(facts)
	c.applyIOService() // io_js.go: the page's, across rings
	c.showReadback()
}

// ringFacts is what the diagnosis knows of a ring from its options: the
// tenants it runs, its lane budget, its opcodes' names. The live loop and
// drain service WAIT_IO (megakernel.Runner's IOFunc).
func ringFacts(o megakernel.Options) diagnose.Facts {
	tenants := o.Tenants
	if o.Masks != nil {
		tenants = uint32(len(o.Masks))
	}
	return diagnose.Facts{Tenants: tenants, Budget: o.Budget, IOService: true, OpcodeName: opcodeNamer(o.Kernel)}
}

// opcodeNamer names opcodes as the page does: k's own names of its user
// opcodes, else decode.OpcodeName.
func opcodeNamer(k wgsl.Kernel) func(op uint32) string {
	return func(op uint32) string {
		if n := k.Name(op); n != "" {
			return n
		}
		return decode.OpcodeName(op)
	}
}
