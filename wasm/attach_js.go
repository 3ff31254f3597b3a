//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/browser"
	"github.com/ringscope/ringscope/wasm/jsarg"
	"github.com/ringscope/ringscope/wasm/pace"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/webgpu/megakernel"
)

// Attach: the live telemetry of a ring the host page's own kernel drives.
//
//	attach({device, control, ring, log?, slots?, windowOpcodes?, readback?, budget?})
//	        watches the host's GPUBuffers on the host's GPUDevice: the live
//	        loop (start, stop, step), every panel, the watchdog, the flight
//	        recorder and the exports follow it instead of ringscope's own
//	        runner, which stays paused; resolves to an AttachInfo. budget
//	        is the share of the page's main thread its frames and renders
//	        may take (wasm/pace; default pace.DefaultBudget)
//	detach()      stops watching and releases what attach created; the
//	        host's buffers and device are left as they were
//	attachInfo()  the attachment's state
//
// While attached, open, publish, setTenantMask, drain and setShutdown
// reject (they act on ringscope's own runner): detach first. An attachment
// the host ends (a destroyed buffer, a lost device) stops the live loop,
// keeps its last good frame on screen marked stale, and shows the reason;
// attachInfo says it, and detach clears it.
func installAttachAPI(a *app, obj js.Value) {
	method(obj, "attach", a.apiAttach)
	method(obj, "detach", func([]js.Value) (any, error) { return a.apiDetach() })
	method(obj, "attachInfo", func([]js.Value) (any, error) {
		a.mu.Lock()
		defer a.mu.Unlock()
		return attachInfo(attached), nil
	})
}

// attachState is the page's attachment. attached is the current one
// (nil: none), guarded by app.mu; the session keeps what it replaced.
type attachState struct {
	att  *megakernel.Attachment
	desc string // "ring \"label\" (4,096 slots)"
	pace *pace.Budget
}

var (
	attached *attachState
	// hostDevices are the GPUDevices wrapped so far: wrapping a device
	// again reuses its wrapper and its one device.lost watcher.
	hostDevices []*webgpu.Device
	// attachPace waits for display frames between attached frames.
	attachPace *browser.AnimationFrames
	// attachBudget is the attachment's pacing (nil: none), read without
	// mu by the view's render loop, which spends its renders on it.
	attachBudget atomic.Pointer[pace.Budget]
)

// errAttached is the rejection of the runner's methods while attached.
var errAttached = errors.New("ringscope: an attachment drives the ring (ringscope.attach): open, publish, setTenantMask, drain and setShutdown act on ringscope's own runner; call detach() first")

