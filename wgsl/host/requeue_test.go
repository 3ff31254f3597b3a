package host_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// byOpcode ends each slot as its opcode says, like the kernel would.
func byOpcode(_ uint32, op uint32) uint32 {
	switch op {
	case abi.OpYield:
		return abi.StatusYield
	case abi.OpRequeue:
		return abi.StatusRequeue
	case abi.OpWaitIO:
		return abi.StatusWaitIO
	case abi.OpRaise:
		return abi.StatusFault
	}
	return abi.StatusDone
}

func TestRequeueYield(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 10, Tenants: 1}) // NORMAL = slots 4, 5
	_, err := q.Publish([]host.Item{
		{Opcode: abi.OpYield, Priority: 2, Args: [12]uint32{1}},
		{Opcode: abi.OpNop, Priority: 2},
	})
	require.NoError(t, err)
	q.ClearDirty()
	gpuDrain(t, q, byOpcode)
	assert.False(t, q.NeedsSubmit())

	st, err := q.Requeue(nil)
	require.NoError(t, err)
	assert.Equal(t, host.RequeueStats{Yielded: 1, YieldOpcode: abi.OpYield}, st)
	// Position 2 maps to slot 4 again: republished in place.
	assert.Equal(t, uint32(3), w(q.Control(), abi.CtrlTail+2))
	it, status, err := q.Item(4)
	require.NoError(t, err)
	assert.Equal(t, uint32(abi.StatusPublished), status)
	assert.Equal(t, host.Item{Opcode: abi.OpYield, Priority: 2, Args: [12]uint32{1}}, it)
	assert.Equal(t, []host.ByteRange{{4 * abi.SlotBytes, 5 * abi.SlotBytes}}, q.Dirty(host.RingBuffer))
	assert.Equal(t, []host.ByteRange{{(abi.CtrlTail + 2) * 4, (abi.CtrlTail + 3) * 4}}, q.Dirty(host.ControlBuffer))
	assert.True(t, q.NeedsSubmit())
}

func TestRequeueMovesToTail(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 15, Tenants: 1}) // NORMAL = slots 6, 7, 8
	_, err := q.Publish([]host.Item{{Opcode: abi.OpNop, Priority: 2}, {Opcode: abi.OpYield, Priority: 2}})
	require.NoError(t, err)
	q.ClearDirty()
	gpuDrain(t, q, byOpcode)
	st, err := q.Requeue(nil)
	require.NoError(t, err)
	assert.Equal(t, 1, st.Yielded)
	_, s7, _ := q.Item(7)
	it8, s8, _ := q.Item(8)
	assert.Equal(t, uint32(abi.StatusEmpty), s7, "old slot freed")
	assert.Equal(t, uint32(abi.StatusPublished), s8)
	assert.Equal(t, abi.OpYield, it8.Opcode)
	assert.Equal(t, []host.ByteRange{{7 * abi.SlotBytes, 7*abi.SlotBytes + 4}, {8 * abi.SlotBytes, 9 * abi.SlotBytes}}, q.Dirty(host.RingBuffer), "only the freed status word and the new slot")
}

func TestRequeueParksDeniedTenant(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 10, Tenants: 1})
	_, err := q.Publish([]host.Item{{Opcode: abi.OpNop, Tenant: 1, Priority: 2}})
	require.NoError(t, err)
	q.ClearDirty()
	gpuDrain(t, q, func(uint32, uint32) uint32 { return abi.StatusYield }) // the GPU's denial
	st, err := q.Requeue(nil)
	require.NoError(t, err)
	assert.Equal(t, host.RequeueStats{Parked: 1}, st)
	assert.False(t, q.NeedsSubmit(), "a disabled tenant must not make the runner spin")
	require.NoError(t, q.SetTenantMask(1, true))
	st, err = q.Requeue(nil)
	require.NoError(t, err)
	assert.Equal(t, host.RequeueStats{Yielded: 1, YieldOpcode: abi.OpNop}, st)
	assert.True(t, q.NeedsSubmit())
}

