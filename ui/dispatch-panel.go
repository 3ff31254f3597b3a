package ui

import (
	"math"
	"strconv"
	"time"

	"github.com/ringscope/ringscope/decode/frame"
)

// DispatchPanel shows the per-dispatch telemetry with time series (round
// trip, bytes moved, occupancy vs frontier), the round-trip distribution
// with its p50/p90/p99 (round trips are bimodal: a mean hides that), the
// frame's stage timings and the run totals.
type DispatchPanel struct {
	Frame   *frame.Frame
	History *History

	rtPlot, histPlot, bytesPlot, bpsPlot Plot
}

// Seq is the frame sequence.
func (c *DispatchPanel) Seq() uint64 {
	if c.Frame == nil {
		return 0
	}
	return c.Frame.Seq
}

func (c *DispatchPanel) hist() *History {
	if c.History == nil {
		return NewHistory()
	}
	return c.History
}

// Sub counts dispatches.
func (c *DispatchPanel) Sub() string {
	if c.Frame == nil || c.Frame.Report == nil {
		return "no dispatch yet"
	}
	return Thousands(c.Frame.Report.DispatchCount) + " dispatches this run"
}

// RoundTripPainter plots the round trips.
func (c *DispatchPanel) RoundTripPainter() Painter {
	return SeriesPainter{A: c.hist().RoundTrip, ColA: ColLine}
}

// BytesPainter plots bytes moved.
func (c *DispatchPanel) BytesPainter() Painter {
	return SeriesPainter{A: c.hist().BytesMoved, ColA: ColLine}
}

// BpsPainter plots occupancy and frontier on a 0–100 % scale.
func (c *DispatchPanel) BpsPainter() Painter {
	h := c.hist()
	return SeriesPainter{A: h.OccBps, B: h.FrontierBps, ColA: ColLine, ColB: ColLine2, Max: 10000}
}

// HistogramPainter draws the distribution.
func (c *DispatchPanel) HistogramPainter() Painter { return HistogramPainter{H: c.History} }

// RoundTripNow is the last round trip.
func (c *DispatchPanel) RoundTripNow() string { return MS(lastOrNaN(c.hist().RoundTrip)) }

// RoundTripMax is the plot's top.
func (c *DispatchPanel) RoundTripMax() string {
	return "max " + MS(SeriesMax(c.hist().RoundTrip, nil))
}

// BytesNow is the last bytes moved.
func (c *DispatchPanel) BytesNow() string {
	s := c.hist().BytesMoved
	if s.Len() == 0 {
		return dash
	}
	return Bytes(uint64(s.Last()))
}

// BytesMax is the plot's top.
func (c *DispatchPanel) BytesMax() string {
	return "max " + Bytes(uint64(SeriesMax(c.hist().BytesMoved, nil)))
}

// OccNow is the last occupancy / frontier pair.
func (c *DispatchPanel) OccNow() string {
	h := c.hist()
	if h.OccBps.Len() == 0 {
		return dash
	}
	return Bps(uint32(h.OccBps.Last())) + " / " + Bps(uint32(h.FrontierBps.Last()))
}

// Quantiles is "p50 … · p90 … · p99 …" of the recent round trips.
func (c *DispatchPanel) Quantiles() string {
	p50, p90, p99 := c.hist().Quantiles()
	return "p50 " + MS(p50) + " · p90 " + MS(p90) + " · p99 " + MS(p99)
}

// Q returns the labelled quantile i of p50, p90, p99.
func (c *DispatchPanel) Q(i int) string {
	p50, p90, p99 := c.hist().Quantiles()
	return [...]string{"p50 ", "p90 ", "p99 "}[i] + MS([...]float64{p50, p90, p99}[i])
}

// HistogramTicks label the histogram's x axis: one per decade.
func (c *DispatchPanel) HistogramTicks() []string {
	l := c.hist().Latency
	var ticks []string
	for v := l.Min; v < l.Max*1.001; v *= 10 {
		ticks = append(ticks, decadeLabel(v))
	}
	return ticks
}

// decadeLabel is an axis label of a power of ten of milliseconds, short
// enough that seven fit the histogram's width with room between them
// ("10µs" … "10s"; MS's "0.010 ms" touched its neighbours).
func decadeLabel(ms float64) string {
	switch {
	case ms < 1:
		return strconv.FormatFloat(ms*1000, 'f', -1, 64) + "µs"
	case ms < 1000:
		return strconv.FormatFloat(ms, 'f', -1, 64) + "ms"
	}
	return strconv.FormatFloat(ms/1000, 'f', -1, 64) + "s"
}

func lastOrNaN(s *Series) float64 {
	if s.Len() == 0 {
		return math.NaN()
	}
	return s.Last()
}

