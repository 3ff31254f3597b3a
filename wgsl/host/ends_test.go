package host_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// drainCounting is gpuCopy.drain, counting in ended the items of each
// opcode it ends DONE or FAULT.
func drainCounting(g *gpuCopy, q *host.Queue, budget uint32, ended map[uint32]uint64) {
	off := q.Partitions()
	for p := 0; p < abi.PriorityLevels; p++ {
		c := off[p+1] - off[p]
		head, tail := w(g.control, abi.CtrlHead+p), w(g.control, abi.CtrlTail+p)
		for ; head < tail && budget > 0; head, budget = head+1, budget-1 {
			slot := int(off[p] + head%c)
			op := slotW(g.ring, slot, abi.SlotOpcode)
			st := byOpcode(0, op)
			if (st == abi.StatusYield || st == abi.StatusRequeue) && head%2 == 0 {
				st = abi.StatusDone
			}
			if st == abi.StatusDone || st == abi.StatusFault {
				ended[op]++
			}
			setW(g.ring, slot*abi.SlotWords+abi.SlotStatus, st)
		}
		setW(g.control, abi.CtrlHead+p, head)
	}
}

func endsOf(q *host.Queue) map[uint32]uint64 {
	m := map[uint32]uint64{}
	for _, c := range q.OpcodeEnds(nil) {
		m[c.Opcode] += c.Count
	}
	return m
}

// TestOpcodeEndsCountEveryOpcodeOnce: two queues run the same random
// workload, one absorbing the ring, the other the status map; each counts,
// per opcode, what the GPU ended DONE or FAULT: opcodes ≥ 32 and the
// user's too, a parked item only where it ends, each end once.
func TestOpcodeEndsCountEveryOpcodeOnce(t *testing.T) {
	cfg := host.ControlConfig{Slots: 200, Tenants: 4}
	full, sum := newQueue(t, cfg), newQueue(t, cfg)
	gf := &gpuCopy{control: append([]byte(nil), full.Control()...), ring: append([]byte(nil), full.Ring()...)}
	gs := &gpuCopy{control: append([]byte(nil), sum.Control()...), ring: append([]byte(nil), sum.Ring()...)}
	r := rand.New(rand.NewPCG(8, 9))
	ops := []uint32{abi.OpNop, abi.OpHash, abi.OpSpin, abi.UserOpcodeFirst, abi.OpYield, abi.OpRequeue, abi.OpWaitIO, abi.OpRaise}
	want := map[uint32]uint64{}
	wantSum := map[uint32]uint64{}
	for range 200 {
		items := make([]host.Item, r.IntN(12))
		for i := range items {
			items[i] = host.Item{Opcode: ops[r.IntN(len(ops))], Tenant: uint32(r.IntN(4)), Priority: uint32(r.IntN(5))}
		}
		for _, q := range []*host.Queue{full, sum} {
			if _, err := q.Publish(items); err != nil {
				var pf *host.PartitionFullError
				require.ErrorAs(t, err, &pf)
			}
		}
		gf.upload(full)
		gs.upload(sum)
		budget := uint32(r.IntN(10))
		drainCounting(gf, full, budget, want)
		drainCounting(gs, sum, budget, wantSum)
		require.NoError(t, full.Absorb(gf.control, gf.ring, nil))
		require.NoError(t, sum.Absorb(gs.control, nil, nil))
		require.NoError(t, sum.AbsorbStatusMap(statusMap(gs.ring)))
		for _, q := range []*host.Queue{full, sum} {
			_, err := q.Requeue(nil)
			require.NoError(t, err)
			q.ReclaimFaults()
		}
		require.Equal(t, want, endsOf(full))
		require.Equal(t, wantSum, endsOf(sum))
	}
	assert.Equal(t, want, wantSum)
	for _, op := range []uint32{abi.OpNop, abi.OpHash, abi.OpSpin, abi.UserOpcodeFirst, abi.OpRaise} {
		assert.Positive(t, want[op], "opcode %#x ended", op)
	}
	seen := full.OpcodeEnds(nil)
	assert.False(t, slices.ContainsFunc(seen, func(c host.OpcodeCount) bool { return c.Count == 0 }), "only opcodes that ended")
	assert.Len(t, full.OpcodeEnds(make([]host.OpcodeCount, 2)), 2+len(seen), "appends")

	require.NoError(t, full.Reset(cfg))
	assert.Empty(t, full.OpcodeEnds(nil), "a new generation counts afresh")
}