func TestRequeueAgesAndPromotes(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 10, Tenants: 1})
	_, err := q.Publish([]host.Item{{Opcode: abi.OpRequeue, Priority: abi.PriorityNormal, Args: [12]uint32{9}}})
	require.NoError(t, err)
	prio := func() uint32 {
		for s := uint32(0); s < q.Slots(); s++ {
			if it, st, _ := q.Item(s); st == abi.StatusPublished {
				return it.Priority
			}
		}
		return 99
	}
	var total host.RequeueStats
	for round := 1; round <= 2*abi.PriorityAgeThreshold+1; round++ {
		q.ClearDirty()
		gpuDrain(t, q, byOpcode)
		st, err := q.Requeue(nil)
		require.NoError(t, err)
		require.Equal(t, 1, st.Requeued, "round %d", round)
		total.Requeued += st.Requeued
		total.Promoted += st.Promoted
		total.MaxAge = max(total.MaxAge, st.MaxAge)
		switch {
		case round < abi.PriorityAgeThreshold:
			assert.Equal(t, uint32(abi.PriorityNormal), prio(), "round %d", round)
			assert.Equal(t, uint32(round), st.MaxAge)
			assert.Zero(t, st.Promoted)
		case round == abi.PriorityAgeThreshold:
			assert.Equal(t, uint32(abi.PriorityHigh), prio(), "the 32nd requeue promotes")
			assert.Equal(t, 1, st.Promoted)
			assert.Equal(t, uint32(abi.PriorityAgeThreshold), st.MaxAge)
		case round < 2*abi.PriorityAgeThreshold:
			assert.Equal(t, uint32(abi.PriorityHigh), prio(), "round %d: age restarted", round)
		case round == 2*abi.PriorityAgeThreshold:
			assert.Equal(t, uint32(abi.PriorityCritical), prio())
		default:
			assert.Equal(t, uint32(abi.PriorityCritical), prio(), "CRITICAL stays")
		}
	}
	assert.Equal(t, host.RequeueStats{Requeued: 65, Promoted: 2, MaxAge: 32}, total)
	it, _, _ := q.Item(0)
	assert.Equal(t, host.Item{Opcode: abi.OpRequeue, Priority: abi.PriorityCritical, Args: [12]uint32{9}}, it, "payload kept, priority word follows the partition")
}

func TestRequeuePromotionBlockedWhenFull(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 10, Tenants: 1}) // HIGH = slots 2, 3
	_, err := q.Publish([]host.Item{{Opcode: abi.OpRequeue, Priority: 2}})
	require.NoError(t, err)
	for round := 1; round < abi.PriorityAgeThreshold; round++ {
		q.ClearDirty()
		gpuDrain(t, q, byOpcode)
		_, err := q.Requeue(nil)
		require.NoError(t, err)
	}
	// Fill HIGH with pending work, then let the 32nd requeue come back.
	_, err = q.Publish([]host.Item{{Priority: 1}, {Priority: 1}})
	require.NoError(t, err)
	q.ClearDirty()
	control := append([]byte(nil), q.Control()...)
	ring := append([]byte(nil), q.Ring()...)
	// Drain only NORMAL: its one slot ends REQUEUE.
	for s := 4; s < 6; s++ {
		if slotW(ring, s, abi.SlotStatus) == abi.StatusPublished {
			setW(ring, s*abi.SlotWords, abi.StatusRequeue)
		}
	}
	setW(control, abi.CtrlHead+2, w(control, abi.CtrlTail+2))
	require.NoError(t, q.Absorb(control, ring, nil))
	before := snapshot(q)
	st, err := q.Requeue(nil)
	require.NoError(t, err)
	assert.Equal(t, host.RequeueStats{Blocked: 1}, st)
	assert.Equal(t, before, snapshot(q), "a blocked item stays and nothing is written")

	q.ClearDirty()
	gpuDrain(t, q, byOpcode) // HIGH drains; NORMAL has nothing pending
	st, err = q.Requeue(nil)
	require.NoError(t, err)
	assert.Equal(t, host.RequeueStats{Requeued: 1, Promoted: 1, MaxAge: 32, RequeueOpcode: abi.OpRequeue}, st, "retried, and did not age twice")
}

func TestRequeueServicesWaitIO(t *testing.T) {
	for _, tc := range []struct {
		name  string
		io    host.IOFunc
		stats host.RequeueStats
		want  host.Item // the republished item; zero Opcode 0 NOP
		state uint32    // status of the parked slot afterwards
		err   string
	}{
		{name: "nil service acknowledges with NOP", stats: host.RequeueStats{Serviced: 1},
			want: host.Item{Opcode: abi.OpNop, Tenant: 2, Priority: 3}, state: abi.StatusPublished},
		{name: "continuation", io: func(req host.Item) (host.Item, bool) {
			return host.Item{Opcode: abi.OpStoreU32, Tenant: req.Tenant, Priority: 0, Args: [12]uint32{req.Args[0] * 2, 160}}, true
		}, stats: host.RequeueStats{Serviced: 1},
			want: host.Item{Opcode: abi.OpStoreU32, Tenant: 2, Priority: 3, Args: [12]uint32{42, 160}}, state: abi.StatusPublished},
		{name: "not ready", io: func(host.Item) (host.Item, bool) { return host.Item{}, false },
			stats: host.RequeueStats{Waiting: 1}, state: abi.StatusWaitIO},
		{name: "bad answer", io: func(host.Item) (host.Item, bool) { return host.Item{Opcode: 0xFFF5}, true },
			state: abi.StatusWaitIO, err: "host: requeue: WAIT_IO slot 6: service answered reserved opcode (opcode 0xfff5, tenant 0)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := newQueue(t, host.ControlConfig{Slots: 10, Tenants: 3}) // LOW = slots 6, 7
			_, err := q.Publish([]host.Item{{Opcode: abi.OpWaitIO, Tenant: 2, Priority: 3, Args: [12]uint32{21}}})
			require.NoError(t, err)
			q.ClearDirty()
			gpuDrain(t, q, byOpcode)
			var seen []host.Item
			io := tc.io
			if io != nil {
				io = func(req host.Item) (host.Item, bool) { seen = append(seen, req); return tc.io(req) }
			}
			st, err := q.Requeue(io)
			if tc.err != "" {
				assert.EqualError(t, err, tc.err)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tc.stats, st)
			if io != nil {
				assert.Equal(t, []host.Item{{Opcode: abi.OpWaitIO, Tenant: 2, Priority: 3, Args: [12]uint32{21}}}, seen)
			}
			it, status, _ := q.Item(6) // position 1 of LOW = slot 7 when moved
			if tc.state == abi.StatusPublished {
				assert.Equal(t, uint32(abi.StatusEmpty), status)
				it, status, _ = q.Item(7)
				assert.Equal(t, tc.want, it)
			}
			assert.Equal(t, tc.state, status)
		})
	}
}

