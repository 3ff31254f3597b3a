package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/settings"
)

// summaryRing is testRing as a summary decode shows it: no slot snapshots,
// the statuses in the status map, the active counts filled.
func summaryRing() *decode.RingTelemetry {
	r := testRing()
	r.StatusMap.SetSlots(r.Slots)
	r.Slots = nil
	r.Active.Priority[1], r.Active.Tenant[3], r.Active.Tenant[5], r.Active.Opcode[7] = 2, 1, 2, 2
	return r
}

// summaryFrame is a summary frame whose status map the page copied into
// the frame (ui.Frame.StatusMap), as wasm's capture does.
func summaryFrame(seq uint64) *frame.Frame {
	r := summaryRing()
	words := append([]uint32(nil), r.StatusMap.Words()...)
	n := r.StatusMap.Len()
	r.StatusMap = decode.StatusMap{}
	return &frame.Frame{Seq: seq, Ring: r, StatusMap: words, StatusSlots: n}
}

func TestPaintStatusMapMatchesPaint(t *testing.T) {
	for _, n := range []int{5, 1000, 4099, 65536, 1 << 20} {
		slots := make([]decode.RingSlotSnapshot, n)
		for i := range slots {
			slots[i].Status = decode.Status(i * 7 % 9) // every status and unknown (8)
		}
		slots[n-1].Status = 99 // unknown raw value: code 8
		var m decode.StatusMap
		m.SetSlots(slots)
		l := LayoutSlots(n)
		var want, got Raster
		l.Paint(&want, slots)
		l.PaintStatusMap(&got, m.Words())
		require.Equal(t, want.W, got.W, "n=%d", n)
		assert.Equal(t, want.Pix, got.Pix, "n=%d: the status map paints what the slots paint", n)
	}
}

func TestPaintStatusMapAllocatesNothing(t *testing.T) {
	slots := make([]decode.RingSlotSnapshot, 65536)
	slots[9].Status = decode.StatusFault
	var m decode.StatusMap
	m.SetSlots(slots)
	l := LayoutSlots(len(slots))
	var r Raster
	l.PaintStatusMap(&r, m.Words())
	assert.Equal(t, RGBA(StatusColor(decode.StatusFault)), r.At(9*l.Cell, 0))
	allocs := testing.AllocsPerRun(10, func() { l.PaintStatusMap(&r, m.Words()) })
	assert.Zero(t, allocs, "the raster is reused")
}

func TestFrameSlotViews(t *testing.T) {
	var nilFrame *frame.Frame
	assert.Zero(t, nilFrame.SlotCount())
	assert.False(t, nilFrame.HasSlots())
	_, ok := nilFrame.SlotStatus(0)
	assert.False(t, ok)

	full := &frame.Frame{Ring: testRing()}
	copied := summaryFrame(1)
	ringMap := &frame.Frame{Ring: summaryRing()}
	for name, f := range map[string]*frame.Frame{"full": full, "copied map": copied, "ring's map": ringMap} {
		assert.Equal(t, 10, f.SlotCount(), name)
		st, ok := f.SlotStatus(3)
		assert.True(t, ok, name)
		assert.Equal(t, decode.StatusFault, st, name)
		st, _ = f.SlotStatus(9)
		assert.Equal(t, decode.StatusEmpty, st, name)
		_, ok = f.SlotStatus(10)
		assert.False(t, ok, name)
	}
	assert.True(t, full.HasSlots())
	assert.False(t, copied.HasSlots())
}

func TestStatusTooltip(t *testing.T) {
	r := testRing()
	tip := StatusTooltip(3, decode.StatusFault, &r.Control)
	assert.Contains(t, tip, "slot 3 · FAULT")
	assert.Contains(t, tip, "partition 1 HIGH")
	assert.Contains(t, tip, "click to load the slot")
	assert.Contains(t, StatusTooltip(12, decode.StatusEmpty, &r.Control), "outside the partitions")

	m := SlotMap{Frame: summaryFrame(1)}
	text, ok := m.tooltip(3, true)
	assert.True(t, ok)
	assert.Equal(t, tip, text)
	_, ok = m.tooltip(10, true)
	assert.False(t, ok, "past the last slot")
	m.Frame = &frame.Frame{Ring: testRing()}
	text, _ = m.tooltip(3, true)
	assert.Contains(t, text, "opcode", "a full frame's tooltip has every field")
}

