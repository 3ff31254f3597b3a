//go:build js && wasm

package megakernel

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/ref"
)

// TestClaimIsExclusive: when two tickets of one submission name the same
// slot (TAIL poked one lap past the partition), exactly one lane runs it
// and the other faults BAD_STATE, as in wgsl/ref, whatever the lanes' order:
// the slot ends FAULT, its ATOMIC_ADD ran once.
func TestClaimIsExclusive(t *testing.T) {
	// Five slots: each partition holds one, so tickets 0 and 1 of a
	// partition name the same slot and go to neighbouring lanes, which a
	// SIMD machine runs in lockstep.
	const slots = abi.PriorityLevels
	r := openT(t, shared(t), Options{Slots: slots, Tenants: 1, Observable: 1, LogCapacity: 4 * slots, Budget: 4, Grid: 1, WorkgroupSize: 64})
	items := make([]host.Item, slots)
	for p := range items {
		items[p] = addItem(0, 1, uint32(p), 0)
	}
	_, err := r.Publish(items)
	require.NoError(t, err)
	for p := 0; p < abi.PriorityLevels; p++ {
		b := r.q.Control()[(abi.CtrlTail+p)*abi.WordBytes:]
		b[0] = 2 // ticket 1 names the slot of ticket 0
	}
	in := ref.Buffers{Control: bytes.Clone(r.q.Control()), Ring: bytes.Clone(r.q.Ring()), Log: bytes.Clone(r.q.Log()),
		Params: paramsOf(r), Data: make([]byte, abi.WordBytes)}
	ep, err := r.Step(ctxT(t))
	require.NoError(t, err)
	_, err = ref.Run(in, ref.Grid{Workgroups: ep.Grid, Width: ep.Width})
	require.NoError(t, err)
	assert.Equal(t, in.Ring, r.Ring(), "final slots as the reference leaves them")
	for _, w := range []int{abi.CtrlClaims, abi.CtrlFaults, abi.CtrlDoneCount, abi.CtrlObservable} {
		assert.Equal(t, abi.Word(in.Control, w), ctl(r, w), "control word %d as the reference", w)
	}

	assert.EqualValues(t, slots, r.Observable()[0], "every slot's ATOMIC_ADD ran exactly once")
	tel := r.Telemetry()
	assert.EqualValues(t, slots, tel.Control.Claims)
	assert.EqualValues(t, slots, tel.Control.Faults, "the second ticket of each slot faults")
	assert.EqualValues(t, 2*slots, tel.Control.DoneCount, "DONE then FAULT, both terminal")
	assert.EqualValues(t, slots, tel.Occupancy[decode.StatusFault], "the slot ends FAULT, as the reference's second ticket leaves it")
	for p := 0; p < abi.PriorityLevels; p++ {
		assert.EqualValues(t, 2, tel.Control.Heads[p])
	}
	faults := 0
	for _, rec := range r.Log().Records {
		if rec.IsFault() {
			assert.Equal(t, decode.FaultBadState, rec.FaultCode())
			faults++
		}
	}
	assert.EqualValues(t, slots, faults)
}

// TestClaimIsExclusiveWorkgroupClaims is TestClaimIsExclusive with the
// drain claiming by workgroup, where the finish is an atomicMax: the
// second ticket's FAULT still wins whatever the lanes' order.
func TestClaimIsExclusiveWorkgroupClaims(t *testing.T) {
	on := true
	testWorkgroupClaims = &on
	t.Cleanup(func() { testWorkgroupClaims = nil })
	TestClaimIsExclusive(t)
}

// TestShutdownWorkgroupClaims is TestShutdown with the drain claiming by
// workgroup, whose SHUTDOWN check reads the word ahead (claim_next).
func TestShutdownWorkgroupClaims(t *testing.T) {
	on := true
	testWorkgroupClaims = &on
	t.Cleanup(func() { testWorkgroupClaims = nil })
	TestShutdown(t)
}

// TestParamsUnlappedUploaded: the runner's params carry ParamFlagUnlapped
// for a ring its publisher filled (the drain then claims by load and
// store), and not once TAIL is poked a lap past HEAD (TestClaimIsExclusive
// runs that ring: the compare-exchange path).
func TestParamsUnlappedUploaded(t *testing.T) {
	r := openT(t, shared(t), Options{Slots: 10, Tenants: 1, Observable: 1, Budget: 4})
	_, err := r.Publish([]host.Item{addItem(0, 1, abi.PriorityNormal, 0), addItem(0, 1, abi.PriorityNormal, 0)})
	require.NoError(t, err)
	_, err = r.Step(ctxT(t))
	require.NoError(t, err)
	assert.EqualValues(t, abi.ParamFlagUnlapped, abi.Word(r.res.params[:], abi.ParamFlags))
	assert.EqualValues(t, 2, r.Observable()[0])

	_, err = r.Publish([]host.Item{addItem(0, 1, abi.PriorityNormal, 0)})
	require.NoError(t, err)
	b := r.q.Control()[(abi.CtrlTail+abi.PriorityNormal)*abi.WordBytes:]
	b[0] += 2 // TAIL − HEAD = 3 > C = 2
	_, err = r.Step(ctxT(t))
	require.NoError(t, err)
	assert.Zero(t, abi.Word(r.res.params[:], abi.ParamFlags))
}

// TestDifferentialCompareExchange and its workgroup-claims twin are
// TestDifferential with ParamFlagUnlapped cleared: the same workloads
// through the claim by compare-exchange, which the runner now uses only
// for a ring more than a lap ahead.
func TestDifferentialCompareExchange(t *testing.T) {
	testCompareExchange = true
	t.Cleanup(func() { testCompareExchange = false })
	TestDifferential(t)
}

func TestDifferentialCompareExchangeWorkgroupClaims(t *testing.T) {
	testCompareExchange = true
	t.Cleanup(func() { testCompareExchange = false })
	TestDifferentialWorkgroupClaims(t)
}
