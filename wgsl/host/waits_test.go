package host_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// fakeClock is a settable clock in milliseconds.
type fakeClock struct{ ms float64 }

func (c *fakeClock) now() float64 { return c.ms }

func trackedQueue(t *testing.T, cfg host.ControlConfig) (*host.Queue, *fakeClock) {
	t.Helper()
	q := newQueue(t, cfg)
	c := &fakeClock{}
	q.TrackWaits(c.now)
	require.NotNil(t, q.Waits())
	return q, c
}

func oldest(t *testing.T, g *host.WaitGroup) float64 {
	t.Helper()
	at, ok := g.Oldest()
	require.True(t, ok, "an item waits")
	return at
}

func TestWaitsFromPublishToTheAbsorbThatShowsTheEnd(t *testing.T) {
	q, c := trackedQueue(t, host.ControlConfig{Slots: 50, Tenants: 3})
	assert.Nil(t, newQueue(t, host.ControlConfig{Slots: 5, Tenants: 1}).Waits(), "no clock, no tracking")
	c.ms = 10
	_, err := q.Publish([]host.Item{{Opcode: abi.OpNop, Tenant: 0, Priority: 2}, {Opcode: abi.OpNop, Tenant: 1, Priority: 2},
		{Opcode: abi.OpRaise, Tenant: 1, Priority: 4}})
	require.NoError(t, err)
	c.ms = 14
	_, err = q.Publish([]host.Item{{Opcode: abi.OpNop, Tenant: 1, Priority: 2}})
	require.NoError(t, err)
	w := q.Waits()
	assert.Equal(t, uint32(3), w.Tenant(1).Waiting())
	assert.Equal(t, 10.0, oldest(t, w.Tenant(1)))
	assert.Equal(t, 10.0, oldest(t, w.Priority(2)))
	assert.Zero(t, w.Tenant(1).Ended())

	q.ClearDirty()
	c.ms = 40
	gpuDrain(t, q, byOpcode)
	assert.Equal(t, uint64(1), w.Tenant(0).Ended())
	assert.Equal(t, 30.0, w.Tenant(0).Max())
	assert.Equal(t, uint64(3), w.Tenant(1).Ended(), "a FAULT ends the wait too")
	assert.Equal(t, 30.0, w.Tenant(1).Max())
	assert.InEpsilon(t, 26.0, w.Tenant(1).Quantile(0), 0.04, "the waits were 30, 30 and 26")
	assert.Equal(t, uint64(3), w.Priority(2).Ended())
	assert.Equal(t, uint64(1), w.Priority(4).Ended())
	for _, g := range []*host.WaitGroup{w.Tenant(0), w.Tenant(1), w.Priority(2), w.Priority(4)} {
		assert.Zero(t, g.Waiting())
		_, ok := g.Oldest()
		assert.False(t, ok)
	}

	c.ms = 50
	q.Requeue(nil)
	q.ReclaimFaults()
	q.ClearDirty()
	gpuDrain(t, q, byOpcode)
	assert.Equal(t, uint64(3), w.Priority(2).Ended(), "an absorb counts each end once")

	require.NoError(t, q.Reset(host.ControlConfig{Slots: 50, Tenants: 3}))
	assert.Same(t, w, q.Waits(), "a Reset keeps the clock")
	assert.Zero(t, w.Tenant(1).Ended(), "and restarts the counts")
}

func TestWaitsKeepThePublishTimeThroughRequeues(t *testing.T) {
	q, c := trackedQueue(t, host.ControlConfig{Slots: 10, Tenants: 3}) // LOW = slots 6, 7
	c.ms = 100
	_, err := q.Publish([]host.Item{{Opcode: abi.OpWaitIO, Tenant: 2, Priority: 3, Args: [12]uint32{21}}})
	require.NoError(t, err)
	ready := false
	io := func(req host.Item) (host.Item, bool) {
		// The answer is another tenant's: the item moves to its count.
		return host.Item{Opcode: abi.OpNop, Tenant: 0}, ready
	}
	w := q.Waits()
	for frame := range 5 {
		c.ms += 16
		q.ClearDirty()
		gpuDrain(t, q, byOpcode)
		_, err := q.Requeue(io)
		require.NoError(t, err)
		assert.Equal(t, uint32(1), w.Tenant(2).Waiting(), "frame %d: parked WAIT_IO still waits", frame)
		assert.Equal(t, 100.0, oldest(t, w.Tenant(2)))
	}
	ready = true
	c.ms += 16
	q.ClearDirty()
	gpuDrain(t, q, byOpcode)
	_, err = q.Requeue(io) // answered: tenant 0's NOP, republished at LOW
	require.NoError(t, err)
	assert.Zero(t, w.Tenant(2).Waiting())
	assert.Equal(t, uint32(1), w.Tenant(0).Waiting())
	assert.Equal(t, 100.0, oldest(t, w.Tenant(0)), "the answer keeps the request's publish time")
	c.ms += 16
	q.ClearDirty()
	gpuDrain(t, q, byOpcode)
	assert.Equal(t, uint64(1), w.Tenant(0).Ended())
	assert.Equal(t, c.ms-100, w.Tenant(0).Max(), "publish → end, across every park")
	assert.Equal(t, c.ms-100, w.Priority(3).Max())
	assert.Zero(t, w.Tenant(2).Ended())
}

