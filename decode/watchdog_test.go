package decode

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// snapshot is a telemetry with the given DONE_COUNT, GENERATION and ring.
func snapshot(done, generation uint32, statuses ...uint32) *RingTelemetry {
	c := newControl(0, uint32(len(statuses)))
	c[abi.CtrlDoneCount], c[abi.CtrlGeneration] = done, generation
	tel := telemetryOf(c, statusRing(statuses...))
	return &tel
}

// faulted sets t's FAULTS counter (a host whose DONE_COUNT leaves faults
// out).
func faulted(t *RingTelemetry, faults uint32) *RingTelemetry {
	t.Control.Faults = faults
	return t
}

// TestHealthSinceReferenceVectors are the §5.6 vectors, adapted to v1:
// a counter going backwards is a reset, not an error.
func TestHealthSinceReferenceVectors(t *testing.T) {
	prev := snapshot(7, 1)
	for _, tc := range []struct {
		name    string
		cur     *RingTelemetry
		prev    *RingTelemetry
		want    WatchdogSnapshot
		wantErr string
	}{
		{"stall: queued work, no progress", snapshot(7, 1, abi.StatusPublished), prev,
			WatchdogSnapshot{QueueDepth: 1, SuspectedStall: true}, ""},
		{"progress", snapshot(9, 1, abi.StatusPublished), prev,
			WatchdogSnapshot{DoneDelta: 2, QueueDepth: 1}, ""},
		{"a FAULT slot left in place is no work: no stall", snapshot(7, 1, abi.StatusFault, abi.StatusEmpty), prev,
			WatchdogSnapshot{QueueDepth: 1, FaultSlots: 1, GPUIdlePPM: 500000}, ""},
		// vyre's rule (no FAULT slot in the ring) let a host ring that
		// keeps its FAULT slots never stall.
		{"queued work beside an old FAULT slot is a stall", snapshot(7, 1, abi.StatusPublished, abi.StatusFault), prev,
			WatchdogSnapshot{QueueDepth: 2, FaultSlots: 1, SuspectedStall: true}, ""},
		{"a fault in the interval is not a stall", faulted(snapshot(7, 1, abi.StatusPublished), 1), prev,
			WatchdogSnapshot{QueueDepth: 1}, ""},
		{"idle ring is not a stall", snapshot(7, 1, abi.StatusEmpty, abi.StatusDone), prev,
			WatchdogSnapshot{GPUIdlePPM: 500000}, ""},
		{"requeued work with no progress", snapshot(7, 1, abi.StatusRequeue, abi.StatusEmpty), prev,
			WatchdogSnapshot{QueueDepth: 1, RequeueSlots: 1, GPUIdlePPM: 500000, SuspectedStall: true}, ""},
		{"wrap modulo 2^32 is progress", snapshot(1, 1, abi.StatusPublished), snapshot(0xFFFFFFFF, 1),
			WatchdogSnapshot{DoneDelta: 2, QueueDepth: 1}, ""},
		{"generation change is a reset", snapshot(3, 2, abi.StatusPublished), prev,
			WatchdogSnapshot{DoneDelta: 3, QueueDepth: 1, Reset: true}, ""},
		{"backwards in one generation is a reset", snapshot(5, 1, abi.StatusPublished), prev,
			WatchdogSnapshot{QueueDepth: 1, Reset: true}, "decode: done counter moved backwards from 7 to 5 within generation 1"},
		{"no baseline", snapshot(5, 1, abi.StatusPublished), nil,
			WatchdogSnapshot{QueueDepth: 1}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.cur.TryHealthSince(tc.prev)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.want, tc.cur.HealthSince(tc.prev))
			if tc.wantErr == "" {
				assert.NoError(t, err)
			} else {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
			}
		})
	}
}

func TestHealthSinceLegacySwitchIsReset(t *testing.T) {
	legacy := telemetryOf(newLegacyControl(0, 1), statusRing(abi.StatusPublished))
	v1 := snapshot(0, 0, abi.StatusPublished)
	got, err := v1.TryHealthSince(&legacy)
	require.NoError(t, err)
	assert.True(t, got.Reset)
	assert.False(t, got.SuspectedStall)
}

func TestWatchdogNeedsConsecutiveStalledIntervals(t *testing.T) {
	type step struct {
		at               float64
		snap             *RingTelemetry
		stalledIntervals int
		stalled          bool
	}
	busy := func(done uint32) *RingTelemetry { return snapshot(done, 1, abi.StatusPublished, abi.StatusClaimed) }
	for _, tc := range []struct {
		name  string
		n     int
		steps []step
	}{
		{"default N=3, raised on the third stalled interval, cleared by progress", 0, []step{
			{0, busy(5), 0, false}, // first observation: no baseline
			{100, busy(5), 1, false},
			{200, busy(5), 2, false},
			{300, busy(5), 3, true},
			{400, busy(5), 4, true},
			{500, busy(6), 0, false},
		}},
		{"progress in between restarts the count", 3, []step{
			{0, busy(5), 0, false},
			{100, busy(5), 1, false},
			{200, busy(5), 2, false},
			{300, busy(6), 0, false},
			{400, busy(6), 1, false},
			{500, busy(6), 2, false},
			{600, busy(6), 3, true},
		}},
		{"a reset clears a stall", 2, []step{
			{0, busy(5), 0, false},
			{10, busy(5), 1, false},
			{20, busy(5), 2, true},
			{30, snapshot(0, 2, abi.StatusPublished), 0, false},
			{40, snapshot(0, 2, abi.StatusPublished), 1, false},
		}},
		{"repeated and backwards timestamps add no interval", 2, []step{
			{100, busy(5), 0, false},
			{100, busy(5), 0, false},
			{50, busy(5), 0, false},
			{math.NaN(), busy(5), 0, false},
			{150, busy(5), 1, false},
			{200, busy(5), 2, true},
		}},
		{"N=1 fires on one interval", 1, []step{
			{0, busy(5), 0, false},
			{1, busy(5), 1, true},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := NewWatchdog(tc.n)
			for i, s := range tc.steps {
				st := w.Observe(s.at, s.snap)
				assert.Equal(t, s.stalledIntervals, st.StalledIntervals, "step %d", i)
				assert.Equal(t, s.stalled, st.Stalled, "step %d", i)
			}
		})
	}
}

func TestWatchdogTimeBase(t *testing.T) {
	w := NewWatchdog(0)
	assert.Equal(t, DefaultStallIntervals, w.StallIntervals())
	busy := func(done uint32) *RingTelemetry { return snapshot(done, 1, abi.StatusPublished) }
	st := w.Observe(1000, busy(0))
	assert.Zero(t, st.IntervalMillis)
	st = w.Observe(1500, busy(100))
	assert.Equal(t, 500.0, st.IntervalMillis)
	assert.Equal(t, 200.0, st.DonePerSecond)
	assert.Zero(t, st.StalledForMillis)
	st = w.Observe(2000, busy(100))
	assert.Equal(t, 500.0, st.StalledForMillis, "stalled since the last progress at 1500 ms")
	st = w.Observe(2250, busy(100))
	assert.Equal(t, 750.0, st.StalledForMillis)
	assert.Equal(t, 2, st.StalledIntervals)

	var zero Watchdog // the zero value uses the default N
	zero.Observe(0, busy(0))
	zero.Observe(1, busy(0))
	zero.Observe(2, busy(0))
	assert.True(t, zero.Observe(3, busy(0)).Stalled)
}
