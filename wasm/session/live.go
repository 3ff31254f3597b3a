package session

import (
	"context"
	"errors"
	"time"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// ErrNoRing is the error of a frame asked of a session that has no ring.
var ErrNoRing = errors.New("session: no ring is open")

// LiveFrame is one epoch of the live loop: publish the generator's next
// items, one submission, republish parked slots, assemble the frame, tell
// the observers, free the faulted slots. warm, when set, runs just before
// the Step (the page's first frame starts compiling its pipelines there).
// Attached, it reads the host's ring instead (attachedFrame's frame, nil
// when the host had a buffer mapped).
func (s *Session) LiveFrame(ctx context.Context, warm func()) (*frame.Frame, error) {
	if s.attached != nil {
		return s.attachedFrame(ctx)
	}
	if s.runner == nil {
		return nil, ErrNoRing
	}
	t0 := time.Now()
	if s.gen != nil {
		s.gen.SetQueued(queued(s.runner.View().Control()))
		s.items = s.gen.Next(s.items[:0], s.gen.PerFrame())
		if err := s.publishShedding(s.items); err != nil {
			return nil, err
		}
	}
	publish := time.Since(t0)
	if s.readback.plan() {
		s.runner.View().RequestRing()
	}
	if warm != nil {
		warm()
	}
	ep, err := s.runner.Step(ctx)
	if err != nil {
		return nil, err
	}
	s.readback.stepped(ep.RingRead, ep.Telemetry.BytesReadBack)
	s.takeInspected(s.runner.View().Ring()) // before Requeue moves parked slots
	st, err := s.runner.Requeue()
	if err != nil {
		return nil, err
	}
	s.diagnosis.noteRequeue(&st)
	f := s.assemble(s.runner, ep, epochTimings(ep, publish), ep.Timings.Decode, !ep.RingRead)
	// Faults were recorded above; free their slots for new work.
	s.runner.ReclaimFaults()
	return f, nil
}

// publishShedding publishes items; when a priority partition is full its
// items wait for a later frame (they are dropped from this batch: the
// generator makes more), the way a producer sheds load.
func (s *Session) publishShedding(items []host.Item) error {
	for range abi.PriorityLevels + 1 {
		if len(items) == 0 {
			return nil
		}
		_, err := s.runner.Publish(items)
		var full *host.PartitionFullError
		if !errors.As(err, &full) {
			return err
		}
		kept := items[:0]
		for _, it := range items {
			if it.Priority != full.Priority {
				kept = append(kept, it)
			}
		}
		s.NoteRefused(full.Priority, len(items)-len(kept))
		items = kept
	}
	return nil
}

// takeInspected copies the inspected slot from ring, under summary
// readback (a full frame has every slot).
func (s *Session) takeInspected(ring []byte) {
	if i := int(s.inspect.Load()); s.readback.summary && i >= 0 {
		s.inspected, s.inspectedOK = decode.DecodeSlot(ring, i)
	}
}

// epochTimings are the frame timings of a runner's Step that followed
// publish of publishing.
func epochTimings(ep *megakernel.Epoch, publish time.Duration) frame.Timings {
	t := &ep.Timings
	return frame.Timings{
		PublishMS:   megakernel.Ms(publish + t.Upload),
		DispatchMS:  megakernel.Ms(t.Prepare + t.Submit),
		ReadbackMS:  megakernel.Ms(t.Readback),
		RoundTripMS: megakernel.Ms(t.Submit + t.Readback),
		GPUMS:       megakernel.Ms(ep.GPUTime),
	}
}

// assemble builds the frame of src's last step (ep: the runner's epoch,
// nil for a drain or an attachment; t its timings, decoded the time the
// step spent decoding) and tells the observers.
func (s *Session) assemble(src Source, ep *megakernel.Epoch, t frame.Timings, decoded time.Duration, patchable bool) *frame.Frame {
	t0 := time.Now()
	v := src.View()
	s.seq++
	p := frame.Parts{Seq: s.seq, SketchDepth: s.sketchDepth, SketchWidth: s.sketchWidth}
	if j := &s.judged; j.ok {
		// A drain's last submission was judged on this very state.
		p.AtMillis, p.Ring, p.Log, p.Priority = j.at, v.Telemetry(), v.Log(), src.Accounting()
		p.Watchdog, p.Waits, p.Diagnosis = j.watchdog, j.waits, j.diagnosis
	} else {
		s.observe(src, &p)
	}
	s.judged = judged{}
	tel := p.Ring
	p.OpcodeEnds = s.opcodeEnds()
	if s.readback.summary {
		// A summary frame has no slots to sketch: the GPU sketched them
		// (the same counters, bit for bit).
		p.Sketches = v
	}
	if s.inspectedOK {
		p.HostSlot = &s.inspected
		s.inspectedOK = false
	}
	if ep != nil {
		ep.AddTo(&s.report)
		p.Launch, p.Dispatch = &ep.Launch, &ep.Telemetry
	}
	if p.Spawn == nil {
		p.Spawn = s.spawnOf(src)
	}
	var spawned uint64
	if p.Spawn != nil {
		spawned = uint64(p.Spawn.Spawned)
	}
	s.report.RecordProgress(src.Published(), spawned, uint64(tel.Control.DoneCount))
	p.Report = &s.report
	s.changedSlots = appendSlotRuns(s.changedSlots[:0], v.RingChanges())
	p.Raw = frame.Raw{Control: v.Control(), Ring: v.Ring(), Log: v.LogBytes(), Patchable: patchable,
		ChangedSlots: s.changedSlots, Published: src.Published(), WindowOpcodes: v.WindowOpcodes()}
	p.Timings = t
	p.Timings.DecodeMS = megakernel.Ms(time.Since(t0) + decoded)
	f := s.frames.Assemble(&p)
	for _, o := range s.observers {
		o.Observe(f)
	}
	// The next frame's changes are those since this one (a patch is of
	// the frame before).
	v.ClearRingChanges()
	return f
}

// observe gives p the state of src now and the verdicts on it: the
// watchdog's, the queue waits and the diagnosis.
func (s *Session) observe(src Source, p *frame.Parts) {
	v := src.View()
	tel := v.Telemetry()
	now := s.now()
	p.AtMillis, p.Ring, p.Log, p.Priority = now, tel, v.Log(), src.Accounting()
	p.Spawn = s.spawnOf(src)
	p.Watchdog = s.watchdog.Observe(now, tel)
	if w := s.runnerWaits(); w != nil { // before the diagnosis, which reads them
		fillWaits(&s.waits, w, now)
		p.Waits = &s.waits
	}
	p.Diagnosis = s.diagnosis.observe(p, src.Published())
}

// appendSlotRuns appends the whole slots of the sorted byte ranges rs to
// dst, merged where they touch.
func appendSlotRuns(dst []frame.SlotRun, rs []host.ByteRange) []frame.SlotRun {
	for _, r := range rs {
		first, end := uint32(r.Start/abi.SlotBytes), uint32((r.End+abi.SlotBytes-1)/abi.SlotBytes)
		if n := len(dst); n > 0 && dst[n-1].First+dst[n-1].Count >= first {
			dst[n-1].Count = max(dst[n-1].Count, end-dst[n-1].First)
			continue
		}
		dst = append(dst, frame.SlotRun{First: first, Count: end - first})
	}
	return dst
}

// spawner is a source whose kernel may spawn (megakernel.Runner).
type spawner interface {
	Spawn() (decode.SpawnTelemetry, bool)
}

// spawnOf is src's spawn state, nil when its kernel does not spawn. The
// copy lives in the session (no allocation per frame); the frame store
// copies it again.
func (s *Session) spawnOf(src Source) *decode.SpawnTelemetry {
	sp, ok := src.(spawner)
	if !ok {
		return nil
	}
	t, on := sp.Spawn()
	if !on {
		return nil
	}
	s.spawn = t
	return &s.spawn
}
