package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/tasktrace"
	"github.com/ringscope/ringscope/wgsl/abi"
)

func timelineSample() *Timeline {
	none := uint32(abi.TraceNoParent)
	passes := []tasktrace.Pass{{First: 0, End: 10, BeginNS: 1000, EndNS: 2000, Timed: true}}
	recs := []tasktrace.Record{
		{Slot: 5, Opcode: abi.OpNop, Workgroup: 3, Lane: 0, Start: 0, End: 3, Status: decode.StatusDone, Parent: none},
		{Slot: 6, Opcode: abi.OpSpin, Workgroup: 3, Lane: 1, Start: 1, End: 4, Status: decode.StatusDone, Parent: none},
		{Slot: 9, Opcode: abi.OpNop, Workgroup: 1, Lane: 0, Start: 5, End: 8, Status: decode.StatusFault, Parent: none},
	}
	return BuildTimeline(7, passes, []bool{false}, recs, decode.OpcodeName)
}

func TestBuildTimeline(t *testing.T) {
	tl := timelineSample()
	assert.Equal(t, "ns", tl.Axis)
	require.Len(t, tl.Lanes, 2)
	assert.Equal(t, []uint32{1, 3}, []uint32{tl.Lanes[0].Workgroup, tl.Lanes[1].Workgroup}, "lanes by workgroup")
	assert.Equal(t, []int{1, 2}, []int{tl.Lanes[0].Tasks, tl.Lanes[1].Tasks})
	assert.EqualValues(t, 2, tl.Width)
	require.Len(t, tl.Tasks, 3)
	assert.Equal(t, "NOP", tl.Tasks[0].Name)
	assert.Equal(t, 0, tl.Tasks[0].Lane)
	assert.InDelta(t, 550, tl.Tasks[0].Start, 1e-9, "ticket 5 of 10 over 1000 ns")
	// Workgroup 1: idle for tickets 0…5 (not started) and after 8 (waiting
	// at the finalize): 550 + 150 ns.
	assert.InDelta(t, 550, tl.Lanes[0].Reasons[tasktrace.ReasonStart], 1e-9)
	assert.InDelta(t, 150, tl.Lanes[0].Reasons[tasktrace.ReasonDrained], 1e-9)
	assert.InDelta(t, 700, tl.Lanes[0].Bubble, 1e-9)
	assert.InDelta(t, tl.Lanes[0].Bubble+tl.Lanes[1].Bubble, tl.Passes[0].Bubble, 1e-9, "a pass sums its lanes")
	assert.Equal(t, "not started 0.55 µs, waiting at the finalize 0.15 µs", tl.ReasonText(tl.Lanes[0].Reasons))
}

func TestTimelineHitAndView(t *testing.T) {
	tl := timelineSample()
	v := tl.Fit()
	assert.Equal(t, TimelineView{0, 1000}, v)
	const w = 1000
	for i := range tl.Tasks {
		x, y := tl.Probe(v, i, w)
		assert.Equal(t, i, tl.TaskAt(v, x, y, w), "the probe of task %d hits it", i)
	}
	assert.Equal(t, TimelineLaneHeight, tl.BandHeight(), "two rows of 12 px")
	assert.Equal(t, -1, tl.TaskAt(v, 100, TimelineLaneHeight+1, w), "the gap between bands")
	assert.Equal(t, -1, tl.TaskAt(v, 990, 3*(TimelineLaneHeight+TimelineLaneGap)+2, w), "below the lanes")
	wide := &Timeline{Width: 64, Lanes: make([]TimelineLane, 2)}
	assert.Equal(t, 192, wide.BandHeight(), "3 px a thread row")
	wide.Lanes = make([]TimelineLane, 2048)
	assert.Equal(t, TimelineLaneHeight, wide.BandHeight(), "within the canvas's height cap, rows get thin")
	z := v.Zoom(0.5, 500, v)
	assert.Equal(t, TimelineView{250, 750}, z)
	assert.Equal(t, TimelineView{350, 850}, z.Pan(100))
	x, y := tl.Probe(z, 2, w)
	assert.Equal(t, 2, tl.TaskAt(z, x, y, w), "hit testing follows the zoom")

	var r Raster
	r.Resize(w, tl.Height())
	TimelinePainter{T: tl, View: v}.Paint(&r)
	px, py := tl.Probe(v, 0, w)
	require.Equal(t, decode.StatusFault, tl.Tasks[0].Status)
	assert.Equal(t, colFault, r.At(int(px), int(py)), "a FAULT task is drawn red")
	px, py = tl.Probe(v, 1, w)
	assert.Equal(t, colTask, r.At(int(px), int(py)), "a DONE one blue")
	assert.Equal(t, colBubble, r.At(100, 2), "a bubble is shaded")
}

