//go:build js && wasm

package megakernel

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/ref"
)

// TestExactlyOnce publishes items that each add 1 to their own OBSERVABLE
// word and drains them with many grid shapes and budgets: every word must
// end at exactly 1, whether lanes outnumber slots or slots outnumber lanes.
func TestExactlyOnce(t *testing.T) {
	dev := shared(t)
	for _, tc := range []struct {
		name                  string
		slots, items          uint32
		width, grid, budget   uint32
		wantExhausted, single bool
	}{
		{name: "lanes ≫ slots", slots: 40, items: 30, width: 64, grid: 64, budget: 4, single: true},
		{name: "lanes ≫ slots, width 256", slots: 20, items: 16, width: 256, grid: 8, budget: 1, single: true},
		{name: "policy grid", slots: 500, items: 400, budget: 2, single: true},
		{name: "slots ≫ lanes, budget exhausted", slots: 2000, items: 1800, width: 64, grid: 1, budget: 3, wantExhausted: true},
		{name: "slots ≫ lanes, width 128", slots: 1500, items: 1500, width: 128, grid: 2, budget: 2, wantExhausted: true},
		{name: "one lane's worth", slots: 5, items: 5, width: 64, grid: 1, budget: 1, single: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := openT(t, dev, Options{Slots: tc.slots, Tenants: 1, Observable: tc.items, Budget: tc.budget,
				WorkgroupSize: tc.width, Grid: tc.grid, Mode: ModeInterpreter})
			items := make([]host.Item, tc.items)
			for i := range items {
				items[i] = addItem(uint32(i), 1, uint32(i)%abi.PriorityLevels, 0)
			}
			// Publish what fits; publish the rest as slots free up (a partition
			// holds slots/5, so the larger cases wrap around their partitions).
			next, steps := 0, 0
			for next < len(items) || r.needsSubmit() {
				for next < len(items) {
					if _, err := r.Publish(items[next : next+1]); err != nil {
						var full *host.PartitionFullError
						require.ErrorAs(t, err, &full)
						break
					}
					next++
				}
				ep, err := r.Step(ctxT(t))
				require.NoError(t, err)
				steps++
				require.Less(t, steps, 2000, "no progress")
				assert.LessOrEqual(t, ep.Claimed, uint64(ep.Queued))
				assert.LessOrEqual(t, ep.Claimed, ep.Lanes()*uint64(tc.budget), "a lane claims at most budget slots")
				if tc.grid != 0 {
					assert.Equal(t, tc.grid, ep.Grid)
				}
			}
			obs := r.Observable()
			require.Len(t, obs, int(tc.items))
			for i, v := range obs {
				require.EqualValues(t, 1, v, "OBSERVABLE[%d]: slot ran %d times", i, v)
			}
			tel := r.Telemetry()
			assert.EqualValues(t, tc.items, tel.Control.DoneCount)
			assert.EqualValues(t, tc.items, tel.Control.Claims)
			assert.Zero(t, tel.Control.Faults)
			assert.EqualValues(t, steps, tel.Control.Dispatches)
			if tc.wantExhausted {
				assert.Positive(t, tel.Control.BudgetExhausted)
			}
			if tc.single {
				assert.Equal(t, 1, steps, "one submission drains it")
			} else {
				assert.Greater(t, steps, 1, "relaunched until drained")
			}
			for p := 0; p < abi.PriorityLevels; p++ {
				assert.Equal(t, tel.Control.Tails[p], tel.Control.Heads[p], "HEAD[%d] clamped to TAIL", p)
			}
			// The GPU's own buffers decode to what was published.
			var again decode.RingTelemetry
			require.NoError(t, decode.DecodeInto(&again, new(decode.DecodeScratch), r.Control(), r.Ring(), nil))
			assert.EqualValues(t, min(tc.items, tc.slots), again.Occupancy[decode.StatusDone])
			assert.Zero(t, again.Occupancy.ActiveSlots())
			assert.EqualValues(t, tc.slots, again.Occupancy.TotalSlots())
		})
	}
}

// TestDrainReport drains with Drain and checks the report's totals.
func TestDrainReport(t *testing.T) {
	r := openT(t, shared(t), Options{Slots: 1000, Tenants: 1, Observable: 900, Budget: 2, WorkgroupSize: 64, Grid: 2})
	items := make([]host.Item, 900)
	for i := range items {
		items[i] = addItem(uint32(i), 3, uint32(i)%abi.PriorityLevels, 0)
	}
	_, err := r.Publish(items)
	require.NoError(t, err)
	rep, err := r.Drain(ctxT(t), 100)
	require.NoError(t, err)
	assert.EqualValues(t, 900, rep.PublishedItems)
	assert.EqualValues(t, 900, rep.ItemsProcessed)
	assert.Zero(t, rep.ItemsRemaining)
	assert.EqualValues(t, 4, rep.DispatchCount, "256 claims per submission: 900 items in 4")
	assert.EqualValues(t, 8, rep.KernelLaunches, "a drain and a finalize each")
	assert.EqualValues(t, 4, rep.ReadbackBuffers)
	assert.EqualValues(t, 3, rep.PipelineCacheHits)
	assert.EqualValues(t, 3, rep.ResidentInputCacheHits)
	assert.Positive(t, rep.WallTime)
	for i, v := range r.Observable() {
		require.EqualValues(t, 3, v, "OBSERVABLE[%d]", i)
	}
	// Nothing left: Drain makes no submission.
	rep, err = r.Drain(ctxT(t), 100)
	require.NoError(t, err)
	assert.Zero(t, rep.DispatchCount)
}

