package host_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// TestPendingOpcodes: the pending opcode set follows publishes and the
// claims an Absorb of control shows (HEAD moving), partly and wholly,
// and republished items (Requeue) count again.
func TestPendingOpcodes(t *testing.T) {
	q, err := host.NewQueue(host.ControlConfig{Slots: 50, Tenants: 1}, 0)
	require.NoError(t, err)
	assert.Empty(t, q.PendingOpcodes(nil))
	items := []host.Item{
		{Opcode: abi.OpSpin, Priority: abi.PriorityNormal},
		{Opcode: abi.OpNop, Priority: abi.PriorityNormal},
		{Opcode: abi.OpHash, Priority: abi.PriorityHigh},
		{Opcode: abi.OpNop, Priority: abi.PriorityNormal},
		{Opcode: abi.OpYield, Priority: abi.PriorityNormal},
	}
	_, err = q.Publish(items)
	require.NoError(t, err)
	assert.Equal(t, []uint32{abi.OpNop, abi.OpHash, abi.OpSpin, abi.OpYield}, q.PendingOpcodes(nil))

	// The GPU claimed NORMAL's first two (SPIN, NOP) and none of HIGH.
	claim := func(p, from, head, st uint32) {
		c := slices.Clone(q.Control())
		setW(c, abi.CtrlHead+int(p), head)
		ring := slices.Clone(q.Ring())
		off := q.Partitions()[p]
		for k := from; k < head; k++ {
			setW(ring, int(off+k)*abi.SlotWords+abi.SlotStatus, st)
		}
		require.NoError(t, q.Absorb(c, ring, nil))
		q.ClearDirty()
	}
	q.ClearDirty()
	claim(abi.PriorityNormal, 0, 2, abi.StatusDone)
	assert.Equal(t, []uint32{abi.OpNop, abi.OpHash, abi.OpYield}, q.PendingOpcodes(nil), "one NOP still pending")
	claim(abi.PriorityHigh, 0, 1, abi.StatusDone)
	claim(abi.PriorityNormal, 2, 3, abi.StatusDone)
	claim(abi.PriorityNormal, 3, 4, abi.StatusYield) // the YIELD item parks
	assert.Empty(t, q.PendingOpcodes(nil))

	// Requeue republishes the parked YIELD item: pending again.
	st, err := q.Requeue(nil)
	require.NoError(t, err)
	require.Equal(t, 1, st.Yielded)
	assert.Equal(t, []uint32{abi.OpYield}, q.PendingOpcodes(nil))
	assert.Zero(t, testing.AllocsPerRun(20, func() { _ = q.PendingOpcodes(make([]uint32, 0, 8)) }))
}
