package host_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// gpuCopy plays the device's buffers: the host's dirty ranges are uploaded
// into it, a partial drain ends each claimed slot as its opcode says (only
// its STATUS word, as the kernel does), and its readback is what the host
// absorbs.
type gpuCopy struct{ control, ring []byte }

func (g *gpuCopy) upload(q *host.Queue) {
	for _, b := range []struct {
		buf      host.Buffer
		dst, src []byte
	}{{host.ControlBuffer, g.control, q.Control()}, {host.RingBuffer, g.ring, q.Ring()}} {
		for _, r := range q.Dirty(b.buf) {
			copy(b.dst[r.Start:r.End], b.src[r.Start:r.End])
		}
	}
	q.ClearDirty()
}

// drain claims at most budget positions, partition 0 first. A YIELD or
// REQUEUE item parks at odd positions only, so that parked work finishes.
func (g *gpuCopy) drain(q *host.Queue, budget uint32) {
	off := q.Partitions()
	for p := 0; p < abi.PriorityLevels; p++ {
		c := off[p+1] - off[p]
		head, tail := w(g.control, abi.CtrlHead+p), w(g.control, abi.CtrlTail+p)
		for ; head < tail && budget > 0; head, budget = head+1, budget-1 {
			slot := int(off[p] + head%c)
			st := byOpcode(0, slotW(g.ring, slot, abi.SlotOpcode))
			if (st == abi.StatusYield || st == abi.StatusRequeue) && head%2 == 0 {
				st = abi.StatusDone
			}
			setW(g.ring, slot*abi.SlotWords+abi.SlotStatus, st)
		}
		setW(g.control, abi.CtrlHead+p, head)
	}
}

// statusMap is the reduce pass's status map of ring, as decode packs it.
func statusMap(ring []byte) []byte {
	var m decode.StatusMap
	slots := make([]decode.RingSlotSnapshot, len(ring)/abi.SlotBytes)
	for i := range slots {
		slots[i], _ = decode.DecodeSlot(ring, i)
	}
	m.SetSlots(slots)
	return m.AppendBytes(nil)
}

// TestAbsorbStatusMapIsARingRead: two queues run the same random workload
// (every parking opcode, faults, partial drains, back-pressure) for 300
// frames; one absorbs each frame's ring, the other only its status map.
// Their host copies stay byte for byte equal, and so do what Publish,
// Requeue and ReclaimFaults do with them.
func TestAbsorbStatusMapIsARingRead(t *testing.T) {
	cfg := host.ControlConfig{Slots: 160, Observable: 8, Tenants: 4}
	queues := [2]*host.Queue{newQueue(t, cfg), newQueue(t, cfg)}
	var gpus [2]gpuCopy
	for i, q := range queues {
		gpus[i] = gpuCopy{append([]byte(nil), q.Control()...), append([]byte(nil), q.Ring()...)}
	}
	rng := rand.New(rand.NewPCG(7, 11))
	ops := []uint32{abi.OpNop, abi.OpNop, abi.OpYield, abi.OpRequeue, abi.OpWaitIO, abi.OpRaise}
	var published, refused, parked int
	for frame := range 300 {
		items := make([]host.Item, rng.IntN(16))
		for i := range items {
			items[i] = host.Item{Opcode: ops[rng.IntN(len(ops))], Tenant: rng.Uint32N(4), Priority: rng.Uint32N(abi.PriorityLevels)}
		}
		budget := rng.Uint32N(14) // about what is published: the ring fills at times
		var n [2]int
		var errs [2]error
		for i, q := range queues {
			n[i], errs[i] = q.Publish(items)
			gpus[i].upload(q)
			gpus[i].drain(q, budget)
			ring := gpus[i].ring
			if i == 1 {
				ring = nil
			}
			require.NoError(t, q.Absorb(gpus[i].control, ring, nil))
			if i == 1 {
				require.NoError(t, q.AbsorbStatusMap(statusMap(gpus[i].ring)))
			}
		}
		require.Equal(t, n[0], n[1], "frame %d: publish", frame)
		require.Equal(t, errs[0] == nil, errs[1] == nil, "frame %d: publish refused by one queue only: %v, %v", frame, errs[0], errs[1])
		require.Equal(t, queues[0].Ring(), queues[1].Ring(), "frame %d: the host copies", frame)
		var stats [2]host.RequeueStats
		var reclaimed [2]int
		for i, q := range queues {
			stats[i], _ = q.Requeue(nil)
			reclaimed[i] = q.ReclaimFaults()
		}
		require.Equal(t, stats[0], stats[1], "frame %d: requeue", frame)
		require.Equal(t, reclaimed[0], reclaimed[1], "frame %d: reclaimed faults", frame)
		require.Equal(t, queues[0].Ring(), queues[1].Ring(), "frame %d: after requeue", frame)
		published += n[0]
		parked += stats[0].Yielded + stats[0].Requeued + stats[0].Serviced
		if errs[0] != nil {
			refused++
		}
	}
	t.Logf("published %d, republished %d, refused %d frames", published, parked, refused)

	assert.Greater(t, published, 1000)
	assert.Greater(t, parked, 200, "parked items republished")
	assert.Positive(t, refused, "some frames met back-pressure")
}