// TestCachesAndTransfers checks the telemetry of consecutive Steps against
// what the runner really did.
func TestCachesAndTransfers(t *testing.T) {
	dev := shared(t)
	o := Options{Slots: 256, Tenants: 1, Observable: 64, LogCapacity: 8, Budget: 4, WorkgroupSize: 64}
	r := openT(t, dev, o)
	lay := o.layout()
	publish := func(n int, first uint32) {
		items := make([]host.Item, n)
		for i := range items {
			items[i] = addItem(first+uint32(i), 1, abi.PriorityNormal, 0)
		}
		_, err := r.Publish(items)
		require.NoError(t, err)
	}
	publish(10, 0)
	ep1, err := r.Step(ctxT(t))
	require.NoError(t, err)
	t1 := ep1.Telemetry
	assert.False(t, t1.CompiledPipelineCacheHit)
	assert.False(t, t1.ResidentInputCacheHit)
	assert.EqualValues(t, 7, t1.ResidentAllocations, "5 bindings and 2 staging buffers")
	assert.EqualValues(t, lay.control+lay.ring+lay.log+lay.data+paramsBytes, t1.BytesUploaded, "a fresh device gets everything")

	publish(7, 10)
	dirty := 0
	for _, d := range r.q.Dirty(host.ControlBuffer) {
		dirty += d.Len()
	}
	ep2, err := r.Step(ctxT(t))
	require.NoError(t, err)
	t2 := ep2.Telemetry
	assert.True(t, t2.CompiledPipelineCacheHit)
	assert.True(t, t2.ResidentInputCacheHit)
	assert.Zero(t, t2.ResidentAllocations)
	assert.LessOrEqual(t, t2.BytesUploaded, uint64(7*abi.SlotBytes+dirty+paramsBytes), "only the new slots, TAIL and params")
	assert.GreaterOrEqual(t, t2.BytesUploaded, uint64(7*abi.SlotBytes))
	assert.EqualValues(t, lay.staging()-timestampBytes, t2.BytesReadBack, "control, log and ring, once (no timestamps on this device)")
	assert.Equal(t, t2.BytesUploaded+t2.BytesReadBack, t2.BytesMoved)
	assert.EqualValues(t, 2, t2.KernelLaunches)
	assert.EqualValues(t, 1, t2.SyncPoints, "one mapAsync")
	assert.EqualValues(t, 1, t2.ReadbackBuffers)
	assert.EqualValues(t, 7, ep2.Claimed)
	assert.EqualValues(t, 7*10000/64, t2.OccupancyProxyBps, "7 items over 64 lanes")
	assert.EqualValues(t, 7*10000/256, t2.FrontierDensityBps, "7 active of 256 slots at launch")
	assert.GreaterOrEqual(t, t2.EstimatedPeakDeviceBytes, lay.device())
	assert.Equal(t, decode.ModeInterpreter, t2.ExecutionMode)
	assert.Equal(t, "interpreter/x64", ep2.Program)

	// An empty step uploads nothing: the params uniform did not change.
	ep3, err := r.Step(ctxT(t))
	require.NoError(t, err)
	assert.Zero(t, ep3.Telemetry.BytesUploaded)
	assert.Zero(t, ep3.Claimed)
	assert.Zero(t, ep3.Telemetry.OccupancyProxyBps)

	// Steady state: the step allocates little and nothing per byte moved.
	allocs := testing.AllocsPerRun(5, func() {
		_, err := r.Step(ctxT(t))
		require.NoError(t, err)
	})
	t.Logf("allocations per Step: %.0f", allocs)
	// 40 before the params, descriptors, closures and promise handlers
	// stopped allocating per Step; what is left is mostly the JS objects a
	// submission returns (encoder, pass, command buffer, promise, view).
	assert.LessOrEqual(t, allocs, 30.0, "allocations per Step")
}

// TestRingOnDemand reads the ring only when asked.
func TestRingOnDemand(t *testing.T) {
	o := Options{Slots: 256, Tenants: 1, Observable: 8, LogCapacity: 4, Budget: 4, Readback: decode.ReadbackOnDemand}
	r := openT(t, shared(t), o)
	lay := o.layout()
	_, err := r.Publish([]host.Item{addItem(0, 5, 0, 0)})
	require.NoError(t, err)
	ep, err := r.Step(ctxT(t))
	require.NoError(t, err)
	assert.False(t, ep.RingRead)
	assert.EqualValues(t, lay.control+lay.log, ep.Telemetry.BytesReadBack)
	assert.EqualValues(t, 5, r.Observable()[0], "control came back")
	assert.EqualValues(t, abi.StatusPublished, slotStatus(r, 0), "the host copy of the ring is stale")
	r.RequestRing()
	ep, err = r.Step(ctxT(t))
	require.NoError(t, err)
	assert.True(t, ep.RingRead)
	assert.EqualValues(t, lay.staging()-timestampBytes, ep.Telemetry.BytesReadBack)
	assert.EqualValues(t, abi.StatusDone, slotStatus(r, 0))
	ep, err = r.Step(ctxT(t))
	require.NoError(t, err)
	assert.False(t, ep.RingRead, "one request, one ring readback")
}

