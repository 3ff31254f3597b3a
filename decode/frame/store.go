package frame

import (
	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/diagnose"
)

// Parts is what one frame is assembled from: the decoded state of one
// readback and what its producer knows about it. Pointers may be nil
// (that part is absent); what they point to is copied, so the producer
// may reuse its storage once Assemble returns.
type Parts struct {
	Seq      uint64
	AtMillis float64
	// Ring is required: the frame's telemetry.
	Ring *decode.RingTelemetry
	// Log, Dispatch, Launch and Report are copied when set.
	Log      *decode.Log
	Dispatch *decode.MegakernelTelemetry
	Launch   *decode.LaunchRecommendation
	Report   *decode.MegakernelReport
	Watchdog decode.WatchdogState
	// Diagnosis, when set, is copied into the frame.
	Diagnosis *diagnose.Diagnosis
	Priority  decode.PriorityRequeueAccounting
	// Waits is copied when set.
	Waits *decode.WaitTimes
	// Sketches, when set, fills the frame's sketches (a GPU summary's);
	// otherwise they are computed from Ring's slots in the shape
	// SketchDepth × SketchWidth (none when the ring has no slots).
	Sketches                 Sketcher
	SketchDepth, SketchWidth int
	// HostSlot, when set, is the inspected slot of a summary frame.
	HostSlot *decode.RingSlotSnapshot
	Timings  Timings
	Raw      Raw
	// OpcodeEnds, when set, is copied into the frame.
	OpcodeEnds []decode.Metric
	// Spawn, when set (a spawning kernel's runner), is copied into the
	// frame.
	Spawn *decode.SpawnTelemetry
}

// Sketcher fills sketches from a source other than the frame's slots.
type Sketcher interface {
	Sketches(dst *decode.SketchTelemetry) error
}

// Store is the storage of a producer's frames: two buffers that alternate,
// so the frame shown stays unchanged while the next is assembled. Its zero
// value is ready; it allocates only when a frame outgrows the storage of
// the one two frames before it.
type Store struct {
	bufs [2]buffer
	next int
}

// buffer is one frame's decode destinations.
type buffer struct {
	frame     Frame
	ring      decode.RingTelemetry
	counters  decode.RuntimeCounters
	watch     decode.WatchdogState
	sketch    decode.SketchTelemetry
	launch    decode.LaunchRecommendation
	dispatch  decode.MegakernelTelemetry
	report    decode.MegakernelReport
	log       decode.Log
	priority  decode.PriorityRequeueAccounting
	diagnosis diagnose.Diagnosis
	waits     decode.WaitTimes
	statusMap []uint32
	ends      []decode.Metric
	spawn     decode.SpawnTelemetry
}

// Assemble builds the next frame from p into the store's next buffer and
// returns it. The frame is valid until the second Assemble after this one.
func (s *Store) Assemble(p *Parts) *Frame {
	b := &s.bufs[s.next]
	s.next ^= 1
	copyTelemetry(&b.ring, p.Ring)
	b.counters, _ = b.ring.RuntimeCounters()
	b.watch, b.priority = p.Watchdog, p.Priority
	f := &b.frame
	*f = Frame{Seq: p.Seq, AtMillis: p.AtMillis, Ring: &b.ring, Counters: &b.counters, Watchdog: &b.watch,
		Priority: &b.priority, Timings: p.Timings, Raw: p.Raw}
	if sm := &p.Ring.StatusMap; sm.Len() > 0 {
		b.statusMap = append(b.statusMap[:0], sm.Words()...)
		f.StatusMap, f.StatusSlots = b.statusMap, sm.Len()
	}
	if p.Diagnosis != nil {
		p.Diagnosis.CopyInto(&b.diagnosis)
		f.Diagnosis = &b.diagnosis
	}
	if p.HostSlot != nil {
		f.HostSlot, f.HostSlotOK = *p.HostSlot, true
	}
	if p.OpcodeEnds != nil {
		b.ends = append(b.ends[:0], p.OpcodeEnds...)
		f.OpcodeEnds = b.ends
	}
	var err error
	if p.Sketches != nil {
		err = p.Sketches.Sketches(&b.sketch)
	} else {
		err = b.ring.SketchInto(&b.sketch, p.SketchDepth, p.SketchWidth)
	}
	if err == nil {
		f.Sketch = &b.sketch
	}
	if p.Log != nil {
		copyLog(&b.log, p.Log)
		f.Log = &b.log
	}
	if p.Dispatch != nil {
		b.dispatch = *p.Dispatch
		f.Dispatch = &b.dispatch
	}
	if p.Launch != nil {
		b.launch = *p.Launch
		f.Launch = &b.launch
	}
	if p.Report != nil {
		b.report = *p.Report
		f.Report = &b.report
	}
	if p.Waits != nil {
		b.waits = *p.Waits
		f.Waits = &b.waits
	}
	if p.Spawn != nil {
		h := append(b.spawn.History[:0], p.Spawn.History...)
		b.spawn = *p.Spawn
		b.spawn.History = h
		f.Spawn = &b.spawn
	}
	return f
}

// Last is the frame the last Assemble returned, or nil before the first.
func (s *Store) Last() *Frame {
	f := &s.bufs[s.next^1].frame
	if f.Ring == nil {
		return nil
	}
	return f
}

// copyTelemetry copies src into dst reusing dst's slices. The status map
// is left empty (its words would alias src's storage): Assemble copies its
// words into the frame (Frame.StatusMap).
func copyTelemetry(dst, src *decode.RingTelemetry) {
	metrics, observable, slots, windows := dst.Control.Metrics, dst.Control.Observable, dst.Slots, dst.Windows
	*dst = *src
	dst.StatusMap = decode.StatusMap{}
	dst.Control.Metrics = append(metrics[:0], src.Control.Metrics...)
	dst.Control.Observable = append(observable[:0], src.Control.Observable...)
	dst.Slots = append(slots[:0], src.Slots...)
	dst.Windows = append(windows[:0], src.Windows...)
}

func copyLog(dst, src *decode.Log) {
	records := dst.Records
	*dst = *src
	dst.Records = append(records[:0], src.Records...)
}
