package ui

import (
	"github.com/ringscope/ringscope/internal/nocompare"
	"sort"
	"strconv"
	"strings"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/tasktrace"
)

// Timeline is a traced ring's window as the timeline panel draws it
// (docs/TRACE.md): one lane per workgroup, its tasks on one axis (ns or
// tickets), and the bubbles of each lane and each pass summed, by reason.
// The zero value is an empty timeline.
type Timeline struct {
	Seq      uint64 // changes with the data: the panel repaints
	Axis     string // "ns" or "logical"
	Min, Max float64
	Lanes    []TimelineLane
	Tasks    []TimelineTask // by lane, then start
	Passes   []TimelinePass
	// Bubbles are the spans the lanes' and passes' bubbles sum, as the
	// painter shades them.
	Bubbles []TimelineBubble
	// Width is the most lanes (threads) one workgroup used, the rows of a
	// lane's band.
	Width uint32
	// Hang is the hang hunter's report on this window, or nil.
	Hang *TimelineHang
	// Live says the data grew from the last timeline's (an attached
	// ring's window): the panel keeps a zoomed view, and follows a fitted one.
	Live bool
	// Dropped counts the records the device dropped in the passes shown
	// (their trace buffer was full): those passes' time after their last
	// kept records is no bubble, as what ran then is unknown.
	Dropped uint64
}

// TimelineHang is what the hang hunter kept (docs/TRACE.md §7), as the
// panel shows it: the verdict, each workgroup's last claimed task, the
// slots running at the state dump, for a runaway (a device lost or a
// submission stuck) the opcodes in flight and the dump's slots that hold
// them (Suspects, "" otherwise), and Export, which downloads it as a
// capture (nil: a replayed hang, already a file).
type TimelineHang struct {
	Title    string
	Rows     []TimelineHangRow
	Running  string
	Suspects string
	Export   func()
}

// TimelineHangRow is one workgroup's last claimed task, as text.
type TimelineHangRow struct {
	_ nocompare.T

	Key, Workgroup, Task string
}

// TimelineLane is one workgroup's lane.
type TimelineLane struct {
	Workgroup uint32
	Tasks     int
	Bubble    float64            // idle time on the axis
	Reasons   map[string]float64 // idle time by reason
}

// TimelineTask is one record on the axis.
type TimelineTask struct {
	_ nocompare.T

	Lane       int // index in Lanes
	Thread     uint32
	Start, End float64
	Slot       uint32
	Name       string
	Status     decode.Status
}

// TimelineBubble is one bubble of a lane on the axis.
type TimelineBubble struct {
	_ nocompare.T

	Lane     int // index in Lanes
	From, To float64
}

// TimelinePass is one submission's span and its bubbles, summed over the
// Workgroups that ran a task in it: idle workgroup-time, which may exceed
// the pass's own length (MeanIdle does not).
type TimelinePass struct {
	Begin, End float64
	Bubble     float64
	Reasons    map[string]float64
	Workgroups int
}

// MeanIdle is v, idle time summed over the pass's workgroups (Bubble, or
// one reason's), per workgroup that ran in it: at most the pass's length.
func (p *TimelinePass) MeanIdle(v float64) float64 {
	if p.Workgroups == 0 {
		return 0
	}
	return v / float64(p.Workgroups)
}

