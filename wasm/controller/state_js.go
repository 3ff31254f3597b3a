//go:build js && wasm

package controller

import (
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/internal/nocompare"
	"github.com/ringscope/ringscope/settings"
	"github.com/ringscope/ringscope/wasm/api"
)

// Status is the page's state, as the header's badge shows it.
type Status uint8

const (
	StatusLoading  Status = iota // no device yet
	StatusReady                  // a ring is open
	StatusNoWebGPU               // the browser offers no WebGPU
	StatusError                  // State.Err says why
)

// State is what the controller publishes beside each frame: the page's
// status and what the header, the banner and the settings form show. The
// page maps it onto its view in one place (package main); the controller
// never edits the view.
type State struct {
	_ nocompare.T

	Status Status
	// Err is why, when Status is StatusError.
	Err error
	// Running: the live loop runs (Run highlighted rather than Pause).
	Running bool
	// Stale marks the frame shown as the last good one from before a
	// device loss, a detach or an attachment's end; StaleReason says what
	// happened. A new frame clears it.
	Stale       bool
	StaleReason string
	// Recoveries counts the device losses the page recovered from.
	Recoveries int
	// ApplyError is why the last settings Apply was refused (the previous
	// ring keeps running); "" after a successful Apply.
	ApplyError string
	// Readback is the mode the ring runs in (summary or full, as
	// megakernel.ChooseReadback picked it), ReadbackWhy the reason.
	Readback, ReadbackWhy string
	// Pacing says, while attached, the rate and the share of the main
	// thread the attachment's budget keeps (wasm/pace.Report); Throttled
	// that the budget, not the display, sets the rate.
	Pacing    string
	Throttled bool
	// Attached says what the page watches while attached (the host's ring,
	// its slots and the readback), "" when it runs its own ring: the
	// header shows it in place of the preset.
	Attached string
	// Settings are the applied settings (the form's starting point).
	Settings settings.Settings
	// Adapter describes the device's adapter; nil until known.
	Adapter *settings.AdapterInfo
	// Rings counts the rings opened, reset or attached: a new count
	// starts the view's history afresh.
	Rings uint64
	// Busy is the submission the page waits on past the busy grace
	// (busy_js.go), shown instead of Status; nil when none. BusyLost says
	// its device was given up as a runaway, until the recovery says how
	// it went.
	Busy     *api.Busy
	BusyLost bool
}

// update changes the state by f and shows it (Display.Show) with frame
// fr, nil for none. A frame clears Stale: it is new.
func (c *Controller) update(f func(s *State), fr *frame.Frame) {
	c.stateMu.Lock()
	if f != nil {
		f(&c.state)
	}
	if fr != nil {
		c.state.Stale, c.state.StaleReason = false, ""
	}
	st := c.state
	c.stateMu.Unlock()
	c.display.Show(st, fr)
}

// showFrame shows frame f with the state as it is.
func (c *Controller) showFrame(f *frame.Frame) { c.update(nil, f) }

// retell tells the subscribers the verdict the session just gave frame f
// anew in place (nil: none). Called with mu held, as frames are told.
func (c *Controller) retell(f *frame.Frame) {
	if f != nil {
		c.display.Verdict(f)
	}
}

// State is the state the controller published last.
func (c *Controller) State() State {
	c.stateMu.Lock()
	defer c.stateMu.Unlock()
	return c.state
}

// updateQuiet changes the state by f and hands it to the page without
// asking for a render (Display.ShowQuiet): a frame's show follows.
func (c *Controller) updateQuiet(f func(s *State)) {
	c.stateMu.Lock()
	f(&c.state)
	st := c.state
	c.stateMu.Unlock()
	c.display.ShowQuiet(st)
}
