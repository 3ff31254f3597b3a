package ui

import (
	"fmt"
	"github.com/ringscope/ringscope/internal/nocompare"
	"strconv"

	"github.com/vugu/vugu"
	js "github.com/vugu/vugu/js"
)

// TimelinePanel draws a traced ring's tasks (Timeline): a band per
// workgroup, time left to right, bubbles shaded; the wheel and the
// buttons zoom, a drag pans, a click on a task asks OnInspect to open its
// slot in the slot inspector. Below the canvas, a row per workgroup with
// its task count and bubbles by reason (the e2e test reads them), and the
// bubbles per pass. A nil Timeline renders nothing (the dashboard hides
// the panel).
type TimelinePanel struct {
	Timeline  *Timeline
	OnInspect func(slot int)

	plot  Plot
	view  TimelineView
	fit   TimelineView // the last timeline's Fit
	seen  uint64       // Timeline.Seq the view was fitted to
	draws uint64       // bumped by every view change: the plot repaints
	w     int          // the canvas's CSS width at the last draw
	hostH int          // the host's CSS height as last set

	dragging bool
	dragX    float64
}

func (c *TimelinePanel) mount(host js.Value) { c.plot.Mount(host) }

// Compute fits the view to a new timeline, unless it is live and the
// view was zoomed or panned.
func (c *TimelinePanel) Compute() {
	if t := c.Timeline; t != nil && t.Seq != c.seen {
		if !t.Live || c.view == c.fit {
			c.view = t.Fit()
		}
		c.fit, c.seen = t.Fit(), t.Seq
		c.draws++
	}
}

// Rendered sizes the host to the lanes (through the CSSOM: the page's
// CSP refuses style attributes) and repaints when the timeline or the view
// changed.
func (c *TimelinePanel) Rendered() {
	if c.Timeline == nil || !c.plot.canvas.Attached() {
		return
	}
	if h := c.hostHeight(); h != c.hostH {
		c.plot.canvas.Element().Get("parentElement").Get("style").Set("height", strconv.Itoa(h)+"px")
		c.hostH = h
	}
	c.plot.Draw(c.Timeline.Seq<<20+c.draws, TimelinePainter{T: c.Timeline, View: c.view})
	c.w = c.plot.raster.W
}

// hostHeight is the canvas's height for the lanes, CSS px.
func (c *TimelinePanel) hostHeight() int {
	if c.Timeline == nil {
		return TimelineLaneHeight + TimelineLaneGap
	}
	return c.Timeline.Height()
}

// Sub summarises the window, and says so when records were dropped: the
// tasks shown are then not all that ran.
func (c *TimelinePanel) Sub() string {
	t := c.Timeline
	if t == nil {
		return ""
	}
	s := fmt.Sprintf("%d tasks · %d workgroups · %d passes · axis %s", len(t.Tasks), len(t.Lanes), len(t.Passes), t.Unit())
	if t.Dropped > 0 {
		s += " · " + Thousands(t.Dropped) + " records dropped (the trace buffer was full: raise trace.capacity)"
	}
	return s
}

// ViewText is the visible window.
func (c *TimelinePanel) ViewText() string {
	t := c.Timeline
	if t == nil {
		return ""
	}
	return t.Amount(c.view.From) + " … " + t.Amount(c.view.To) + " (" + t.Amount(c.view.To-c.view.From) + " wide)"
}

// setView shows v, within the whole window.
func (c *TimelinePanel) setView(v TimelineView) { c.view = v.Within(c.fit); c.draws++ }

// ZoomIn, ZoomOut and FitView change the view around its middle.
func (c *TimelinePanel) ZoomIn()  { c.setView(c.view.Zoom(0.5, (c.view.From+c.view.To)/2, c.fit)) }
func (c *TimelinePanel) ZoomOut() { c.setView(c.view.Zoom(2, (c.view.From+c.view.To)/2, c.fit)) }
func (c *TimelinePanel) FitView() {
	if c.Timeline != nil {
		c.setView(c.Timeline.Fit())
	}
}

// Wheel zooms around the pointer.
func (c *TimelinePanel) Wheel(ev vugu.DOMEvent) {
	if c.w <= 0 {
		return
	}
	ev.PreventDefault()
	f := 0.8
	if ev.PropFloat64("deltaY") > 0 {
		f = 1.25
	}
	c.setView(c.view.Zoom(f, c.view.Axis(ev.PropFloat64("offsetX"), c.w), c.fit))
}