func TestOpcodes(t *testing.T) {
	data := make([]byte, 64)
	for i := range data {
		data[i] = byte(i * 7)
	}
	// DFA table at word 4 (2 states × 256): state' = (state + byte) & 1.
	table := make([]byte, 4*4+2*256*4)
	copy(table, data[:16])
	for s := 0; s < 2; s++ {
		for b := 0; b < 256; b++ {
			v := uint32((s + b) & 1)
			w := 4 + s*256 + b
			table[4*w] = byte(v)
		}
	}
	r := openT(t, shared(t), Options{Slots: 64, Tenants: 1, Observable: 32, LogCapacity: 16, Budget: 8, Data: table})
	o := func(i uint32) uint32 { return abi.CtrlObservable + i }
	items := []host.Item{
		item(abi.OpNop, 0),
		item(abi.OpStoreU32, 0, 0xABCD, o(0)),
		item(abi.OpAtomicAdd, 0, 5, o(1)),
		item(abi.OpLoadU32, 0, abi.CtrlMagic, 2),
		item(abi.OpCompareSwap, 1, o(3), 0, 77, 4), // control[o3] is 0: swap
		item(abi.OpCompareSwap, 1, o(5), 9, 88, 6), // 0 ≠ 9: no swap
		item(abi.OpMemcpy, 1, abi.CtrlGeneration-2, o(7), 3),
		item(abi.OpDFAStep, 1, o(10), 4, 0, 5), // bytes 0,7,14,21,28: sum 70 → state 0
		item(abi.OpBatchFence, 1, 0, 0x7A6, 11),
		item(abi.OpHash, 2, 0, 4, 12),
		item(abi.OpSpin, 2, 100, 13, 42),
		item(abi.OpPrintf, 2, 0x1234, 5, 6),
		item(abi.OpYield, 3),
		item(abi.OpRequeue, 3),
		item(abi.OpWaitIO, 3, 99),
	}
	_, err := r.Publish(items)
	require.NoError(t, err)
	_, err = r.Step(ctxT(t))
	require.NoError(t, err)
	obs := r.Observable()
	assert.EqualValues(t, 0xABCD, obs[0], "STORE_U32")
	assert.EqualValues(t, 5, obs[1], "ATOMIC_ADD")
	assert.EqualValues(t, abi.Magic, obs[2], "LOAD_U32 of MAGIC")
	assert.EqualValues(t, 77, obs[3], "COMPARE_SWAP swapped")
	assert.EqualValues(t, 0, obs[4], "COMPARE_SWAP old")
	assert.EqualValues(t, 0, obs[5], "COMPARE_SWAP kept")
	assert.EqualValues(t, 0, obs[6], "COMPARE_SWAP old")
	assert.Equal(t, []uint32{abi.Magic, abi.Version, 0}, obs[7:10], "MEMCPY of MAGIC, ABI_VERSION, GENERATION")
	assert.EqualValues(t, 0, obs[10], "DFA_STEP")
	assert.EqualValues(t, 0x7A6, obs[11], "BATCH_FENCE")
	assert.EqualValues(t, 1, r.Telemetry().Control.Epoch)
	assert.Equal(t, ref.Hash(table[:16]), obs[12], "HASH")
	assert.Equal(t, ref.Spin(42, 100), obs[13], "SPIN")
	require.Len(t, r.Log().Records, 1)
	assert.Equal(t, decode.LogRecord{Format: 0x1234, Slot: slotOf(r, 2, 2), A: 5, B: 6}, r.Log().Records[0])
	st := statuses(r)
	assert.Equal(t, 12, st[abi.StatusDone])
	assert.Equal(t, 1, st[abi.StatusYield])
	assert.Equal(t, 1, st[abi.StatusRequeue])
	assert.Equal(t, 1, st[abi.StatusWaitIO])
	m := map[uint32]uint32{}
	for _, x := range r.Telemetry().Control.Metrics {
		m[x.Opcode] = x.Count
	}
	for op := uint32(0); op < 8; op++ {
		assert.NotZero(t, m[op], "OPCODE_METRICS[%d]", op)
	}

	// The parked slots go round once more; WAIT_IO is answered by the IOFunc.
	var asked []uint32
	r.SetIOFunc(func(req host.Item) (host.Item, bool) {
		asked = append(asked, req.Args[0])
		return addItem(20, 1, req.Priority, req.Tenant), true
	})
	rep, err := r.Drain(ctxT(t), 3)
	require.NoError(t, err)
	assert.Equal(t, []uint32{99}, asked)
	assert.EqualValues(t, 1, r.Observable()[20], "the IO answer ran")
	assert.EqualValues(t, 3, rep.DispatchCount, "YIELD and REQUEUE keep coming back until the cap")
	assert.Positive(t, r.Accounting().RequeueCount)
}

