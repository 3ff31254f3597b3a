//go:build js && wasm

package megakernel

import (
	"context"
	"fmt"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// Drain makes submissions until nothing more can progress (SHUTDOWN is
// set, or no partition has HEAD < TAIL once parked slots are republished)
// or maxSubmissions were made. Every Step reads
// the ring back; after each, YIELD slots are republished (those of a
// disabled tenant stay parked), REQUEUE slots republished with priority
// ageing and WAIT_IO slots serviced by the IOFunc. The report covers this
// call's submissions; its item counts are the generation's (published
// since Open or Reset, DONE_COUNT). Telemetry has every slot afterwards:
// under decode.ReadbackSummary a Drain with nothing to submit decodes the host copy,
// which equals the GPU's ring (it follows the status map). DrainWith also
// says why it stopped.
func (r *Runner) Drain(ctx context.Context, maxSubmissions int) (decode.MegakernelReport, error) {
	run, err := r.DrainWith(ctx, DrainOptions{MaxSubmissions: maxSubmissions})
	return run.Report, err
}

// DrainWith is Drain shaped by o: with o.StallSubmissions it goes on while
// work is left that nothing claims, until that many submissions in a row
// completed nothing, and reports which way it stopped. The run's Report
// is filled on error too (the submissions that were made).
func (r *Runner) DrainWith(ctx context.Context, o DrainOptions) (DrainRun, error) {
	var run DrainRun
	if err := r.usable("drain"); err != nil {
		return run, err
	}
	var ep Epoch
	settled := true
	done, faults := completions(r.q.Control())
	for {
		// Republish what the last submission parked, then decide.
		st, err := r.q.Requeue(r.io)
		accountRequeues(&r.acct, st)
		if err != nil {
			r.progress(&run.Report, r.q.Control())
			return run, fmt.Errorf("megakernel: requeue: %w", err)
		}
		left := r.Pending() > 0 || st.Parked+st.Waiting+st.Blocked > 0
		if run.Submissions > 0 {
			if o.Observe != nil {
				settled = o.Observe(&ep, &st, !left)
			}
			d, f := completions(r.q.Control())
			if d == done && f == faults {
				run.Stalled++
			} else {
				run.Stalled = 0
			}
			done, faults = d, f
		}
		if out, stop := drainStop(&o, run.Submissions, left, r.needsSubmit(), run.Stalled, settled); stop {
			run.Outcome = out
			if run.Submissions == 0 && r.opts.summaryOn() {
				if err := r.decodeCopies(); err != nil {
					return run, fmt.Errorf("megakernel: decode the host copy: %w", err)
				}
			}
			break
		}
		r.wantRing = true
		if err := r.step(ctx, &ep); err != nil {
			r.progress(&run.Report, r.q.Control())
			return run, err
		}
		run.Submissions++
		ep.AddTo(&run.Report)
	}
	r.progress(&run.Report, r.q.Control())
	return run, nil
}

// completions are the host copy's DONE_COUNT and FAULTS: a submission
// that moved neither completed nothing.
func completions(c []byte) (done, faults uint32) {
	return abi.Word(c, abi.CtrlDoneCount), abi.Word(c, abi.CtrlFaults)
}