// Between two passes no drain runs: the bands are plain there, not shaded
// as a bubble, so the canvas agrees with the bubbles the rows sum.
func TestTimelineShadesBubblesOnlyInPasses(t *testing.T) {
	none := uint32(abi.TraceNoParent)
	passes := []tasktrace.Pass{
		{First: 0, End: 4, BeginNS: 1000, EndNS: 2000, Timed: true},
		{First: 4, End: 8, BeginNS: 9000, EndNS: 10000, Timed: true},
	}
	recs := []tasktrace.Record{
		{Slot: 1, Opcode: abi.OpNop, Workgroup: 0, Lane: 0, Start: 0, End: 3, Status: decode.StatusDone, Parent: none},
		{Slot: 2, Opcode: abi.OpNop, Workgroup: 0, Lane: 0, Start: 4, End: 5, Status: decode.StatusDone, Parent: none},
	}
	tl := BuildTimeline(1, passes, []bool{false, false}, recs, decode.OpcodeName)
	require.Len(t, tl.Passes, 2)
	v := tl.Fit()
	const w = 1000
	var r Raster
	r.Resize(w, tl.Height())
	TimelinePainter{T: tl, View: v}.Paint(&r)
	between := int(v.X((tl.Passes[0].End+tl.Passes[1].Begin)/2, w))
	assert.Equal(t, colLaneIdle, r.At(between, 2), "no pass runs: not a bubble")
	after := int(v.X(tl.Passes[1].End, w)) - 2 // the second pass's task ended at ticket 5 of 4…7
	assert.Equal(t, colBubble, r.At(after, 2), "idle inside a pass is a bubble")
	assert.Greater(t, tl.Lanes[0].Bubble, 0.0)
}

func TestTimelineViewStaysWithinTheWindow(t *testing.T) {
	whole := TimelineView{100, 200}
	assert.Equal(t, whole, TimelineView{0, 1000}.Within(whole), "zoomed out past the window: the window")
	assert.Equal(t, TimelineView{100, 150}, TimelineView{80, 130}.Within(whole), "panned before the first pass")
	assert.Equal(t, TimelineView{150, 200}, TimelineView{170, 220}.Within(whole), "panned past the last")
	assert.Equal(t, TimelineView{120, 140}, TimelineView{120, 140}.Within(whole))
	v := whole
	for range 30 {
		v = v.Zoom(2, (v.From+v.To)/2, whole).Within(whole)
	}
	assert.Equal(t, whole, v, "zooming out stops at the window")
}

func TestTimelineAmounts(t *testing.T) {
	ns := &Timeline{Axis: "ns"}
	assert.Equal(t, "0.55 µs", ns.Amount(550))
	assert.Equal(t, "0 µs", ns.Amount(0))
	assert.Equal(t, "999 µs", ns.Amount(999_000))
	assert.Equal(t, "1.000 ms", ns.Amount(999_600))
	assert.Equal(t, "111 ms", ns.Amount(1.114e8), "no exponent")
	assert.Equal(t, "12.3 s", ns.Amount(12.3e9))
	tickets := &Timeline{Axis: "tickets"}
	assert.Equal(t, "1,024 tickets", tickets.Amount(1023.6))
}

