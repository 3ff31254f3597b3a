package ui

import (
	"github.com/ringscope/ringscope/internal/nocompare"
	"math"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
)

// HistoryLen is how many frames the time-series views keep.
const HistoryLen = 600

// Health codes of the watchdog timeline, one per frame.
const (
	HealthIdle     = 0 // nothing queued
	HealthProgress = 1 // work queued and DONE_COUNT advanced
	HealthSuspect  = 2 // a stalled interval, not yet N in a row
	HealthStalled  = 3 // the watchdog reports a stall
	HealthReset    = 4 // the host re-initialised the ring (GENERATION changed)
	HealthFaulting = 5 // no progress, but faults explain it
)

// History is the preallocated per-frame history behind every time-series
// view. Dashboard.Apply pushes one sample per frame; nothing allocates
// after NewHistory. The zero value is unusable.
type History struct {
	Occupancy [len(StatusOrder)]*Series // slots per status
	Total     *Series                   // total slots

	BytesMoved  *Series // per dispatch, bytes
	RoundTrip   *Series // ms
	DecodeMS    *Series // ms
	OccBps      *Series // dispatch occupancy proxy, bps
	FrontierBps *Series // dispatch frontier density, bps
	DoneRate    *Series // completions per second (watchdog)
	Health      *Series // Health* codes
	Latency     *LatencyHistogram

	// Frames counts applied frames; LastMillis is the newest frame's time
	// and FrameMS the smoothed interval between frames.
	Frames     uint64
	LastMillis float64
	FrameMS    float64

	quant []float64
}

// NewHistory allocates every series.
func NewHistory() *History {
	h := &History{
		Total: NewSeries(HistoryLen), BytesMoved: NewSeries(HistoryLen), RoundTrip: NewSeries(HistoryLen),
		DecodeMS: NewSeries(HistoryLen), OccBps: NewSeries(HistoryLen), FrontierBps: NewSeries(HistoryLen),
		DoneRate: NewSeries(HistoryLen), Health: NewSeries(HistoryLen),
		Latency: NewLatencyHistogram(0.01, 10000, 5, 2048),
		quant:   make([]float64, 0, 4),
	}
	for i := range h.Occupancy {
		h.Occupancy[i] = NewSeries(HistoryLen)
	}
	return h
}

// Reset forgets every sample (a new run).
func (h *History) Reset() {
	for _, s := range h.Occupancy {
		s.Reset()
	}
	for _, s := range []*Series{h.Total, h.BytesMoved, h.RoundTrip, h.DecodeMS, h.OccBps, h.FrontierBps, h.DoneRate, h.Health} {
		s.Reset()
	}
	h.Latency.Reset()
	h.Frames, h.LastMillis, h.FrameMS = 0, 0, 0
}

// Push records frame f.
func (h *History) Push(f *frame.Frame) {
	if h.Frames > 0 && f.AtMillis > h.LastMillis {
		dt := f.AtMillis - h.LastMillis
		if h.FrameMS == 0 {
			h.FrameMS = dt
		} else {
			h.FrameMS += (dt - h.FrameMS) * 0.1
		}
	}
	h.Frames++
	h.LastMillis = f.AtMillis
	if f.Ring != nil {
		o := &f.Ring.Occupancy
		for i, s := range StatusOrder {
			h.Occupancy[i].Push(float64(o.Of(s)))
		}
		h.Total.Push(float64(o.TotalSlots()))
	}
	if d := f.Dispatch; d != nil {
		h.BytesMoved.Push(float64(d.BytesMoved))
		h.OccBps.Push(float64(d.OccupancyProxyBps))
		h.FrontierBps.Push(float64(d.FrontierDensityBps))
	}
	if f.Timings.RoundTripMS > 0 {
		h.RoundTrip.Push(f.Timings.RoundTripMS)
		h.Latency.Add(f.Timings.RoundTripMS)
	}
	if f.Timings.DecodeMS > 0 {
		h.DecodeMS.Push(f.Timings.DecodeMS)
	}
	if w := f.Watchdog; w != nil {
		h.DoneRate.Push(w.DonePerSecond)
		h.Health.Push(float64(HealthCode(w)))
	}
}

// HealthCode classifies one watchdog verdict for the timeline.
func HealthCode(w *decode.WatchdogState) int {
	switch {
	case w.Health.Reset:
		return HealthReset
	case w.Stalled:
		return HealthStalled
	case w.StalledIntervals > 0:
		return HealthSuspect
	case w.Health.QueueDepth == 0:
		return HealthIdle
	case w.Health.DoneDelta == 0 && w.Health.FaultSlots > 0:
		return HealthFaulting
	}
	return HealthProgress
}

// healthColors are the timeline colours of the Health codes.
var healthColors = [...]RGBA{ColMuted, ColOK, ColWarn, ColBad, ColLine, RGBA{0xd9, 0x46, 0xef, 0xff}}

// Quantiles returns p50, p90 and p99 of the recent round trips (NaN when
// there are none). The returned slice is reused by the next call.
func (h *History) Quantiles() (p50, p90, p99 float64) {
	h.quant = h.Latency.Quantiles(h.quant, 0.5, 0.9, 0.99)
	return h.quant[0], h.quant[1], h.quant[2]
}

