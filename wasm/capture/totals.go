package capture

import "github.com/ringscope/ringscope/decode"

// Totals are run-wide sums over the dispatches a page observed: what the
// exported counters (ringscope_bytes_uploaded_total, …) report. A capture
// holds only the newest frames, so sums over its frames shrink as old frames
// are evicted, and a Prometheus that scrapes them reads each drop as a
// counter reset; the page adds every live frame to its Totals instead
// (whether recording or not), so they only grow. The zero value is a run
// with nothing observed.
type Totals struct {
	Dispatches        uint64
	BytesUploaded     uint64
	BytesReadBack     uint64
	KernelLaunches    uint64
	SyncPoints        uint64
	PipelineCacheHits uint64
	// RoundTripMS and GPUMS sum the dispatches' submit-to-readback and
	// device times, in milliseconds.
	RoundTripMS float64
	GPUMS       float64
	// Waits is the queue waits of the newest live frame, which the host
	// measured over the run (nil: none measured, a capture file's).
	Waits *decode.WaitTimes
}

// Add counts one frame's dispatch (frames without one add nothing).
func (t *Totals) Add(m *Meta) {
	d := m.Dispatch
	if d == nil {
		return
	}
	t.Dispatches++
	t.BytesUploaded += d.BytesUploaded
	t.BytesReadBack += d.BytesReadBack
	t.KernelLaunches += uint64(d.KernelLaunches)
	t.SyncPoints += uint64(d.SyncPoints)
	if d.CompiledPipelineCacheHit {
		t.PipelineCacheHits++
	}
	t.RoundTripMS += finiteMS(m.Timings.RoundTripMS)
	t.GPUMS += finiteMS(m.Timings.GPUMS)
}

// TotalsOf sums the frames of c: the totals of a capture file, whose run
// is the file.
func TotalsOf(c *Capture) Totals {
	var t Totals
	for i := range c.Frames {
		t.Add(&c.Frames[i].Meta)
	}
	return t
}

// finiteMS drops a timing that is not a non-negative finite number, which
// would make a counter go down or become NaN.
func finiteMS(v float64) float64 {
	if v >= 0 && v <= 1e300 {
		return v
	}
	return 0
}