func TestWaitsFollowAPromotion(t *testing.T) {
	q, c := trackedQueue(t, host.ControlConfig{Slots: 10, Tenants: 1}) // 2 slots per level
	c.ms = 5
	_, err := q.Publish([]host.Item{{Opcode: abi.OpRequeue, Priority: 4}})
	require.NoError(t, err)
	w := q.Waits()
	for range abi.PriorityAgeThreshold {
		c.ms += 16
		assert.Equal(t, uint32(1), w.Priority(4).Waiting())
		q.ClearDirty()
		gpuDrain(t, q, byOpcode)
		_, err := q.Requeue(nil)
		require.NoError(t, err)
	}
	assert.Zero(t, w.Priority(4).Waiting(), "promoted to LOW")
	assert.Equal(t, uint32(1), w.Priority(3).Waiting())
	assert.Equal(t, 5.0, oldest(t, w.Priority(3)), "with its first publish time")
	assert.Equal(t, 5.0, oldest(t, w.Tenant(0)))
	assert.Zero(t, w.Priority(4).Ended()+w.Priority(3).Ended(), "a requeue is not an end")
}

func TestOldestWaitingIsTheOldestNotTheFirst(t *testing.T) {
	// Tenant 1 is masked: its YIELD slot stays parked where it was
	// claimed, while tenant 0's later items come and go.
	q, c := trackedQueue(t, host.ControlConfig{Slots: 500, Masks: []uint32{host.MaskOn, 0}})
	c.ms = 1
	_, err := q.Publish([]host.Item{{Opcode: abi.OpNop, Tenant: 1, Priority: 2}})
	require.NoError(t, err)
	denied := func(slot, op uint32) uint32 {
		it, _, _ := q.Item(slot)
		if it.Tenant == 1 {
			return abi.StatusYield
		}
		return byOpcode(slot, op)
	}
	w := q.Waits()
	for range 20 {
		c.ms += 16
		_, err := q.Publish([]host.Item{{Opcode: abi.OpNop, Tenant: 0, Priority: 2}, {Opcode: abi.OpNop, Tenant: 0, Priority: 2}})
		require.NoError(t, err)
		q.ClearDirty()
		gpuDrain(t, q, denied)
		_, err = q.Requeue(nil)
		require.NoError(t, err)
	}
	assert.Equal(t, uint32(1), w.Priority(2).Waiting())
	assert.Equal(t, 1.0, oldest(t, w.Priority(2)), "the parked item is the oldest")
	assert.Equal(t, 1.0, oldest(t, w.Tenant(1)))
	assert.Zero(t, w.Tenant(0).Waiting())
	assert.Equal(t, uint64(40), w.Tenant(0).Ended())
	assert.Equal(t, 0.0, w.Tenant(0).Max(), "published and ended at one clock reading")
	require.NoError(t, q.SetTenantMask(1, true))
	_, err = q.Requeue(nil)
	require.NoError(t, err)
	q.ClearDirty()
	c.ms += 16
	gpuDrain(t, q, byOpcode)
	assert.Equal(t, c.ms-1, w.Tenant(1).Max(), "unmasked, it ends with its first publish time")
}

