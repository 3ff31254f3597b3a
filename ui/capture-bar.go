package ui

import (
	"strconv"

	"github.com/vugu/vugu"
)

// CaptureModel is the flight recorder's state as the capture bar shows it.
// The composition root owns it (Dashboard.CaptureModel) and updates it
// inside the EventEnv lock; the bar calls the callbacks, which must not
// block (they run inside Vugu's event handling). The zero value is a
// recorder that is off, holds nothing and is not replaying.
type CaptureModel struct {
	// Recording is set while live frames are recorded.
	Recording bool
	// Frames and Bytes are what the recorder holds; MaxFrames and MaxBytes
	// its bounds; Dropped the older frames evicted to stay within them.
	Frames, MaxFrames int
	Bytes, MaxBytes   int
	Dropped           uint64
	// SpanMillis is the page time from the oldest frame held to the
	// newest; Compact the frames held without their slots (the history).
	SpanMillis float64
	Compact    int

	// Replaying is set while the panels show a recorded or imported frame
	// instead of the live one. Source names what is replayed ("recording",
	// a file name); Count is its number of frames, Index the frame shown
	// (0-based) and Seq that frame's sequence number.
	Replaying bool
	Source    string
	Count     int
	Index     int
	Seq       uint64
	// RingFrom is the frame whose ring the shown frame's slots and
	// occupancy come from (docs/CAPTURE.md §1.2: a frame that did not read
	// the ring back shows the latest earlier one of its generation), -1
	// for none; RingSeq is that frame's sequence number.
	RingFrom int
	RingSeq  uint64
	// ShownCompact is set when the shown frame is a compact one of the
	// recorder's history: counters, log and occupancy, no slots.
	ShownCompact bool

	// Error is why the last import or export failed ("" for none); Notice
	// what the last one did.
	Error  string
	Notice string

	OnRecord func(on bool)
	// OnExport receives "capture", "trace" or "metrics".
	OnExport func(kind string)
	// OnScrub receives the frame index the scrubber was moved to.
	OnScrub func(i int)
	OnLive  func()
}

// CaptureModel returns the dashboard's capture model, creating it on first
// use (under the view's lock, as every use of the dashboard).
func (c *Dashboard) CaptureModel() *CaptureModel {
	if c.capture == nil {
		c.capture = new(CaptureModel)
	}
	return c.capture
}

// CaptureBar is the record / export / import / scrub bar above the panels.
type CaptureBar struct {
	Model *CaptureModel
}

func (c *CaptureBar) m() *CaptureModel {
	if c.Model == nil {
		return &CaptureModel{}
	}
	return c.Model
}

// RecordLabel and RecordClass show the recorder's state on its button.
func (c *CaptureBar) RecordLabel() string {
	if c.m().Recording {
		return "● Recording"
	}
	return "○ Record"
}

// RecordClass highlights the button while recording.
func (c *CaptureBar) RecordClass() string {
	if c.m().Recording {
		return "btn btn-rec active"
	}
	return "btn btn-rec"
}

// HeldText says what the recorder holds: "930 frames over 5 min 1 s ·
// 84.3 MiB of 96 MiB".
func (c *CaptureBar) HeldText() string {
	m := c.m()
	s := Thousands(uint64(m.Frames)) + " frames"
	if m.Frames == 1 {
		s = "1 frame"
	}
	if sec := int(m.SpanMillis / 1000); sec > 0 {
		s += " over "
		if sec >= 60 {
			s += strconv.Itoa(sec/60) + " min "
		}
		s += strconv.Itoa(sec%60) + " s"
	}
	s += " · " + Bytes(uint64(m.Bytes))
	if m.MaxBytes > 0 {
		s += " of " + Bytes(uint64(m.MaxBytes))
	}
	if m.Dropped > 0 {
		s += " · " + Thousands(m.Dropped) + " older dropped"
	}
	return s
}

