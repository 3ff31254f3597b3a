//go:build js && wasm

package controller

import (
	"errors"
	"fmt"
	"github.com/ringscope/ringscope/internal/nocompare"
	"time"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/internal/numfmt"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/pace"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/webgpu/megakernel"
)

// Attach: the live telemetry of a ring the host page's own kernel drives
// (ringscope.attach, detach, attachInfo; docs/EMBEDDING.md). While
// attached, the runner's methods reject (api.ErrAttached): detach first. An
// attachment the host ends (a destroyed buffer, a lost device) stops the
// live loop, keeps its last good frame on screen marked stale, and shows
// the reason; attachInfo says it, and detach clears it.

// attachState is the page's attachment (Controller.attached, nil: none,
// guarded by mu); the session keeps what it replaced.
type attachState struct {
	_ nocompare.T

	att  *megakernel.Attachment
	desc string // "ring \"label\" (4,096 slots)"
	pace *pace.Budget
	// shown is the attachment's TraceChanges the timeline panel shows,
	// shownAt when it was put there (showAttachedTasks).
	shown   uint64
	shownAt time.Time
}

// AttachInfo is what attach, detach and attachInfo resolve to.
type AttachInfo struct {
	_ nocompare.T

	// State is "attached", "ended" (the host ended it; Reason says why),
	// "detached" (detach's answer) or "none".
	State  string
	Reason string `json:",omitempty"`
	// Readback is "full" or "summary"; ReadbackNote why (a summary asked
	// for on a ring without STORAGE usage falls back to full, and says so).
	Readback, ReadbackNote string
	Slots, Observable      uint32
	LogCapacity            uint32
	HasLog                 bool
	// Frames read so far.
	Frames uint64
	// Pacing is the main-thread budget's report: the rate and share the
	// frames of the last 2 s kept, and whether the budget throttled them.
	Pacing *pace.Report
}

func attachInfo(st *attachState) AttachInfo {
	if st == nil {
		return AttachInfo{State: "none"}
	}
	at := st.att
	info := AttachInfo{State: "attached", Readback: at.Readback().String(), ReadbackNote: at.ReadbackNote(),
		Slots: at.Slots(), Observable: at.Observable(), LogCapacity: at.LogCapacity(), HasLog: at.HasLog(),
		Frames: at.Frames()}
	r := st.pace.Report(time.Now())
	info.Pacing = &r
	if e := at.Ended(); e != nil {
		info.State, info.Reason = "ended", e.Reason
	}
	return info
}

// AttachRequest is attach's options as the JS adapter (wasm/jsapi) read
// them: the host's device and buffers (Host wraps them), and the watched
// slots (0: all), window opcodes and readback mode.
type AttachRequest struct {
	// Host wraps the host's GPUDevice and GPUBuffers. Attach calls it
	// with its lock held, once its own checks passed (not ready, already
	// attached, a running ring of open's), so that those refusals come
	// first; its error is attach's, prefixed "attach: ".
	Host          func() (HostRing, error)
	Slots         uint32
	WindowOpcodes []uint32
	Readback      decode.Readback
	// Budget is the share of the main thread the attachment's frames
	// and renders may take (wasm/pace).
	Budget float64
	// SubmissionTimeout bounds one frame's copy (0: the default), as
	// open's bounds a submission.
	SubmissionTimeout time.Duration
	// TraceCapacity is the records of the host's trace buffer read (0:
	// all it holds).
	TraceCapacity uint32
}

