package ui

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/settings"
)

func TestStatusBadge(t *testing.T) {
	for status, want := range map[string][2]string{
		StatusReady:                  {"badge badge-ok", "ok"},
		StatusLoading:                {"badge badge-info", "loading"},
		StatusNoWebGPU:               {"badge badge-bad", "no-webgpu"},
		ErrorStatus(errors.New("x")): {"badge badge-bad", "error"},
	} {
		b := StatusBadge{Status: status}
		assert.Equal(t, want[0], b.Class(), status)
		assert.Equal(t, want[1], b.State(), status)
		assert.NotEmpty(t, b.Title())
	}
}

func TestLogPanel(t *testing.T) {
	l := &decode.Log{Cursor: 300, Capacity: 256, Dropped: 44}
	for i := 0; i < 20; i++ {
		l.Records = append(l.Records, decode.LogRecord{Format: 1, Slot: uint32(i), A: 1, B: 2})
	}
	l.Records = append(l.Records, decode.LogRecord{Format: 0xFFFF0000 | 4, Slot: 9, A: 0x100, B: 3})
	p := LogPanel{Frame: &frame.Frame{Log: l}, Formats: map[uint32]string{1: "x=%d"}}
	assert.Contains(t, p.Dropped(), "DROPPED 44")
	rows := p.Rows()
	require.Len(t, rows, maxRows)
	assert.Equal(t, "BAD_TENANT", rows[0].Kind, "newest first")
	assert.Contains(t, rows[0].Message, "HASH at epoch 3")
	assert.Equal(t, "x=1", rows[1].Message)
	assert.Equal(t, []KV{{Label: "BAD_TENANT", Value: "BAD_TENANT × 1", Title: decode.FaultBadTenant.Reason()}}, p.FaultSummary())
	assert.Empty(t, (&LogPanel{}).Dropped())
}

func testRing() *decode.RingTelemetry {
	r := &decode.RingTelemetry{}
	r.Control.PriorityOffsets = [6]uint32{0, 2, 4, 6, 8, 10}
	r.Control.Heads = [5]uint32{2, 0, 0, 0, 0}
	r.Control.Tails = [5]uint32{3, 0, 0, 0, 0}
	r.Control.DoneCount, r.Control.Epoch, r.Control.Generation = 1234, 5, 2
	r.Control.Metrics = []decode.Metric{{Opcode: 0, Count: 10}, {Opcode: 7, Count: 30}}
	for i := 0; i < 10; i++ {
		s := decode.RingSlotSnapshot{Index: uint32(i), Priority: uint32(i / 2)}
		if i < 4 {
			s.Status = decode.StatusDone
		}
		r.Slots = append(r.Slots, s)
	}
	r.Slots[3].Status, r.Slots[3].Priority = decode.StatusFault, 4
	r.Occupancy = decode.RingOccupancy{decode.StatusEmpty: 6, decode.StatusDone: 3, decode.StatusFault: 1}
	r.Windows = []decode.WindowTelemetry{
		{Ticket: 1, Opcode: 0x100, Done: 4},
		{Ticket: 2, Opcode: 0x100, Published: 3, Done: 1},
		{Ticket: 3, Opcode: 0x100, Claimed: 1, Done: 3},
	}
	return r
}

func TestControlPanel(t *testing.T) {
	p := ControlPanel{}
	assert.Equal(t, "done-count", p.Items()[0].TestID)
	p.Frame = &frame.Frame{Ring: testRing()}
	var done KV
	for _, kv := range p.Items() {
		if kv.TestID == "done-count" {
			done = kv
		}
	}
	assert.Equal(t, "1,234", done.Value)
	parts := p.Partitions()
	require.Len(t, parts, 5)
	assert.Equal(t, "1", parts[0].Pending)
	assert.Equal(t, "row-pending", parts[0].Class)
	m := p.Metrics()
	require.Len(t, m, 2)
	assert.Equal(t, "BATCH_FENCE", m[0].Name, "most executed first")
	assert.Equal(t, 7500, m[0].Share)
	assert.Equal(t, "75.0 %", m[0].Percent)
	assert.Equal(t, 29, MaskedTenants(&p.Frame.Ring.Control, 0))
}

