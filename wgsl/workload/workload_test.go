package workload_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/workload"
)

func spec(preset string) workload.Spec {
	return workload.Spec{Preset: preset, Slots: 4096, Tenants: 8, WindowOpcodes: []uint32{abi.OpHash}, Seed: 7}
}

func TestEveryPresetPublishes(t *testing.T) {
	for _, name := range workload.Presets {
		t.Run(name, func(t *testing.T) {
			g, err := workload.New(spec(name))
			require.NoError(t, err)
			q, err := host.NewQueue(host.ControlConfig{Slots: 4096, Observable: workload.ObservableWords, Masks: g.Masks()}, 64)
			require.NoError(t, err)
			items := g.Next(nil, 200)
			require.NotEmpty(t, items)
			for _, it := range items {
				// Every item is publishable, though a partition may be full.
				_, err := q.Publish([]host.Item{it})
				var full *host.PartitionFullError
				if err != nil {
					require.ErrorAs(t, err, &full, "item %+v", it)
				}
			}
		})
	}
}

func TestDeterministicForASeed(t *testing.T) {
	a, _ := workload.New(spec(workload.DefaultMix))
	b, _ := workload.New(spec(workload.DefaultMix))
	assert.Equal(t, a.Next(nil, 500), b.Next(nil, 500))
	assert.Equal(t, a.Data(), b.Data())
}

func TestDefaultMixCoversTheClasses(t *testing.T) {
	g, err := workload.New(spec(workload.DefaultMix))
	require.NoError(t, err)
	items := g.Next(nil, 20000)
	ops := map[uint32]int{}
	tenants := map[uint32]int{}
	prios := map[uint32]int{}
	windows := 0
	for _, it := range items {
		ops[it.Opcode]++
		tenants[it.Tenant]++
		prios[it.Priority]++
		if it.Opcode == abi.OpHash && it.Args[1] <= 1 {
			windows++
		}
	}
	for _, op := range []uint32{abi.OpNop, abi.OpSpin, abi.OpAtomicAdd, abi.OpStoreU32, abi.OpLoadU32,
		abi.OpCompareSwap, abi.OpBatchFence, abi.OpHash, abi.OpPrintf, abi.OpWaitIO, abi.OpRaise, abi.OpDFAStep} {
		assert.Positive(t, ops[op], "opcode %#x missing", op)
	}
	assert.Zero(t, ops[abi.OpYield]+ops[abi.OpRequeue], "nothing that parks forever")
	assert.Len(t, prios, abi.PriorityLevels)
	assert.Greater(t, tenants[0], tenants[5], "tenant load is skewed")
	assert.Equal(t, -1, g.MaskedTenant(), "a healthy mix masks no tenant")
	for tn, m := range g.Masks() {
		assert.NotZero(t, m, "tenant %d", tn)
	}
	assert.Positive(t, windows)
}

func TestStallRunsOutOfWork(t *testing.T) {
	g, err := workload.New(spec(workload.Stall))
	require.NoError(t, err)
	items := g.Next(nil, 10000)
	assert.Len(t, items, 2048, "half the ring, then nothing")
	for _, it := range items {
		assert.Equal(t, uint32(g.MaskedTenant()), it.Tenant)
	}
	assert.Empty(t, g.Next(nil, 10))
}

func TestNextDoesNotAllocateWithCapacity(t *testing.T) {
	g, _ := workload.New(spec(workload.DefaultMix))
	buf := make([]host.Item, 0, 256)
	allocs := testing.AllocsPerRun(20, func() { buf = g.Next(buf[:0], 256) })
	assert.Zero(t, allocs)
}

func TestBadSpecs(t *testing.T) {
	for name, s := range map[string]workload.Spec{
		"unknown preset": {Preset: "bogus", Slots: 64, Tenants: 1},
		"tiny ring":      {Preset: workload.NOPFlood, Slots: 4, Tenants: 1},
		"no tenants":     {Preset: workload.NOPFlood, Slots: 64},
		"too many":       {Preset: workload.NOPFlood, Slots: 64, Tenants: 30},
	} {
		_, err := workload.New(s)
		assert.Error(t, err, name)
	}
}

