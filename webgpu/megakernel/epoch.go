package megakernel

import (
	"github.com/ringscope/ringscope/internal/nocompare"
	"time"

	"github.com/ringscope/ringscope/decode"
)

// Epoch is what one submission (one Step) did. The zero value is a
// submission that did nothing.
type Epoch struct {
	_ nocompare.T

	// Index counts the runner's submissions, from 1.
	Index uint64
	// Telemetry is the dispatch's production counters: the launch policy's
	// choices, and transfers, launches, waits and cache hits taken from the
	// device's counters (webgpu.Device.Stats deltas).
	Telemetry decode.MegakernelTelemetry
	// Launch is the launch policy's recommendation for this submission.
	Launch decode.LaunchRecommendation
	// Program is the drain pipeline's cache key: "interpreter" or a
	// wgsl.JITKey, with the width ("interpreter/x64").
	Program string
	// Grid is the workgroups of the drain dispatch; Width their width.
	Grid, Width uint32
	// Queued is the items pending (TAIL − HEAD) when the submission began;
	// Claimed the tickets the lanes took (Σ HEAD advance after finalize),
	// at most Queued, unless the kernel spawns: then every generation's
	// claims, the spawned items' too.
	Queued  uint32
	Claimed uint64
	// GPUTime is the drain pass (drain and finalize dispatches) on the
	// device, from timestamp queries; 0 when the device was not requested
	// with the timestamp-query feature (or withholds timestamps). Browsers
	// may quantize it (e.g. to 100 µs); Timings are host wall-clock.
	GPUTime time.Duration
	// RingRead reports whether the ring was read back.
	RingRead bool
	// Generations is the drain passes the submission ran (a spawning
	// kernel's; 1 otherwise), and GenerationsReason why the policy chose
	// that many.
	Generations       uint32
	GenerationsReason string
	// Timings are host wall-clock times of the Step's phases.
	Timings Timings
}

// Lanes is the invocations the drain dispatch launched.
func (e *Epoch) Lanes() uint64 { return uint64(e.Grid) * uint64(e.Width) }

// AddTo adds the submission to a run's report: its dispatch's counters
// (MegakernelReport.Add) and its wall, device and publish times.
func (e *Epoch) AddTo(rep *decode.MegakernelReport) {
	rep.Add(e.Telemetry)
	rep.WallTime += e.Timings.Total
	rep.GPUTime += e.GPUTime
	rep.PublishTime += e.Timings.Publish
}

// Timings are host wall-clock durations (time.Now, monotonic: in wasm,
// performance.now) of one Step. The zero value is a Step not yet measured.
type Timings struct {
	// Publish is the time Publish calls spent since the previous Step.
	Publish time.Duration
	// Prepare is planning, resource and pipeline lookup (creation on a miss).
	Prepare time.Duration
	// Upload is the dirty-range and params writes.
	Upload time.Duration
	// Submit is encoding and queue.submit.
	Submit time.Duration
	// Readback is the wait for mapAsync and the copy into Go: it includes
	// the GPU's execution of the submission.
	Readback time.Duration
	// Decode is Absorb, DecodeInto and DecodeLogInto.
	Decode time.Duration
	// Total is the Step from start to end (Publish excluded).
	Total time.Duration
}

// Ms returns d in milliseconds, for display.
func Ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