// Down, Move and Up pan by dragging.
func (c *TimelinePanel) Down(ev vugu.DOMEvent) { c.dragging, c.dragX = true, ev.PropFloat64("offsetX") }
func (c *TimelinePanel) Move(ev vugu.DOMEvent) {
	if !c.dragging || c.w <= 0 {
		return
	}
	x := ev.PropFloat64("offsetX")
	if d := x - c.dragX; d != 0 {
		c.setView(c.view.Pan(-d / float64(c.w) * (c.view.To - c.view.From)))
		c.dragX = x
	}
}
func (c *TimelinePanel) Up(vugu.DOMEvent) { c.dragging = false }

// Click opens the slot of the task under the pointer. The width is the
// event target's: the canvas may not have been drawn yet.
func (c *TimelinePanel) Click(ev vugu.DOMEvent) {
	w := int(ev.PropFloat64("target", "clientWidth"))
	if c.Timeline == nil || w <= 0 {
		return
	}
	if i := c.Timeline.TaskAt(c.view, ev.PropFloat64("offsetX"), ev.PropFloat64("offsetY"), w); i >= 0 && c.OnInspect != nil {
		c.OnInspect(int(c.Timeline.Tasks[i].Slot))
	}
}

// TimelineRow is one workgroup's row under the canvas. Probe is where a
// task of its lowest-numbered lane lies on the canvas ("x,y,slot": x a share of the canvas's
// width, y in CSS px), for the e2e test.
type TimelineRow struct {
	_ nocompare.T

	Key, Workgroup, Tasks, Bubble, Reasons, Probe string
}

// LaneRows are the rows of the lanes.
func (c *TimelinePanel) LaneRows() []TimelineRow {
	t := c.Timeline
	if t == nil {
		return nil
	}
	rows := make([]TimelineRow, len(t.Lanes))
	first := make([]int, len(t.Lanes))
	for i := range first {
		first[i] = -1
	}
	// The task of the lane's top row nearest the view's middle: clear of
	// the canvas's edges.
	mid := (c.view.From + c.view.To) / 2
	dist := func(k *TimelineTask) float64 { return abs((k.Start+k.End)/2 - mid) }
	for i := range t.Tasks {
		k := &t.Tasks[i]
		j := first[k.Lane]
		if j < 0 || k.Thread < t.Tasks[j].Thread || k.Thread == t.Tasks[j].Thread && dist(k) < dist(&t.Tasks[j]) {
			first[k.Lane] = i
		}
	}
	for i, l := range t.Lanes {
		rows[i] = TimelineRow{Key: strconv.Itoa(int(l.Workgroup)), Workgroup: strconv.Itoa(int(l.Workgroup)), Tasks: strconv.Itoa(l.Tasks),
			Bubble: t.Amount(l.Bubble), Reasons: t.ReasonText(l.Reasons)}
		if k := first[i]; k >= 0 {
			x, y := t.Probe(c.view, k, 1)
			rows[i].Probe = fmt.Sprintf("%.6f,%.1f,%d", x, y, t.Tasks[k].Slot)
		}
	}
	return rows
}

// Hang is the hang hunter's report, nil when none is kept.
func (c *TimelinePanel) Hang() *TimelineHang {
	if c.Timeline == nil {
		return nil
	}
	return c.Timeline.Hang
}

// ExportHang downloads the kept hang as a capture.
func (c *TimelinePanel) ExportHang() {
	if h := c.Hang(); h != nil && h.Export != nil {
		h.Export()
	}
}

// PassText gives each pass's bubbles as the mean idle time of a workgroup
// that ran in it, beside the pass's length: the workgroups' sum is
// workgroup-time, which on a wide grid reads as many times the pass.
func (c *TimelinePanel) PassText() string {
	t := c.Timeline
	if t == nil || len(t.Passes) == 0 {
		return ""
	}
	s := "idle per workgroup (mean), per pass:"
	for i := range t.Passes {
		p := &t.Passes[i]
		if i == 8 {
			s += fmt.Sprintf(" … (%d more)", len(t.Passes)-8)
			break
		}
		s += " #" + strconv.Itoa(i) + " " + t.Amount(p.MeanIdle(p.Bubble)) + " of " + t.Amount(p.End-p.Begin)
		mean := make(map[string]float64, len(p.Reasons))
		for k, v := range p.Reasons {
			mean[k] = p.MeanIdle(v)
		}
		if r := t.ReasonText(mean); r != "" {
			s += " (" + r + ")"
		}
		s += ";"
	}
	return s
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