// AttachInfo is what attach, detach and attachInfo resolve to.
type AttachInfo struct {
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

// apiAttach: attach(options); see the comment at the top of the file.
func (a *app) apiAttach(args []js.Value) (any, error) {
	o := jsarg.Arg(args, 0)
	if t := jsarg.TypeName(o); t != "object" {
		return nil, fmt.Errorf("attach: options must be an object {device, control, ring, log?, slots?, windowOpcodes?, readback?, budget?}, got %s", t)
	}
	slots, err := jsarg.OptUint32(o, "attach", "slots", 0)
	if err != nil {
		return nil, err
	}
	windows, err := jsarg.OptUint32Array(o, "attach", "windowOpcodes", jsarg.MaxOptionArray)
	if err != nil {
		return nil, err
	}
	rb, err := jsarg.OptProp(o, "attach", "readback")
	if err != nil {
		return nil, err
	}
	mode, err := attachReadback(rb)
	if err != nil {
		return nil, err
	}
	budget, ok, err := jsarg.OptNumber(o, "attach", "budget")
	if err != nil {
		return nil, err
	}
	if !ok {
		budget = pace.DefaultBudget
	}
	paced, err := pace.New(budget)
	if err != nil {
		return nil, fmt.Errorf("attach: %w", err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case a.runner == nil:
		return nil, errNotReady
	case attached != nil:
		return nil, fmt.Errorf("attach: already attached to the host's %s; detach() first", attached.desc)
	case a.sess.Generator() == nil && a.running:
		// The embedder's own ring (open) is live: attaching would silently
		// stop the work it is watching.
		c := &a.runner.Telemetry().Control
		return nil, fmt.Errorf("attach: ringscope's own runner is driving the ring you opened with open() (%d slots, generation %d) and its live loop is running: stop() it first",
			a.runner.Options().Slots, c.Generation)
	}
	devArg, err := jsarg.OptProp(o, "attach", "device")
	if err != nil {
		return nil, err
	}
	dev, err := wrapHostDevice(devArg)
	if err != nil {
		return nil, fmt.Errorf("attach: %w", err)
	}
	opts := megakernel.AttachOptions{Slots: slots, WindowOpcodes: windows, Readback: mode}
	for _, b := range []struct {
		name     string
		dst      **webgpu.Buffer
		optional bool
	}{{"control", &opts.Control, false}, {"ring", &opts.Ring, false}, {"log", &opts.Log, true}} {
		v, err := jsarg.OptProp(o, "attach", b.name)
		if err != nil {
			return nil, err
		}
		if b.optional && (v.IsUndefined() || v.IsNull()) {
			continue
		}
		if v.IsUndefined() || v.IsNull() {
			return nil, fmt.Errorf("attach: %s is required: the host's GPUBuffer in the ABI layout", b.name)
		}
		if *b.dst, err = webgpu.WrapBuffer(dev, v, b.name); err != nil {
			return nil, fmt.Errorf("attach: %w", err)
		}
	}
	why := ""
	if info, ok := dev.AdapterInfo(); ok {
		opts.Software = info.IsCPU()
	} else {
		// A device that does not say its adapter: the page's own adapter,
		// from the same browser, is the best guess.
		opts.Software, why = a.software, " (the host's device does not say its adapter; ringscope's own was taken)"
	}
	if s := a.settingsNow; s.SketchDepth <= ui.SummaryMaxSketchDepth && s.SketchWidth <= ui.SummaryMaxSketchWidth {
		opts.Summary = megakernel.SummaryShape{Depth: uint32(s.SketchDepth), Width: uint32(s.SketchWidth)}
	}
	at, err := megakernel.Attach(a.ctx, dev, opts)
	if err != nil {
		return nil, fmt.Errorf("attach: %w", err)
	}
	st := &attachState{att: at, desc: fmt.Sprintf("ring %q (%s slots)", opts.Ring.Label(), ui.Thousands(uint64(at.Slots()))), pace: paced}
	attached = st
	attachBudget.Store(paced)
	a.sess.Attach(attachedSource{at}, "attach: "+at.ReadbackNote()+why)
	a.showReadback()
	a.running = true
	a.ui(func(d *ui.Dashboard) {
		d.ClearHistory()
		d.Running, d.Stale, d.StaleReason = true, false, ""
	})
	select {
	case a.commands <- cmdRun: // wake the loop if it waits for a command
	default:
	}
	return attachInfo(st), nil
}

// attachReadback reads attach's readback: "auto" (the default), "full" or
// "summary".
func attachReadback(v js.Value) (megakernel.AttachReadback, error) {
	modes := []megakernel.AttachReadback{megakernel.AttachAuto, megakernel.AttachFull, megakernel.AttachSummary}
	names := []string{"auto", "full", "summary"}
	switch {
	case v.IsUndefined() || v.IsNull():
		return megakernel.AttachAuto, nil
	case jsarg.TypeName(v) != "string":
		return 0, fmt.Errorf("attach: readback must be a string, one of %s; got %s", strings.Join(names, ", "), jsarg.TypeName(v))
	}
	i := slices.Index(names, v.String())
	if i < 0 {
		return 0, fmt.Errorf("attach: readback %q: want one of %s", v.String(), strings.Join(names, ", "))
	}
	return modes[i], nil
}

// wrapHostDevice wraps the host's GPUDevice, reusing an earlier wrapper of
// the same device while it lives. Called with mu held.
func wrapHostDevice(v js.Value) (*webgpu.Device, error) {
	for _, d := range hostDevices {
		if d.SameDevice(v) && d.Err() == nil {
			return d, nil
		}
	}
	hostDevices = slices.DeleteFunc(hostDevices, func(d *webgpu.Device) bool { return d.Err() != nil })
	d, err := webgpu.WrapDevice(v)
	if err != nil {
		return nil, err
	}
	hostDevices = append(hostDevices, d)
	return d, nil
}

// apiDetach: detach() stops the attachment and restores the runner's
// readback mode, watchdog and report; the live loop stays paused and the
// last attached frame on screen, marked stale.
func (a *app) apiDetach() (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	st := attached
	if st == nil {
		return nil, errors.New("detach: nothing is attached (ringscope.attach)")
	}
	info := attachInfo(st)
	st.att.Detach()
	attached = nil
	attachBudget.Store(nil)
	a.running = false
	a.sess.Detach()
	a.showReadback()
	a.ui(func(d *ui.Dashboard) {
		d.Running, d.Stale = false, true
		d.StaleReason = "detached from the host's " + st.desc
		d.Pacing, d.Throttled = "", false
	})
	info.State = "detached"
	return info, nil
}

// attachmentEnded is the frame loop's answer to an attachment the host
// ended (a destroyed buffer, a lost device): the live loop stops and the
// last good frame stays on screen, marked stale. Called with mu held.
func (a *app) attachmentEnded(ended *megakernel.EndedError) error {
	a.running = false
	reason := "attachment ended: " + ended.Reason
	a.ui(func(d *ui.Dashboard) { d.Running, d.Stale, d.StaleReason = false, true, reason })
	// Not wrapped: a lost host device is not ringscope's own loss
	// (runLocked would recover ringscope's device for it).
	return errors.New("attach: " + reason)
}

// paceAttachment spaces attached frames: an attachment's frames and
// renders share the page's one main thread with the host's JavaScript, so
// it waits until they took no more than their budget of it (pace.Budget:
// the costs attachSpent and attachRenderSpent measured, never longer than
// pace.MinRate allows), then for the next display frame, at most one
// frame per frame the person can see.
func (a *app) paceAttachment() {
	b := attachBudget.Load()
	if b == nil {
		return
	}
	// A render that lands while waiting lengthens the wait.
	for w := b.Wait(time.Now()); w > 0; w = b.Wait(time.Now()) {
		time.Sleep(w)
	}
	if attachPace == nil {
		attachPace = browser.NewAnimationFrames(&a.cleanup, maxFrameWait)
	}
	attachPace.Wait()
	b.Begin(time.Now())
}

// attachSpent spends an attached frame's main-thread time, from t0 (its
// start) to now less the Step's waits for the GPU, on the budget, and
// shows its report on the dashboard.
func (a *app) attachSpent(t0 time.Time) {
	b := attachBudget.Load()
	if b == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	st := attached
	if st == nil || st.pace != b {
		return // detached meanwhile: the report is cleared
	}
	b.Spend(time.Since(t0) - st.att.Timings().Wait)
	r := b.Report(time.Now())
	a.view.updateQuiet(func(d *ui.Dashboard) { d.Pacing, d.Throttled = r.String(), r.Throttled })
}

// attachRenderSpent spends a render's cost, pace.RenderWeight times for the
// browser's style, layout and paint of it, on the attachment's budget.
func attachRenderSpent(d time.Duration) {
	if b := attachBudget.Load(); b != nil {
		b.Spend(pace.RenderWeight * d)
	}
}

// runnerSource is the runner as the session's Runner.
type runnerSource struct{ *megakernel.Runner }

func (r runnerSource) WindowOpcodes() []uint32 { return r.Options().WindowOpcodes }

// attachedSource is an attachment as the session's Attached.
type attachedSource struct{ *megakernel.Attachment }

func (a attachedSource) Summary() bool { return a.Readback() == megakernel.AttachSummary }

// attachedNow is the current attachment, or nil. Called with mu held.
func attachedNow() *attachState { return attached }
