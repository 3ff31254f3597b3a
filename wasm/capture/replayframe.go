package capture

import (
	"fmt"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/diagnose"
	"github.com/ringscope/ringscope/decode/frame"
)

// Frame decodes frame i into d and assembles it into store, as the live
// loop assembles its frames (frame.Store.Assemble): the same Frame for
// the same panels. The host sketches its slots in the shape sketchDepth ×
// sketchWidth. The frame is valid until store's second Assemble after it;
// its Raw is empty (a replayed frame is not recorded again).
func (r *Replay) Frame(i int, d *Decoded, store *frame.Store, sketchDepth, sketchWidth int) (*frame.Frame, error) {
	if i < 0 || i >= r.Len() {
		return nil, fmt.Errorf("replay: frame %d is out of range: the capture holds %d frames (0…%d)", i, r.Len(), r.Len()-1)
	}
	if err := r.Decode(i, d); err != nil {
		return nil, err
	}
	s := r.Summary(i)
	p := frame.Parts{Seq: s.Seq, AtMillis: s.AtMillis, Ring: &d.Ring, Watchdog: d.Watchdog, Priority: d.Priority,
		Report: &d.Report, Timings: d.Timings, Spawn: d.Spawn, SketchDepth: sketchDepth, SketchWidth: sketchWidth}
	if d.HasLog {
		p.Log = &d.Log
	}
	if d.HasDispatch {
		p.Dispatch = &d.Dispatch
	}
	if v := r.verdictAt(s.Seq); v != nil {
		r.verdict = diagnose.Diagnosis{Health: v.Health, Causes: v.Causes}
		p.Diagnosis = &r.verdict
	}
	return store.Assemble(&p), nil
}

// verdictAt is the verdict the live page gave at frame seq, as the
// capture keeps it: the last change at or before seq of a recording's
// verdicts, or a hang capture's; nil when it holds none (a file keeps no
// verdicts but a hang's).
func (r *Replay) verdictAt(seq uint64) *Verdict {
	vs := r.c.Verdicts
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].Seq <= seq {
			return &vs[i]
		}
	}
	return r.hang
}

// History is light frames of the up to n frames before frame i, oldest
// first: what the dashboard's time series read (occupancy, watchdog,
// dispatch, timings), from the summaries, without decoding them again.
func (r *Replay) History(i, n int) []frame.Frame {
	i = min(max(i, 0), r.Len())
	lo := max(0, i-n)
	hist := make([]frame.Frame, i-lo)
	rings := make([]decode.RingTelemetry, i-lo)
	tels := make([]decode.MegakernelTelemetry, i-lo)
	for k := range hist {
		s := &r.summaries[lo+k]
		rings[k].Occupancy = s.Occupancy
		hist[k] = frame.Frame{Seq: s.Seq, AtMillis: s.AtMillis, Ring: &rings[k], Watchdog: &s.Watchdog, Timings: s.Timings}
		if s.Dispatch != nil {
			tels[k] = s.Dispatch.Telemetry()
			hist[k].Dispatch = &tels[k]
		}
	}
	return hist
}
