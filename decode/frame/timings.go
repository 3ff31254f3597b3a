package frame

import "github.com/ringscope/ringscope/internal/nocompare"

import "math"

// Timings are the host-side costs of a frame, in milliseconds (0: not
// measured). The capture format stores them as they are (docs/CAPTURE.md,
// a frame's meta.timings).
type Timings struct {
	_ nocompare.T

	// PublishMS is encoding and writing the published slots (writeBuffer).
	PublishMS float64 `json:"publishMs"`
	// DispatchMS is encoding and submitting the drain + finalize passes.
	DispatchMS float64 `json:"dispatchMs"`
	// ReadbackMS is the copy, mapAsync and getMappedRange into Go.
	ReadbackMS float64 `json:"readbackMs"`
	// DecodeMS is the decode of control, ring, log, sketches, counters.
	DecodeMS float64 `json:"decodeMs"`
	// RoundTripMS is submit to readback available: the GPU round trip.
	RoundTripMS float64 `json:"roundTripMs"`
	// GPUMS is the device time from timestamp queries, where the adapter
	// has them.
	GPUMS float64 `json:"gpuMs"`
}

// Finite is t with every NaN or infinite time as 0, which JSON can carry.
func (t Timings) Finite() Timings {
	return Timings{PublishMS: finite(t.PublishMS), DispatchMS: finite(t.DispatchMS), ReadbackMS: finite(t.ReadbackMS),
		DecodeMS: finite(t.DecodeMS), RoundTripMS: finite(t.RoundTripMS), GPUMS: finite(t.GPUMS)}
}

func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}
