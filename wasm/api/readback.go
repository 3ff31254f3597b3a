package api

import "github.com/ringscope/ringscope/decode"

// RingReason says why a summary-mode frame reads the full ring back.
type RingReason uint8

// Reasons for a ring read, a bit set (RingPolicy.Ask).
const (
	// RingInspect: the slot inspector opened (or refreshed) on a frame
	// that has only the status map.
	RingInspect RingReason = 1 << iota
	// RingCapture: a recording started; its replay needs a ring to show
	// slots, so its first frame carries one.
	RingCapture
	// RingBackPressure: a publish found a partition full while the status
	// map shows its next slot free (StaleBackPressure). Under summary
	// readback the host copy keeps the statuses of its last ring read, so
	// slots the GPU finished still look busy; a ring read frees them.
	// Asked at most every RingPolicy.PressureEvery frames.
	RingBackPressure
	// RingHostWork: the summary shows slots only the host can move on
	// (YIELD, REQUEUE and WAIT_IO to republish, FAULT to reclaim), which
	// it sees only in a ring read; asked at most every RingPolicy.Every
	// frames.
	RingHostWork
)

// DefaultRingEvery is RingPolicy.Every's default: parked work waits at
// most this many frames for the host (well under a second).
const DefaultRingEvery = 16

// DefaultPressureEvery is RingPolicy.PressureEvery's default. The live
// workload publishes 1/16 of the ring per frame over five partitions of 1/5
// each, so a partition whose statuses are 4 frames stale has lost at most
// a third of its room; a producer that outruns the drain meets back-
// pressure every frame, and reading the ring each time would make summary
// readback a full one.
const DefaultPressureEvery = 4

// RingPolicy is when the page's live loop reads the full ring under
// summary readback (megakernel.RingSummary), where each frame reads only
// control, log, the GPU summary and the 4-bit status map. The ring is read
// with the next frame when
//
//   - the person opened the slot inspector on a summary frame (RingInspect);
//   - a recording started (RingCapture), so that the capture's replay and
//     its exports have the slots of the frames that follow;
//   - a publish met back-pressure while the status map shows the
//     partition's next slot free (RingBackPressure): the host copy has not
//     seen the slots the GPU finished; at most every PressureEvery frames;
//   - at least Every frames passed since the last ring read and the last
//     summary shows parked (YIELD, REQUEUE, WAIT_IO) or FAULT slots
//     (RingHostWork): the host republishes and reclaims them only from a
//     ring read.
//
// Every other frame reads no ring: its bytes are ~half a byte per slot plus
// a few kilobytes, not 64 per slot. The zero value asks every
// DefaultRingEvery frames.
type RingPolicy struct {
	// Every is the most frames parked work waits for a ring read (0:
	// DefaultRingEvery).
	Every int
	// PressureEvery is the fewest frames between ring reads for
	// back-pressure (0: DefaultPressureEvery).
	PressureEvery int

	asked RingReason
	since int // frames since the last ring read
}

// Ask makes the next frame read the ring, for reason r.
func (p *RingPolicy) Ask(r RingReason) { p.asked |= r }

// Next reports whether the next frame should read the ring and why, given
// the last frame's telemetry (nil before the first).
func (p *RingPolicy) Next(last *decode.RingTelemetry) (bool, RingReason) {
	if now := p.asked &^ RingBackPressure; now != 0 {
		return true, p.asked
	}
	every, pressureEvery := orDefault(p.Every, DefaultRingEvery), orDefault(p.PressureEvery, DefaultPressureEvery)
	if p.asked != 0 && p.since+1 >= pressureEvery {
		return true, p.asked
	}
	if last != nil && p.since+1 >= every && HostWork(&last.Occupancy) {
		return true, RingHostWork
	}
	return false, 0
}

func orDefault(v, d int) int {
	if v <= 0 {
		return d
	}
	return v
}

// StaleBackPressure reports whether a partition the host found full
// (host.PartitionFullError for priority) has room the host copy has not
// seen: t is the last summary decode (nil or a full decode: false, the
// host copy is fresh), and its status map says the partition's next slot
// (PRIORITY_OFFSETS[p] + TAIL[p] mod capacity, TAIL being the host's) is
// EMPTY or DONE.
func StaleBackPressure(t *decode.RingTelemetry, priority uint32) bool {
	if t == nil || len(t.Slots) > 0 || t.StatusMap.Len() == 0 || priority >= uint32(len(t.Control.Tails)) {
		return false
	}
	off := t.Control.PriorityOffsets
	lo, hi := off[priority], off[priority+1]
	if hi <= lo {
		return false
	}
	st, ok := t.StatusMap.At(int(lo + t.Control.Tails[priority]%(hi-lo)))
	return ok && (st == decode.StatusEmpty || st == decode.StatusDone)
}

// Stepped records a frame: whether it read the ring. A ring read answers
// every reason asked so far.
func (p *RingPolicy) Stepped(ringRead bool) {
	if ringRead {
		p.asked, p.since = 0, 0
		return
	}
	p.since++
}

// Reset forgets the reasons and the count (a new ring).
func (p *RingPolicy) Reset() { p.asked, p.since = 0, 0 }

// HostWork reports whether o holds slots only the host moves on: parked
// ones to republish and faults to reclaim.
func HostWork(o *decode.RingOccupancy) bool {
	return o.Yield+o.Requeue+o.WaitIO+o.Fault > 0
}
