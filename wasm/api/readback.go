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
	// RingBackPressure: a publish found a partition full. Under summary
	// readback the host copy keeps the statuses of its last ring read, so
	// slots the GPU finished still look busy; a ring read frees them.
	RingBackPressure
	// RingHostWork: the summary shows slots only the host can move on
	// (YIELD, REQUEUE and WAIT_IO to republish, FAULT to reclaim), which
	// it sees only in a ring read; asked at most every RingPolicy.Every
	// frames.
	RingHostWork
)

// DefaultRingEvery is RingPolicy.Every's default: the live workload
// publishes 1/16 of the ring per frame, spread over five partitions of
// 1/5 each, so 16 frames fill a partition only when nothing completes;
// parked work waits at most this many frames (well under a second).
const DefaultRingEvery = 16

// RingPolicy is when the page's live loop reads the full ring under
// summary readback (megakernel.RingSummary), where each frame reads only
// control, log, the GPU summary and the 4-bit status map. The ring is read
// with the next frame when
//
//   - the person opened the slot inspector on a summary frame (RingInspect);
//   - a recording started (RingCapture), so that the capture's replay and
//     its exports have the slots of the frames that follow;
//   - the last publish met back-pressure (RingBackPressure): the host copy
//     has not seen the slots the GPU finished;
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

	asked RingReason
	since int // frames since the last ring read
}

// Ask makes the next frame read the ring, for reason r.
func (p *RingPolicy) Ask(r RingReason) { p.asked |= r }

// Next reports whether the next frame should read the ring and why, given
// the last frame's telemetry (nil before the first).
func (p *RingPolicy) Next(last *decode.RingTelemetry) (bool, RingReason) {
	if p.asked != 0 {
		return true, p.asked
	}
	every := p.Every
	if every <= 0 {
		every = DefaultRingEvery
	}
	if last != nil && p.since+1 >= every && HostWork(&last.Occupancy) {
		return true, RingHostWork
	}
	return false, 0
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
