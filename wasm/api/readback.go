package api

// RingReason says why a summary-mode frame reads the full ring back.
type RingReason uint8

// Reasons for a ring read, a bit set (RingPolicy.Ask).
const (
	// RingInspect: the slot inspector asked for the ring on a frame that
	// has only the status map (its refresh of a slot kept from an older
	// frame; the page's live frames bring the inspected slot from the host
	// copy, frame.Frame.HostSlot).
	RingInspect RingReason = 1 << iota
)

// RingPolicy is when the page's live loop reads the full ring under
// summary readback (decode.ReadbackSummary), where each frame reads only
// control, log, the GPU summary and the 4-bit status map. The host copy of
// the ring follows the status map (host.Queue.AbsorbStatusMap: the GPU
// writes only the statuses of the slots it claims), so publishes, requeues
// and fault reclaims need no ring read, and a recording takes its ring from
// the host copy; the ring is read with the next frame only when the slot
// inspector asked for it (RingInspect: a refresh).
//
// Every other frame reads no ring: its bytes are ~half a byte per slot plus
// a few kilobytes, not 64 per slot. The zero value is ready to use.
type RingPolicy struct {
	asked RingReason
}

// Ask makes the next frame read the ring, for reason r.
func (p *RingPolicy) Ask(r RingReason) { p.asked |= r }

// Next reports whether the next frame should read the ring and why.
func (p *RingPolicy) Next() (bool, RingReason) { return p.asked != 0, p.asked }

// Stepped records a frame: whether it read the ring. A ring read answers
// every reason asked so far; a frame that did not (a failed Step) leaves
// them asked.
func (p *RingPolicy) Stepped(ringRead bool) {
	if ringRead {
		p.asked = 0
	}
}

// Reset forgets the reasons (a new ring).
func (p *RingPolicy) Reset() { p.asked = 0 }