func TestFaults(t *testing.T) {
	r := openT(t, shared(t), Options{Slots: 64, Tenants: 1, Observable: 8, LogCapacity: 16, Budget: 8})
	items := []host.Item{
		item(0x1234, 0), // UNKNOWN_OPCODE
		item(abi.OpStoreU32, 0, 1, abi.CtrlObservable+8), // OUT_OF_BOUNDS (one past)
		item(abi.OpStoreU32, 0, 1, abi.CtrlShutdown),     // PROTECTED
		item(abi.OpNop, 0),       // BAD_TENANT (poked)
		item(abi.OpNop, 0),       // BAD_STATE (poked)
		item(abi.OpRaise, 0, 17), // USER_FAULT
	}
	_, err := r.Publish(items)
	require.NoError(t, err)
	poke(r, slotOf(r, 0, 3), abi.SlotTenant, 30)
	poke(r, slotOf(r, 0, 4), abi.SlotStatus, abi.StatusDone)
	ep, err := r.Step(ctxT(t))
	require.NoError(t, err)
	want := []decode.FaultCode{decode.FaultUnknownOpcode, decode.FaultOutOfBounds, decode.FaultProtected,
		decode.FaultBadTenant, decode.FaultBadState, decode.FaultUserFault}
	got := map[uint32]decode.LogRecord{}
	for _, rec := range r.Log().Records {
		require.True(t, rec.IsFault())
		got[rec.Slot] = rec
	}
	require.Len(t, got, len(want))
	for k, code := range want {
		slot := slotOf(r, 0, uint32(k))
		rec, ok := got[slot]
		require.True(t, ok, "fault record of slot %d", slot)
		assert.Equal(t, code, rec.FaultCode(), "slot %d", slot)
		assert.Equal(t, items[k].Opcode, rec.A, "the record carries the opcode")
		assert.EqualValues(t, r.q.Epoch(), rec.B)
		assert.EqualValues(t, abi.StatusFault, slotStatus(r, slot))
	}
	tel := r.Telemetry()
	assert.EqualValues(t, 6, tel.Control.Faults)
	assert.EqualValues(t, 6, tel.Control.DoneCount, "faults are terminal")
	assert.EqualValues(t, 6, tel.Occupancy[decode.StatusFault])
	assert.EqualValues(t, 6, ep.Claimed)
	assert.Equal(t, 6, r.ReclaimFaults())
	assert.False(t, r.needsSubmit())
}

func TestTenantDenial(t *testing.T) {
	r := openT(t, shared(t), Options{Slots: 64, Masks: []uint32{host.MaskOn, 0}, Observable: 8, Budget: 8})
	_, err := r.Publish([]host.Item{addItem(0, 1, 2, 0), addItem(1, 1, 2, 1), addItem(1, 1, 2, 1)})
	require.NoError(t, err)
	rep, err := r.Drain(ctxT(t), 10)
	require.NoError(t, err)
	assert.EqualValues(t, 1, rep.DispatchCount, "denied slots stay parked: no spinning")
	assert.EqualValues(t, 2, r.Telemetry().Control.Denied)
	assert.EqualValues(t, 2, r.Telemetry().Occupancy[decode.StatusYield])
	assert.Equal(t, []uint32{1, 0}, r.Observable()[:2])
	require.NoError(t, r.SetTenantMask(1, true))
	_, err = r.Drain(ctxT(t), 10)
	require.NoError(t, err)
	assert.Equal(t, []uint32{1, 2}, r.Observable()[:2], "republished and run once each after unmasking")
	assert.EqualValues(t, 2, r.Telemetry().Control.Denied)
	assert.EqualValues(t, 3, r.Telemetry().Control.DoneCount)
	assert.Error(t, r.SetTenantMask(29, true))
}

func TestShutdown(t *testing.T) {
	t.Run("host", func(t *testing.T) {
		r := openT(t, shared(t), Options{Slots: 64, Tenants: 1, Observable: 4, Budget: 4})
		_, err := r.Publish([]host.Item{addItem(0, 1, 0, 0)})
		require.NoError(t, err)
		r.SetShutdown(true)
		ep, err := r.Step(ctxT(t))
		require.NoError(t, err)
		assert.Zero(t, ep.Claimed)
		assert.EqualValues(t, 1, r.Telemetry().Control.Dispatches)
		assert.False(t, r.needsSubmit())
		r.SetShutdown(false)
		_, err = r.Drain(ctxT(t), 4)
		require.NoError(t, err)
		assert.EqualValues(t, 1, r.Observable()[0])
	})
	t.Run("opcode", func(t *testing.T) {
		r := openT(t, shared(t), Options{Slots: 1000, Tenants: 1, Observable: 4, Budget: 1000, WorkgroupSize: 64, Grid: 1})
		items := []host.Item{item(abi.OpShutdown, abi.PriorityCritical)}
		for i := 0; i < 150; i++ {
			items = append(items, addItem(0, 1, abi.PriorityIdle, 0))
		}
		_, err := r.Publish(items)
		require.NoError(t, err)
		_, err = r.Step(ctxT(t))
		require.NoError(t, err)
		tel := r.Telemetry()
		assert.True(t, tel.Control.Shutdown)
		assert.Less(t, r.Observable()[0], uint32(150), "lanes stopped claiming")
		assert.False(t, r.needsSubmit())
		r.SetShutdown(false)
		_, err = r.Drain(ctxT(t), 10)
		require.NoError(t, err)
		assert.EqualValues(t, 150, r.Observable()[0], "the rest ran once each after the host cleared SHUTDOWN")
	})
}

