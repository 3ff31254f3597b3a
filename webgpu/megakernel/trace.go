package megakernel

import (
	"fmt"

	"github.com/ringscope/ringscope/decode/tasktrace"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// TraceWindow is what a traced runner (Options.TraceCapacity) kept of its
// last submissions: each pass's tickets and timestamps, the records of the
// passes it still holds, oldest first, and the records the device dropped
// because a pass outgrew the trace buffer (docs/TRACE.md).
type TraceWindow struct {
	Passes  []tasktrace.Pass
	Records []tasktrace.Record
	// Budget[i] reports that pass i ended with work left for spent
	// budgets (BUDGET_EXHAUSTED grew in it): the reason of its bubbles.
	Budget []bool
	// Overflow counts the records dropped by the device since the window
	// was cleared; Evicted those the window let go to stay within its
	// record and pass bounds.
	Overflow uint64
	Evicted  uint64
	// Capacity is the trace records one pass reads at most; Changes
	// counts the passes added and the clears, so a reader tells a window
	// that changed.
	Capacity uint32
	Changes  uint64
}

// Trace limits.
const (
	// MaxTraceCapacity bounds Options.TraceCapacity.
	MaxTraceCapacity = abi.MaxTraceCapacity
	// traceWindowPasses is the most passes a window holds (passes that
	// ran a task: TraceWindow.add keeps no other).
	traceWindowPasses = 256
)

// maxWindowRecords is the most records a window of capacity holds: two
// full buffers, so the last pass is always whole.
func maxWindowRecords(capacity uint32) int { return 2 * int(capacity) }

// add appends one pass and its records, the records the device dropped
// in it counted in the pass (Pass.Dropped) and in Overflow, then lets the
// oldest passes go until the window holds at most maxRecords records and
// traceWindowPasses passes. A pass that handed out no ticket ran no task
// and no record can lie in it: it is not kept, so that an idle ring's
// passes (the live loop submits whether or not work is queued) do not push
// the passes that ran tasks out of the window.
func (w *TraceWindow) add(p tasktrace.Pass, budget bool, recs []tasktrace.Record, overflow uint32, maxRecords int) {
	if p.Tickets() == 0 && len(recs) == 0 && overflow == 0 {
		return
	}
	p.Dropped = overflow
	w.Passes = append(w.Passes, p)
	w.Budget = append(w.Budget, budget)
	w.Records = append(w.Records, recs...)
	w.Overflow += uint64(overflow)
	w.Changes++
	for len(w.Passes) > 1 && (len(w.Records) > maxRecords || len(w.Passes) > traceWindowPasses) {
		w.evictOldest()
	}
}

// evictOldest lets the oldest pass and its records go.
func (w *TraceWindow) evictOldest() {
	old := w.Passes[0]
	n := 0
	for n < len(w.Records) && old.Holds(w.Records[n].Start) {
		n++
	}
	w.Evicted += uint64(n)
	w.Records = append(w.Records[:0], w.Records[n:]...)
	w.Passes = append(w.Passes[:0], w.Passes[1:]...)
	w.Budget = append(w.Budget[:0], w.Budget[1:]...)
}

// Clear empties the window, keeping its storage.
func (w *TraceWindow) Clear() {
	w.Passes, w.Records, w.Budget = w.Passes[:0], w.Records[:0], w.Budget[:0]
	w.Overflow, w.Evicted = 0, 0
	w.Changes++
}

// checkTrace refuses a trace capacity the device cannot bind.
func checkTrace(capacity uint32, bindMax uint64) error {
	if capacity > MaxTraceCapacity {
		return &OptionError{"TraceCapacity", uint64(capacity), fmt.Sprintf("at most %d records", MaxTraceCapacity)}
	}
	if b := tasktrace.Bytes(capacity); capacity > 0 && b > bindMax {
		return &OptionError{"TraceCapacity", uint64(capacity), fmt.Sprintf("%d records need %d bytes; the device binds at most %d", capacity, b, bindMax)}
	}
	return nil
}
