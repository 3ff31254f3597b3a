package session

import (
	"context"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/diagnose"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/webgpu/megakernel"
)

// saved is what an attachment replaced, restored by Detach.
type saved struct {
	summary  bool
	why      string
	watchdog *decode.Watchdog
	report   decode.MegakernelReport
	facts    diagnose.Facts
}

// Attach makes the session's frames read at, a host's ring, until Detach:
// a fresh watchdog and report, and at's readback (why says why it was
// chosen). The runner's state is kept for Detach.
func (s *Session) Attach(at Attached, why string) {
	s.saved = saved{summary: s.readback.summary, why: s.readback.why, watchdog: s.watchdog, report: s.report,
		facts: s.diagnosis.facts}
	s.attached = at
	s.watchdog = decode.NewWatchdog(s.watchN)
	// The host's own kernel and code run its ring: which tenants it runs
	// is unknown, and its WAIT_IO slots are its to service (Attached).
	s.diagnosis.reset(diagnose.Facts{Attached: true, OpcodeName: s.diagnosis.facts.OpcodeName}, s.seq)
	s.report = decode.MegakernelReport{}
	s.readback.reset(at.Summary(), why)
}

// Attached is the attachment frames read now, or nil.
func (s *Session) Attached() Attached { return s.attached }

// Detach ends the attachment's frames and restores the runner's readback
// mode, watchdog and report. The caller detaches the attachment itself.
func (s *Session) Detach() {
	if s.attached == nil {
		return
	}
	s.attached = nil
	s.watchdog, s.report = s.saved.watchdog, s.saved.report
	s.diagnosis.reset(s.saved.facts, s.seq)
	s.readback.reset(s.saved.summary, s.saved.why)
	s.saved = saved{}
}

// attachedFrame is LiveFrame's frame while attached: one Step of the
// attachment (the copy of the host's buffers, or the reduce pass, mapped
// and decoded), then the same assembly as a runner's frame. It returns no
// frame when the host has one of the buffers mapped.
func (s *Session) attachedFrame(ctx context.Context) (*frame.Frame, error) {
	at := s.attached
	if s.readback.plan() {
		at.View().RequestRing()
	}
	ok, err := at.Step(ctx)
	if err != nil || !ok {
		return nil, err
	}
	s.readback.stepped(at.RingRead(), at.BytesPerFrame())
	s.takeInspected(at.View().Ring())
	t := at.Timings()
	// An attached summary frame that read no ring changed its ring copy
	// only where the status map said.
	ft := frame.Timings{DispatchMS: megakernel.Ms(t.Submit), ReadbackMS: megakernel.Ms(t.Readback),
		RoundTripMS: megakernel.Ms(t.Submit + t.Readback)}
	return s.assemble(at, nil, ft, t.Decode, at.Summary() && !at.RingRead()), nil
}