// Attach watches the host's buffers (ringscope.attach): the live loop,
// every panel, the watchdog, the recorder and the exports follow them
// instead of the runner, which stays paused.
func (c *Controller) Attach(req AttachRequest) (any, error) {
	paced, err := pace.New(req.Budget)
	if err != nil {
		return nil, fmt.Errorf("attach: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.runner == nil:
		return nil, api.ErrNotReady
	case c.attached != nil:
		return nil, fmt.Errorf("attach: already attached to the host's %s; detach() first", c.attached.desc)
	case c.sess.Generator() == nil && c.running:
		// The embedder's own ring (open) is live: attaching would silently
		// stop the work it is watching.
		ctl := &c.runner.Telemetry().Control
		return nil, fmt.Errorf("attach: ringscope's own runner is driving the ring you opened with open() (%d slots, generation %d) and its live loop is running: stop() it first",
			c.runner.Options().Slots, ctl.Generation)
	}
	host, err := req.Host()
	if err != nil {
		return nil, fmt.Errorf("attach: %w", err)
	}
	dev := host.Device
	opts := megakernel.AttachOptions{Slots: req.Slots, WindowOpcodes: req.WindowOpcodes, Readback: req.Readback,
		SubmissionTimeout: req.SubmissionTimeout, Control: host.Control, Ring: host.Ring, Log: host.Log,
		Trace: host.Trace, TraceCapacity: req.TraceCapacity}
	why := ""
	if info, ok := dev.AdapterInfo(); ok {
		opts.Software = info.IsCPU()
	} else {
		// A device that does not say its adapter: the page's own adapter,
		// from the same browser, is the best guess.
		opts.Software, why = c.software, " (the host's device does not say its adapter; ringscope's own was taken)"
	}
	if s := c.settingsNow; megakernel.SummaryFits(s.SketchDepth, s.SketchWidth) {
		opts.Summary = megakernel.SummaryShape{Depth: uint32(s.SketchDepth), Width: uint32(s.SketchWidth)}
	}
	at, err := megakernel.Attach(c.ctx, dev, opts)
	if err != nil {
		return nil, fmt.Errorf("attach: %w", err)
	}
	st := &attachState{att: at, desc: fmt.Sprintf("ring %q (%s slots)", opts.Ring.Label(), numfmt.Thousands(uint64(at.Slots()))), pace: paced}
	c.attached = st
	c.budget.Store(paced)
	c.sess.Attach(attachedSource{at}, "attach: "+at.ReadbackNote()+why)
	c.showReadback()
	c.running = true
	attached := "host's " + st.desc + ", " + at.Readback().String() + " readback"
	c.update(func(s *State) {
		s.Rings++
		s.Running, s.Stale, s.StaleReason = true, false, ""
		s.Attached = attached
	}, nil)
	c.Send(CmdRun) // wake the loop if it waits for a command
	return attachInfo(st), nil
}

// AttachInfo is the attachment's state (ringscope.attachInfo).
func (c *Controller) AttachInfo() (any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return attachInfo(c.attached), nil
}

// HostRing is the host's device and the buffers of its ring, wrapped
// (webgpu.WrapDevice, WrapBuffer); Log and Trace are nil when the host
// has none.
type HostRing struct {
	Device                    *webgpu.Device
	Control, Ring, Log, Trace *webgpu.Buffer
}

// Detach (ringscope.detach) stops the attachment and restores the runner's
// readback mode, watchdog and report; the live loop stays paused and the
// last attached frame on screen, marked stale.
func (c *Controller) Detach() (any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.attached
	if st == nil {
		return nil, errors.New("detach: nothing is attached (ringscope.attach)")
	}
	info := attachInfo(st)
	st.att.Detach()
	c.attached = nil
	c.budget.Store(nil)
	c.running = false
	c.sess.Detach()
	c.showReadback()
	c.update(func(s *State) {
		s.Running, s.Stale = false, true
		s.StaleReason = "detached from the host's " + st.desc
		s.Pacing, s.Throttled, s.Attached = "", false, ""
	}, nil)
	info.State = "detached"
	return info, nil
}

// attachmentEnded is the frame loop's answer to an attachment the host
// ended (a destroyed buffer, a lost device): the live loop stops and the
// last good frame stays on screen, marked stale. Called with mu held.
func (c *Controller) attachmentEnded(ended *megakernel.EndedError) error {
	c.running = false
	reason := "attachment ended: " + ended.Reason
	// The verdict says so too (health lost, a device-lost cause with the
	// reason), for snapshot(), subscribers and a kit's matchers.
	if f := c.sess.MarkLost(reason, nil, 0); f != nil {
		c.retell(f)
		c.update(nil, f)
	}
	c.update(func(s *State) {
		s.Running, s.Stale, s.StaleReason = false, true, reason
		if s.Attached != "" {
			s.Attached += " (ended)"
		}
	}, nil)
	// Not wrapped: a lost host device is not ringscope's own loss
	// (runLocked would recover ringscope's device for it).
	return errors.New("attach: " + reason)
}

// paceAttachment spaces attached frames: an attachment's frames and
// renders share the page's one main thread with the host's JavaScript, so
// it waits until they took no more than their budget of it (pace.Budget:
// the costs attachSpent and RenderSpent measured, never longer than
// pace.MinRate allows), then for the next display frame, at most one
// frame per frame the person can see.
func (c *Controller) paceAttachment() {
	b := c.budget.Load()
	if b == nil {
		return
	}
	// A render that lands while waiting lengthens the wait.
	for w := b.Wait(time.Now()); w > 0; w = b.Wait(time.Now()) {
		time.Sleep(w)
	}
	c.pace.Wait()
	b.Begin(time.Now())
}

// attachSpent spends an attached frame's main-thread time, from t0 (its
// start) to now less the Step's waits for the GPU, on the budget, and
// shows its report on the dashboard.
func (c *Controller) attachSpent(t0 time.Time) {
	b := c.budget.Load()
	if b == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.attached
	if st == nil || st.pace != b {
		return // detached meanwhile: the report is cleared
	}
	b.Spend(time.Since(t0) - st.att.Timings().Wait)
	r := b.Report(time.Now())
	c.updateQuiet(func(s *State) { s.Pacing, s.Throttled = r.String(), r.Throttled })
}

// RenderSpent spends a render's cost, pace.RenderWeight times for the
// browser's style, layout and paint of it, on the attachment's budget
// (the view tells it every render).
func (c *Controller) RenderSpent(d time.Duration) {
	if b := c.budget.Load(); b != nil {
		b.Spend(pace.RenderWeight * d)
	}
}

// attachedSource is an attachment as the session's Attached.
type attachedSource struct{ *megakernel.Attachment }

func (a attachedSource) Summary() bool { return a.Readback() == decode.ReadbackSummary }