func TestSkewedTenantsTopUpTheirBacklogs(t *testing.T) {
	g, err := workload.New(workload.Spec{Preset: workload.SkewedTenants, Slots: 4096, Tenants: 16, Seed: 1})
	require.NoError(t, err)
	count := func(items []host.Item) (hot, cold int, prios map[uint32]int, tenants map[uint32]int) {
		prios, tenants = map[uint32]int{}, map[uint32]int{}
		for _, it := range items {
			prios[it.Priority]++
			tenants[it.Tenant]++
			if it.Tenant == 0 {
				hot++
				assert.Equal(t, uint32(abi.PriorityHigh), it.Priority, "the hot tenant runs at HIGH")
			} else {
				cold++
				assert.GreaterOrEqual(t, it.Priority, uint32(abi.PriorityNormal), "cold tenants queue below it")
			}
		}
		return
	}
	hot, cold, prios, tenants := count(g.Next(nil, g.PerFrame()))
	assert.Equal(t, 4096/8, hot, "empty partitions: the hot backlog")
	assert.Equal(t, 3*4096/64, cold, "and each cold priority's")
	assert.Len(t, prios, 4)
	assert.Len(t, tenants, 16, "every cold tenant publishes")
	assert.Greater(t, tenants[1], tenants[15], "Zipf among the cold tenants")

	// The ring claimed 100 of the hot items and none of the cold: the
	// next frame tops HIGH up by 100 and publishes no cold item.
	g.SetQueued([abi.PriorityLevels]uint32{0, 4096/8 - 100, 4096 / 64, 4096 / 64, 4096 / 64})
	hot, cold, _, _ = count(g.Next(nil, g.PerFrame()))
	assert.Equal(t, 100, hot)
	assert.Zero(t, cold)
	assert.Len(t, g.Next(nil, 10), 10, "at most n")
}

// The priority-inversion cycle, played by hand: the IDLE holder takes the
// lock, the flood and the CRITICAL waiters follow, the waiters are not
// answered while the holder's release is pending, then are.
func TestPriorityInversionCycle(t *testing.T) {
	g, err := workload.New(workload.Spec{Preset: workload.PriorityInversion, Slots: 4096, Tenants: 8, Seed: 1})
	require.NoError(t, err)
	io := g.IO()
	require.NotNil(t, io)
	for _, other := range []string{workload.DefaultMix, workload.NOPFlood, workload.SkewedTenants} {
		o, _ := workload.New(spec(other))
		assert.Nil(t, o.IO(), "%s needs no IO service", other)
	}
	byPrio := func(items []host.Item) map[uint32][]host.Item {
		m := map[uint32][]host.Item{}
		for _, it := range items {
			m[it.Priority] = append(m[it.Priority], it)
		}
		return m
	}
	f0 := byPrio(g.Next(nil, g.PerFrame()))
	require.Len(t, f0[abi.PriorityIdle], 1, "frame 0: the holder asks for the lock")
	acquire := f0[abi.PriorityIdle][0]
	assert.Equal(t, uint32(abi.OpWaitIO), acquire.Opcode)
	assert.Equal(t, uint32(7), acquire.Tenant)
	assert.Len(t, f0[abi.PriorityNormal], 64, "a trickle of NORMAL work outside the flood")
	release, ok := io(acquire)
	require.True(t, ok, "the lock is free: granted")
	assert.Equal(t, uint32(abi.OpWaitIO), release.Opcode, "answered with the holder's release, one more IDLE slot")

	f1 := byPrio(g.Next(nil, g.PerFrame()))
	require.Len(t, f1[abi.PriorityCritical], 8, "frame 1: CRITICAL work waits for the lock")
	assert.Equal(t, 4096/8, len(f1[abi.PriorityNormal]), "and the NORMAL flood starts")
	waiter := f1[abi.PriorityCritical][0]
	assert.Equal(t, uint32(0), waiter.Tenant)
	_, ok = io(waiter)
	assert.False(t, ok, "held: not ready")
	_, ok = io(acquire)
	assert.False(t, ok, "a second holder waits too")

	g.SetQueued([abi.PriorityLevels]uint32{0, 0, 4096/8 - 512, 0, 1})
	f2 := byPrio(g.Next(nil, g.PerFrame()))
	assert.Len(t, f2[abi.PriorityNormal], 512, "the flood tops its backlog up")
	assert.Empty(t, f2[abi.PriorityCritical])

	nop, ok := io(release)
	require.True(t, ok)
	assert.Equal(t, uint32(abi.OpNop), nop.Opcode, "the release frees the lock")
	for range 8 {
		nop, ok = io(waiter)
		require.True(t, ok, "free: the waiters are answered")
		assert.Equal(t, uint32(abi.OpNop), nop.Opcode)
	}
	other, ok := io(host.Item{Opcode: abi.OpWaitIO, Args: [12]uint32{42}})
	assert.True(t, ok, "any other request is answered at once")
	assert.Equal(t, uint32(abi.OpNop), other.Opcode)
}
