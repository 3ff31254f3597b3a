package workload_test

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/ref"
	"github.com/ringscope/ringscope/wgsl/workload"
)

// drainOnce publishes n items of g into a fresh queue and runs them through
// the reference interpreter until drained, returning the faults the log
// recorded by code and the items run.
func drainOnce(t *testing.T, preset string, n int) (faults map[uint32]int, items []host.Item) {
	t.Helper()
	g, err := workload.New(workload.Spec{Preset: preset, Slots: 4096, Tenants: 8, WindowOpcodes: []uint32{abi.OpHash}, Seed: 3})
	require.NoError(t, err)
	q, err := host.NewQueue(host.ControlConfig{Slots: 4096, Observable: workload.ObservableWords, Masks: g.Masks()}, 4096)
	require.NoError(t, err)
	for _, it := range g.Next(nil, n) {
		if _, err := q.Publish([]host.Item{it}); err == nil {
			items = append(items, it)
		}
	}
	data := g.Data()
	for range 4 {
		params := q.Params(64).Bytes()
		b := ref.Buffers{Control: clone(q.Control()), Ring: clone(q.Ring()), Log: clone(q.Log()), Params: params[:], Data: data}
		_, err := ref.Run(b, ref.Grid{Workgroups: 4, Width: 64})
		require.NoError(t, err)
		require.NoError(t, q.Absorb(b.Control, b.Ring, b.Log))
		q.ClearDirty()
		_, err = q.Requeue(nil)
		require.NoError(t, err)
	}
	faults = map[uint32]int{}
	log := q.Log()
	cursor := binary.LittleEndian.Uint32(log)
	for r := range min(cursor, 4096) {
		format := binary.LittleEndian.Uint32(log[(abi.LogHeaderWords+abi.LogRecordWords*int(r))*4:])
		if format&abi.LogFaultMask == abi.LogFaultTag {
			faults[format&^abi.LogFaultMask]++
		}
	}
	return faults, items
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }

// The default mix faults only through its faulty tenant's deliberate faults:
// any other fault means an item's arguments disagree with the kernel's
// semantics (the reference interpreter is the oracle).
func TestDefaultMixFaultsOnlyOnPurpose(t *testing.T) {
	faults, items := drainOnce(t, workload.DefaultMix, 3000)
	require.Greater(t, len(items), 2000)
	deliberate := 0
	for _, it := range items {
		if it.Tenant == 1 && (it.Opcode == 0x1234 || it.Opcode == abi.OpRaise ||
			(it.Opcode == abi.OpStoreU32 && it.Args[1] < abi.CtrlObservable) ||
			(it.Opcode == abi.OpLoadU32 && it.Args[0] >= abi.CtrlObservable+workload.ObservableWords)) {
			deliberate++
		}
	}
	total := 0
	for _, n := range faults {
		total += n
	}
	assert.Equal(t, deliberate, total, "faults by code: %v", faults)
	assert.Zero(t, faults[abi.FaultBadState])
}

func TestFaultStormFaultsForEveryReason(t *testing.T) {
	faults, _ := drainOnce(t, workload.FaultStorm, 2000)
	for _, code := range []uint32{abi.FaultUnknownOpcode, abi.FaultOutOfBounds, abi.FaultProtected, abi.FaultUserFault} {
		assert.Positive(t, faults[code], "fault code %d", code)
	}
}
