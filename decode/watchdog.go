package decode

import (
	"fmt"
	"math"
)

// HealthSince derives ring health from the snapshot prev and t (PROTOCOL §6,
// reference §5.6 with the v1 rules). DONE_COUNT is compared modulo 2^32, so
// a wrap is progress. A changed GENERATION (or a switch between a legacy and
// a v1 dump) is a Reset: the counters restarted, DoneDelta is t's DONE_COUNT
// and no stall is suspected. Within one generation a done counter that moved
// backwards (a serial-number difference ≥ 2^31, which the host's re-init rule
// rules out) is treated as a Reset too; TryHealthSince reports it as an
// error. A nil prev has no baseline: zero delta, no stall.
//
// SuspectedStall: active work is queued (PUBLISHED, CLAIMED, YIELD,
// WAIT_IO, REQUEUE), nothing completed and no slot faulted (FAULTS did not
// rise). vyre's rule asked for no FAULT slot in the ring instead, so a host
// ring that leaves its FAULT slots in place could never stall; a FAULT slot
// is no work, so it neither makes nor prevents a stall. One stalled
// interval is only a suspicion; Watchdog turns consecutive ones into a
// stall.
func (t *RingTelemetry) HealthSince(prev *RingTelemetry) WatchdogSnapshot {
	s, _ := t.TryHealthSince(prev)
	return s
}

// TryHealthSince is HealthSince that also returns an error when the done
// counter moved backwards within one generation. The snapshot is the same
// as HealthSince's (marked Reset) either way.
func (t *RingTelemetry) TryHealthSince(prev *RingTelemetry) (WatchdogSnapshot, error) {
	if prev == nil {
		s := t.health(markOf(&t.Control))
		s.SuspectedStall = false
		return s, nil
	}
	s := t.health(markOf(&prev.Control))
	if s.Reset && prev.Control.Generation == t.Control.Generation && prev.Control.Legacy == t.Control.Legacy {
		return s, fmt.Errorf("decode: done counter moved backwards from %d to %d within generation %d; "+
			"treat it as a reset, the start of a new telemetry epoch", prev.Control.DoneCount, t.Control.DoneCount, t.Control.Generation)
	}
	return s, nil
}

// watchMark is what the watchdog compares across snapshots.
type watchMark struct {
	done, faults, generation uint32
	legacy                   bool
}

func markOf(c *ControlSnapshot) watchMark {
	return watchMark{done: c.DoneCount, faults: c.Faults, generation: c.Generation, legacy: c.Legacy}
}

// health compares t with a previous snapshot's mark.
func (t *RingTelemetry) health(prev watchMark) WatchdogSnapshot {
	o := &t.Occupancy
	s := WatchdogSnapshot{
		QueueDepth:   o.QueueDepth(),
		FaultSlots:   o[StatusFault],
		RequeueSlots: o[StatusRequeue],
	}
	if total := o.TotalSlots(); total > 0 {
		s.GPUIdlePPM = uint32(min(ppmScale, uint64(min(o[StatusEmpty], total))*ppmScale/uint64(total)))
	}
	delta := t.Control.DoneCount - prev.done // modulo 2^32
	switch {
	case t.Control.Generation != prev.generation || t.Control.Legacy != prev.legacy:
		s.Reset, s.DoneDelta = true, t.Control.DoneCount
	case delta > math.MaxInt32:
		s.Reset, s.DoneDelta = true, 0
	default:
		s.DoneDelta = delta
		s.SuspectedStall = o.ActiveSlots() > 0 && delta == 0 && t.Control.Faults == prev.faults
	}
	return s
}

// DefaultStallIntervals is how many consecutive stalled intervals a Watchdog
// needs before it reports a stall.
const DefaultStallIntervals = 3

// Watchdog turns timestamped snapshots into a stall verdict (PROTOCOL §6):
// a stall is reported only after N consecutive intervals in which work was
// queued and none completed, and it clears as soon as progress resumes or
// the host resets the ring. One interval is the time between two Observe
// calls; single slow intervals (a browser throttling a tab, a long dispatch)
// are therefore not alarms. The zero value is a watchdog with
// DefaultStallIntervals. A Watchdog is not safe for concurrent use.
type Watchdog struct {
	n           int
	seen        bool
	lastMillis  float64
	last        watchMark
	stalled     int
	lastHealthy float64
}

// WatchdogState is the verdict of one Watchdog.Observe.
type WatchdogState struct {
	// Health compares this snapshot with the previous one; zero delta and
	// no suspicion on the first observation.
	Health WatchdogSnapshot
	// AtMillis is the observation's time; IntervalMillis the time since
	// the previous observation (0 on the first).
	AtMillis       float64
	IntervalMillis float64
	// StalledIntervals counts the consecutive stalled intervals up to now.
	StalledIntervals int
	// Stalled is set once StalledIntervals reaches the watchdog's N.
	Stalled bool
	// StalledForMillis is the time since the last observation with
	// progress, while intervals are stalled; 0 otherwise.
	StalledForMillis float64
	// DonePerSecond is the completion rate over the interval (0 when the
	// interval is empty or the ring was reset).
	DonePerSecond float64
}

// NewWatchdog returns a watchdog that reports a stall after stallIntervals
// consecutive stalled intervals; values below 1 mean DefaultStallIntervals.
func NewWatchdog(stallIntervals int) *Watchdog {
	if stallIntervals < 1 {
		stallIntervals = DefaultStallIntervals
	}
	return &Watchdog{n: stallIntervals}
}

// StallIntervals is the N of the watchdog.
func (w *Watchdog) StallIntervals() int { return w.n }

// Observe records snapshot t taken at atMillis (for example
// performance.now() after the readback) and returns the verdict. The time
// base only moves forward: an observation that is not later than the
// latest one (a repeated or out-of-order timestamp, NaN) spans no time, so
// it can clear a stall but not add a stalled interval.
func (w *Watchdog) Observe(atMillis float64, t *RingTelemetry) WatchdogState {
	if w.n < 1 {
		w.n = DefaultStallIntervals
	}
	st := WatchdogState{AtMillis: atMillis}
	if !w.seen {
		st.Health = t.health(markOf(&t.Control))
		st.Health.SuspectedStall = false
		w.seen, w.lastMillis = true, atMillis
		if math.IsNaN(atMillis) {
			w.lastMillis = math.Inf(-1)
		}
		w.lastHealthy = w.lastMillis
	} else {
		st.Health = t.health(w.last)
		elapsed := atMillis > w.lastMillis // false for NaN too
		if elapsed {
			st.IntervalMillis = atMillis - w.lastMillis
			if !st.Health.Reset && !math.IsInf(st.IntervalMillis, 0) {
				st.DonePerSecond = float64(st.Health.DoneDelta) * 1000 / st.IntervalMillis
			}
			w.lastMillis = atMillis
		}
		switch {
		case !st.Health.SuspectedStall:
			w.stalled, w.lastHealthy = 0, w.lastMillis
		case elapsed:
			w.stalled++
		}
	}
	w.last = markOf(&t.Control)
	st.StalledIntervals = w.stalled
	st.Stalled = w.stalled >= w.n
	if w.stalled > 0 {
		st.StalledForMillis = w.lastMillis - w.lastHealthy
	}
	return st
}