// Painter draws a view into a raster sized to its canvas.
type Painter interface {
	Paint(r *Raster)
}

// OccupancyPainter draws the stacked area of slots per status, one column
// per frame, newest at the right.
type OccupancyPainter struct{ H *History }

// Paint implements Painter.
func (p OccupancyPainter) Paint(r *Raster) {
	r.Fill(ColBackground)
	r.Grid(4, ColGrid)
	if p.H == nil {
		return
	}
	n := p.H.Total.Len()
	var parts [len(StatusOrder)]uint32
	var cols [len(StatusOrder)]RGBA
	for i, s := range StatusOrder {
		cols[i] = RGBA(StatusColor(s))
	}
	cols[0] = ColGrid // EMPTY fades into the background
	for x := 0; x < r.W; x++ {
		i := n - r.W + x
		if i < 0 {
			continue
		}
		for k := range parts {
			parts[k] = uint32(p.H.Occupancy[k].At(i))
		}
		r.StackedColumn(x, parts[:], uint64(p.H.Total.At(i)), cols[:])
	}
}

// SeriesPainter draws one or two series as lines over a grid; Max 0
// scales to the largest sample shown.
type SeriesPainter struct {
	_ nocompare.T

	A, B   *Series
	ColA   RGBA
	ColB   RGBA
	Max    float64
	Window int // samples shown (0: one per pixel)
}

// Paint implements Painter.
func (p SeriesPainter) Paint(r *Raster) {
	r.Fill(ColBackground)
	r.Grid(4, ColGrid)
	m := p.Max
	if m == 0 {
		m = SeriesMax(p.A, p.B)
	}
	if p.A != nil {
		r.PlotSeries(p.A, m, p.ColA)
	}
	if p.B != nil {
		r.PlotSeries(p.B, m, p.ColB)
	}
}

// SeriesMax is a "nice" upper bound of the samples of a and b: the largest
// sample rounded up to 1, 2 or 5 × 10^k (at least 1).
func SeriesMax(a, b *Series) float64 {
	m := 0.0
	if a != nil {
		m = a.Max()
	}
	if b != nil {
		m = max(m, b.Max())
	}
	return NiceCeil(m)
}

// NiceCeil rounds v up to 1, 2 or 5 × 10^k; values ≤ 0 give 1.
func NiceCeil(v float64) float64 {
	if !(v > 0) {
		return 1
	}
	e := math.Pow(10, math.Floor(math.Log10(v)))
	for _, f := range []float64{1, 2, 5, 10} {
		if v <= f*e*(1+1e-12) {
			return f * e
		}
	}
	return 10 * e
}

// HistogramPainter draws the latency histogram as bars, one per bucket,
// with the p50/p90/p99 markers.
type HistogramPainter struct{ H *History }

// Paint implements Painter.
func (p HistogramPainter) Paint(r *Raster) {
	r.Fill(ColBackground)
	r.Grid(4, ColGrid)
	if p.H == nil || p.H.Latency.Total == 0 {
		return
	}
	l := p.H.Latency
	n := len(l.Counts)
	mc := float64(l.MaxCount())
	for b, c := range l.Counts {
		if c == 0 {
			continue
		}
		x0, x1 := b*r.W/n, (b+1)*r.W/n-1
		h := int(math.Ceil(float64(c) / mc * float64(r.H-1)))
		r.Rect(x0, r.H-h, max(x1, x0+1), r.H, ColLine)
	}
	p50, p90, p99 := p.H.Quantiles()
	for i, q := range []float64{p50, p90, p99} {
		if math.IsNaN(q) {
			continue
		}
		x := int(p.H.BucketPos(q) * float64(r.W))
		r.VLine(x, 0, r.H-1, [...]RGBA{ColOK, ColWarn, ColBad}[i])
	}
}

// BucketPos maps a latency to its horizontal position in [0, 1) on the
// histogram, interpolating within the log-scale bucket.
func (h *History) BucketPos(ms float64) float64 {
	l := h.Latency
	b := l.Bucket(ms)
	lo, hi := l.BucketBounds(b)
	frac := 0.0
	if b > 0 && !math.IsInf(hi, 1) && hi > lo {
		frac = math.Log10(ms/lo) / math.Log10(hi/lo)
	}
	return (float64(b) + clampF(frac, 0, 0.999)) / float64(len(l.Counts))
}

func clampF(v, lo, hi float64) float64 { return math.Min(math.Max(v, lo), hi) }

// HealthPainter draws the watchdog timeline: one coloured column per frame
// (grey idle, green progress, amber suspect, red stalled, blue reset,
// magenta faulting).
type HealthPainter struct{ H *History }

// Paint implements Painter.
func (p HealthPainter) Paint(r *Raster) {
	r.Fill(ColBackground)
	if p.H == nil {
		return
	}
	s := p.H.Health
	n := s.Len()
	for x := 0; x < r.W; x++ {
		i := n - r.W + x
		if i < 0 {
			continue
		}
		code := int(s.At(i))
		c := ColMuted
		if code >= 0 && code < len(healthColors) {
			c = healthColors[code]
		}
		top := 0
		if code == HealthIdle {
			top = r.H * 2 / 3
		}
		r.VLine(x, top, r.H-1, c)
	}
}