// TestWaitsUnderStatusMaps: a queue absorbing only status maps measures
// the same waits as one absorbing the ring.
func TestWaitsUnderStatusMaps(t *testing.T) {
	cfg := host.ControlConfig{Slots: 200, Tenants: 4}
	full, cf := trackedQueue(t, cfg)
	sum, cs := trackedQueue(t, cfg)
	gf := &gpuCopy{control: append([]byte(nil), full.Control()...), ring: append([]byte(nil), full.Ring()...)}
	gs := &gpuCopy{control: append([]byte(nil), sum.Control()...), ring: append([]byte(nil), sum.Ring()...)}
	r := rand.New(rand.NewPCG(4, 5))
	ops := []uint32{abi.OpNop, abi.OpNop, abi.OpYield, abi.OpRequeue, abi.OpWaitIO, abi.OpRaise}
	for frame := range 200 {
		cf.ms, cs.ms = float64(16*frame), float64(16*frame)
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
		gf.drain(full, budget)
		gs.drain(sum, budget)
		cf.ms += 8
		cs.ms += 8
		require.NoError(t, full.Absorb(gf.control, gf.ring, nil))
		require.NoError(t, sum.Absorb(gs.control, nil, nil))
		require.NoError(t, sum.AbsorbStatusMap(statusMap(gs.ring)))
		for _, q := range []*host.Queue{full, sum} {
			_, err := q.Requeue(nil)
			require.NoError(t, err)
			q.ReclaimFaults()
			requireWaitingIsActive(t, q)
		}
	}
	wf, ws := full.Waits(), sum.Waits()
	ended := uint64(0)
	for p := range abi.PriorityLevels {
		assert.Equal(t, *wf.Priority(p), *ws.Priority(p), "priority %d", p)
		ended += wf.Priority(p).Ended()
	}
	for tn := range 4 {
		assert.Equal(t, *wf.Tenant(tn), *ws.Tenant(tn), "tenant %d", tn)
	}
	assert.Greater(t, ended, uint64(300))
}

func TestTrackedPublishAndAbsorbDoNotAllocate(t *testing.T) {
	q, c := trackedQueue(t, host.ControlConfig{Slots: 4096, Tenants: 8})
	items := make([]host.Item, 512)
	for i := range items {
		items[i] = host.Item{Opcode: abi.OpNop, Tenant: uint32(i % 8), Priority: uint32(i % 5)}
	}
	g := &gpuCopy{control: append([]byte(nil), q.Control()...), ring: append([]byte(nil), q.Ring()...)}
	step := func() {
		c.ms += 16
		_, err := q.Publish(items)
		require.NoError(t, err)
		g.upload(q)
		g.drain(q, 1<<20)
		require.NoError(t, q.Absorb(g.control, g.ring, nil))
	}
	for range 20 { // grow the stamp queues
		step()
	}
	assert.Zero(t, testing.AllocsPerRun(20, step))
	assert.Equal(t, uint64(41*512/8), q.Waits().Tenant(3).Ended(), "20 + AllocsPerRun's 21 steps")
}

// requireWaitingIsActive: the items counted waiting, per priority and per
// tenant, are the slots the host copy holds active.
func requireWaitingIsActive(t *testing.T, q *host.Queue) {
	t.Helper()
	var byPrio [abi.PriorityLevels]uint32
	var byTenant [abi.TenantCount]uint32
	for slot := range q.Slots() {
		it, st, _ := q.Item(slot)
		switch st {
		case abi.StatusPublished, abi.StatusClaimed, abi.StatusWaitIO, abi.StatusYield, abi.StatusRequeue:
			byPrio[it.Priority]++
			byTenant[it.Tenant]++
		}
	}
	w := q.Waits()
	for p := range byPrio {
		require.Equal(t, byPrio[p], w.Priority(p).Waiting(), "priority %d", p)
	}
	for tn := range byTenant {
		require.Equal(t, byTenant[tn], w.Tenant(tn).Waiting(), "tenant %d", tn)
	}
}

// BenchmarkFrameWaits is one live frame of the default ring's host work,
// publish 4,096 mixed items and absorb their ends, with and without the
// wait tracker: what tracking adds per frame.
func BenchmarkFrameWaits(b *testing.B) {
	for _, tracked := range []bool{false, true} {
		name := "untracked"
		if tracked {
			name = "tracked"
		}
		b.Run(name, func(b *testing.B) {
			q, err := host.NewQueue(host.ControlConfig{Slots: 65536, Tenants: 8}, 8)
			require.NoError(b, err)
			c := &fakeClock{}
			if tracked {
				q.TrackWaits(c.now)
			}
			items := make([]host.Item, 4096)
			r := rand.New(rand.NewPCG(1, 2))
			for i := range items {
				items[i] = host.Item{Opcode: abi.OpNop, Tenant: uint32(r.IntN(8)), Priority: uint32(r.IntN(5))}
			}
			g := &gpuCopy{control: append([]byte(nil), q.Control()...), ring: append([]byte(nil), q.Ring()...)}
			b.ResetTimer()
			for range b.N {
				c.ms += 16
				if _, err := q.Publish(items); err != nil {
					b.Fatal(err)
				}
				g.upload(q)
				g.drain(q, 1<<20)
				if err := q.Absorb(g.control, g.ring, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
