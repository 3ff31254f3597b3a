package frame

import (
	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/diagnose"
)

// Frame is one decoded telemetry frame, what Dashboard.Apply consumes. Every
// pointer may be nil (that part was not produced this frame; its panel
// keeps showing "–"). The frame and what it points to must stay unchanged
// until the next Assemble of the same Store but one (a Store has two
// buffers): panels read it while rendering, and the slot-map hover reads
// Ring.Slots (or StatusMap) between renders.
type Frame struct {
	// Seq numbers frames from 1; AtMillis is the page time
	// (performance.now()) of the readback it decodes.
	Seq      uint64
	AtMillis float64

	Ring     *decode.RingTelemetry
	Counters *decode.RuntimeCounters
	// Watchdog is the verdict of decode.Watchdog.Observe for this frame:
	// health since the previous frame, consecutive stalled intervals, the
	// stall flag and the completion rate.
	Watchdog *decode.WatchdogState
	// Diagnosis is the frame's verdict (decode/diagnose): the health and
	// the active causes every view shows.
	Diagnosis *diagnose.Diagnosis
	Sketch    *decode.SketchTelemetry
	// Priority is the requeue/promotion accounting of the host publisher.
	Priority *decode.PriorityRequeueAccounting
	// Waits is the queue waits the host measured (its runner's publishes
	// and ends), nil where no publisher measured them (an attachment, a
	// replayed capture).
	Waits *decode.WaitTimes

	// Launch is the launch policy's plan for the next dispatch; LaunchErr
	// is set instead when the policy refused (for example
	// *decode.OutOfMemoryError).
	Launch    *decode.LaunchRecommendation
	LaunchErr error

	// Dispatch is the telemetry of the dispatch this frame read back;
	// Report aggregates the run so far.
	Dispatch *decode.MegakernelTelemetry
	Report   *decode.MegakernelReport

	// Spawn is a spawning kernel's spawn state (docs/PROTOCOL-SPAWN.md):
	// items spawned per opcode and per generation, the frontier each
	// generation drained, refusals. Nil for a ring that does not spawn.
	Spawn *decode.SpawnTelemetry

	Log *decode.Log

	// StatusMap is the packed status of every slot (docs/SUMMARY.md §4: 4
	// bits per slot, 8 slots per word) of a frame read back as a GPU
	// summary, whose Ring.Slots is empty; StatusSlots is its slot count.
	// Both are zero after a full-ring read. Assemble copies the words into
	// the frame's own storage.
	StatusMap   []uint32
	StatusSlots int
	// HostSlot is, on a summary frame, the slot the inspector shows as the
	// page's copy of the ring held it after this frame's readback: that
	// copy follows the GPU's status map (host.Queue.AbsorbStatusMap), so it
	// is the slot a ring read would have shown. HostSlotOK says it is set.
	HostSlot   decode.RingSlotSnapshot
	HostSlotOK bool

	// OpcodeEnds is, per opcode, the items that ended DONE or FAULT in
	// this generation, as the host counted them (every opcode, unlike
	// OPCODE_METRICS, which counts those below 32): nil when the host did
	// not publish them (an attached ring, a replay).
	OpcodeEnds []decode.Metric

	Timings Timings

	// Raw is the bytes the frame was decoded from, for the recorder.
	Raw Raw
}

// SlotCount is the number of slots the frame shows: its slot snapshots
// after a full read, else its status map's (or Ring's status map's).
func (f *Frame) SlotCount() int {
	switch {
	case f == nil || f.Ring == nil:
		return 0
	case len(f.Ring.Slots) > 0:
		return len(f.Ring.Slots)
	case f.StatusSlots > 0:
		return min(f.StatusSlots, len(f.StatusMap)*8)
	}
	return f.Ring.SlotCount()
}

// HasSlots reports whether the frame carries full slot snapshots (a ring
// read), not only statuses.
func (f *Frame) HasSlots() bool { return f != nil && f.Ring != nil && len(f.Ring.Slots) > 0 }

// SlotStatus is slot i's status from whichever view the frame holds (a
// status-map code for a summary frame: unknown raw values read as
// Status(8)); ok is false past the slots.
func (f *Frame) SlotStatus(i int) (decode.Status, bool) {
	switch {
	case i < 0 || i >= f.SlotCount():
		return 0, false
	case len(f.Ring.Slots) > 0:
		return f.Ring.Slots[i].Status, true
	case f.StatusSlots > 0:
		return decode.Status(f.StatusMap[i/8] >> (4 * (i % 8)) & 0xf), true
	}
	return f.Ring.SlotStatus(i)
}

// StatusWords is the packed status map the frame's slot map draws from:
// its own copy, else Ring's.
func (f *Frame) StatusWords() []uint32 {
	if f.StatusSlots > 0 {
		return f.StatusMap
	}
	return f.Ring.StatusMap.Words()
}
