package host

import (
	"unsafe"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// validate checks one item on its own (not quota or capacity).
func validate(it *Item) error {
	switch {
	case !abi.IsPublishable(it.Opcode):
		return ErrOpcode
	case it.Tenant >= abi.TenantCount:
		return ErrTenant
	case it.Priority > abi.PriorityIdle:
		return ErrPriority
	}
	return nil
}

// Publish appends items to the tails of their priority partitions, in
// order. The whole batch is validated first: a reserved opcode, a tenant
// ≥ 29, a priority > 4 or a used-up quota give an *ItemError; a partition
// without room (its next slot not EMPTY or DONE, or no slots) gives a
// *PartitionFullError; ErrCounterLimit a TAIL at 2^31. On any error nothing
// is written and Publish returns 0. Otherwise, per item, words 1–15 of the
// slot, then STATUS = PUBLISHED; then, per partition, TAIL[p] = k + n; and
// it returns len(items). Publish does not allocate.
//
// The bookkeeping is per batch, not per item: quotas are checked once per
// tenant, each partition's items land in one run of consecutive slots (two
// where it wraps), so the run is marked dirty and changed once and TAIL
// written once. A ring filled for the first time takes one pass
// (publishFirstLap).
func (q *Queue) Publish(items []Item) (int, error) {
	if q.publishFirstLap(items) {
		return len(items), nil
	}
	var perPrio [abi.PriorityLevels]uint32
	var perTenant [abi.TenantCount]uint32
	// The checks are validate's, written inline: a call per item costs
	// more than the checks in wasm, where Go calls go through memory.
	for i := range items {
		it := &items[i]
		op, t, p := it.Opcode, it.Tenant, it.Priority
		if t >= abi.TenantCount || p > abi.PriorityIdle || (abi.IsSystemOpcode(op) && !abi.IsPublishable(op)) {
			return 0, &ItemError{Index: i, Item: *it, Err: validate(it)}
		}
		perTenant[t]++
		perPrio[p]++
	}
	for t, n := range perTenant {
		if quota := abi.Word(q.control, abi.CtrlTenantQuota+t); n != 0 && quota != 0 &&
			uint64(q.published[t])+uint64(n) > uint64(quota) {
			return 0, q.quotaError(items)
		}
	}
	for p := uint32(0); p < abi.PriorityLevels; p++ {
		if err := q.room(p, perPrio[p]); err != nil {
			return 0, err
		}
	}
	// next is each partition's next slot; its run ends at the partition's
	// end, where it wraps to the start.
	var next [abi.PriorityLevels]uint32
	for p, n := range perPrio {
		if n != 0 { // an empty partition has no slot (and takes no item)
			next[p] = q.slotOf(uint32(p), q.tail(uint32(p)))
		}
	}
	q.write(items, &next)
	for p, n := range perPrio {
		if n != 0 {
			q.markPublished(uint32(p), n)
		}
	}
	for t, n := range perTenant {
		q.published[t] += n
	}
	if q.waits != nil {
		q.waits.published(q, &perTenant, &perPrio)
	}
	return len(items), nil
}

// write puts validated items at their partitions' next slots (next,
// advanced) and counts their opcodes as pending. Runs of one opcode and
// priority are counted once: a batch is mostly such runs.
func (q *Queue) write(items []Item, next *[abi.PriorityLevels]uint32) {
	runOp, runP, run := uint32(0), uint32(0), uint32(0)
	ring, age := q.ringWords, q.age
	for i := range items {
		it := &items[i]
		p := it.Priority
		if run != 0 && (it.Opcode != runOp || p != runP) {
			q.pending.add(runP, runOp, run)
			run = 0
		}
		runOp, runP = it.Opcode, p
		run++
		slot := next[p]
		if littleEndian {
			// Words 1–15 are the Item's fields in order (itemWords), so a
			// slot is one 60-byte copy and its STATUS.
			// Word by word: a 60-byte array copy is a memmove call in wasm.
			w := (*[abi.SlotWords]uint32)(ring[int(slot)*abi.SlotWords:][:abi.SlotWords])
			src := (*[itemWords]uint32)(unsafe.Pointer(it))
			w[1], w[2], w[3], w[4], w[5] = src[0], src[1], src[2], src[3], src[4]
			w[6], w[7], w[8], w[9], w[10] = src[5], src[6], src[7], src[8], src[9]
			w[11], w[12], w[13], w[14], w[15] = src[10], src[11], src[12], src[13], src[14]
			w[abi.SlotStatus] = abi.StatusPublished
		} else {
			q.putSlot(slot, it, p)
		}
		age[slot] = 0
		if slot++; slot == q.off[p+1] {
			slot = q.off[p]
		}
		next[p] = slot
	}
	if run != 0 {
		q.pending.add(runP, runOp, run)
	}
}

// quotaError is the *ItemError of the first item of items past its
// tenant's quota; Publish calls it only when some tenant's count is.
func (q *Queue) quotaError(items []Item) error {
	var perTenant [abi.TenantCount]uint32
	for i := range items {
		it := &items[i]
		perTenant[it.Tenant]++
		if quota := abi.Word(q.control, abi.CtrlTenantQuota+int(it.Tenant)); quota != 0 &&
			uint64(q.published[it.Tenant])+uint64(perTenant[it.Tenant]) > uint64(quota) {
			return &ItemError{Index: i, Item: *it, Err: ErrQuota}
		}
	}
	return nil // unreachable: Publish found a tenant past its quota
}

// markPublished records n items written at partition p's tail: the run of
// slots from TAIL[p] (wrapping once at the partition's end) dirty and
// changed, then TAIL[p] += n.
func (q *Queue) markPublished(p, n uint32) {
	k := q.tail(p)
	first := q.slotOf(p, k)
	run := min(n, q.off[p+1]-first)
	q.markSlots(first, run)
	if run < n {
		q.markSlots(q.off[p], n-run)
	}
	q.setControl(abi.CtrlTail+int(p), k+n)
}

// markSlots records a host write of n whole slots from slot: dirty for the
// upload, changed for RingChanges.
func (q *Queue) markSlots(slot, n uint32) {
	w := int(slot) * abi.SlotWords
	q.dirty[RingBuffer].markWords(w, int(n)*abi.SlotWords)
	q.changed.markWords(w, int(n)*abi.SlotWords)
}

// room checks that partition p can take n more items.
func (q *Queue) room(p, n uint32) error {
	if n == 0 {
		return nil
	}
	c, k := q.capacity(p), q.tail(p)
	if uint64(k)+uint64(n) > MaxCounter {
		return ErrCounterLimit
	}
	if n > c {
		return &PartitionFullError{Priority: p, Capacity: c}
	}
	slot, end := q.slotOf(p, k), q.off[p+1]
	for range n {
		var s uint32
		if littleEndian { // inline: a call per slot costs more in wasm
			s = q.ringWords[int(slot)*abi.SlotWords+abi.SlotStatus]
		} else {
			s = q.slotStatus(slot)
		}
		if s != abi.StatusEmpty && s != abi.StatusDone {
			return &PartitionFullError{Priority: p, Capacity: c}
		}
		if slot++; slot == end {
			slot = q.off[p]
		}
	}
	return nil
}

// put writes a validated item into the next slot of its partition, which
// must be reusable, with requeue age age: one item, as Requeue moves them.
func (q *Queue) put(it *Item, age uint32) uint32 {
	p := it.Priority
	k := q.tail(p)
	slot := q.slotOf(p, k)
	q.putSlot(slot, it, p)
	q.pending.add(p, it.Opcode, 1)
	q.markSlots(slot, 1)
	q.setControl(abi.CtrlTail+int(p), k+1)
	q.age[slot] = age
	return slot
}