// TestRingChangesCoverEveryChange plays summary frames (publish, the GPU's
// drain, AbsorbStatusMap, Requeue, ReclaimFaults) and checks, each frame,
// that every slot of the host copy that differs from the copy at the last
// ClearRingChanges lies in RingChanges: a patch of those slots rebuilds
// the ring. The ranges are sorted whole slots, and a ring Absorb is all of
// it.
func TestRingChangesCoverEveryChange(t *testing.T) {
	cfg := host.ControlConfig{Slots: 160, Observable: 8, Tenants: 4}
	q := newQueue(t, cfg)
	g := gpuCopy{append([]byte(nil), q.Control()...), append([]byte(nil), q.Ring()...)}
	rng := rand.New(rand.NewPCG(3, 1))
	ops := []uint32{abi.OpNop, abi.OpNop, abi.OpYield, abi.OpRequeue, abi.OpWaitIO, abi.OpRaise}
	assertWhole := func(frame int) {
		rs := q.RingChanges()
		require.Equal(t, []host.ByteRange{{Start: 0, End: len(q.Ring())}}, rs, "frame %d: all of the ring", frame)
	}
	assertWhole(-1)
	q.ClearRingChanges()
	was := append([]byte(nil), q.Ring()...)
	var changedSlots, coveredSlots int
	for frame := range 300 {
		items := make([]host.Item, rng.IntN(16))
		for i := range items {
			items[i] = host.Item{Opcode: ops[rng.IntN(len(ops))], Tenant: rng.Uint32N(4), Priority: rng.Uint32N(abi.PriorityLevels)}
		}
		_, _ = q.Publish(items)
		g.upload(q)
		g.drain(q, rng.Uint32N(14))
		require.NoError(t, q.Absorb(g.control, nil, nil))
		require.NoError(t, q.AbsorbStatusMap(statusMap(g.ring)))
		_, _ = q.Requeue(nil)
		rs := q.RingChanges()
		prevEnd := -1
		for _, r := range rs {
			require.Zero(t, r.Start%abi.SlotBytes, "frame %d: whole slots", frame)
			require.Zero(t, r.End%abi.SlotBytes, "frame %d: whole slots", frame)
			require.Greater(t, r.Start, prevEnd, "frame %d: sorted, coalesced", frame)
			prevEnd = r.End
			coveredSlots += r.Len() / abi.SlotBytes
		}
		in := func(b int) bool {
			for _, r := range rs {
				if b >= r.Start && b < r.End {
					return true
				}
			}
			return false
		}
		now := q.Ring()
		for s := 0; s < int(cfg.Slots); s++ {
			a, b := s*abi.SlotBytes, (s+1)*abi.SlotBytes
			if string(was[a:b]) != string(now[a:b]) {
				changedSlots++
				require.True(t, in(a), "frame %d: slot %d changed outside RingChanges", frame, s)
			}
		}
		q.ClearRingChanges()
		copy(was, q.Ring()) // the ring as the frame recorded it
		q.ReclaimFaults()   // after the frame's record: the next frame's change
		if frame%100 == 99 {
			require.NoError(t, q.Absorb(g.control, g.ring, nil))
			assertWhole(frame)
			q.ClearRingChanges()
			copy(was, q.Ring())
		}
	}
	t.Logf("%d slot changes in %d slots of RingChanges", changedSlots, coveredSlots)
	assert.Greater(t, changedSlots, 1000)
	assert.LessOrEqual(t, coveredSlots, 2*changedSlots, "the changes are not the whole ring every frame")
}

func TestAbsorbStatusMapRefuses(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 64, Observable: 8})
	_, err := q.Publish([]host.Item{{Opcode: abi.OpNop}, {Opcode: abi.OpNop}})
	require.NoError(t, err)
	g := gpuCopy{append([]byte(nil), q.Control()...), append([]byte(nil), q.Ring()...)}
	g.upload(q)
	g.drain(q, 2)
	require.NoError(t, q.Absorb(g.control, nil, nil))
	before := append([]byte(nil), q.Ring()...)

	assert.ErrorContains(t, q.AbsorbStatusMap(make([]byte, 4)), "4 bytes, want 32")
	m := statusMap(g.ring)
	setW(m, 0, w(m, 0)|abi.StatusMapUnknown<<abi.StatusMapBits) // slot 1: code 8 | DONE
	assert.ErrorContains(t, q.AbsorbStatusMap(m), "not a status")
	assert.Equal(t, before, q.Ring(), "a refusal changes nothing")

	require.NoError(t, q.AbsorbStatusMap(statusMap(g.ring)))
	assert.Equal(t, uint32(abi.StatusDone), slotW(q.Ring(), 0, abi.SlotStatus))
	assert.Equal(t, uint32(abi.StatusDone), slotW(q.Ring(), 1, abi.SlotStatus))
	assert.Equal(t, g.ring, q.Ring())
}
