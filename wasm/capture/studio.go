package capture

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// Studio is the page's flight recorder, its replay and its exports: what
// the capture bar and the capture API act on. It observes every live
// frame (Observe), records it unless recording is off, and replays the
// recording or an imported capture frame by frame. It is safe for
// concurrent use; the page calls Observe with its own lock held, so a
// Studio never calls back into the page.
type Studio struct {
	mu        sync.Mutex
	header    Header // the live capture's, less its frames' count
	rec       *Recorder
	recording bool
	scratch   Frame  // Observe's frame
	patch     []byte // Observe's patch
	// run sums every live frame's dispatch, recorded or not: the exported
	// counters, which must not shrink as the recorder evicts frames.
	run      Totals
	waits    decode.WaitTimes // run.Waits' storage
	sketchD  int
	sketchW  int
	lastLive *frame.Frame
	verdicts verdictLog

	// replay is non-nil while replaying; imported says it replays an
	// import named source (else the recording).
	replay     *Replay
	imported   bool
	source     string
	index      int
	wasRunning bool
	decoded    Decoded
	frames     frame.Store
	// recReplay caches recordingReplay for a recording of recReplayLen
	// frames ending at seq recReplaySeq.
	recReplay    *Replay
	recReplayLen int
	recReplaySeq uint64

	// lastErr and lastNote are what the capture bar says.
	lastErr, lastNote string
}

// NewStudio returns a studio that records (the page's default), with the
// Recorder's default bounds; version is the build's, which captures
// record, and sketchDepth × sketchWidth the shape replayed frames are
// sketched in until a live frame says otherwise (SetSketchShape).
func NewStudio(version string, sketchDepth, sketchWidth int) *Studio {
	return &Studio{rec: NewPageRecorder(), recording: true, sketchD: sketchDepth, sketchW: sketchWidth,
		header: Header{Ringscope: version, ABIVersion: abi.Version, Source: SourceLive}}
}

// SetAdapter records the adapter live captures say they ran on.
func (s *Studio) SetAdapter(a *Adapter) {
	s.mu.Lock()
	s.header.Adapter = a
	s.mu.Unlock()
}

// SetUserOpcodes records the names of the user opcodes of the kernel
// that runs: the exports label their metrics and faults with them.
func (s *Studio) SetUserOpcodes(ops []NamedOpcode) {
	s.mu.Lock()
	s.header.UserOpcodes = ops
	s.mu.Unlock()
}

// OpcodeName names op: the running kernel's name of a user opcode
// (SetUserOpcodes), else decode.OpcodeName.
func (s *Studio) OpcodeName(op uint32) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.header.OpcodeName(op)
}

// SetSketchShape is the shape replayed frames are sketched in (the live
// ring's settings).
func (s *Studio) SetSketchShape(depth, width int) {
	if depth <= 0 || width <= 0 {
		return
	}
	s.mu.Lock()
	s.sketchD, s.sketchW = depth, width
	s.mu.Unlock()
}

// Observe counts and records a live frame, while its Raw views are
// valid. It reports whether a replay is on screen (the page shows the
// replayed frame again after a live one arrived meanwhile).
func (s *Studio) Observe(f *frame.Frame) (replaying bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f.Dispatch != nil {
		d := DispatchOf(*f.Dispatch)
		s.run.Add(&Meta{Dispatch: &d, Timings: frame.Timings{RoundTripMS: f.Timings.RoundTripMS, GPUMS: f.Timings.GPUMS}})
	}
	s.run.Waits = nil
	if f.Waits != nil {
		s.waits = *f.Waits
		s.run.Waits = &s.waits
	}
	if s.replay != nil {
		return true
	}
	s.lastLive = f
	s.verdicts.observe(f.Seq, f.AtMillis, f.Diagnosis)
	raw := &f.Raw
	s.header.WindowOpcodes = raw.WindowOpcodes
	// A frame whose control buffer is not this ABI (a host overwrote
	// MAGIC: the foreign-control verdict) is not recorded: no capture
	// could hold it, and one such frame would make the whole recording
	// unexportable.
	if s.recording && f.Ring.Control.KnownABI() {
		s.record(f)
	}
	return false
}