// DispatchItems lists the 17 MegakernelTelemetry fields of the last dispatch.
func (c *DispatchPanel) DispatchItems() []KV {
	if c.Frame == nil || c.Frame.Dispatch == nil {
		return []KV{{Label: "dispatch", Value: dash, Title: "no dispatch yet"}}
	}
	d := c.Frame.Dispatch
	n := func(v uint32) string { return Thousands(uint64(v)) }
	budget := "unbounded"
	if d.DeviceMemoryBudgetBytes > 0 {
		budget = Bytes(d.DeviceMemoryBudgetBytes)
	}
	return []KV{
		{Label: "bytes uploaded", Value: Bytes(d.BytesUploaded), Title: "BytesUploaded: control, ring, log, params and data written to the device"},
		{Label: "bytes read back", Value: Bytes(d.BytesReadBack), Title: "BytesReadBack: bytes copied back from the device"},
		{Label: "bytes moved", Value: Bytes(d.BytesMoved), Title: "BytesMoved: uploaded + read back"},
		{Label: "resident allocations", Value: n(d.ResidentAllocations), Class: warnIf(d.ResidentAllocations > 0), Title: "ResidentAllocations: device buffers created for this dispatch (0 = reused)"},
		{Label: "kernel launches", Value: n(d.KernelLaunches), Title: "KernelLaunches: compute dispatches issued (drain + finalize count separately)"},
		{Label: "sync points", Value: n(d.SyncPoints), Title: "SyncPoints: host-visible waits (mapAsync, onSubmittedWorkDone)"},
		{Label: "occupancy proxy", Value: Bps(uint32(d.OccupancyProxyBps)), Title: "OccupancyProxyBps: items claimed ÷ lanes launched, capped at 100 %"},
		{Label: "frontier density", Value: Bps(uint32(d.FrontierDensityBps)), Title: "FrontierDensityBps: active slots ÷ total slots, capped at 100 %"},
		{Label: "readback buffers", Value: n(d.ReadbackBuffers), Title: "ReadbackBuffers: buffers read back"},
		{Label: "pipeline cache hit", Value: YesNo(d.CompiledPipelineCacheHit), Class: warnIf(!d.CompiledPipelineCacheHit), Title: "CompiledPipelineCacheHit: the compiled megakernel pipeline was reused"},
		{Label: "resident input hit", Value: YesNo(d.ResidentInputCacheHit), Class: warnIf(!d.ResidentInputCacheHit), Title: "ResidentInputCacheHit: resident input buffers were reused"},
		{Label: "topology", Value: d.Topology.String(), Title: "Topology chosen by the launch policy"},
		{Label: "pressure", Value: d.Pressure.String(), Title: "Pressure chosen by the launch policy"},
		{Label: "execution mode", Value: d.ExecutionMode.String(), Title: "ExecutionMode chosen by the launch policy"},
		{Label: "hit capacity", Value: n(d.HitCapacity), Title: "HitCapacity: sparse-hit records (16 bytes each)"},
		{Label: "est. peak device", Value: Bytes(d.EstimatedPeakDeviceBytes), Title: "EstimatedPeakDeviceBytes: plan peak + 2 × input bytes"},
		{Label: "device-memory budget", Value: budget, Title: "DeviceMemoryBudgetBytes: the hard device-memory budget; 0 = unbounded"},
	}
}

// TimingItems lists the frame's stage times and the run's totals.
func (c *DispatchPanel) TimingItems() []KV {
	if c.Frame == nil {
		return []KV{{Label: "frame", Value: dash, Title: "no frame yet"}}
	}
	t := c.Frame.Timings
	h := c.hist()
	fps := dash
	if h.FrameMS > 0 {
		fps = strconv.FormatFloat(1000/h.FrameMS, 'f', 1, 64) + " /s"
	}
	items := []KV{
		{Label: "publish", Value: MS(t.PublishMS), Title: "host: encoding slots and writeBuffer, ms"},
		{Label: "dispatch", Value: MS(t.DispatchMS), Title: "host: encoding and submitting the drain + finalize passes, ms"},
		{Label: "readback", Value: MS(t.ReadbackMS), Title: "host: copy + mapAsync + copy into Go, ms"},
		{Label: "decode", Value: MS(t.DecodeMS), Title: "host: decoding control, ring, log, sketches and counters, ms"},
		{Label: "round trip", Value: MS(t.RoundTripMS), Title: "submit → readback available, ms"},
		{Label: "GPU time", Value: MS(t.GPUMS), Title: "device time from timestamp queries (0/– without the timestamp-query feature), ms"},
		{Label: "frame rate", Value: fps, Title: "frames applied per second (smoothed)"},
	}
	if r := c.Frame.Report; r != nil {
		items = append(items,
			KV{Label: "run items", Value: Thousands(r.ItemsProcessed) + " / " + Thousands(r.PublishedItems+r.SpawnedItems), Title: "ItemsProcessed (DONE or FAULT) of the items in this run: PublishedItems by the host, plus SpawnedItems on the GPU"},
			KV{Label: "run remaining", Value: Thousands(r.ItemsRemaining), Title: "ItemsRemaining: published + spawned − processed"},
			KV{Label: "run wall time", Value: MS(durMS(r.WallTime)), Title: "WallTime: host time around submit-and-wait, summed over dispatches"},
			KV{Label: "run GPU time", Value: MS(durMS(r.GPUTime)), Title: "GPUTime: timestamp-query device time, summed (0 without the feature)"},
			KV{Label: "run bytes moved", Value: Bytes(r.BytesMoved), Title: "BytesMoved summed over the run's dispatches"},
			KV{Label: "run peak device", Value: Bytes(r.PeakDeviceBytes), Title: "PeakDeviceBytes: largest estimated peak of the run"},
			KV{Label: "pipeline cache hits", Value: Thousands(r.PipelineCacheHits) + " / " + Thousands(r.DispatchCount), Title: "dispatches that reused the compiled pipeline"},
		)
	}
	return items
}

func durMS(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Rendered draws the plots.
func (c *DispatchPanel) Rendered() {
	seq := c.Seq()
	c.rtPlot.Draw(seq, c.RoundTripPainter())
	c.histPlot.Draw(seq, c.HistogramPainter())
	c.bytesPlot.Draw(seq, c.BytesPainter())
	c.bpsPlot.Draw(seq, c.BpsPainter())
}
