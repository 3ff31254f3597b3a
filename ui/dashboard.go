package ui

import (
	"strconv"

	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/settings"
)

// Dashboard is the root component. The composition root sets the exported
// fields and callbacks, and calls Apply for every decoded frame inside the
// EventEnv lock; buttons and the settings form call the callbacks (nil
// callbacks are ignored). The zero value shows "loading" with no data.
type Dashboard struct {
	// Status is the page state: StatusLoading, StatusReady,
	// StatusNoWebGPU or ErrorStatus(err); "" reads as loading.
	Status string
	// Adapter describes the WebGPU adapter; nil until known.
	Adapter *settings.AdapterInfo
	// Settings are the applied settings (the form's starting point).
	Settings settings.Settings
	// Running highlights Run (true) or Pause (false).
	Running bool
	// Formats resolves PRINTF format ids in the log.
	Formats map[uint32]string
	// OpcodeNames are the running kernel's names of its user opcodes.
	OpcodeNames Names
	// Stale marks the shown frame as the last good snapshot from before a
	// device loss: StaleReason says what happened (the composition root
	// fills it). The next Apply clears it, since its frame is new.
	Stale       bool
	StaleReason string
	// Recoveries counts the device losses the page recovered from.
	Recoveries int
	// ApplyError is why the last settings Apply was refused (the previous
	// ring keeps running); "" after a successful Apply.
	ApplyError string

	// Readback is the mode the ring runs in (ReadbackSummary or
	// ReadbackFull, as megakernel.ChooseReadback picked it), ReadbackWhy the reason;
	// "" until the page knows.
	Readback, ReadbackWhy string
	// Pacing says, while attached, the rate and the share of the main
	// thread the attachment's budget keeps (wasm/pace.Report); Throttled
	// that the budget, not the display, sets the rate. "" when none.
	Pacing    string
	Throttled bool
	// Attached says what is attached (the host's ring, its slots and
	// readback), shown in the header in place of the preset; "" when the
	// page runs its own ring.
	Attached string

	OnRun, OnPause, OnStep, OnReset func()
	// OnRequestRing asks for the full ring with the next frame (the slot
	// inspector under summary readback); nil: ignored.
	OnRequestRing func()
	// OnInspectSlot names the slot the inspector shows (-1: none), so the
	// page puts it in the summary frames that follow (Frame.HostSlot)
	// instead of reading the ring; nil: the inspector asks OnRequestRing.
	OnInspectSlot func(i int)
	// OnApplySettings receives a validated Settings from the form.
	OnApplySettings func(settings.Settings)

	// Tasks is the traced ring's timeline (the timeline panel); nil
	// hides the panel.
	Tasks *Timeline
	// BuildAll makes the next build build the throttled tables too (a DOM
	// event since the last render: TableRefreshMillis).
	BuildAll bool

	frame   *frame.Frame
	hist    *History
	capture *CaptureModel // the capture bar's (CaptureModel)
	inspect SlotRequest   // the slot map's inspector, asked by the timeline
	tables  tables        // the throttled panels (throttled.go)
}

// SlotRequest asks the slot map to inspect Slot; a new Seq is a new ask.
type SlotRequest struct {
	Slot int
	Seq  uint64
}

// InspectTask opens the slot inspector on slot (a task of the timeline).
func (c *Dashboard) InspectTask(slot int) {
	c.inspect = SlotRequest{Slot: slot, Seq: c.inspect.Seq + 1}
}

// Apply shows frame f: it becomes the current frame and is appended to the
// history. f must stay unchanged until the next Apply. Call it with the
// EventEnv lock held; the next render shows it.
func (c *Dashboard) Apply(f *frame.Frame) {
	if f == nil {
		return
	}
	c.frame = f
	c.Stale, c.StaleReason = false, ""
	c.History().Push(f)
}

// Frame returns the current frame (nil before the first Apply).
func (c *Dashboard) Frame() *frame.Frame { return c.frame }

// History returns the frame history, creating it on first use.
func (c *Dashboard) History() *History {
	if c.hist == nil {
		c.hist = NewHistory()
	}
	return c.hist
}

// ClearHistory forgets the time series and the current frame (call it when
// the ring is re-initialised).
func (c *Dashboard) ClearHistory() {
	c.History().Reset()
	c.frame = nil
}

// StatusText is the badge text: Status, or loading when unset.
func (c *Dashboard) StatusText() string {
	if c.Status == "" {
		return StatusLoading
	}
	return c.Status
}

// Compute normalises the status before a build and gives the throttled
// tables their inputs.
func (c *Dashboard) Compute() {
	if c.Status == "" {
		c.Status = StatusLoading
	}
	if c.Settings == (settings.Settings{}) {
		c.Settings = settings.DefaultSettings()
	}
	c.tables.show(c)
}

// Run, Pause, Step and Reset forward the buttons' intent.
func (c *Dashboard) Run()   { call(c.OnRun) }
func (c *Dashboard) Pause() { call(c.OnPause) }
func (c *Dashboard) Step()  { call(c.OnStep) }
func (c *Dashboard) Reset() { call(c.OnReset) }

func call(f func()) {
	if f != nil {
		f()
	}
}

func (c *Dashboard) applySettings(s settings.Settings) {
	if c.OnApplySettings != nil {
		c.OnApplySettings(s)
	}
}

// RunClass and PauseClass highlight the current run state.
func (c *Dashboard) RunClass() string {
	if c.Running {
		return "btn btn-primary active"
	}
	return "btn btn-primary"
}

