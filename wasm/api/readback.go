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
	// map shows its next slot free (StaleBackPressure): the host copy did
	// not see a slot the GPU finished. The runner takes every summary
	// frame's status map into the host copy (host.Queue.AbsorbStatusMap),
	// so this is a safety net, not a frame's routine; asked at most every
	// RingPolicy.PressureEvery frames.
	RingBackPressure
)

// DefaultPressureEvery is RingPolicy.PressureEvery's default: a host copy
// that disagrees with the status map is read again within 4 frames, and a
// producer that outruns the drain, meeting back-pressure every frame, does
// not turn summary readback into a full one.
const DefaultPressureEvery = 4

// RingPolicy is when the page's live loop reads the full ring under
// summary readback (megakernel.RingSummary), where each frame reads only
// control, log, the GPU summary and the 4-bit status map, and the host copy
// of the ring follows the status map. The ring is read with the next frame
// when
//
//   - the person opened the slot inspector on a summary frame (RingInspect);
//   - a recording started (RingCapture), so that the capture's replay and
//     its exports have the slots of the frames that follow;
//   - a publish met back-pressure while the status map shows the
//     partition's next slot free (RingBackPressure), at most every
//     PressureEvery frames.
//
// Every other frame reads no ring: its bytes are ~half a byte per slot plus
// a few kilobytes, not 64 per slot. The zero value is ready to use.
type RingPolicy struct {
	// PressureEvery is the fewest frames between ring reads for
	// back-pressure (0: DefaultPressureEvery).
	PressureEvery int

	asked RingReason
	since int // frames since the last ring read
}

// Ask makes the next frame read the ring, for reason r.
func (p *RingPolicy) Ask(r RingReason) { p.asked |= r }

// Next reports whether the next frame should read the ring and why.
func (p *RingPolicy) Next() (bool, RingReason) {
	if now := p.asked &^ RingBackPressure; now != 0 {
		return true, p.asked
	}
	if p.asked != 0 && p.since+1 >= orDefault(p.PressureEvery, DefaultPressureEvery) {
		return true, p.asked
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