func TestOccupancyPanel(t *testing.T) {
	p := OccupancyPanel{Frame: &frame.Frame{Seq: 3, Ring: testRing()}}
	rows := p.Rows()
	require.Len(t, rows, int(decode.StatusUnknown)+1)
	assert.Equal(t, "occupancy-done", rows[3].TestID)
	assert.Equal(t, "3", rows[3].Count)
	assert.Equal(t, "30.0 %", rows[3].Percent)
	assert.Equal(t, "10", p.Total())
	assert.Equal(t, "depth 1", p.Depth())
	assert.Equal(t, uint64(3), p.Seq())
	assert.Equal(t, "–", (&OccupancyPanel{}).Total())
}

func TestWindowsPanelActiveFirst(t *testing.T) {
	p := WindowsPanel{Frame: &frame.Frame{Ring: testRing()}}
	rows := p.Rows()
	require.Len(t, rows, 3)
	assert.Equal(t, "2", rows[0].Ticket, "active, least progress first")
	assert.Equal(t, 2500, rows[0].Progress)
	assert.Equal(t, "3", rows[1].Ticket)
	assert.Equal(t, "row-done", rows[2].Class)
	assert.Equal(t, "2 active of 3", p.Sub())
}

func TestSlotDetailsAndTooltip(t *testing.T) {
	r := testRing()
	s := r.Slots[3]
	items := SlotDetails(&s, &r.Control, nil)
	last := items[len(items)-1]
	assert.Equal(t, "1 HIGH ≠ PRIORITY", last.Value, "slot 3 sits in partition 1 but says priority 4")
	assert.Equal(t, "num-bad", last.Class)
	tip := SlotTooltip(&s, nil)
	assert.Contains(t, tip, "slot 3 · FAULT")
	assert.Contains(t, tip, "priority 4 IDLE")
	p, ok := PartitionOf(&r.Control, 9)
	assert.True(t, ok)
	assert.Equal(t, 4, p)
	_, ok = PartitionOf(&r.Control, 10)
	assert.False(t, ok)
	l, tp := TooltipPos(990, 10, 1000, 300)
	assert.Equal(t, 750.0, l, "flipped left near the right edge")
	assert.Equal(t, 24.0, tp)
	m := SlotMap{Frame: &frame.Frame{Ring: r}}
	assert.False(t, m.HasSelection())
	m.Select(3)
	assert.True(t, m.HasSelection())
	assert.Equal(t, "slot 3", m.InspectorTitle())
	assert.NotEmpty(t, m.InspectorItems())
	m.CloseInspector()
	assert.False(t, m.HasSelection())
}

func TestSketchPanel(t *testing.T) {
	r := testRing()
	st, err := r.Sketch(4, 128)
	require.NoError(t, err)
	p := SketchPanel{Frame: &frame.Frame{Ring: r, Sketch: &st}}
	blocks := p.Blocks()
	require.Len(t, blocks, 5)
	assert.Equal(t, "NOP", blocks[0].Hitters[0].Key)
	assert.Equal(t, "≤ 4", blocks[0].Hitters[0].Estimate)
	assert.EqualValues(t, 4, SketchTotal(&st.RingOpcode))
	assert.Contains(t, p.Bound(), "ε = e/128 = 2.12 % of N · δ = e^−4 = 1.83 %")
}

func TestWatchdogAndHistory(t *testing.T) {
	w := &decode.WatchdogState{Stalled: true, StalledIntervals: 3, StalledForMillis: 150}
	w.Health.QueueDepth = 10
	p := WatchdogPanel{Frame: &frame.Frame{Watchdog: w}}
	assert.True(t, p.Stalled())
	assert.Contains(t, p.Alert(), "STALL: 10 slots queued")
	assert.Equal(t, "no verdict · watchdog STALLED", p.Sub(), "the watchdog's word is not a verdict")
	assert.False(t, (&WatchdogPanel{}).Stalled())

	h := NewHistory()
	r := testRing()
	h.Push(&frame.Frame{Seq: 1, AtMillis: 0, Ring: r, Watchdog: w, Timings: frame.Timings{RoundTripMS: 2}})
	h.Push(&frame.Frame{Seq: 2, AtMillis: 50, Ring: r, Timings: frame.Timings{RoundTripMS: 0.2}})
	assert.Equal(t, 2, h.Total.Len())
	assert.Equal(t, 50.0, h.FrameMS)
	assert.Equal(t, float64(HealthStalled), h.Health.Last())
	p50, _, p99 := h.Quantiles()
	assert.Equal(t, 0.2, p50)
	assert.Equal(t, 2.0, p99)
	var ras Raster
	ras.Resize(20, 10)
	for _, pt := range []Painter{OccupancyPainter{h}, HistogramPainter{h}, HealthPainter{h}, SeriesPainter{A: h.RoundTrip, ColA: ColLine}} {
		pt.Paint(&ras) // must not panic; pixels checked in raster tests
	}
	h.Reset()
	assert.Zero(t, h.Total.Len())
	assert.Equal(t, 100.0, NiceCeil(51))
	assert.Equal(t, 2.0, NiceCeil(1.01))
	assert.Equal(t, 1.0, NiceCeil(0))
}

