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
	assert.LessOrEqual(t, ops[abi.OpYield]+ops[abi.OpRequeue], workload.ParkedCap, "parked work is capped")
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
