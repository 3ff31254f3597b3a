package session

import (
	"github.com/ringscope/ringscope/decode/diagnose"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// diagnosis is the session's half of the verdict: the Diagnoser its frames
// feed and the host facts it reads beside them, some set by the page
// (SetFacts: the ring's tenants, budget, IO service, opcode names), some
// counted here (refused publishes, WAIT_IO left waiting).
type diagnosis struct {
	d     diagnose.Diagnoser
	facts diagnose.Facts
	// lostFrame marks the frame MarkLost assembles: the one frame whose
	// diagnosis keeps the loss.
	lostFrame bool
	// marked is the last frame rediagnose assembled (no readback behind
	// it): a later mark assembles another rather than changing it in
	// place, so the observers (the recorder, the exports) see each verdict.
	marked *frame.Frame
	// since is the Seq of the last frame before the history started: a
	// frame up to it is another ring's (or the attachment's before), which
	// a loss must not be diagnosed on.
	since uint64
}

// reset starts a fresh history on facts, with no refusals counted, for the
// frames after seq.
func (g *diagnosis) reset(facts diagnose.Facts, seq uint64) {
	g.d.Reset()
	g.since = seq
	g.facts = facts
	g.facts.Refused = [abi.PriorityLevels]uint64{}
}

// noteRequeue takes what the host's requeue pass after the frame's
// submission did: WAIT_IO left waiting, the slots a yield or requeue loop
// republished and their opcode.
func (g *diagnosis) noteRequeue(st *host.RequeueStats) {
	g.facts.IOWaiting = st.Waiting
	g.facts.Yielded, g.facts.Requeued = st.Yielded, st.Requeued
	g.facts.YieldOpcode, g.facts.RequeueOpcode = st.YieldOpcode, st.RequeueOpcode
}

// observe diagnoses the frame p is assembling; published is the source's
// publish count.
func (g *diagnosis) observe(p *frame.Parts, published uint64) *diagnose.Diagnosis {
	// A frame read back means a device answers again: a loss marked
	// before it (MarkLost) is over.
	if !g.lostFrame {
		g.facts.Lost, g.facts.LostReason, g.facts.InFlight, g.facts.EarlierRunaways = false, "", nil, 0
		g.facts.StuckMillis, g.facts.StuckBoundMillis = 0, 0
		g.marked = nil
	}
	g.lostFrame = false
	g.facts.Published = published
	in := diagnose.Input{AtMillis: p.AtMillis, Ring: p.Ring, Watchdog: &p.Watchdog, Log: p.Log, Requeues: &p.Priority, Spawn: p.Spawn}
	return g.d.Observe(&in, &g.facts)
}

// SetFacts sets what the page knows of the ring that its buffers do not
// say. The counts the session keeps itself (refusals, publishes, WAIT_IO
// left waiting) are kept.
func (s *Session) SetFacts(f diagnose.Facts) {
	g := &s.diagnosis
	f.Refused, f.Published, f.IOWaiting = g.facts.Refused, g.facts.Published, g.facts.IOWaiting
	f.Yielded, f.Requeued = g.facts.Yielded, g.facts.Requeued
	f.YieldOpcode, f.RequeueOpcode = g.facts.YieldOpcode, g.facts.RequeueOpcode
	g.facts = f
}

// Facts is the host facts the next frame is diagnosed with.
func (s *Session) Facts() diagnose.Facts { return s.diagnosis.facts }

// NoteRefused counts n publishes at priority refused because its
// partition was full (the live loop's shedding, or an API publish).
func (s *Session) NoteRefused(priority uint32, n int) {
	if priority < abi.PriorityLevels && n > 0 {
		s.diagnosis.facts.Refused[priority] += uint64(n)
	}
}

// Diagnosis is the verdict of the last frame (nil before the first).
func (s *Session) Diagnosis() *diagnose.Diagnosis {
	if f := s.frames.Last(); f != nil {
		return f.Diagnosis
	}
	return nil
}

// MarkLost records that the device was lost (reason; inFlight names the
// user opcodes the lost submission could run; earlierRunaways, for a
// runaway, the earlier ones still running: diagnose.Facts), so the page and
// snapshot() show health lost and a device-lost cause until a frame is
// read back again. The last frame is re-diagnosed in place (it stays the
// last good snapshot: no new frame means the page shows it as stale);
// a ring that has no frame yet gets one of the host's copies. It returns
// the frame that carries the loss (nil when no ring is open).
func (s *Session) MarkLost(reason string, inFlight []string, earlierRunaways int) *frame.Frame {
	g := &s.diagnosis
	g.facts.Lost, g.facts.LostReason, g.facts.InFlight = true, reason, append([]string(nil), inFlight...)
	g.facts.EarlierRunaways = earlierRunaways
	g.facts.StuckMillis, g.facts.StuckBoundMillis = 0, 0
	return s.rediagnose()
}

// MarkStuck records that the submission in flight has been waited for
// waitedMs (past the page's grace; boundMs is the runaway bound, inFlight
// the user opcodes it could run), so the page shows a submission-stuck
// cause before any loss; ClearStuck, a loss or the next frame read back
// ends it. As MarkLost, it re-diagnoses the last frame in place (or
// assembles one) and returns the frame that carries the verdict.
func (s *Session) MarkStuck(waitedMs, boundMs float64, inFlight []string) *frame.Frame {
	g := &s.diagnosis
	g.facts.StuckMillis, g.facts.StuckBoundMillis, g.facts.InFlight = waitedMs, boundMs, append([]string(nil), inFlight...)
	return s.rediagnose()
}

// ClearStuck ends what MarkStuck recorded: the submission's readback
// came. It re-diagnoses the last frame without it and returns that frame.
func (s *Session) ClearStuck() *frame.Frame {
	g := &s.diagnosis
	if g.facts.StuckMillis == 0 {
		return nil
	}
	g.facts.StuckMillis, g.facts.StuckBoundMillis, g.facts.InFlight = 0, 0, nil
	return s.rediagnose()
}

// rediagnose diagnoses the last frame again in place on the facts as they
// are now (it stays the last good snapshot: no new frame means the page
// shows it as stale); a ring that has no frame yet (the last frame is the
// ring's before) gets one of the host's copies. It returns the frame (nil when no ring is open).
func (s *Session) rediagnose() *frame.Frame {
	g := &s.diagnosis
	if f := s.frames.Last(); f != nil && f.Seq > g.since && f.Diagnosis != nil && f != g.marked {
		in := diagnose.Input{AtMillis: f.AtMillis, Ring: f.Ring, Watchdog: f.Watchdog, Log: f.Log, Requeues: f.Priority, Spawn: f.Spawn}
		g.d.Observe(&in, &g.facts).CopyInto(f.Diagnosis)
		return f
	}
	if s.attached == nil && s.runner == nil {
		return nil
	}
	g.lostFrame = true
	g.marked = s.assemble(s.Source(), nil, frame.Timings{}, 0, false)
	return g.marked
}