func TestLaunchPanel(t *testing.T) {
	rec := decode.LaunchRecommendation{WorkgroupSizeX: 64, SlotCount: 320, DispatchGrid: [3]uint32{5, 1, 1}, WorkerGroups: 64,
		HitCapacity: 1800, EstimatedPeakDeviceBytes: 900 << 10, DeviceMemoryBudgetBytes: 1 << 20, Pressure: decode.PressureSaturated}
	p := LaunchPanel{Frame: &frame.Frame{Launch: &rec}}
	assert.Equal(t, 8789, p.BudgetBps())
	assert.Equal(t, "900 KiB / 1.00 MiB (87.9 %)", p.BudgetText())
	assert.Equal(t, "5 × 64 lanes", p.Sub())
	assert.Equal(t, "chip chip-bad", p.Tags()[1].Class)
	p.Frame.LaunchErr = &decode.OutOfMemoryError{Requested: 2, Available: 1}
	assert.Contains(t, p.Error(), "launch refused: decode: launch needs 2 bytes")
}

func TestSettingsForm(t *testing.T) {
	var got *settings.Settings
	f := SettingsForm{Applied: settings.DefaultSettings(), OnApply: func(s settings.Settings) { got = &s }}
	f.Compute()
	f.SetValue("RingSlots", "1048576")
	f.SetValue("Tenants", "abc")
	assert.False(t, f.Valid())
	assert.Equal(t, "field invalid", f.Fields()[1].Class)
	f.Apply()
	assert.Nil(t, got, "an invalid draft is not applied")
	f.SetValue("Tenants", "4")
	f.LoadPreset("stall")
	assert.Equal(t, "stall", f.Draft().Preset)
	f.SetValue("Budget", "16")
	f.Apply()
	require.NotNil(t, got)
	assert.Equal(t, 16, got.Budget)
	assert.Equal(t, "stall", got.Preset, "parameters tune the preset")
	assert.Equal(t, "edited, not applied", f.Sub())
	f.Revert()
	assert.Equal(t, settings.DefaultSettings(), f.Draft())
}

// The form's budget follows the ring while it is the preset's, as a link
// with no budget does; once the person sets it, it stays theirs, and
// validation says when the ring is too small for the backlog preset.
func TestSettingsFormFitsABacklogPresetsBudget(t *testing.T) {
	f := SettingsForm{Applied: settings.DefaultSettings()}
	f.Compute()
	f.LoadPreset("skewed-tenants")
	assert.Equal(t, 16, f.Draft().Budget)
	f.SetValue("RingSlots", "2048")
	assert.Equal(t, 2, f.Draft().Budget, "the preset's budget, fitted to the ring")
	assert.True(t, f.Valid())
	f.SetValue("RingSlots", "4e3")
	assert.Equal(t, 4000, f.Draft().RingSlots, "a number input's exponent form")
	assert.Equal(t, 3, f.Draft().Budget)
	f.SetValue("Budget", "16")
	f.SetValue("RingSlots", "2048")
	assert.Equal(t, 16, f.Draft().Budget, "a budget the person set stays")
	f.SetValue("RingSlots", "256")
	errs := f.Errors()
	require.Len(t, errs, 1)
	assert.Equal(t, "RingSlots", errs[0].Field)
	assert.Contains(t, errs[0].Message, "skewed-tenants needs at least 520 slots")
}

