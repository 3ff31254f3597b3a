package megakernel

import (
	"fmt"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/host"
)

// DrainOutcome says why a drain stopped.
type DrainOutcome uint8

// The outcomes, as the JS API names them (drain().outcome).
const (
	// DrainEmpty: no work is left: nothing published, claimed or parked.
	DrainEmpty DrainOutcome = iota
	// DrainNoProgress: work is left and submissions complete none of it
	// (a masked tenant's parked YIELD, WAIT_IO left waiting, SHUTDOWN, a
	// requeue loop), or, without StallSubmissions, no submission could
	// claim any of it.
	DrainNoProgress
	// DrainMaxSubmissions: work is left, and completing, at the cap.
	DrainMaxSubmissions
	// DrainLost: the device was lost and the drain could not go on (the
	// runner returns the loss as an error; the page's API reports it so).
	DrainLost
	drainOutcomes
)

var drainOutcomeNames = [drainOutcomes]string{"empty", "no-progress", "max-submissions", "lost"}

// String is the outcome's name in the JS API ("no-progress").
func (o DrainOutcome) String() string {
	if o < drainOutcomes {
		return drainOutcomeNames[o]
	}
	return fmt.Sprintf("drainOutcome(%d)", uint8(o))
}

// MarshalText writes the name.
func (o DrainOutcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// DrainOptions shape DrainWith.
type DrainOptions struct {
	// MaxSubmissions caps the submissions (0: none are made).
	MaxSubmissions int
	// StallSubmissions, when above 0, keeps the drain submitting while
	// work is left that nothing can claim (a masked tenant's parked YIELD,
	// WAIT_IO its IOFunc leaves waiting, SHUTDOWN): each such submission
	// asks the IOFunc again and lets time pass for a watchdog. The drain
	// stops with DrainNoProgress once StallSubmissions submissions in a row
	// completed nothing (DONE_COUNT and FAULTS flat) with work left and
	// Observe reports the stall settled, or after StallGrace more. 0 is
	// Drain's rule: stop as soon as no submission could claim anything.
	StallSubmissions int
	StallGrace       int
	// Observe, when set, sees each submission after the requeue that
	// followed it (the live loop's order: Step, then Requeue): the epoch
	// and what the requeue did, and drained: nothing is left to run, so
	// the drain ends with this submission. It reports whether the
	// caller's own verdict on a stall is settled (the page's: the
	// watchdog says stalled and the diagnosis names a cause); nil counts
	// as settled.
	Observe func(ep *Epoch, st *host.RequeueStats, drained bool) (settled bool)
}

// DrainRun is what DrainWith did.
type DrainRun struct {
	// Report covers this call's submissions; its item counts are the
	// generation's (published since Open or Reset, DONE_COUNT).
	Report  decode.MegakernelReport
	Outcome DrainOutcome
	// Submissions counts this call's submissions; Stalled the last ones
	// in a row that completed nothing.
	Submissions, Stalled int
}

// drainStop decides, before each submission, whether a drain stops and
// why. left: work is published, claimed or parked; claimable: a
// submission could claim some of it (SHUTDOWN clear, some HEAD < TAIL);
// stalled: the submissions in a row that completed nothing; settled: the
// caller's verdict on that stall is in.
func drainStop(o *DrainOptions, submissions int, left, claimable bool, stalled int, settled bool) (DrainOutcome, bool) {
	switch {
	case !left:
		return DrainEmpty, true
	case o.StallSubmissions <= 0 && !claimable:
		return DrainNoProgress, true
	case o.StallSubmissions > 0 && stalled >= o.StallSubmissions && (settled || stalled >= o.StallSubmissions+max(o.StallGrace, 0)):
		return DrainNoProgress, true
	case submissions >= o.MaxSubmissions:
		return DrainMaxSubmissions, true
	}
	return 0, false
}
