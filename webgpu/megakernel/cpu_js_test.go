//go:build js && wasm

package megakernel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// TestCPUAdapterGrid: a Step on a CPU adapter (this tier's SwiftShader)
// dispatches the fewest workgroups that claim the queue at the budget,
// and drains it in that one submission; on a GPU (or a device without
// adapter info) the grid is at least the policy's.
func TestCPUAdapterGrid(t *testing.T) {
	dev := shared(t)
	const slots, n = 8192, 4097 // one item more than 64 lanes claim at budget 64
	r := openT(t, dev, Options{Slots: slots, Tenants: 1, Observable: 1, Budget: 64, WorkgroupSize: 64,
		Partitions: [abi.PriorityLevels + 1]uint32{0, 0, 0, slots, slots, slots}, Mode: ModeInterpreter})
	items := make([]host.Item, n)
	for i := range items {
		items[i] = item(abi.OpNop, abi.PriorityNormal)
	}
	_, err := r.Publish(items)
	require.NoError(t, err)
	ep, err := r.Step(ctxT(t))
	require.NoError(t, err)
	info, ok := dev.AdapterInfo()
	cpu := ok && info.IsCPU()
	assert.Equal(t, cpu, r.cpu.of(r.dev), "adapter info %+v (present: %v)", info, ok)
	if cpu {
		assert.EqualValues(t, 2, ep.Grid)
	} else {
		assert.Greater(t, ep.Grid, uint32(2), "the GPU grid")
	}
	assert.EqualValues(t, n, ctl(r, abi.CtrlDoneCount), "one submission drains the queue")
	assert.Zero(t, r.Pending())
}
