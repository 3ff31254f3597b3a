package capture

import (
	"fmt"
	"github.com/ringscope/ringscope/internal/nocompare"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/diagnose"
	"github.com/ringscope/ringscope/decode/frame"
)

// Summary is what a Replay keeps of every frame after one pass: enough for
// the time series (occupancy, watchdog, dispatch, timings) without decoding
// the frame again.
type Summary struct {
	_ nocompare.T

	Seq        uint64
	AtMillis   float64
	Generation uint32
	Legacy     bool
	DoneCount  uint32
	Epoch      uint32
	Claims     uint32
	Faults     uint32
	Dispatches uint32
	// TenantClaims and PriorityClaims are the control buffer's counters.
	TenantClaims   [32]uint32
	PriorityClaims [5]uint32
	Occupancy      decode.RingOccupancy
	Watchdog       decode.WatchdogState
	// RingFrom is the frame whose ring this frame shows (see Decoded).
	RingFrom int
	// Compact is set for a compact frame (docs/CAPTURE.md §5): no ring of
	// its own, its occupancy in its meta.
	Compact  bool
	Dispatch *Dispatch
	Timings  frame.Timings
}

// Replay decodes the frames of a capture for display, in any order: a
// scrubber's view of it. NewReplay makes one pass in order (the watchdog
// needs the sequence); Decode then decodes any one frame fully.
type Replay struct {
	c         *Capture
	summaries []Summary
	// hang is a hang capture's verdict (its task section keeps the health
	// and the cause kinds), nil for any other; verdict the one shown.
	hang    *Verdict
	verdict diagnose.Diagnosis
	// ring is frame at's ring when a patch made it (ringOf), kept so that
	// a scrub forward applies only the patches in between.
	ring []byte
	at   int
}

// NewReplay decodes every frame of c once. c must stay unchanged while the
// replay is used. It fails, naming the frame, only on a capture that Decode
// would have refused.
func NewReplay(c *Capture) (*Replay, error) {
	r := &Replay{c: c, summaries: make([]Summary, len(c.Frames)), at: -1}
	var (
		d    Decoded
		wd   = decode.NewWatchdog(0)
		last = -1
	)
	for i := range c.Frames {
		f := &c.Frames[i]
		from := i
		if f.Ring == nil && f.Patch == nil {
			from = -1
			if last >= 0 && c.Frames[last].Generation == f.Generation {
				from = last
			}
		} else {
			last = i
		}
		ring, err := r.ringOf(from)
		if err != nil {
			return nil, fmt.Errorf("capture: frame %d: %w", i, err)
		}
		// The series needs the control buffer and the occupancy: counting
		// the statuses costs a fraction of decoding every slot (Decode does
		// that for the frame shown).
		if err := DecodeBuffers(&d, f.Control, nil, nil, c.Header.WindowOpcodes); err != nil {
			return nil, fmt.Errorf("capture: frame %d: %w", i, err)
		}
		if d.Ring.Occupancy, err = occupancyOf(f, ring); err != nil {
			return nil, fmt.Errorf("capture: frame %d: %w", i, err)
		}
		ctl := &d.Ring.Control
		s := &r.summaries[i]
		*s = Summary{Seq: f.Seq, AtMillis: f.AtMillis, Generation: f.Generation, Legacy: ctl.Legacy,
			DoneCount: ctl.DoneCount, Epoch: ctl.Epoch, Claims: ctl.Claims, Faults: ctl.Faults,
			Dispatches: ctl.Dispatches, TenantClaims: ctl.TenantFairness, PriorityClaims: ctl.PriorityFairness,
			Occupancy: d.Ring.Occupancy, RingFrom: from, Compact: !hasSlots(f) && f.Meta.Occupancy != nil,
			Dispatch: f.Meta.Dispatch, Timings: f.Meta.Timings}
		s.Watchdog = wd.Observe(f.AtMillis, &d.Ring)
	}
	if t := c.Tasks; t != nil && t.Hang != nil {
		h := &Verdict{Seq: t.Hang.Seq, AtMillis: t.Hang.AtMillis, Health: t.Hang.Health}
		for _, k := range t.Hang.Causes {
			h.Causes = append(h.Causes, diagnose.Cause{Kind: k, Subject: diagnose.NoSubject})
		}
		r.hang = h
	}
	return r, nil
}

