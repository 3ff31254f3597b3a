package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCaptureBarText(t *testing.T) {
	var nilBar CaptureBar
	assert.Equal(t, "○ Record", nilBar.RecordLabel())
	assert.True(t, nilBar.ScrubDisabled())
	assert.Equal(t, "live", nilBar.PositionText())

	m := &CaptureModel{Recording: true, Frames: 12, MaxFrames: 600, Bytes: 3 << 20, MaxBytes: 96 << 20, Dropped: 4}
	c := CaptureBar{Model: m}
	assert.Equal(t, "● Recording", c.RecordLabel())
	assert.Contains(t, c.RecordClass(), "active")
	assert.Equal(t, "12 frames · "+Bytes(3<<20)+" of "+Bytes(96<<20)+" · 4 older dropped", c.HeldText())
	m.SpanMillis = 999
	assert.Equal(t, "12 frames · "+Bytes(3<<20)+" of "+Bytes(96<<20)+" · 4 older dropped", c.HeldText(), "under a second: no span")
	m.SpanMillis, m.Compact = 12_500, 9
	assert.Equal(t, "12 frames over 12 s · "+Bytes(3<<20)+" of "+Bytes(96<<20)+" · 4 older dropped", c.HeldText())
	m.SpanMillis = 301_999
	assert.Contains(t, c.HeldText(), "12 frames over 5 min 1 s · ")
	assert.Contains(t, c.HeldTitle(), "9 older ones compact")
	assert.Equal(t, "11", c.ScrubMax())
	assert.Equal(t, "11", c.ScrubValue(), "live: the newest frame")
	assert.False(t, c.ScrubDisabled())
	assert.False(t, c.ExportDisabled())

	m.Replaying, m.Count, m.Index, m.Seq, m.Source = true, 3, 1, 42, "x.rscap"
	assert.Equal(t, "2", c.ScrubMax())
	assert.Equal(t, "1", c.ScrubValue())
	assert.Equal(t, "frame 2 / 3 · seq 42 · x.rscap", c.PositionText())
	m.RingFrom = 1
	assert.Empty(t, c.RingNote(), "the frame carries its ring")
	m.RingFrom, m.RingSeq = 0, 41
	assert.Equal(t, "slots and occupancy of frame 1 (seq 41): this frame did not read the ring back", c.RingNote())
	m.RingFrom = -1
	assert.Equal(t, "no slots: no frame of this ring carries one", c.RingNote())
	m.ShownCompact = true
	assert.Equal(t, "a compact frame of the recorder's history: its counters, log and occupancy, no slots", c.RingNote())
	m.ShownCompact = false
	m.RingFrom = 1

	m.Notice = "imported"
	assert.True(t, c.ShowNotice())
	m.Error = "capture: byte 0: header: magic: not a capture file"
	assert.False(t, c.ShowNotice())
}

func TestCaptureBarIntents(t *testing.T) {
	var got []any
	m := &CaptureModel{
		OnRecord: func(on bool) { got = append(got, on) },
		OnExport: func(k string) { got = append(got, k) },
		OnScrub:  func(i int) { got = append(got, i) },
		OnLive:   func() { got = append(got, "live") },
	}
	c := CaptureBar{Model: m}
	c.ToggleRecord()
	c.Export("trace")
	c.ScrubTo("7")
	c.ScrubTo("x")
	c.ScrubTo("-1")
	c.Live()
	assert.Equal(t, []any{true, "trace", 7, "live"}, got)
}

func TestDashboardCaptureModel(t *testing.T) {
	d := &Dashboard{}
	assert.Same(t, d.CaptureModel(), d.CaptureModel())
	assert.NotSame(t, d.CaptureModel(), (&Dashboard{}).CaptureModel())
}

// The header names what the page shows: a replayed recording is the
// recording (its frames may be a host's ring since detached), not the
// preset of the applied settings; a replay wins over an attachment.
func TestHeaderSourceFollowsAReplay(t *testing.T) {
	c := &Dashboard{}
	c.Settings.Preset = "default-mix"
	assert.Equal(t, "preset", c.sourceStat().Label)
	c.capture = &CaptureModel{Replaying: true, Source: "recording"}
	got := c.sourceStat()
	assert.Equal(t, "replay", got.Label)
	assert.Equal(t, "recording", got.Value)
	c.Attached = "host ring · 4,096 slots"
	assert.Equal(t, "replay", c.sourceStat().Label, "the frames shown are the replay's")
	c.capture.Replaying = false
	assert.Equal(t, "attached", c.sourceStat().Label)
}