// Tasks in ticket order with no ticket between them are no bubble, though
// the axis puts a sliver of time between one's end ticket and the next
// one's start: the canvas shades what the rows sum, no more.
func TestTimelineShadesWhatTheRowsSum(t *testing.T) {
	none := uint32(abi.TraceNoParent)
	passes := []tasktrace.Pass{{First: 0, End: 100, BeginNS: 0, EndNS: 1000, Timed: true}}
	var recs []tasktrace.Record
	for k := range uint32(25) { // tickets 0…49, back to back; then idle to 99
		recs = append(recs, tasktrace.Record{Slot: k, Opcode: abi.OpNop, Workgroup: 0, Lane: 0, Start: 2 * k, End: 2*k + 1, Status: decode.StatusDone, Parent: none})
	}
	tl := BuildTimeline(1, passes, []bool{false}, recs, decode.OpcodeName)
	v := tl.Fit()
	const w = 1000
	var r Raster
	r.Resize(w, tl.Height())
	TimelinePainter{T: tl, View: v}.Paint(&r)
	shaded := 0
	for x := range w {
		if r.At(x, 2) == colBubble {
			shaded++
		}
	}
	want := tl.Lanes[0].Bubble / (v.To - v.From) * w
	assert.InDelta(t, want, float64(shaded), 2, "the shaded pixels are the lane's bubbles (%.0f ns of %.0f)", tl.Lanes[0].Bubble, v.To-v.From)
	assert.Equal(t, colLaneBg, r.At(int(v.X(tl.Tasks[3].End, w))+1, 2), "between two tasks in a row: busy")
}

// The zoom stops at MinViewShare of the timeline, as its comment says,
// however many wheel-ins (80 went to a billionth of a µs, an empty canvas),
// with the pointer's axis value still under the pointer.
func TestTimelineZoomFloor(t *testing.T) {
	whole := TimelineView{0, 17.1e6} // a 17.1 ms pass, in ns
	v := whole
	const at = 4e6
	for range 80 {
		v = v.Zoom(0.8, at, whole).Within(whole)
	}
	floor := (whole.To - whole.From) * MinViewShare
	assert.InDelta(t, floor, v.To-v.From, floor*1e-9, "the floor, not less")
	assert.True(t, v.From <= at && at <= v.To, "around the pointer")
	assert.Equal(t, v, v.Zoom(0.5, at, whole), "at the floor a zoom in changes nothing")
	wider := v.Zoom(1.25, at, whole)
	assert.Greater(t, wider.To-wider.From, v.To-v.From, "zooming out leaves the floor")
}

// A pass that dropped records: the panel says how many, and counts no
// bubble after a workgroup's last kept record (the dropped tasks ran then).
func TestTimelineOverflowIsNoBubble(t *testing.T) {
	none := uint32(abi.TraceNoParent)
	passes := []tasktrace.Pass{{First: 0, End: 100, BeginNS: 0, EndNS: 1000, Timed: true, Dropped: 45}}
	recs := []tasktrace.Record{
		{Slot: 1, Opcode: abi.OpNop, Workgroup: 1, Lane: 0, Start: 0, End: 3, Status: decode.StatusDone, Parent: none},
		{Slot: 2, Opcode: abi.OpNop, Workgroup: 1, Lane: 0, Start: 6, End: 9, Status: decode.StatusDone, Parent: none},
	}
	tl := BuildTimeline(1, passes, []bool{true}, recs, decode.OpcodeName)
	assert.EqualValues(t, 45, tl.Dropped)
	require.Len(t, tl.Lanes, 1)
	assert.InDelta(t, 30, tl.Lanes[0].Bubble, 1e-9, "tickets 4…5 only: from ticket 3's middle to ticket 6's")
	assert.NotContains(t, tl.Lanes[0].Reasons, tasktrace.ReasonBudget, "no reason made up for the unknown time")
	c := &TimelinePanel{Timeline: tl}
	assert.Equal(t, "2 tasks · 1 workgroups · 1 passes · axis µs · 45 records dropped (the trace buffer was full: raise trace.capacity)", c.Sub())
	c.Timeline = timelineSample()
	assert.NotContains(t, c.Sub(), "dropped", "nothing dropped, nothing said")
}