func TestLogOverflow(t *testing.T) {
	r := openT(t, shared(t), Options{Slots: 64, Tenants: 1, Budget: 8, LogCapacity: 4})
	var items []host.Item
	for i := uint32(0); i < 10; i++ {
		items = append(items, item(abi.OpPrintf, 2, i, i*10, i*100))
	}
	_, err := r.Publish(items)
	require.NoError(t, err)
	_, err = r.Step(ctxT(t))
	require.NoError(t, err)
	l := r.Log()
	assert.EqualValues(t, 10, l.Cursor)
	assert.EqualValues(t, 4, l.Capacity)
	assert.EqualValues(t, 6, l.Dropped)
	require.Len(t, l.Records, 4)
	for _, rec := range l.Records {
		assert.Equal(t, rec.Format*10, rec.A)
		assert.Equal(t, rec.Format*100, rec.B)
	}
	assert.EqualValues(t, 10, r.Telemetry().Control.DoneCount, "dropped PRINTFs still complete")
}

// TestPriorityOrder: one workgroup of 64 lanes with a budget of one claim
// each takes only CRITICAL work while there is some.
func TestPriorityOrder(t *testing.T) {
	r := openT(t, shared(t), Options{Slots: 640, Tenants: 1, Observable: 8, Budget: 1, WorkgroupSize: 64, Grid: 1})
	var items []host.Item
	for p := uint32(abi.PriorityLevels); p > 0; p-- { // lowest priority published first
		for i := 0; i < 100; i++ {
			items = append(items, addItem(p-1, 1, p-1, 0))
		}
	}
	_, err := r.Publish(items)
	require.NoError(t, err)
	ep, err := r.Step(ctxT(t))
	require.NoError(t, err)
	assert.EqualValues(t, 64, ep.Claimed)
	assert.Equal(t, []uint32{64, 0, 0, 0, 0}, r.Observable()[:5])
	assert.Equal(t, [5]uint32{64, 0, 0, 0, 0}, r.Telemetry().Control.PriorityFairness)
	assert.EqualValues(t, 64, r.Telemetry().Control.BudgetExhausted)
	ep, err = r.Step(ctxT(t))
	require.NoError(t, err)
	assert.Equal(t, []uint32{100, 28, 0, 0, 0}, r.Observable()[:5], "the rest of CRITICAL, then HIGH")
}

func TestJIT(t *testing.T) {
	r := openT(t, shared(t), Options{Slots: 64, Tenants: 1, Observable: 8, LogCapacity: 4, Budget: 8, Mode: ModeJIT})
	_, err := r.Publish([]host.Item{addItem(0, 2, 2, 0), item(abi.OpSpin, 2, 10, 1, 3)})
	require.NoError(t, err)
	ep, err := r.Step(ctxT(t))
	require.NoError(t, err)
	assert.Equal(t, "jit:0x2,0x101/x64", ep.Program)
	assert.Equal(t, decode.ModeJIT, ep.Telemetry.ExecutionMode)
	assert.EqualValues(t, 2, r.Observable()[0])
	assert.Equal(t, ref.Spin(3, 10), r.Observable()[1])
	_, err = r.Publish([]host.Item{addItem(0, 2, 2, 0), item(abi.OpSpin, 2, 10, 2, 3)})
	require.NoError(t, err)
	ep, err = r.Step(ctxT(t))
	require.NoError(t, err)
	assert.True(t, ep.Telemetry.CompiledPipelineCacheHit, "same opcode set, same pipeline")
	_, err = r.Publish([]host.Item{item(abi.OpNop, 2)})
	require.NoError(t, err)
	ep, err = r.Step(ctxT(t))
	require.NoError(t, err)
	assert.Equal(t, "jit:0x0/x64", ep.Program)
	assert.False(t, ep.Telemetry.CompiledPipelineCacheHit)
	assert.EqualValues(t, 5, r.Telemetry().Control.DoneCount)
}