// BuildTimeline lays out the records of passes; name names an opcode.
func BuildTimeline(seq uint64, passes []tasktrace.Pass, budget []bool, recs []tasktrace.Record, name func(uint32) string) *Timeline {
	ax := tasktrace.NewAxis(passes)
	t := &Timeline{Seq: seq, Axis: ax.Name()}
	if len(passes) == 0 {
		return t
	}
	t.Min, t.Max = ax.Begin(&passes[0]), ax.End(&passes[len(passes)-1])
	lane := map[uint32]int{}
	var wgs []uint32
	for i := range recs {
		if _, ok := lane[recs[i].Workgroup]; !ok {
			lane[recs[i].Workgroup] = 0
			wgs = append(wgs, recs[i].Workgroup)
		}
	}
	sort.Slice(wgs, func(i, j int) bool { return wgs[i] < wgs[j] })
	t.Lanes = make([]TimelineLane, len(wgs))
	for i, w := range wgs {
		lane[w] = i
		t.Lanes[i] = TimelineLane{Workgroup: w, Reasons: map[string]float64{}}
	}
	t.Passes = make([]TimelinePass, len(passes))
	for i := range passes {
		t.Passes[i] = TimelinePass{Begin: ax.Begin(&passes[i]), End: ax.End(&passes[i]), Reasons: map[string]float64{}}
		t.Dropped += uint64(passes[i].Dropped)
	}
	ran := map[[2]int]bool{} // {pass, lane}: the workgroup ran a task in the pass
	for i := range recs {
		r := &recs[i]
		pi := tasktrace.Find(passes, r.Start)
		if pi < 0 {
			continue
		}
		p := &passes[pi]
		l := lane[r.Workgroup]
		t.Lanes[l].Tasks++
		if k := [2]int{pi, l}; !ran[k] {
			ran[k] = true
			t.Passes[pi].Workgroups++
		}
		t.Width = max(t.Width, r.Lane+1)
		t.Tasks = append(t.Tasks, TimelineTask{Lane: l, Thread: r.Lane, Start: ax.At(p, r.Start), End: ax.At(p, r.End),
			Slot: r.Slot, Name: name(r.Opcode), Status: r.Status})
	}
	sort.SliceStable(t.Tasks, func(i, j int) bool {
		a, b := &t.Tasks[i], &t.Tasks[j]
		return a.Lane < b.Lane || a.Lane == b.Lane && a.Start < b.Start
	})
	gaps := tasktrace.Bubbles(nil, recs, passes, budget)
	for i := range gaps {
		g := &gaps[i]
		// The export measures its bubble counters by the same span.
		from, to := ax.GapSpan(&passes[g.Pass], g)
		d := to - from
		t.Bubbles = append(t.Bubbles, TimelineBubble{Lane: lane[g.Workgroup], From: from, To: to})
		l := &t.Lanes[lane[g.Workgroup]]
		l.Bubble += d
		l.Reasons[g.Reason] += d
		t.Passes[g.Pass].Bubble += d
		t.Passes[g.Pass].Reasons[g.Reason] += d
	}
	return t
}

// Unit is the axis's unit as the panel prints it.
func (t *Timeline) Unit() string {
	if t.Axis == "ns" {
		return "µs"
	}
	return "tickets"
}

// Amount prints an axis length (or a place on it) with its unit: three
// digits of µs below a millisecond, then ms or s (MS); whole tickets on a
// logical axis.
func (t *Timeline) Amount(v float64) string {
	if t.Axis != "ns" {
		return Thousands(uint64(max(v, 0)+0.5)) + " tickets"
	}
	if us := t.Scale(v); us < 999.5 {
		return strconv.FormatFloat(us, 'g', 3, 64) + " µs"
	}
	return MS(v / 1e6)
}

// Scale converts an axis value to Unit.
func (t *Timeline) Scale(v float64) float64 {
	if t.Axis == "ns" {
		return v / 1000
	}
	return v
}

// ReasonText lists reasons by idle time, largest first: "no claim 3.2 µs, …".
func (t *Timeline) ReasonText(m map[string]float64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] || m[keys[i]] == m[keys[j]] && keys[i] < keys[j] })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " " + t.Amount(m[k])
	}
	return strings.Join(parts, ", ")
}

// TimelineView is the visible window of a timeline's axis: [From, To].
type TimelineView struct{ From, To float64 }