func TestRequeueDrainsEverything(t *testing.T) {
	// A full loop: publish a mix, let a fake GPU end each slot by opcode
	// (REQUEUE items become NOPs after 40 requeues, WAIT_IO gets answered),
	// and requeue until nothing needs a submission.
	q := newQueue(t, host.ControlConfig{Slots: 20, Tenants: 1})
	items := []host.Item{
		{Opcode: abi.OpYield, Priority: 4}, {Opcode: abi.OpRequeue, Priority: 4}, {Opcode: abi.OpWaitIO, Priority: 2},
		{Opcode: abi.OpNop, Priority: 0}, {Opcode: abi.OpRequeue, Priority: 1},
	}
	_, err := q.Publish(items)
	require.NoError(t, err)
	yields := 0
	end := func(slot, op uint32) uint32 {
		if op == abi.OpYield {
			if yields++; yields > 3 {
				return abi.StatusDone
			}
		}
		return byOpcode(slot, op)
	}
	io := func(req host.Item) (host.Item, bool) { return host.Item{Opcode: abi.OpNop, Tenant: req.Tenant}, true }
	var total host.RequeueStats
	rounds := 0
	for ; q.NeedsSubmit() && rounds < 1000; rounds++ {
		q.ClearDirty()
		gpuDrain(t, q, end)
		st, err := q.Requeue(io)
		require.NoError(t, err)
		total.Yielded += st.Yielded
		total.Requeued += st.Requeued
		total.Promoted += st.Promoted
		total.Serviced += st.Serviced
		if total.Requeued >= 80 { // stop requeueing: the REQUEUE items finish
			for s := uint32(0); s < q.Slots(); s++ {
				if it, status, _ := q.Item(s); status == abi.StatusPublished && it.Opcode == abi.OpRequeue {
					setW(q.Ring(), int(s)*abi.SlotWords+abi.SlotOpcode, abi.OpNop)
				}
			}
		}
	}
	assert.Less(t, rounds, 1000)
	assert.Equal(t, 3, total.Yielded)
	assert.Equal(t, 1, total.Serviced)
	assert.GreaterOrEqual(t, total.Promoted, 2)
	assert.Equal(t, uint32(len(items)), w(q.Control(), abi.CtrlDoneCount))
}

// RequeueOpcode and YieldOpcode name the opcode most republished slots hold: what a yield
// or requeue loop runs, for the diagnosis to name.
func TestRequeueNamesTheLoopingOpcode(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 16, Tenants: 1})
	items := []host.Item{{Opcode: 0x21, Priority: 2}, {Opcode: 0x21, Priority: 2}, {Opcode: 0x22, Priority: 2}, {Opcode: 0x21, Priority: 2}}
	_, err := q.Publish(items)
	require.NoError(t, err)
	q.ClearDirty()
	gpuDrain(t, q, func(uint32, uint32) uint32 { return abi.StatusRequeue })
	st, err := q.Requeue(nil)
	require.NoError(t, err)
	assert.Equal(t, 4, st.Requeued)
	assert.Equal(t, uint32(0x21), st.RequeueOpcode)

	// A yield and a requeue loop are voted apart: six slots of 0x31 that
	// yield do not make 0x32's two requeues theirs.
	q = newQueue(t, host.ControlConfig{Slots: 40, Tenants: 1})
	items = items[:0]
	for range 6 {
		items = append(items, host.Item{Opcode: 0x31, Priority: 2})
	}
	items = append(items, host.Item{Opcode: 0x32, Priority: 2}, host.Item{Opcode: 0x32, Priority: 2})
	_, err = q.Publish(items)
	require.NoError(t, err)
	q.ClearDirty()
	gpuDrain(t, q, func(_, op uint32) uint32 {
		if op == 0x31 {
			return abi.StatusYield
		}
		return abi.StatusRequeue
	})
	st, err = q.Requeue(nil)
	require.NoError(t, err)
	assert.Equal(t, []int{6, 2}, []int{st.Yielded, st.Requeued})
	assert.Equal(t, []uint32{0x31, 0x32}, []uint32{st.YieldOpcode, st.RequeueOpcode})
}