func TestSlotMapInspectorOnSummaryFrames(t *testing.T) {
	asked := 0
	m := SlotMap{Frame: summaryFrame(1), OnRequestRing: func() { asked++ }}
	assert.Contains(t, m.Sub(), "10 slots")
	assert.Contains(t, m.Sub(), "from the status map")

	m.Select(3)
	assert.Equal(t, 1, asked, "a click on a summary frame asks for the ring")
	assert.True(t, m.HasSelection())
	assert.True(t, m.Loading())
	assert.Contains(t, m.InspectorNote(), "loading slot…")
	assert.Nil(t, m.InspectorItems())

	// The next frame read the ring: the inspector fills in and keeps it.
	m.Frame = &frame.Frame{Seq: 2, Ring: testRing()}
	m.Compute()
	assert.False(t, m.Loading())
	assert.Empty(t, m.InspectorNote(), "live")
	assert.Equal(t, "FAULT", kv(m.InspectorItems(), "status").Value)

	m.Frame = summaryFrame(3)
	m.Compute()
	assert.True(t, m.Summarised())
	assert.Contains(t, m.InspectorNote(), "as of frame 2")
	items := m.InspectorItems()
	assert.Equal(t, "FAULT", kv(items, "status now").Value, "status from the live map")
	assert.Equal(t, "3", kv(items, "index").Value, "the other fields from the ring read")
	m.RefreshSlot()
	assert.Equal(t, 2, asked)

	m.Select(5) // another slot: its snapshot is not known yet
	assert.True(t, m.Loading())
	assert.Equal(t, 3, asked)

	full := SlotMap{Frame: &frame.Frame{Seq: 1, Ring: testRing()}, OnRequestRing: func() { asked++ }}
	full.Select(2)
	assert.Equal(t, 3, asked, "a full frame has the slot already")
	assert.False(t, full.Loading())
}

// TestSlotMapInspectorFromHostSlot: with OnInspectSlot the inspector asks
// for no ring; it shows the slot the summary frames carry as HostSlot,
// live, and names each selection (and the close) to the page.
func TestSlotMapInspectorFromHostSlot(t *testing.T) {
	asked, named := 0, []int{}
	m := SlotMap{Frame: summaryFrame(1), OnRequestRing: func() { asked++ }, OnInspectSlot: func(i int) { named = append(named, i) }}
	m.Select(3)
	assert.Zero(t, asked, "no ring read")
	assert.Equal(t, []int{3}, named)
	assert.True(t, m.Loading())
	assert.Equal(t, "loading slot… (with the next frame)", m.InspectorNote())

	slot := testRing().Slots[3]
	f := summaryFrame(2)
	f.HostSlot, f.HostSlotOK = slot, true
	m.Frame = f
	m.Compute()
	assert.True(t, m.Live())
	assert.Contains(t, m.InspectorNote(), "page's copy of the ring")
	items := m.InspectorItems()
	assert.Equal(t, "FAULT", kv(items, "status").Value)
	assert.Equal(t, KV{}, kv(items, "status now"), "this frame's slot: no second status")

	m.Frame = summaryFrame(3) // a frame without it (an API step): kept, marked
	m.Compute()
	assert.False(t, m.Live())
	assert.Equal(t, "slot as of frame 2 (the page's copy of the ring); status from the live status map", m.InspectorNote())

	other := summaryFrame(4)
	other.HostSlot, other.HostSlotOK = testRing().Slots[5], true
	m.Frame = other
	m.Compute()
	assert.False(t, m.Live(), "another slot's copy is not this one")
	m.CloseInspector()
	assert.Equal(t, []int{3, -1}, named)
}