// record adds f to the recorder. A frame that read the ring carries it
// whole. A summary frame carries the host copy, which equals the GPU's
// ring (it follows the status map), so recording it costs a copy, not a
// ring read: as a patch of the slots that changed since the frame
// before, when the recorder holds that one, else whole (a recording's
// first frame, a new ring). Called with mu held.
func (s *Studio) record(f *frame.Frame) {
	raw := &f.Raw
	fr := &s.scratch
	*fr = Frame{Seq: f.Seq, AtMillis: f.AtMillis, Generation: f.Ring.Control.Generation,
		Control: raw.Control, Ring: raw.Ring, Log: raw.Log, Meta: Meta{Published: raw.Published, Timings: f.Timings.Finite()}}
	// The host copy is the truth; its GENERATION is the frame's.
	if len(fr.Control) >= MinControlBytes {
		fr.Generation = abi.Word(fr.Control, abi.CtrlGeneration)
	}
	if n := s.rec.Len(); raw.Patchable && n > 0 && s.rec.At(n-1).Seq == f.Seq-1 {
		if p, err := AppendPatch(s.patch[:0], raw.Ring, raw.ChangedSlots); err == nil {
			s.patch, fr.Patch, fr.Ring = p, p, nil
		}
	}
	var d Dispatch
	if f.Dispatch != nil {
		d = DispatchOf(*f.Dispatch)
		fr.Meta.Dispatch = &d
	}
	fr.Meta.Spawn = f.Spawn // Record copies it
	if !s.rec.Record(fr) && fr.Patch != nil {
		// The patch did not apply (a new generation) or fit beside its
		// base: record the ring whole.
		fr.Ring, fr.Patch = raw.Ring, nil
		s.rec.Record(fr)
	}
}

// SetRecording turns recording on or off.
func (s *Studio) SetRecording(on bool) {
	s.mu.Lock()
	s.recording = on
	s.lastErr, s.lastNote = "", ""
	s.mu.Unlock()
}

// current is what the exports and the scrubber work on: the replayed
// import, or the recording. Its frames alias storage valid until mu is
// released. Called with mu held.
func (s *Studio) current(now time.Time) *Capture {
	if s.replay != nil && s.imported {
		return s.replay.Capture()
	}
	if f := s.lastLive; f != nil {
		// A loss or a stuck submission gives the last live frame a new
		// verdict in place (no frame is read back, so Observe does not
		// see it): it joins the log here, for the metrics and the trace.
		s.verdicts.observe(f.Seq, f.AtMillis, f.Diagnosis)
	}
	h := s.header
	if h.WindowOpcodes == nil {
		h.WindowOpcodes = []uint32{}
	}
	h.DroppedFrames, h.CreatedAt = s.rec.Dropped(), now.UTC().Format(time.RFC3339)
	c := &Capture{Header: h, Frames: s.rec.Frames()}
	if len(c.Frames) > 0 {
		c.Verdicts = s.verdicts.since(c.Frames[0].Seq)
	}
	return c
}

// Export kinds.
const (
	ExportCapture    = "capture"
	ExportTrace      = "trace"
	ExportMetrics    = "metrics" // OpenMetrics
	ExportPrometheus = "prometheus"
)

// Export renders the current capture (the replayed import, or the
// recording) as kind, with the file name a download gets. The metrics of
// the recording count the whole run (every live frame); those of an
// import, its own frames.
func (s *Studio) Export(kind string, now time.Time) ([]byte, string, error) {
	return s.ExportWith(kind, now, nil)
}

// ExportWith is Export with the live ring's trace window (nil: none),
// which the recording's exports carry (an import's carry its own).
func (s *Studio) ExportWith(kind string, now time.Time, tasks *TaskTrace) ([]byte, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.current(now)
	if tasks != nil && (s.replay == nil || !s.imported) {
		c.Tasks = tasks
	}
	var totals *Totals
	if s.replay == nil || !s.imported {
		t := s.run
		totals = &t
	}
	stamp := now.UTC().Format("20060102-150405")
	switch kind {
	case ExportCapture:
		b, err := Encode(c)
		return b, "ringscope-" + stamp + ".rscap", err
	case ExportTrace:
		b, err := Trace(c)
		return b, "ringscope-" + stamp + ".trace.json", err
	case ExportMetrics:
		b, err := Metrics(c, totals, FormatOpenMetrics)
		return b, "ringscope-" + stamp + ".om.txt", err
	case ExportPrometheus:
		b, err := Metrics(c, totals, FormatPrometheus)
		return b, "ringscope-" + stamp + ".prom", err
	}
	return nil, "", fmt.Errorf("export: unknown kind %q", kind)
}

// Exported records the outcome of an export for the capture bar: the file
// name and its size as the bar shows it.
func (s *Studio) Exported(kind, name, size string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.lastErr, s.lastNote = "export "+kind+": "+err.Error(), ""
		return
	}
	s.lastErr, s.lastNote = "", "exported "+name+" ("+size+")"
}

// ImportFailed records a refused import for the capture bar.
func (s *Studio) ImportFailed(name string, err error) {
	s.mu.Lock()
	s.lastErr, s.lastNote = "import "+name+" refused: "+err.Error(), ""
	s.mu.Unlock()
}

// errNothingRecorded is the refusal of a replay of an empty recording.
var errNothingRecorded = errors.New("replay: nothing recorded yet")