// Capture returns the replayed capture.
func (r *Replay) Capture() *Capture { return r.c }

// Len is the number of frames.
func (r *Replay) Len() int { return len(r.summaries) }

// Summary returns frame i's summary; i must be in [0, Len()).
func (r *Replay) Summary(i int) *Summary { return &r.summaries[i] }

// Decode decodes frame i fully into dst, reusing dst's storage.
func (r *Replay) Decode(i int, dst *Decoded) error {
	if i < 0 || i >= len(r.summaries) {
		return fmt.Errorf("capture: frame %d is out of range: the capture holds %d frames", i, len(r.summaries))
	}
	f, s := &r.c.Frames[i], &r.summaries[i]
	ring, err := r.ringOf(s.RingFrom)
	if err != nil {
		return fmt.Errorf("capture: frame %d: %w", i, err)
	}
	if err := DecodeBuffers(dst, f.Control, ring, f.Log, r.c.Header.WindowOpcodes); err != nil {
		return fmt.Errorf("capture: frame %d: %w", i, err)
	}
	dst.RingFrom, dst.Watchdog, dst.Timings, dst.Spawn = s.RingFrom, s.Watchdog, f.Meta.Timings, f.Meta.Spawn
	if !hasSlots(f) && f.Meta.Occupancy != nil {
		dst.Ring.Occupancy = f.Meta.Occupancy.Ring() // its own, not the earlier ring's
	}
	dst.HasDispatch = f.Meta.Dispatch != nil
	dst.Dispatch = decode.MegakernelTelemetry{}
	if dst.HasDispatch {
		dst.Dispatch = f.Meta.Dispatch.Telemetry()
	}
	rep := &dst.Report
	dispatches := rep.Dispatches[:0]
	*rep = decode.MegakernelReport{Dispatches: dispatches}
	for j := 0; j <= i; j++ {
		if d := r.c.Frames[j].Meta.Dispatch; d != nil && r.c.Frames[j].Generation == f.Generation {
			rep.Add(d.Telemetry())
		}
	}
	var spawned uint64
	if dst.Spawn != nil {
		spawned = uint64(dst.Spawn.Spawned)
	}
	done := uint64(dst.Ring.Control.DoneCount)
	rep.RecordProgress(max(f.Meta.Published, done-min(done, spawned)), spawned, done)
	return nil
}

// ringOf returns the ring frame i carries (nil for i < 0 or no ring): its
// whole ring, or for a patch frame the ring its patches make from the
// frame with a whole ring before it. The result aliases the capture or
// r.ring, valid until the next call.
func (r *Replay) ringOf(i int) ([]byte, error) {
	if i < 0 {
		return nil, nil
	}
	frames := r.c.Frames
	switch {
	case frames[i].Patch == nil:
		return frames[i].Ring, nil
	case i == r.at:
		return r.ring, nil
	}
	k := i // the first patch to apply
	for k > 0 && frames[k].Patch != nil && k-1 != r.at {
		k--
	}
	switch {
	case k > 0 && k-1 == r.at && frames[k].Patch != nil:
		// r.ring is frame k-1's: apply k…i.
	case frames[k].Ring != nil:
		r.ring = append(r.ring[:0], frames[k].Ring...)
		k++
	default:
		return nil, fmt.Errorf("frame %d's ring patch has no frame with a whole ring before it", i)
	}
	for ; k <= i; k++ {
		p := frames[k].Patch
		if err := checkPatch(p, len(r.ring)/SlotBytes); err != nil {
			r.at = -1
			return nil, fmt.Errorf("frame %d: ring patch: %w", k, err)
		}
		applyPatch(r.ring, p)
	}
	r.at = i
	return r.ring, nil
}

// occupancyOf is frame f's occupancy: on a compact frame (no ring of its
// own) the one its meta kept, else counted from ring, the ring it shows.
func occupancyOf(f *Frame, ring []byte) (decode.RingOccupancy, error) {
	if !hasSlots(f) && f.Meta.Occupancy != nil {
		return f.Meta.Occupancy.Ring(), nil
	}
	return decode.CountOccupancy(ring)
}