func TestReset(t *testing.T) {
	dev := shared(t)
	o := Options{Slots: 64, Tenants: 1, Observable: 8, LogCapacity: 4, Budget: 8}
	r := openT(t, dev, o)
	_, err := r.Publish([]host.Item{addItem(0, 1, 0, 0)})
	require.NoError(t, err)
	_, err = r.Step(ctxT(t))
	require.NoError(t, err)
	gen := r.Telemetry().Control.Generation

	require.NoError(t, r.Reset(o))
	_, err = r.Publish([]host.Item{addItem(1, 1, 0, 0)})
	require.NoError(t, err)
	ep, err := r.Step(ctxT(t))
	require.NoError(t, err)
	assert.Equal(t, gen+1, r.Telemetry().Control.Generation)
	assert.True(t, ep.Telemetry.ResidentInputCacheHit, "same shapes, same buffers")
	assert.True(t, ep.Telemetry.CompiledPipelineCacheHit)
	assert.Equal(t, []uint32{0, 1}, r.Observable()[:2], "a fresh generation starts from zero")
	assert.EqualValues(t, 1, r.Telemetry().Control.DoneCount)

	o.Slots, o.LogCapacity = 128, 8
	require.NoError(t, r.Reset(o))
	ep, err = r.Step(ctxT(t))
	require.NoError(t, err)
	assert.False(t, ep.Telemetry.ResidentInputCacheHit)
	assert.EqualValues(t, 4, ep.Telemetry.ResidentAllocations, "ring, log and two staging buffers")
	assert.Equal(t, gen+2, r.Telemetry().Control.Generation)
	assert.EqualValues(t, 128, r.Telemetry().Occupancy.TotalSlots())

	var oe *OptionError
	assert.ErrorAs(t, r.Reset(Options{Slots: 1}), &oe, "budget 0 refused")
	assert.EqualValues(t, 128, r.q.Slots(), "a refused Reset changes nothing")
}

func TestRefusedBeforeGPUWork(t *testing.T) {
	dev := testDevice(t)
	before := dev.Stats()
	for _, o := range []Options{
		{Slots: 0, Budget: 1},
		{Slots: 8, Budget: 0},
		{Slots: 8, Budget: 1, Tenants: 29 + 1},
		{Slots: 8, Budget: 1, WindowOpcodes: make([]uint32, 65)},
		{Slots: 1 << 22, Budget: 1}, // 256 MiB ring
	} {
		_, err := Open(ctxT(t), dev, o)
		var oe *OptionError
		assert.ErrorAs(t, err, &oe, "%+v", o)
	}
	_, err := Open(ctxT(t), dev, Options{Slots: 1024, Budget: 1, MemoryBudgetBytes: 64 << 10})
	var oom *decode.OutOfMemoryError
	require.ErrorAs(t, err, &oom)
	assert.EqualValues(t, 64<<10, oom.Available)
	assert.Greater(t, oom.Requested, oom.Available)
	assert.Equal(t, before, dev.Stats(), "nothing created, uploaded or compiled")
}

func TestDeviceLossAndRebind(t *testing.T) {
	dev := testDevice(t)
	r := openT(t, dev, Options{Slots: 500, Tenants: 1, Observable: 300, Budget: 1, WorkgroupSize: 64, Grid: 1})
	items := make([]host.Item, 300)
	for i := range items {
		items[i] = addItem(uint32(i), 1, uint32(i)%abi.PriorityLevels, 0)
	}
	_, err := r.Publish(items[:200])
	require.NoError(t, err)
	ep, err := r.Step(ctxT(t))
	require.NoError(t, err)
	require.EqualValues(t, 64, ep.Claimed)
	_, err = r.Publish(items[200:])
	require.NoError(t, err)

	dev.Destroy()
	_, err = r.Step(ctxT(t))
	require.ErrorIs(t, err, webgpu.ErrDeviceLost)
	_, err = r.Drain(ctxT(t), 10)
	require.ErrorIs(t, err, webgpu.ErrDeviceLost)
	assert.ErrorIs(t, r.Reset(r.Options()), webgpu.ErrDeviceLost)

	dev2 := testDevice(t)
	require.NoError(t, r.Rebind(ctxT(t), dev2))
	rep, err := r.Drain(ctxT(t), 20)
	require.NoError(t, err)
	assert.EqualValues(t, 300, rep.ItemsProcessed)
	for i, v := range r.Observable() {
		require.EqualValues(t, 1, v, "OBSERVABLE[%d]: exactly once across the device loss", i)
	}
	first := rep.Dispatches[0]
	assert.EqualValues(t, 7, first.ResidentAllocations)
	assert.False(t, first.CompiledPipelineCacheHit)
}

func TestClosed(t *testing.T) {
	r := openT(t, shared(t), Options{Slots: 8, Budget: 1})
	r.Close()
	_, err := r.Step(ctxT(t))
	assert.ErrorIs(t, err, ErrClosed)
	_, err = r.Publish([]host.Item{{}})
	assert.ErrorIs(t, err, ErrClosed)
	assert.True(t, errors.Is(fmt.Errorf("x: %w", ErrClosed), ErrClosed))
}

