package session

import (
	"github.com/ringscope/ringscope/internal/nocompare"
	"time"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/diagnose"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl/host"
)

// A drain (the API's drain(): megakernel.Runner.DrainWith) makes many
// submissions and one frame. The watchdog and the diagnosis judge every
// submission, through ObserveSubmission, as they judge every live frame:
// their verdicts need intervals (the watchdog's N stalled ones) and frames
// (a cause shows once its rule held for 2), and a drain that stops on no
// progress must say why. DrainFrame then assembles the drain's one frame
// with the last submission's verdict rather than judging the same state a
// second time (which would count one more stalled interval, with no
// submission behind it). The recorder and the subscribers see that one
// frame.

// judged is the verdict on a drain's last submission, which its
// DrainFrame carries.
type judged struct {
	_ nocompare.T

	ok        bool
	at        float64
	watchdog  decode.WatchdogState
	waits     *decode.WaitTimes
	diagnosis *diagnose.Diagnosis
}

// ObserveSubmission judges the ring after one of a drain's submissions
// and the requeue that followed it (st: what that requeue did), as a live
// frame is judged, and returns the verdicts. drained says the submission
// left nothing to run (the drain ends with it: its work is judged whole,
// diagnose.Facts.Drained). They stay valid until the next frame or
// observation.
func (s *Session) ObserveSubmission(st host.RequeueStats, drained bool) (*decode.WatchdogState, *diagnose.Diagnosis) {
	if s.runner == nil {
		return nil, nil
	}
	s.diagnosis.noteRequeue(&st)
	s.diagnosis.facts.Drained = drained
	defer func() { s.diagnosis.facts.Drained = false }()
	var p frame.Parts
	s.observe(s.runner, &p)
	s.judged = judged{ok: true, at: p.AtMillis, watchdog: p.Watchdog, waits: p.Waits, diagnosis: p.Diagnosis}
	return &s.judged.watchdog, p.Diagnosis
}

// TimeSubmission adds one of a drain's submissions (ep) to the drain
// frame's timings: the frame cost of a drain is its submissions' sum, as
// the run's report sums their wall and GPU time.
func (s *Session) TimeSubmission(ep *megakernel.Epoch) {
	t, d := epochTimings(ep, ep.Timings.Publish), &s.drainTimings
	d.PublishMS += t.PublishMS
	d.DispatchMS += t.DispatchMS
	d.ReadbackMS += t.ReadbackMS
	d.RoundTripMS += t.RoundTripMS
	d.GPUMS += t.GPUMS
	d.DecodeMS += megakernel.Ms(ep.Timings.Decode)
}

// DrainFrame assembles the frame after the runner's drain (rep is its
// report, which becomes the run's): the host copy as the drain left it.
// observed says the drain's last submission went through
// ObserveSubmission, whose verdict the frame then carries; a drain that
// made no submission is judged here.
func (s *Session) DrainFrame(rep decode.MegakernelReport, observed bool) (*frame.Frame, error) {
	if s.runner == nil {
		return nil, ErrNoRing
	}
	if !observed {
		s.judged = judged{}
	}
	s.report = rep
	t := s.drainTimings
	s.drainTimings = frame.Timings{}
	// assemble counts its own decode on top of the submissions'.
	f := s.assemble(s.runner, nil, t, time.Duration(t.DecodeMS*float64(time.Millisecond)), false)
	if t, ok := rep.Last(); ok {
		f.Dispatch = &t
	}
	return f, nil
}
