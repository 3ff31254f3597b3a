package host

import (
	"errors"
	"fmt"
	"github.com/ringscope/ringscope/internal/nocompare"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// Absorb takes the GPU's readback as the new host truth. A nil buffer was
// not read back and keeps its host copy; a non-nil one must have the host
// copy's length. Words the host changed since the last ClearDirty (publishes
// made while the submission ran) are kept, not overwritten: the GPU never
// writes those words, since the host writes only slots outside [HEAD, TAIL)
// and host-owned control words.
//
// Absorb refuses (and changes nothing) when the readback is of another
// buffer, generation or upload: MAGIC, ABI_VERSION, GENERATION, TENANT_BASE,
// the masks, quotas, PRIORITY_OFFSETS and TAIL words it did not change must
// read back as the host wrote them.
func (q *Queue) Absorb(control, ring, log []byte) error {
	for _, c := range [...]struct {
		b    Buffer
		got  []byte
		want int
	}{{ControlBuffer, control, len(q.control)}, {RingBuffer, ring, len(q.ring)}, {LogBuffer, log, len(q.log)}} {
		if c.got != nil && len(c.got) != c.want {
			return fmt.Errorf("host: absorb: %v readback is %d bytes, want %d", c.b, len(c.got), c.want)
		}
	}
	if control != nil {
		if err := q.checkHostWords(control); err != nil {
			return err
		}
		absorb(q.control, control, q.dirty[ControlBuffer].ranges())
		q.settleClaims()
		be := abi.Word(q.control, abi.CtrlBudgetExhausted)
		q.exhausted, q.prevBE = be-q.prevBE, be
	}
	if ring != nil {
		q.firstLap = false // the ring is the GPU's now, past TAIL too
		absorb(q.ring, ring, q.dirty[RingBuffer].ranges())
		q.changed.clear()
		q.changed.markWords(0, len(q.ring)/abi.WordBytes)
		for p := range q.ringHead {
			q.ringHead[p] = min(q.head(uint32(p)), q.tail(uint32(p)))
		}
		if q.waits != nil {
			q.waits.ends(q)
		}
		q.ends.count(q)
	}
	if log != nil {
		absorb(q.log, log, q.dirty[LogBuffer].ranges())
	}
	return nil
}

// AbsorbStatusMap takes the statuses of a GPU status map (the reduce
// pass's 4 bits per slot, docs/SUMMARY.md §4) into the host copy of the
// ring, after the Absorb of the same readback's control: a summary frame's
// stand-in for a ring read. The GPU writes no slot word but STATUS, and
// only in the slots it claims, the positions from each partition's HEAD at
// the last ring or status-map absorb to its HEAD now; so taking those
// slots' statuses leaves the host copy what a ring read would, and Publish,
// Requeue and ReclaimFaults see the slots the GPU finished, parked and
// faulted. Only slots the host copy shows PUBLISHED or CLAIMED change;
// statuses the host wrote since the last ClearDirty are kept. It refuses a
// status map of the wrong length, and a slot it would change whose code
// is not a status (STATUS_MAP_UNKNOWN or above: the GPU never writes one),
// changing nothing.
func (q *Queue) AbsorbStatusMap(statusMap []byte) error {
	if want := abi.StatusMapWords(q.cfg.Slots) * abi.WordBytes; uint64(len(statusMap)) != want {
		return fmt.Errorf("host: absorb status map: %d bytes, want %d for %d slots", len(statusMap), want, q.cfg.Slots)
	}
	code := func(slot uint32) uint32 {
		return abi.Word(statusMap, int(slot/abi.StatusMapPerWord)) >> (abi.StatusMapBits * (slot % abi.StatusMapPerWord)) & (1<<abi.StatusMapBits - 1)
	}
	keep := q.dirty[RingBuffer].ranges()
	// Two passes, so that a refusal changes nothing.
	for apply := range 2 {
		for p := uint32(0); p < abi.PriorityLevels; p++ {
			c := q.capacity(p)
			if c == 0 {
				continue
			}
			to := min(q.head(p), q.tail(p))
			for k := max(q.ringHead[p], to-min(to, c)); k < to; k++ {
				slot := q.slotOf(p, k)
				if st := q.status(slot); st != abi.StatusPublished && st != abi.StatusClaimed {
					continue
				}
				at := int(slot)*abi.SlotWords + abi.SlotStatus
				if inRanges(keep, at*abi.WordBytes) {
					continue
				}
				st := code(slot)
				if st >= abi.StatusMapUnknown {
					return fmt.Errorf("host: absorb status map: slot %d (priority %d position %d) reads code %d, not a status", slot, p, k, st)
				}
				if apply == 1 && st != q.status(slot) {
					abi.PutWord(q.ring, at, st)
					q.changed.markWords(int(slot)*abi.SlotWords, abi.SlotWords)
				}
			}
			if apply == 1 {
				q.ringHead[p] = to
			}
		}
	}
	if q.waits != nil {
		q.waits.ends(q)
	}
	q.ends.count(q)
	return nil
}

// absorb copies src into dst except for the sorted ranges keep.
func absorb(dst, src []byte, keep []ByteRange) {
	at := 0
	for _, r := range keep {
		copy(dst[at:r.Start], src[at:r.Start])
		at = r.End
	}
	copy(dst[at:], src[at:])
}

// hostWords are the control words only the host writes.
var hostWords = [...]struct{ start, n int }{
	{abi.CtrlTenantBase, 1},
	{abi.CtrlTenantMask, abi.TenantCount},
	{abi.CtrlTenantQuota, abi.TenantSlots},
	{abi.CtrlPriorityOffsets, abi.PriorityLevels + 1},
	{abi.CtrlMagic, 3}, // MAGIC, ABI_VERSION, GENERATION
	{abi.CtrlTail, abi.PriorityLevels},
}

func (q *Queue) checkHostWords(control []byte) error {
	keep := q.dirty[ControlBuffer].ranges()
	for _, r := range hostWords {
		if r.start == abi.CtrlTail && q.cfg.Spawn {
			continue // the spawn finalize's too
		}
		for w := r.start; w < r.start+r.n; w++ {
			if inRanges(keep, w*abi.WordBytes) {
				continue
			}
			if got, want := abi.Word(control, w), abi.Word(q.control, w); got != want {
				return fmt.Errorf("host: absorb: control word %d reads back %#x, host wrote %#x (stale or foreign readback)", w, got, want)
			}
		}
	}
	return nil
}

func inRanges(rs []ByteRange, off int) bool {
	for _, r := range rs {
		if off < r.Start {
			return false
		}
		if off < r.End {
			return true
		}
	}
	return false
}

// NeedsSubmit reports whether another submission would make progress:
// SHUTDOWN is 0 and some partition has HEAD < TAIL, which includes work
// published or republished since.
//
// BUDGET_EXHAUSTED is not consulted, though PROTOCOL §3 names it: a lane
// counts itself when its budget ends while another lane is still claiming
// the last items, so the word can grow in a submission that drained
// everything. After the finalize clamp HEAD < TAIL is exact; see
// BudgetExhaustedGrowth for the informational count.
func (q *Queue) NeedsSubmit() bool {
	if q.Shutdown() {
		return false
	}
	for p := uint32(0); p < abi.PriorityLevels; p++ {
		if q.head(p) < q.tail(p) {
			return true
		}
	}
	return false
}

// IOFunc services the request of one WAIT_IO item (req.Opcode is
// abi.OpWaitIO, req.Args[0] the request). When the answer is ready it
// returns the item to republish in the parked item's place, normally the
// continuation that consumes the answer (a different opcode, else it parks
// again), and true. It returns false while the request is still pending;
// the slot then stays WAIT_IO and the next Requeue asks again. It is called
// only when the item's partition has room, so a ready answer is never lost.
type IOFunc func(req Item) (next Item, ready bool)

// RequeueStats counts what one Requeue did, for PriorityRequeueAccounting
// and for the runner's decision to submit again.
type RequeueStats struct {
	_ nocompare.T

	Yielded  int    // YIELD slots republished at their priority
	Requeued int    // REQUEUE slots republished (Promoted included)
	Promoted int    // REQUEUE slots republished one level higher on ageing
	Serviced int    // WAIT_IO slots serviced and republished
	Parked   int    // YIELD slots left in place: their tenant's mask is 0
	Waiting  int    // WAIT_IO slots whose IOFunc reported not ready
	Blocked  int    // slots left in place: the target partition had no room
	MaxAge   uint32 // largest requeue age among the republished REQUEUE slots
	// YieldOpcode and RequeueOpcode are the opcodes that most of the
	// republished YIELD, and REQUEUE, slots hold (majority votes, so exact
	// when one opcode is more than half; meaningful when Yielded, and
	// Requeued, are above 0): the work a yield or a requeue loop runs.
	YieldOpcode, RequeueOpcode uint32
}

// majority finds the value more than half of a stream holds, if one does
// (Boyer–Moore: O(1) space, no allocation per value).
type majority struct {
	value uint32
	votes int
}

func (m *majority) add(v uint32) {
	switch {
	case m.votes == 0:
		m.value, m.votes = v, 1
	case m.value == v:
		m.votes++
	default:
		m.votes--
	}
}

// Requeue does the host's part of PROTOCOL §3 "between submissions" on the
// state of the last Absorb. In each partition, oldest position first, over
// the positions still held by slots ([TAIL − min(TAIL, C), HEAD)):
//
//   - YIELD is republished at the same priority, unless its tenant's mask
//     is 0 (the GPU's denial): such slots stay parked until SetTenantMask
//     enables the tenant, so a disabled tenant cannot make the runner spin;
//   - REQUEUE is republished with its requeue age + 1; when that reaches
//     abi.PriorityAgeThreshold (32) the item moves one level up (to the
//     nearest higher partition with slots) and its age restarts at 0;
//     at CRITICAL it stays, its age growing;
//   - WAIT_IO is serviced by io and its answer republished at the same
//     priority; a nil io answers every request at once with a NOP of the
//     same tenant (the request is acknowledged and the slot completes).
//
// Republishing moves the item to the next slot of its partition (the TAIL
// position, which may be the slot itself) and frees the old slot (EMPTY).
// When that slot is not EMPTY or DONE the item stays where it is and the
// next Requeue retries; a blocked REQUEUE does not age. Republished items do
// not count against quotas. Requeue returns an error only when io answers
// with an item that cannot be published; that slot stays WAIT_IO.
func (q *Queue) Requeue(io IOFunc) (RequeueStats, error) {
	var st RequeueStats
	var errs error
	var yields, requeues majority
	for p := uint32(0); p < abi.PriorityLevels; p++ {
		c := q.capacity(p)
		if c == 0 {
			continue
		}
		head, tail := q.head(p), q.tail(p)
		head = min(head, tail)
		// Positions below requeueFrom were settled (DONE, EMPTY, FAULT)
		// when last seen, and nothing but the GPU's claim changes a
		// status, so the scan resumes at the oldest position that was
		// not: O(positions claimed since) rather than O(capacity).
		next := head
		for k := max(q.requeueFrom[p], tail-min(tail, c)); k < head; k++ {
			slot := q.slotOf(p, k)
			switch q.status(slot) {
			case abi.StatusPublished, abi.StatusClaimed:
				next = min(next, k) // claimed but not read back yet
			case abi.StatusYield:
				it, _, _ := q.Item(slot)
				if !q.TenantEnabled(it.Tenant) {
					st.Parked++
					next = min(next, k)
					continue
				}
				it.Priority = p
				if !q.move(slot, &it, q.age[slot]) {
					st.Blocked++
					next = min(next, k)
					continue
				}
				st.Yielded++
				yields.add(it.Opcode)
			case abi.StatusRequeue:
				it, _, _ := q.Item(slot)
				it.Priority = p
				age := q.age[slot]
				if age < ^uint32(0) {
					age++
				}
				promoted := false
				if age >= abi.PriorityAgeThreshold {
					if up, ok := q.higher(p); ok {
						it.Priority, promoted = up, true
					}
				}
				moveAge := age
				if promoted {
					moveAge = 0
				}
				if !q.move(slot, &it, moveAge) {
					st.Blocked++
					next = min(next, k)
					continue
				}
				st.Requeued++
				requeues.add(it.Opcode)
				if promoted {
					st.Promoted++
				}
				st.MaxAge = max(st.MaxAge, age)
			case abi.StatusWaitIO:
				if !q.hasRoom(p, slot) {
					st.Blocked++
					next = min(next, k)
					continue
				}
				req, _, _ := q.Item(slot)
				req.Priority = p
				answer := Item{Opcode: abi.OpNop, Tenant: req.Tenant}
				if io != nil {
					var ready bool
					if answer, ready = io(req); !ready {
						st.Waiting++
						next = min(next, k)
						continue
					}
				}
				answer.Priority = p
				if err := validate(&answer); err != nil {
					errs = errors.Join(errs, fmt.Errorf("host: requeue: WAIT_IO slot %d: service answered %w (opcode %#x, tenant %d)", slot, err, answer.Opcode, answer.Tenant))
					next = min(next, k)
					continue
				}
				q.move(slot, &answer, 0)
				st.Serviced++
			}
		}
		q.requeueFrom[p] = next
	}
	st.YieldOpcode, st.RequeueOpcode = yields.value, requeues.value
	return st, errs
}

// higher returns the nearest priority above p whose partition has slots.
func (q *Queue) higher(p uint32) (uint32, bool) {
	for up := int(p) - 1; up >= 0; up-- {
		if q.capacity(uint32(up)) > 0 {
			return uint32(up), true
		}
	}
	return p, false
}

// hasRoom reports whether partition p's next slot can take the item now in
// slot from (which is freed by the move).
func (q *Queue) hasRoom(p, from uint32) bool {
	k := q.tail(p)
	if q.capacity(p) == 0 || k >= MaxCounter {
		return false
	}
	to := q.slotOf(p, k)
	return to == from || q.reusable(to)
}

// move republishes it (already validated, it.Priority its partition) from
// slot from into the next slot of its partition, freeing from, or reports
// false and changes nothing when there is no room.
func (q *Queue) move(from uint32, it *Item, age uint32) bool {
	if !q.hasRoom(it.Priority, from) {
		return false
	}
	base := int(from) * abi.SlotWords
	t, p := abi.Word(q.ring, base+abi.SlotTenant), abi.Word(q.ring, base+abi.SlotPriority)
	to := q.put(it, age)
	if q.waits != nil {
		q.waits.moved(from, to, t, p, it)
	}
	if to != from {
		abi.PutWord(q.ring, base+abi.SlotStatus, abi.StatusEmpty)
		q.markRing(from, base+abi.SlotStatus, 1)
		q.age[from] = 0
	}
	return true
}

// ReclaimFaults turns every FAULT slot EMPTY so the partition can reuse it
// (PROTOCOL §3 lets the host publish only into EMPTY or DONE slots, so an
// unreclaimed fault eventually blocks its partition). Read the faults'
// telemetry first. It returns the number of slots reclaimed.
//
// Only the GPU faults a slot, and only one it claimed, so the scan covers
// each partition's positions from the oldest one not yet seen settled
// (still PUBLISHED or CLAIMED: it may fault later) to HEAD as of the last
// ring Absorb, at most the partition's capacity: the positions claimed
// since the last call, not the whole ring (a frame's few thousand of a
// million slots).
func (q *Queue) ReclaimFaults() int {
	n := 0
	for p := uint32(0); p < abi.PriorityLevels; p++ {
		c := q.capacity(p)
		if c == 0 {
			continue
		}
		to := q.ringHead[p]
		next := to
		for k := max(q.reclaimFrom[p], to-min(to, c)); k < to; k++ {
			slot := q.slotOf(p, k)
			switch q.status(slot) {
			case abi.StatusFault:
				base := int(slot) * abi.SlotWords
				abi.PutWord(q.ring, base+abi.SlotStatus, abi.StatusEmpty)
				q.markRing(slot, base+abi.SlotStatus, 1)
				q.age[slot] = 0
				n++
			case abi.StatusPublished, abi.StatusClaimed:
				next = min(next, k)
			}
		}
		q.reclaimFrom[p] = next
	}
	return n
}

// BudgetExhaustedGrowth is how much BUDGET_EXHAUSTED grew at the last
// Absorb: lanes that ran out of budget while work seemed to remain.
func (q *Queue) BudgetExhaustedGrowth() uint32 { return q.exhausted }