// Fit is the view of the whole timeline.
func (t *Timeline) Fit() TimelineView {
	if t.Max <= t.Min {
		return TimelineView{t.Min, t.Min + 1}
	}
	return TimelineView{t.Min, t.Max}
}

// MinViewShare is the narrowest view, a share of the whole timeline:
// past it a float64 axis of nanoseconds since the window's first pass
// stops resolving pixels, and the canvas shows nothing one could read.
const MinViewShare = 1e-6

// Zoom scales v by f around the axis value at, kept at least MinViewShare
// of whole (the timeline's Fit) wide: a zoom that would pass the floor
// stops at it, at still under the same pixel.
func (v TimelineView) Zoom(f, at float64, whole TimelineView) TimelineView {
	w, floor := v.To-v.From, (whole.To-whole.From)*MinViewShare
	if w <= 0 {
		return v
	}
	if w*f < floor {
		f = floor / w
	}
	return TimelineView{at - (at-v.From)*f, at + (v.To-at)*f}
}

// Pan moves v by d axis units.
func (v TimelineView) Pan(d float64) TimelineView { return TimelineView{v.From + d, v.To + d} }

// Within keeps v inside whole (the timeline's fit): no wider than it, and
// moved back inside it when a pan or a zoom took it past an end, so that
// the view never shows time before the first pass or after the last.
func (v TimelineView) Within(whole TimelineView) TimelineView {
	w := v.To - v.From
	switch {
	case w >= whole.To-whole.From:
		return whole
	case v.From < whole.From:
		return TimelineView{whole.From, whole.From + w}
	case v.To > whole.To:
		return TimelineView{whole.To - w, whole.To}
	}
	return v
}

// Geometry of the panel's canvas: a band per workgroup, at least
// TimelineLaneHeight CSS px and 3 px a thread row, unless the bands would
// pass TimelineMaxHeight together.
const (
	TimelineLaneHeight = 24
	TimelineLaneGap    = 4
	TimelineMaxHeight  = 4096
	timelineRowMin     = 3
)

// BandHeight is one workgroup's band, CSS px.
func (t *Timeline) BandHeight() int {
	h := max(TimelineLaneHeight, timelineRowMin*int(max(t.Width, 1)))
	if n := len(t.Lanes); n > 0 && n*(h+TimelineLaneGap) > TimelineMaxHeight {
		h = max(TimelineLaneHeight, TimelineMaxHeight/n-TimelineLaneGap)
	}
	return h
}

// Height is the canvas's height, CSS px.
func (t *Timeline) Height() int { return max(len(t.Lanes), 1) * (t.BandHeight() + TimelineLaneGap) }

// X is the pixel column of axis value a in a raster w wide.
func (v TimelineView) X(a float64, w int) float64 { return (a - v.From) / (v.To - v.From) * float64(w) }

// Axis is the axis value under pixel column x.
func (v TimelineView) Axis(x float64, w int) float64 { return v.From + x/float64(w)*(v.To-v.From) }