// The lanes' bubbles are the tasktrace.Axis.GapSpan of each bubble, the
// span the export's bubble counters take (wasm/capture's
// TestTaskBubbleCountersMatchThePanel checks the same numbers there).
func TestTimelineBubblesAreGapSpans(t *testing.T) {
	passes, recs, budget := bubbleAgreementSample()
	tl := BuildTimeline(1, passes, budget, recs, decode.OpcodeName)
	ax := tasktrace.NewAxis(passes)
	want := map[uint32]float64{}
	gaps := tasktrace.Bubbles(nil, recs, passes, budget)
	for i := range gaps {
		from, to := ax.GapSpan(&passes[gaps[i].Pass], &gaps[i])
		want[gaps[i].Workgroup] += to - from
	}
	require.Len(t, tl.Lanes, 2)
	for _, l := range tl.Lanes {
		assert.InDelta(t, want[l.Workgroup], l.Bubble, 1e-9, "workgroup %d", l.Workgroup)
	}
	// The numbers wasm/capture's test expects of the export, in µs.
	assert.InDelta(t, 0.7, tl.Lanes[0].Bubble/1000, 1e-12, "workgroup 0: 0.25 before, 0.45 after")
	assert.InDelta(t, 0.95, tl.Lanes[1].Bubble/1000, 1e-12, "workgroup 1: a one-ticket bubble of 0.2, 0.75 after")
}

// bubbleAgreementSample is wasm/capture's sample of the same name: a
// timed pass of 20 tickets over 2 µs, two workgroups, a one-ticket bubble.
func bubbleAgreementSample() ([]tasktrace.Pass, []tasktrace.Record, []bool) {
	none := uint32(abi.TraceNoParent)
	passes := []tasktrace.Pass{{First: 0, End: 20, BeginNS: 5000, EndNS: 7000, Timed: true}}
	recs := []tasktrace.Record{
		{Slot: 1, Workgroup: 0, Start: 2, End: 9, Status: decode.StatusDone, Parent: none},
		{Slot: 2, Workgroup: 0, Start: 10, End: 15, Status: decode.StatusDone, Parent: none},
		{Slot: 3, Workgroup: 1, Start: 0, End: 4, Status: decode.StatusDone, Parent: none},
		{Slot: 4, Workgroup: 1, Start: 6, End: 12, Status: decode.StatusDone, Parent: none},
	}
	return passes, recs, []bool{false}
}

// The per-pass line gives a workgroup's mean idle time beside the pass's
// length: fifteen workgroups idle for most of a pass no longer read as
// fifteen passes of idle time.
func TestTimelinePassTextIsPerWorkgroup(t *testing.T) {
	none := uint32(abi.TraceNoParent)
	passes := []tasktrace.Pass{{First: 0, End: 30, BeginNS: 0, EndNS: 3000, Timed: true}}
	var recs []tasktrace.Record
	for w := range uint32(15) { // each workgroup runs one task, tickets 2w…2w+1
		recs = append(recs, tasktrace.Record{Slot: w, Workgroup: w, Start: 2 * w, End: 2*w + 1, Status: decode.StatusDone, Parent: none})
	}
	tl := BuildTimeline(1, passes, []bool{false}, recs, decode.OpcodeName)
	p := &tl.Passes[0]
	assert.Equal(t, 15, p.Workgroups)
	assert.Greater(t, p.Bubble, p.End-p.Begin, "summed over workgroups: more than the pass")
	mean := p.MeanIdle(p.Bubble)
	assert.LessOrEqual(t, mean, p.End-p.Begin, "a workgroup's mean: at most the pass")
	c := &TimelinePanel{Timeline: tl}
	text := c.PassText()
	assert.Contains(t, text, "idle per workgroup (mean), per pass: #0 "+tl.Amount(mean)+" of 3 µs (")
	assert.NotContains(t, text, tl.Amount(p.Bubble), "the sum is not shown as a pass's idle time")
}
