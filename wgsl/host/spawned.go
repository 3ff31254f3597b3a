package host

import (
	"fmt"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// A spawning ring's GPU-made slots (docs/PROTOCOL-SPAWN.md §3): the host
// copy learns them by the positions the GPU published, not by a ring read.

// TicketRanges appends to dst the byte ranges of the ring, in whole slots,
// sorted and coalesced, that hold positions from[p] … to[p] − 1 of each
// partition p (mod its capacity: a span of a whole capacity or more is
// the whole partition). After a spawning submission, from is TAIL before it
// and to is TAIL after it: the slots spawn wrote.
func (q *Queue) TicketRanges(dst []ByteRange, from, to [abi.PriorityLevels]uint32) []ByteRange {
	add := func(s, e uint32) {
		start, end := int(s)*abi.SlotBytes, int(e)*abi.SlotBytes
		if n := len(dst); n > 0 && dst[n-1].End >= start {
			dst[n-1].End = max(dst[n-1].End, end)
			return
		}
		dst = append(dst, ByteRange{start, end})
	}
	for p := range uint32(abi.PriorityLevels) {
		c, n := q.capacity(p), to[p]-from[p]
		if c == 0 || n == 0 || n > 1<<31 { // none, or TAIL went back: nothing spawned
			continue
		}
		if n >= c {
			add(q.off[p], q.off[p+1])
			continue
		}
		first := from[p] % c
		if first+n <= c {
			add(q.off[p]+first, q.off[p]+first+n)
			continue
		}
		add(q.off[p], q.off[p]+first+n-c) // the wrapped part sits lower
		add(q.off[p]+first, q.off[p+1])
	}
	return dst
}

// AbsorbRingRanges takes ranges of the GPU's ring into the host copy: data
// is their bytes one after another, ranges are sorted, disjoint and in
// whole slots (TicketRanges). Words the host wrote since the last
// ClearDirty are kept, as Absorb keeps them. The ranges count as changed
// (RingChanges), so a recorder's patch carries the GPU-made slots. Call
// it before the same readback's Absorb and AbsorbStatusMap: they count the
// items that ended up to HEAD (OpcodeEnds, Waits) from the host copy's
// statuses, which must then be the GPU's for the spawned slots too. It
// refuses (changing nothing) ranges outside the ring, not in whole slots,
// unsorted, or data of another length.
func (q *Queue) AbsorbRingRanges(ranges []ByteRange, data []byte) error {
	n, prev := 0, 0
	for _, r := range ranges {
		if r.Start < prev || r.End <= r.Start || r.End > len(q.ring) || r.Start%abi.SlotBytes != 0 || r.End%abi.SlotBytes != 0 {
			return fmt.Errorf("host: absorb ring ranges: range [%d, %d) is not whole slots of the %d-byte ring in order", r.Start, r.End, len(q.ring))
		}
		n, prev = n+r.Len(), r.End
	}
	if n != len(data) {
		return fmt.Errorf("host: absorb ring ranges: %d bytes for ranges of %d", len(data), n)
	}
	keep := q.dirty[RingBuffer].ranges()
	at := 0
	for _, r := range ranges {
		absorbRange(q.ring, data[at:at+r.Len()], r, keep)
		q.changed.markWords(r.Start/abi.WordBytes, r.Len()/abi.WordBytes)
		at += r.Len()
	}
	return nil
}

// absorbRange copies src into dst[r.Start:r.End] except for the sorted
// byte ranges keep (of all of dst).
func absorbRange(dst, src []byte, r ByteRange, keep []ByteRange) {
	at := r.Start
	for _, k := range keep {
		if k.End <= at {
			continue
		}
		if k.Start >= r.End {
			break
		}
		if k.Start > at {
			copy(dst[at:k.Start], src[at-r.Start:k.Start-r.Start])
		}
		at = min(k.End, r.End)
	}
	if at < r.End {
		copy(dst[at:r.End], src[at-r.Start:])
	}
}

// RingCleared tells the queue that the caller cleared the device's ring to
// zeros, which is what Reset (or NewQueue) left the host copy, so the next
// upload need not write the whole ring: it forgets the ring's dirty ranges
// and keeps control's and the log's. A BFS from one published root then
// uploads the root's slots, not a ring of a million (docs/PROTOCOL-SPAWN.md
// §3). It refuses once anything was published (a TAIL or HEAD is not 0):
// the host copy is no longer zeros.
func (q *Queue) RingCleared() error {
	for p := range uint32(abi.PriorityLevels) {
		if q.tail(p) != 0 || q.head(p) != 0 {
			return fmt.Errorf("host: ring cleared: partition %d has TAIL %d, HEAD %d: the host copy is not a fresh ring", p, q.tail(p), q.head(p))
		}
	}
	q.dirty[RingBuffer].clear()
	return nil
}