// TaskAt is the task under (x, y) of a canvas w wide (CSS px), or -1.
func (t *Timeline) TaskAt(v TimelineView, x, y float64, w int) int {
	bh := t.BandHeight()
	band := bh + TimelineLaneGap
	l := int(y) / band
	if y < 0 || l >= len(t.Lanes) || int(y)%band >= bh {
		return -1
	}
	thread := uint32(float64(int(y)%band) / t.rowHeight())
	a := v.Axis(x, w)
	slack := (v.To - v.From) * 2 / float64(max(w, 1)) // two pixels either side
	best, bestD := -1, 0.0
	for i := range t.Tasks {
		k := &t.Tasks[i]
		if k.Lane != l || k.Thread != thread || k.End+slack < a || k.Start-slack > a {
			continue
		}
		d := 0.0
		if a < k.Start {
			d = k.Start - a
		} else if a > k.End {
			d = a - k.End
		}
		if best < 0 || d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

// Probe is a point (CSS px) on task i, for the e2e test to click.
func (t *Timeline) Probe(v TimelineView, i, w int) (x, y float64) {
	k := &t.Tasks[i]
	x = (v.X(k.Start, w) + v.X(k.End, w)) / 2
	y = float64(k.Lane*(t.BandHeight()+TimelineLaneGap)) + (float64(k.Thread)+0.5)*t.rowHeight()
	return x, y
}

// rowHeight is one thread's row within a band, CSS px.
func (t *Timeline) rowHeight() float64 { return float64(t.BandHeight()) / float64(max(t.Width, 1)) }

var (
	colTask     = ColLine
	colFault    = ColBad
	colYield    = ColWarn
	colBubble   = RGBA{0x5a, 0x1d, 0x1d, 0xff}
	colLaneBg   = RGBA{0x16, 0x1b, 0x22, 0xff}
	colLaneIdle = RGBA{0x12, 0x16, 0x1c, 0xff}
)

// TimelinePainter draws t in view: per lane a band, its bubbles shaded,
// its tasks as bars, one row per thread of the band. The shaded spans are
// the ones the rows sum (Timeline.Bubbles): a pass's time between one
// task's end ticket and the next one's start, not the sliver between two
// tickets in a row that the axis spreads them over; between two passes no
// drain runs, and the bands are left plain there.
type TimelinePainter struct {
	_ nocompare.T

	T    *Timeline
	View TimelineView
}

// Paint draws into r (its size in device pixels; scale = r.W / CSS width).
func (p TimelinePainter) Paint(r *Raster) {
	r.Fill(ColBackground)
	t := p.T
	if t == nil || len(t.Lanes) == 0 {
		return
	}
	bh := t.BandHeight()
	sy := float64(r.H) / float64(t.Height())
	band := func(l int) (int, int) {
		y0 := float64(l*(bh+TimelineLaneGap)) * sy
		return int(y0), int(y0 + float64(bh)*sy)
	}
	x := func(a float64) int { return int(p.View.X(a, r.W)) }
	r.Fill(colLaneIdle) // no pass runs
	for i := range t.Passes {
		if x0, x1 := x(t.Passes[i].Begin), x(t.Passes[i].End); x1 >= 0 && x0 < r.W {
			r.Rect(max(x0, 0), 0, min(x1, r.W-1), r.H-1, colLaneBg) // a pass runs
		}
	}
	for _, b := range t.Bubbles {
		y0, y1 := band(b.Lane)
		if x0, x1 := x(b.From), x(b.To); x1 > x0 && x1 >= 0 && x0 < r.W {
			r.Rect(max(x0, 0), y0, min(x1-1, r.W-1), y1-1, colBubble)
		}
	}
	for l := range t.Lanes { // the gaps between the bands
		_, y1 := band(l)
		if next, _ := band(l + 1); next > y1 {
			r.Rect(0, y1, r.W-1, min(next, r.H)-1, ColBackground)
		}
	}
	width := max(t.Width, 1)
	for i := range t.Tasks {
		k := &t.Tasks[i]
		y0, y1 := band(k.Lane)
		h := float64(y1-y0) / float64(width)
		ty0 := y0 + int(float64(k.Thread)*h)
		ty1 := max(y0+int(float64(k.Thread+1)*h)-1, ty0)
		x0, x1 := x(k.Start), max(x(k.End), x(k.Start))
		if x1 < 0 || x0 >= r.W {
			continue
		}
		c := colTask
		switch k.Status {
		case decode.StatusFault:
			c = colFault
		case decode.StatusYield, decode.StatusRequeue, decode.StatusWaitIO:
			c = colYield
		}
		r.Rect(max(x0, 0), ty0, min(x1, r.W-1), ty1, c)
	}
	for i := range t.Passes {
		if bx := x(t.Passes[i].Begin); bx >= 0 && bx < r.W {
			r.VLine(bx, 0, r.H-1, ColAxis)
		}
	}
}
