package session

import (
	"sync/atomic"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/diagnose"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/workload"
)

// Observer sees every frame a Session assembles, before the page shows
// it, while the frame's Raw views are valid: the recorder copies what it
// keeps, a subscriber what it tells. Observe must not call the Session.
type Observer interface {
	Observe(f *frame.Frame)
}

// Session is one ring's live loop. The zero value is not usable: use New.
type Session struct {
	now       func() float64
	observers []Observer

	runner   Runner
	attached Attached
	// spawn is the last frame's spawn state (spawnOf), held here so a
	// frame allocates nothing for it.
	spawn decode.SpawnTelemetry
	// gen feeds the runner each frame; nil when the embedder publishes.
	gen   *workload.Generator
	items []host.Item

	watchdog     *decode.Watchdog
	watchN       int
	diagnosis    diagnosis
	report       decode.MegakernelReport
	sketchDepth  int
	sketchWidth  int
	frames       frame.Store
	seq          uint64
	changedSlots []frame.SlotRun

	readback readback
	// inspect is the slot the inspector shows (-1: none); inspected its
	// copy from the host ring of the frame in flight.
	inspect     atomic.Int32
	inspected   decode.RingSlotSnapshot
	inspectedOK bool

	saved saved

	snapTel     decode.RingTelemetry
	snapScratch decode.DecodeScratch

	// waits is the frame's summary of the runner's queue waits.
	waits decode.WaitTimes
	// judged is the verdict on a drain's last submission (drain.go);
	// drainTimings the sum of its submissions' timings (TimeSubmission).
	judged       judged
	drainTimings frame.Timings
	// ends and endMetrics are the frame's items ended per opcode.
	ends       []host.OpcodeCount
	endMetrics []decode.Metric
}

// New returns a session with no ring yet. now is the page's clock in
// milliseconds (performance.now): the frames' AtMillis and the watchdog's
// intervals; observers see every frame.
func New(now func() float64, observers ...Observer) *Session {
	s := &Session{now: now, observers: observers, watchdog: decode.NewWatchdog(0)}
	s.inspect.Store(-1)
	return s
}

// Ring is how Open runs a ring: its runner, the generator that feeds it
// (nil: the embedder publishes), and its readback and watchdog.
type Ring struct {
	Runner    Runner
	Generator *workload.Generator
	// Summary selects summary readback (Readback.Why says why).
	Summary bool
	Why     string
	// WatchdogIntervals is the watchdog's N (0: decode's default).
	WatchdogIntervals int
	// SketchDepth × SketchWidth is the shape the host sketches a full
	// frame in (a summary frame carries the GPU's sketches).
	SketchDepth, SketchWidth int
}

// Open makes r the session's ring: a fresh watchdog, report and readback
// state, and queue waits measured from now on the session's clock. The
// runner r names was already opened or reset on its options.
func (s *Session) Open(r Ring) {
	s.runner, s.gen = r.Runner, r.Generator
	if s.runner != nil {
		s.runner.TrackWaits(s.now)
		var io host.IOFunc // the embedder's ring: WAIT_IO answered at once
		if s.gen != nil {
			io = s.gen.IO() // a preset's own service (priority inversion's lock)
		}
		s.runner.SetIOFunc(io)
	}
	s.watchN = r.WatchdogIntervals
	s.watchdog = decode.NewWatchdog(s.watchN)
	s.diagnosis.reset(diagnose.Facts{IOService: true}, s.seq)
	s.report = decode.MegakernelReport{}
	s.sketchDepth, s.sketchWidth = r.SketchDepth, r.SketchWidth
	s.readback.reset(r.Summary, r.Why)
	s.judged = judged{}
	s.drainTimings = frame.Timings{}
}

// Runner is the session's runner (nil before the first Open).
func (s *Session) Runner() Runner { return s.runner }

// Generator is the workload generator feeding the ring, nil when the
// embedder publishes.
func (s *Session) Generator() *workload.Generator { return s.gen }

// Source is where the frames come from now: the attachment, else the
// runner.
func (s *Session) Source() Source {
	if s.attached != nil {
		return s.attached
	}
	return s.runner
}

// Report is the run's report so far.
func (s *Session) Report() *decode.MegakernelReport { return &s.report }

// SetReport replaces the run's report (drain's, which summed its own
// submissions).
func (s *Session) SetReport(r decode.MegakernelReport) { s.report = r }

// Seq is the sequence number of the last frame (0: none yet).
func (s *Session) Seq() uint64 { return s.seq }

// LastFrame is the last frame assembled, nil before the first.
func (s *Session) LastFrame() *frame.Frame { return s.frames.Last() }

// WatchdogIntervals is the watchdog's N: stalled intervals in a row before
// the stall alert.
func (s *Session) WatchdogIntervals() int { return s.watchdog.StallIntervals() }

// Inspect sets the slot the inspector shows (-1: none). Safe to call
// concurrently with a frame.
func (s *Session) Inspect(slot int) { s.inspect.Store(int32(max(slot, -1))) }

// AskRing asks for the whole ring with the next frame, for reason r. Safe
// to call concurrently with a frame; it never blocks.
func (s *Session) AskRing(r api.RingReason) { s.readback.ask.Or(uint32(r)) }

// Readback is the ring's readback state (snapshot's fields).
type Readback struct {
	// Mode is "summary" or "full"; Why says why.
	Mode, Why string
	// RingReads counts the frames of this ring that read the whole ring;
	// LastBytes is the last frame's bytes read back.
	RingReads, LastBytes uint64
}

// Readback is the ring's readback state now.
func (s *Session) Readback() Readback {
	r := &s.readback
	mode := "full"
	if r.summary {
		mode = "summary"
	}
	return Readback{Mode: mode, Why: r.why, RingReads: r.ringReads, LastBytes: r.lastBytes}
}

// Summary reports summary readback.
func (s *Session) Summary() bool { return s.readback.summary }

// HostRing decodes the host copy of the source's ring, every slot (a
// summary frame's telemetry has none). The result is valid until the next
// call.
func (s *Session) HostRing() (*decode.RingTelemetry, error) {
	if err := s.Source().View().DecodeHostRing(&s.snapTel, &s.snapScratch); err != nil {
		return nil, err
	}
	return &s.snapTel, nil
}
