package ui

import (
	"strconv"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/diagnose"
	"github.com/ringscope/ringscope/decode/frame"
)

// WatchdogPanel shows the health timeline and, only while the watchdog
// reports a stall, an alert banner (data-testid stall-alert).
type WatchdogPanel struct {
	Frame   *frame.Frame
	History *History

	plot Plot
}

func (c *WatchdogPanel) state() *decode.WatchdogState {
	if c.Frame == nil {
		return nil
	}
	return c.Frame.Watchdog
}

// Seq is the frame sequence.
func (c *WatchdogPanel) Seq() uint64 {
	if c.Frame == nil {
		return 0
	}
	return c.Frame.Seq
}

// Painter draws the timeline.
func (c *WatchdogPanel) Painter() Painter { return HealthPainter{H: c.History} }

// Stalled reports a stall verdict.
func (c *WatchdogPanel) Stalled() bool {
	s := c.state()
	return s != nil && s.Stalled
}

// Sub states the verdict: the diagnosis's health. A frame without one
// (an imported capture keeps none but a hang's) says so beside the
// watchdog's own word, which is not a verdict.
func (c *WatchdogPanel) Sub() string {
	if d := c.diagnosis(); d != nil {
		return HealthWord(d.Health)
	}
	s := c.state()
	if s == nil {
		return "no frame yet"
	}
	return "no verdict · watchdog " + HealthLabel(HealthCode(s))
}

func (c *WatchdogPanel) diagnosis() *diagnose.Diagnosis {
	if c.Frame == nil {
		return nil
	}
	return c.Frame.Diagnosis
}

// Causes are the diagnosis's active causes, most explanatory first.
func (c *WatchdogPanel) Causes() []CauseRow {
	d := c.diagnosis()
	if d == nil || len(d.Causes) == 0 {
		return nil
	}
	rows := make([]CauseRow, len(d.Causes))
	for i := range d.Causes {
		rows[i] = causeRow(&d.Causes[i])
	}
	return rows
}

// HealthLabel names a health code.
func HealthLabel(code int) string {
	return [...]string{"idle", "progressing", "suspect", "STALLED", "reset", "faulting"}[clampInt(code, 0, HealthFaulting)]
}

// Alert is the stall banner text.
func (c *WatchdogPanel) Alert() string {
	s := c.state()
	if s == nil {
		return ""
	}
	text := "STALL: " + Thousands(uint64(s.Health.QueueDepth)) + " slots queued and DONE_COUNT has not moved for " +
		strconv.Itoa(s.StalledIntervals) + " intervals (" + MS(s.StalledForMillis) + ")."
	if first := c.diagnosis().First(); first != nil {
		text += " Cause: " + CauseTitle(first) + ". " + first.Fix
	}
	return text
}

// Items lists the watchdog numbers.
func (c *WatchdogPanel) Items() []KV {
	s := c.state()
	if s == nil {
		return []KV{{Label: "health", Value: dash, Title: "no frame yet"}}
	}
	h := &s.Health
	reset := "no"
	if h.Reset {
		reset = "yes (GENERATION changed)"
	}
	return []KV{
		{Label: "done Δ", Value: Thousands(uint64(h.DoneDelta)), Title: "DoneDelta: DONE_COUNT progress since the previous frame, mod 2^32 (slots)"},
		{Label: "done rate", Value: Rate(s.DonePerSecond), Title: "completions per second over the last interval"},
		{Label: "interval", Value: MS(s.IntervalMillis), Title: "time since the previous frame's readback"},
		{Label: "stalled intervals", Value: strconv.Itoa(s.StalledIntervals), Class: warnIf(s.StalledIntervals > 0), Title: "consecutive intervals with work queued, no progress and no faults; a stall is reported at N"},
		{Label: "stalled for", Value: MS(s.StalledForMillis), Class: warnIf(s.StalledForMillis > 0), Title: "time since the last frame with progress, while stalled intervals accumulate"},
		{Label: "queue depth", Value: Thousands(uint64(h.QueueDepth)), Title: "slots neither EMPTY nor DONE"},
		{Label: "fault slots", Value: Thousands(uint64(h.FaultSlots)), Title: "slots in FAULT: faults explain a lack of progress, so they suppress the stall"},
		{Label: "requeue slots", Value: Thousands(uint64(h.RequeueSlots)), Title: "slots in REQUEUE"},
		{Label: "GPU idle", Value: PPM(h.GPUIdlePPM), Title: "EMPTY ÷ total slots"},
		{Label: "reset", Value: reset, Title: "the host re-initialised the ring between the two frames: a new generation, never a stall"},
	}
}

// Rendered draws the timeline.
func (c *WatchdogPanel) Rendered() { c.plot.Draw(c.Seq(), c.Painter()) }