// PauseClass highlights Pause while paused.
func (c *Dashboard) PauseClass() string {
	if !c.Running {
		return "btn active"
	}
	return "btn"
}

// HeaderStats are the few numbers always in view: done and faulted apart
// (DONE_COUNT counts both), faulted right after done.
func (c *Dashboard) HeaderStats() []KV {
	stats := c.headerStats()
	i := 0
	for i < len(stats) && stats[i].Label != "done" {
		i++
	}
	faulted := KV{Label: "faulted", Value: dash, Title: "FAULTS: slots that ended FAULT in the current generation (the log says why)"}
	if i == len(stats) {
		return append(stats, faulted) // no done cell: never, but no guess
	}
	done := &stats[i]
	done.Title = "slots that ended DONE in the current generation: DONE_COUNT less FAULTS"
	if f := c.frame; f != nil && f.Ring != nil {
		k := &f.Ring.Control
		done.Value, faulted.Value = Thousands(uint64(k.DoneCount-k.Faults)), Thousands(uint64(k.Faults))
		if k.Faults > 0 {
			faulted.Class = "num-bad"
		}
	}
	return append(stats[:i+1:i+1], append([]KV{faulted}, stats[i+1:]...)...)
}

// sourceStat is the header's first stat: what the page shows, the
// preset of its own ring or, while attached, the host's ring, or while it
// replays, the import or the recording (whose frames may be a host's ring
// since detached, not the preset's).
func (c *Dashboard) sourceStat() KV {
	if m := c.capture; m != nil && m.Replaying {
		if m.Source == "recording" {
			return KV{Label: "replay", Value: "recording", Title: "the page shows its recording's frames (back to live: the capture bar)"}
		}
		return KV{Label: "replay", Value: m.Source, Title: "the page shows an imported capture's frames, not its own ring (back to live: the capture bar)"}
	}
	if c.Attached != "" {
		return KV{Label: "attached", Value: c.Attached, Title: "the page watches a host page's own ring (ringscope.attach): its buffers, slots and readback", TestID: "header-attached"}
	}
	return KV{Label: "preset", Value: c.Settings.Preset, Title: "the workload preset of the applied settings"}
}

// headerStats are HeaderStats but faulted, with done as DONE_COUNT.
func (c *Dashboard) headerStats() []KV {
	f := c.frame
	h := c.History()
	stats := []KV{
		c.sourceStat(),
		{Label: "frame", Value: dash, Title: "frames applied (sequence number of the current frame)"},
		{Label: "rate", Value: dash, Title: "frames per second, smoothed"},
		{Label: "round trip", Value: dash, Title: "last submit → readback round trip, ms"},
		{Label: "done", Value: dash, Title: "DONE_COUNT of the current generation"},
		{Label: "health", Value: dash, Title: "the diagnosis's verdict (docs/DIAGNOSIS.md)", TestID: "header-health"},
		{Label: "cause", Value: dash, Title: "the diagnosis's first cause: the watchdog panel lists them all", TestID: "header-cause"},
		c.ReadbackStat(),
	}
	if f == nil {
		return stats
	}
	stats[1].Value = Thousands(f.Seq)
	if h.FrameMS > 0 {
		stats[2].Value = strconv.FormatFloat(1000/h.FrameMS, 'f', 1, 64) + " fps"
	}
	if c.Pacing != "" {
		stats[2].Title = c.Pacing
		if c.Throttled && h.FrameMS > 0 {
			stats[2].Value += " (throttled)"
		}
	}
	stats[3].Value = MS(f.Timings.RoundTripMS)
	if f.Ring != nil {
		stats[4].Value = Thousands(uint64(f.Ring.Control.DoneCount))
	}
	if d := f.Diagnosis; d != nil {
		stats[5].Value, stats[5].Class = HealthWord(d.Health), healthClass(d.Health)
		stats[6].Value = "none"
		if first := d.First(); first != nil {
			stats[6].Value, stats[6].Title, stats[6].Class = CauseTitle(first), first.Fix, "num-warn"
		}
	}
	return stats
}

// ReadbackStat is the header's readback mode, with why it was picked.
func (c *Dashboard) ReadbackStat() KV {
	kv := KV{Label: "readback", Value: dash, Title: ReadbackTitle}
	if c.Readback != "" {
		kv.Value = c.Readback
		if c.ReadbackWhy != "" {
			kv.Title = c.ReadbackWhy + " · " + ReadbackTitle
		}
	}
	return kv
}

// StaleText is the stale banner: which snapshot is shown, and why.
func (c *Dashboard) StaleText() string {
	shown := "no snapshot yet"
	if f := c.frame; f != nil {
		shown = "the last good snapshot (frame " + Thousands(f.Seq)
		if f.Ring != nil {
			shown += ", DONE_COUNT " + Thousands(uint64(f.Ring.Control.DoneCount))
		}
		shown += ")"
	}
	reason := c.StaleReason
	if reason == "" {
		reason = "device lost"
	}
	return "STALE: " + reason + "; showing " + shown + " until a new frame arrives."
}

// RecoveriesText is the recoveries count.
func (c *Dashboard) RecoveriesText() string { return strconv.Itoa(c.Recoveries) }

// RecoveriesClass flags a page that has lost its device at least once.
func (c *Dashboard) RecoveriesClass() string {
	if c.Recoveries > 0 {
		return "num-warn"
	}
	return ""
}