// TestAutoMode: the launch policy picks JIT for a long queue (4,096 items
// and more) and the interpreter for a short one.
func TestAutoMode(t *testing.T) {
	r := openT(t, shared(t), Options{Slots: 5000, Tenants: 1, Observable: 1, Budget: 8,
		Partitions: [6]uint32{0, 0, 0, 5000, 5000, 5000}})
	items := make([]host.Item, 4096)
	for i := range items {
		items[i] = addItem(0, 1, abi.PriorityNormal, 0)
	}
	_, err := r.Publish(items)
	require.NoError(t, err)
	ep, err := r.Step(ctxT(t))
	require.NoError(t, err)
	assert.Equal(t, decode.ModeJIT, ep.Launch.ExecutionMode)
	assert.Equal(t, decode.ModeJIT, ep.Telemetry.ExecutionMode)
	assert.Equal(t, "jit:0x2/x64", ep.Program)
	_, err = r.Drain(ctxT(t), 10)
	require.NoError(t, err)
	assert.EqualValues(t, 4096, r.Observable()[0])

	_, err = r.Publish(items[:10])
	require.NoError(t, err)
	ep, err = r.Step(ctxT(t))
	require.NoError(t, err)
	assert.Equal(t, decode.ModeInterpreter, ep.Telemetry.ExecutionMode)
	assert.Equal(t, "interpreter/x64", ep.Program)
	assert.EqualValues(t, 4106, r.Observable()[0])
}

// TestTimestamps: on a device with timestamp-query, each Step reports the
// drain pass's GPU time and reads the two timestamps back with the rest.
func TestTimestamps(t *testing.T) {
	ctx := ctxT(t)
	a, err := webgpu.RequestAdapter(ctx, webgpu.RequestAdapterOptions{})
	require.NoError(t, err)
	if !a.HasFeature(webgpu.FeatureTimestampQuery) {
		t.Skip("the adapter has no timestamp-query feature")
	}
	dev, err := a.RequestDevice(ctx, webgpu.DeviceDescriptor{RequiredFeatures: []string{webgpu.FeatureTimestampQuery}})
	require.NoError(t, err)
	t.Cleanup(dev.Destroy)
	o := Options{Slots: 1000, Tenants: 1, Observable: 1, Budget: 8}
	r := openT(t, dev, o)
	items := make([]host.Item, 150)
	for i := range items {
		items[i] = item(abi.OpSpin, 2, 1000, 0, uint32(i))
	}
	_, err = r.Publish(items)
	require.NoError(t, err)
	rep, err := r.Drain(ctx, 4)
	require.NoError(t, err)
	last, ok := rep.Last()
	require.True(t, ok)
	assert.EqualValues(t, 8, rep.Dispatches[0].ResidentAllocations, "the bindings, two staging buffers and the resolve buffer")
	assert.EqualValues(t, o.layout().staging(), last.BytesReadBack, "timestamps, control, log and ring")
	assert.LessOrEqual(t, rep.GPUTime, rep.WallTime, "device time inside the host's wall time")
	if a.IsCPU() {
		// A CPU adapter takes milliseconds here. A real GPU finishes this in
		// microseconds, below the timestamp quantisation (measured 0 on an
		// H200 under Dawn), so only the bound above holds there.
		assert.Positive(t, rep.GPUTime)
	}
	t.Logf("GPU time of %d submissions: %v (wall %v)", rep.DispatchCount, rep.GPUTime, rep.WallTime)
}

func TestQuotasAndEpoch(t *testing.T) {
	var quotas [abi.TenantCount]uint32
	quotas[0] = 2
	r := openT(t, shared(t), Options{Slots: 64, Tenants: 1, Quotas: quotas, Observable: 1, LogCapacity: 4, Budget: 4})
	_, err := r.Publish([]host.Item{addItem(0, 1, 2, 0), addItem(0, 1, 2, 0)})
	require.NoError(t, err)
	_, err = r.Publish([]host.Item{addItem(0, 1, 2, 0)})
	require.ErrorIs(t, err, host.ErrQuota)
	r.NewEpoch()
	_, err = r.Publish([]host.Item{item(abi.OpRaise, 2)})
	require.NoError(t, err)
	_, err = r.Drain(ctxT(t), 4)
	require.NoError(t, err)
	assert.EqualValues(t, 2, r.Observable()[0])
	require.Len(t, r.Log().Records, 1)
	assert.EqualValues(t, 1, r.Log().Records[0].B, "the fault record carries the host epoch")
}

// TestRequeue drives Steps by hand, as the page's live loop does.
func TestRequeue(t *testing.T) {
	r := openT(t, shared(t), Options{Slots: 64, Tenants: 1, Observable: 1, Budget: 4})
	_, err := r.Publish([]host.Item{item(abi.OpYield, 2), item(abi.OpRequeue, 2), item(abi.OpWaitIO, 2, 5)})
	require.NoError(t, err)
	_, err = r.Step(ctxT(t))
	require.NoError(t, err)
	assert.Zero(t, r.Pending())
	st, err := r.Requeue()
	require.NoError(t, err)
	assert.Equal(t, 1, st.Yielded)
	assert.Equal(t, 1, st.Requeued)
	assert.Equal(t, 1, st.Serviced)
	assert.EqualValues(t, 3, r.Pending())
	assert.EqualValues(t, 1, r.Accounting().RequeueCount)
	r.Close()
	_, err = r.Requeue()
	assert.ErrorIs(t, err, ErrClosed)
}