// HeldTitle explains the bound.
func (c *CaptureBar) HeldTitle() string {
	m := c.m()
	return "the flight recorder keeps frames within " + Bytes(uint64(m.MaxBytes)) + " (raw control, ring and log buffers, " +
		"per-dispatch counters): the newest whole, " + Thousands(uint64(m.Compact)) + " older ones compact, without their slots, " +
		"thinned as they age (docs/CAPTURE.md §5)"
}

// ScrubMax is the scrubber's last index (0 when empty).
func (c *CaptureBar) ScrubMax() string {
	m := c.m()
	n := m.Frames
	if m.Replaying {
		n = m.Count
	}
	return strconv.Itoa(max(n-1, 0))
}

// ScrubValue is the scrubber's position: the replayed frame, or the newest.
func (c *CaptureBar) ScrubValue() string {
	m := c.m()
	if m.Replaying {
		return strconv.Itoa(m.Index)
	}
	return c.ScrubMax()
}

// ScrubDisabled is set when there is nothing to scrub.
func (c *CaptureBar) ScrubDisabled() bool {
	m := c.m()
	return m.Frames == 0 && !(m.Replaying && m.Count > 0)
}

// PositionText says where the scrubber is.
func (c *CaptureBar) PositionText() string {
	m := c.m()
	if !m.Replaying {
		return "live"
	}
	s := "frame " + strconv.Itoa(m.Index+1) + " / " + strconv.Itoa(m.Count) + " · seq " + strconv.FormatUint(m.Seq, 10)
	if m.Source != "" {
		s += " · " + m.Source
	}
	return s
}

// RingNote says, for a replayed frame that carries no ring, where its slots
// and occupancy come from ("" when it carries its own).
func (c *CaptureBar) RingNote() string {
	m := c.m()
	switch {
	case !m.Replaying || m.RingFrom == m.Index:
		return ""
	case m.ShownCompact:
		return "a compact frame of the recorder's history: its counters, log and occupancy, no slots"
	case m.RingFrom < 0:
		return "no slots: no frame of this ring carries one"
	}
	return "slots and occupancy of frame " + strconv.Itoa(m.RingFrom+1) + " (seq " + strconv.FormatUint(m.RingSeq, 10) +
		"): this frame did not read the ring back"
}

// Replaying reports replay mode.
func (c *CaptureBar) Replaying() bool { return c.m().Replaying }

// ExportDisabled is set when there is nothing to export.
func (c *CaptureBar) ExportDisabled() bool { return c.m().Frames == 0 && !c.m().Replaying }

// Error and Notice are the last import or export's outcome.
func (c *CaptureBar) Error() string { return c.m().Error }

// Notice is the last import or export's success message.
func (c *CaptureBar) Notice() string { return c.m().Notice }

// ShowNotice is set when there is a notice and no error.
func (c *CaptureBar) ShowNotice() bool { return c.m().Notice != "" && c.m().Error == "" }

// ToggleRecord turns recording on or off.
func (c *CaptureBar) ToggleRecord() {
	if f := c.m().OnRecord; f != nil {
		f(!c.m().Recording)
	}
}

// Export asks for a download of kind ("capture", "trace", "metrics").
func (c *CaptureBar) Export(kind string) {
	if f := c.m().OnExport; f != nil {
		f(kind)
	}
}

// Scrub moves the replay to the scrubber's value.
func (c *CaptureBar) Scrub(ev vugu.DOMEvent) { c.ScrubTo(ev.PropString("target", "value")) }

// ScrubTo moves the replay to frame text (an index); bad text is ignored.
func (c *CaptureBar) ScrubTo(text string) {
	i, err := strconv.Atoi(text)
	if err != nil || i < 0 {
		return
	}
	if f := c.m().OnScrub; f != nil {
		f(i)
	}
}

// Live leaves replay mode.
func (c *CaptureBar) Live() { call(c.m().OnLive) }