func TestDashboard(t *testing.T) {
	var d Dashboard
	d.Compute()
	assert.Equal(t, StatusLoading, d.StatusText())
	ran := 0
	d.OnRun = func() { ran++ }
	d.Run()
	d.Pause() // nil callback: ignored
	assert.Equal(t, 1, ran)
	assert.Equal(t, "–", d.HeaderStats()[1].Value)
	d.Apply(&frame.Frame{Seq: 7, Ring: testRing(), Timings: frame.Timings{RoundTripMS: 1.5}})
	assert.Equal(t, "7", d.HeaderStats()[1].Value)
	assert.Equal(t, "1.50 ms", d.HeaderStats()[3].Value)
	assert.Equal(t, "frames per second, smoothed", d.HeaderStats()[2].Title)
	d.Pacing, d.Throttled = "attached: 3.8 frames/s …", true
	assert.Equal(t, KV{Label: "rate", Value: dash, Title: d.Pacing}, d.HeaderStats()[2], "no rate yet: nothing to mark")
	d.Apply(&frame.Frame{Seq: 8, Ring: testRing()})
	d.Apply(&frame.Frame{Seq: 9, Ring: testRing(), AtMillis: 250})
	assert.Regexp(t, `^[0-9.]+ fps \(throttled\)$`, d.HeaderStats()[2].Value)
	d.Throttled = false
	assert.NotContains(t, d.HeaderStats()[2].Value, "throttled")
	d.ClearHistory()
	assert.Nil(t, d.Frame())
}

func TestTopWindows(t *testing.T) {
	ws := make([]decode.WindowTelemetry, 100)
	for i := range ws {
		ws[i].Ticket = uint32(i)
		ws[i].Done = uint32(i % 10)
		if i%3 == 0 {
			ws[i].Published = 10 - uint32(i%10) // active
		}
	}
	top := TopWindows(ws, 5)
	require.Len(t, top, 5)
	for _, i := range top {
		assert.True(t, ws[i].Active())
	}
	assert.Equal(t, 0, top[0], "active with the least progress first")
	assert.Equal(t, 30, top[1], "ties by position")
	assert.Len(t, TopWindows(ws[:2], 5), 2)
}

func TestWaitsPanel(t *testing.T) {
	p := WaitsPanel{}
	assert.False(t, p.Measured())
	assert.Equal(t, "no frame yet", p.Empty())
	p.Frame = &frame.Frame{}
	assert.Contains(t, p.Empty(), "attached")
	assert.Nil(t, p.PriorityRows())

	w := &decode.WaitTimes{}
	w.Priority[0] = decode.WaitStats{Waiting: 3, OldestAge: 2500}
	w.Priority[4] = decode.WaitStats{Count: 1200, P50: 16.4, P99: 48, Max: 51, Waiting: 1, OldestAge: 16}
	w.Tenant[2] = decode.WaitStats{Count: 1200, P50: 16.4, P99: 48, Max: 51, Waiting: 4, OldestAge: 2500}
	p.Frame.Waits = w
	require.True(t, p.Measured())
	assert.Equal(t, "4 waiting, oldest 2500 ms · since the ring opened", p.Sub())
	rows := p.PriorityRows()
	require.Len(t, rows, 5)
	assert.Equal(t, "0 CRITICAL", rows[0].Name)
	assert.Equal(t, "2500 ms", rows[0].Oldest)
	assert.Equal(t, "row-fault", rows[0].Class, "an item waiting a second or more, and none ended")
	assert.Equal(t, "–", rows[0].P99, "nothing of it ended")
	assert.Equal(t, "48.0 ms", rows[4].P99)
	assert.Equal(t, "1,200", rows[4].Ended)
	assert.Empty(t, rows[4].Class)
	assert.Equal(t, "–", rows[2].Oldest, "none waits")
	tr := p.TenantRows()
	require.Len(t, tr, 1, "only tenants that published")
	assert.Equal(t, "2", tr[0].Name)
	assert.Equal(t, "waits-tenant-2", tr[0].TestID)
}

func TestWaitsAgeing(t *testing.T) {
	for _, c := range []struct {
		name string
		st   decode.WaitStats
		want bool
	}{
		{"nothing waits", decode.WaitStats{OldestAge: 5000}, false},
		{"young", decode.WaitStats{Waiting: 3, OldestAge: 999}, false},
		{"a second, none ended", decode.WaitStats{Waiting: 3, OldestAge: 1000}, true},
		{"a deep but moving backlog", decode.WaitStats{Waiting: 8000, OldestAge: 1900, Count: 40000, P99: 4900}, false},
		{"older than twice its p99", decode.WaitStats{Waiting: 1, OldestAge: 9000, Count: 40000, P99: 4000}, true},
	} {
		assert.Equal(t, c.want, Ageing(&c.st), c.name)
	}
}