func kv(items []KV, label string) KV {
	for _, it := range items {
		if it.Label == label {
			return it
		}
	}
	return KV{}
}

func TestPanelsOnSummaryFrames(t *testing.T) {
	f := summaryFrame(4)
	occ := OccupancyPanel{Frame: f}
	assert.Equal(t, "10", occ.Total())
	assert.Equal(t, "3", occ.Rows()[3].Count)
	act := occ.ActiveBreakdown()
	assert.Equal(t, KV{Label: "active high", Value: "2", TestID: "active-priority-high", Title: "active slots whose PRIORITY word is 1 (HIGH)"}, act[1])
	assert.Equal(t, "active tenant 5", act[5].Label, "busiest tenant first")
	assert.Equal(t, "active tenant 3", act[6].Label)
	assert.Equal(t, "2", kv(act, "active "+Names(nil).Opcode(7)).Value)
	assert.Nil(t, (&OccupancyPanel{}).ActiveBreakdown())

	// The sketch panel reads the frame's sketches (the GPU's, in summary
	// mode: the same counters as the host's sketch of the ring).
	st, err := testRing().Sketch(4, 128)
	require.NoError(t, err)
	f.Sketch = &st
	blocks := (&SketchPanel{Frame: f}).Blocks()
	require.Len(t, blocks, 5)
	assert.Equal(t, "NOP", blocks[0].Hitters[0].Key)
	ops := opcodeCandidates(f)
	assert.Contains(t, ops, uint32(0x100), "window opcodes come from the summary's windows")

	w := WindowsPanel{Frame: f}
	assert.Equal(t, "2 active of 3", w.Sub())
	f.Ring.WindowsDropped = 7
	assert.Equal(t, "2 active of 3 · 7 window slots not in the GPU table, which keeps open windows first", w.Sub())
}

func TestTopIndices(t *testing.T) {
	assert.Equal(t, []int{3, 1, 0}, topIndices([]uint32{2, 5, 0, 9, 1}, 3))
	assert.Equal(t, []int{0, 2}, topIndices([]uint32{4, 0, 4}, 3), "ties keep index order")
	assert.Empty(t, topIndices([]uint32{0, 0}, 3))
}

func TestReadbackSettings(t *testing.T) {
	s := settings.DefaultSettings()
	assert.Equal(t, decode.ReadbackAuto, s.Readback)
	s = settings.DefaultSettings()
	s.Readback = badReadback
	require.Len(t, s.Validate(), 1)
	assert.Equal(t, "Readback", s.Validate()[0].Field)
	s.Readback, s.SketchWidth = decode.ReadbackSummary, 8192
	require.Len(t, s.Validate(), 1)
	assert.Contains(t, s.Validate()[0].Message, "at most 8 × 4,096")
	s.Readback = decode.ReadbackAuto
	assert.Empty(t, s.Validate(), "auto falls back to full")

	f := SettingsForm{Applied: settings.DefaultSettings()}
	f.Compute()
	opts := f.ReadbackOptions()
	require.Len(t, opts, 3)
	assert.True(t, opts[0].Selected)
	f.SetValue("Readback", " summary ")
	assert.Equal(t, decode.ReadbackSummary, f.Draft().Readback)
	assert.True(t, f.ReadbackOptions()[1].Selected)
	assert.Contains(t, f.ReadbackTitle(), "auto picks full on a CPU or fallback adapter")

	d := Dashboard{}
	assert.Equal(t, KV{Label: "readback", Value: dash, Title: ReadbackTitle}, d.ReadbackStat())
	d.Readback, d.ReadbackWhy = decode.ReadbackSummary.String(), "readback=summary"
	hs := d.HeaderStats()
	assert.Equal(t, "summary", hs[len(hs)-1].Value)
	assert.Contains(t, hs[len(hs)-1].Title, "readback=summary · ")
}
