package host

import (
	"unsafe"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// publishFirstLap is Publish in one pass over items, for the common case
// of a ring filled for the first time: no quotas, and every item's
// position within its partition's first lap since the generation began
// (TAIL + count < capacity). Such a slot was zeroed by init and nothing
// has written it since (the host writes a slot only at TAIL, or below
// HEAD; absorbs take only claimed positions, and a whole-ring Absorb ends
// the trust: firstLap), so it is EMPTY with requeue age 0, and the room
// check and a separate validation pass are not needed: items are checked
// as they are copied. On any item this path cannot take (invalid, or
// outside the first lap) it puts the zeros and pending counts back and
// reports false, and Publish takes the general path, which finds the
// error or the room. It reports true when it published all items.
//
// Items go in runs of one opcode, tenant and priority, which is what a
// batch mostly is: a run's validity and room are checked once, its slots
// are one tight copy, and its pending, tenant and partition counts are
// added once. Per item that leaves the copy and the compare that ends the
// run (in wasm, where a local array lives in memory, a counter bumped per
// item is a load and a store).
func (q *Queue) publishFirstLap(items []Item) bool {
	if !littleEndian || !q.firstLap || q.hasQuotas || len(q.ringWords) == 0 {
		return false
	}
	var tail, room, n [abi.PriorityLevels]uint32
	for p := range tail {
		tail[p] = q.tail(uint32(p))
		if c := q.capacity(uint32(p)); tail[p] < c {
			room[p] = c - tail[p]
		}
	}
	var perTenant [abi.TenantCount]uint32
	q.pending.save(&q.pendingSaved)
	// slots is the ring as whole slots: a run's destination is one slice.
	slots := unsafe.Slice((*[abi.SlotWords]uint32)(unsafe.Pointer(&q.ringWords[0])), len(q.ringWords)/abi.SlotWords)
	for i := 0; i < len(items); {
		op, t, p := items[i].Opcode, items[i].Tenant, items[i].Priority
		if t >= abi.TenantCount || p > abi.PriorityIdle || (abi.IsSystemOpcode(op) && !abi.IsPublishable(op)) || n[p] == room[p] {
			q.undoFirstLap(&tail, &n)
			return false
		}
		// The run: the items from i of op, t and p, as many as p has room
		// for; an item past the room starts the next run and fails there.
		run := items[i:min(len(items), i+int(room[p]-n[p]))]
		first := q.off[p] + tail[p] + n[p]
		dst := slots[first:][:len(run)]
		k := 0
		for ; k < len(run); k++ {
			it := &run[k]
			if it.Opcode != op || it.Tenant != t || it.Priority != p {
				break
			}
			// Word by word: a 60-byte array copy is a memmove call in wasm.
			w, src := &dst[k], (*[itemWords]uint32)(unsafe.Pointer(it))
			w[1], w[2], w[3], w[4], w[5] = src[0], src[1], src[2], src[3], src[4]
			w[6], w[7], w[8], w[9], w[10] = src[5], src[6], src[7], src[8], src[9]
			w[11], w[12], w[13], w[14], w[15] = src[10], src[11], src[12], src[13], src[14]
			w[abi.SlotStatus] = abi.StatusPublished
		}
		q.pending.add(p, op, uint32(k))
		n[p] += uint32(k)
		perTenant[t] += uint32(k)
		i += k
	}
	for p, k := range n {
		if k != 0 {
			q.markPublished(uint32(p), k)
		}
	}
	for t, k := range perTenant {
		q.published[t] += k
	}
	if q.waits != nil {
		q.waits.published(q, &perTenant, &n)
	}
	return true
}

// undoFirstLap zeroes the slots publishFirstLap wrote (n[p] from TAIL[p]
// in each partition: zero before) and restores the pending counts.
func (q *Queue) undoFirstLap(tail, n *[abi.PriorityLevels]uint32) {
	for p, k := range n {
		if k == 0 {
			continue
		}
		first := int(q.off[p]+tail[p]) * abi.SlotWords
		clear(q.ringWords[first : first+int(k)*abi.SlotWords])
	}
	q.pending.restore(&q.pendingSaved)
}