// TestWarm compiles the next Step's pipelines ahead: that Step waits for
// them and counts a miss, the one after hits; a Rebind while the compile
// is in flight keeps its pipelines off the new device's runner, which
// compiles its own.
func TestWarm(t *testing.T) {
	dev := shared(t) // a new runner starts with no pipelines of its own
	r := openT(t, dev, Options{Slots: 64, Tenants: 1, Observable: 4, Budget: 8})
	_, err := r.Publish([]host.Item{addItem(0, 1, 2, 0), addItem(1, 1, 2, 0)})
	require.NoError(t, err)
	r.Warm(ctxT(t))
	require.NotNil(t, r.prog.warming, "the compile is in flight when Warm returns")
	r.Warm(ctxT(t)) // a second Warm while one is in flight does nothing
	ep, err := r.Step(ctxT(t))
	require.NoError(t, err)
	assert.False(t, ep.Telemetry.CompiledPipelineCacheHit, "the first Step waited for the compile")
	assert.Nil(t, r.prog.warming)
	assert.EqualValues(t, []uint32{1, 1, 0, 0}, r.Observable())

	_, err = r.Publish([]host.Item{addItem(2, 1, 2, 0)})
	require.NoError(t, err)
	r.Warm(ctxT(t)) // the same program: already compiled
	ep, err = r.Step(ctxT(t))
	require.NoError(t, err)
	assert.True(t, ep.Telemetry.CompiledPipelineCacheHit)

	// Rebind while a compile is in flight (a new layout to compile for).
	_, err = r.Publish([]host.Item{addItem(3, 1, 2, 0)})
	require.NoError(t, err)
	r.Warm(ctxT(t))
	require.NoError(t, r.Rebind(ctxT(t), dev))
	assert.Nil(t, r.prog.warming)
	ep, err = r.Step(ctxT(t))
	require.NoError(t, err)
	assert.False(t, ep.Telemetry.CompiledPipelineCacheHit, "pipelines compiled anew after Rebind")
	assert.EqualValues(t, []uint32{1, 1, 1, 1}, r.Observable())
}

// TestStagedRingUpload: a ring upload of stagedUploadMin bytes or more goes
// through the mapped staging (upload_js.go) and drains as writeBuffer's
// would, twice (the staging maps again between submissions), with the
// bytes counted as uploaded.
func TestStagedRingUpload(t *testing.T) {
	const slots = 2 * stagedUploadMin / abi.SlotBytes
	parts := [abi.PriorityLevels + 1]uint32{0, 0, 0, slots, slots, slots}
	r := openT(t, shared(t), Options{Slots: slots, Tenants: 1, Observable: 1, Budget: 64, Partitions: parts})
	require.NotZero(t, r.lay.upload())
	_, err := r.Step(ctxT(t)) // the fresh ring goes by writeBuffer
	require.NoError(t, err)
	require.Nil(t, r.up.buf)
	for round := range 2 {
		items := make([]host.Item, slots)
		for i := range items {
			items[i] = addItem(0, 1, abi.PriorityNormal, 0)
		}
		_, err := r.Publish(items)
		require.NoError(t, err)
		ep, err := r.Step(ctxT(t))
		require.NoError(t, err)
		require.NotNil(t, r.up.buf, "round %d: the ring went through the staging", round)
		assert.GreaterOrEqual(t, ep.Telemetry.BytesUploaded, uint64(stagedUploadMin), "round %d", round)
		_, err = r.Drain(ctxT(t), 8)
		require.NoError(t, err)
		assert.EqualValues(t, (round+1)*slots, r.Observable()[0], "round %d: every item ran once", round)
		assert.EqualValues(t, slots, r.Telemetry().Occupancy[decode.StatusDone], "round %d", round)
	}
}

// BenchmarkStep is a page-like steady state: 64 NOPs published, then one
// Step of a 4,096-slot ring under decode.ReadbackSummary (the page's) and decode.ReadbackFull:
// the host's cost per submission around a GPU that has little to do.
func BenchmarkStep(b *testing.B) {
	items := make([]host.Item, 64)
	for i := range items {
		items[i] = host.Item{Opcode: abi.OpNop, Priority: uint32(i % abi.PriorityLevels)}
	}
	for _, c := range []struct {
		name string
		mode decode.Readback
	}{{"summary", decode.ReadbackSummary}, {"ring", decode.ReadbackFull}} {
		b.Run(c.name, func(b *testing.B) {
			r := openT(b, shared(b), Options{Slots: 4096, Tenants: 1, Budget: 64, WorkgroupSize: 64, Readback: c.mode})
			ctx := context.Background()
			if _, err := r.Step(ctx); err != nil { // compiles, creates the buffers
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := r.Publish(items); err != nil {
					b.Fatal(err)
				}
				if _, err := r.Step(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
