package ref_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/ref"
)

func TestClaimFaults(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edit   func(ring []byte) // applied to slot 4 of the GPU copy
		status uint32
		fault  uint32
		denied bool
	}{
		{name: "BAD_STATE on a DONE slot", edit: func(r []byte) { setW(r, 4*abi.SlotWords, abi.StatusDone) }, status: abi.StatusFault, fault: abi.FaultBadState},
		{name: "BAD_STATE on an EMPTY slot", edit: func(r []byte) { setW(r, 4*abi.SlotWords, abi.StatusEmpty) }, status: abi.StatusFault, fault: abi.FaultBadState},
		{name: "BAD_STATE on an unknown status", edit: func(r []byte) { setW(r, 4*abi.SlotWords, 99) }, status: abi.StatusFault, fault: abi.FaultBadState},
		{name: "BAD_TENANT 29", edit: func(r []byte) { setW(r, 4*abi.SlotWords+abi.SlotTenant, 29) }, status: abi.StatusFault, fault: abi.FaultBadTenant},
		{name: "BAD_TENANT max", edit: func(r []byte) { setW(r, 4*abi.SlotWords+abi.SlotTenant, ^uint32(0)) }, status: abi.StatusFault, fault: abi.FaultBadTenant},
		{name: "denied tenant", edit: func(r []byte) { setW(r, 4*abi.SlotWords+abi.SlotTenant, 2) }, status: abi.StatusYield, denied: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, rigConfig{observable: 1, tenants: 2, epoch: 1})
			r.publish(host.Item{Opcode: abi.OpStoreU32, Tenant: 1, Priority: 2, Args: args(5, abi.CtrlObservable)})
			r.upload()
			tc.edit(r.b.Ring)
			res := r.runGPU(2, one)
			assert.Equal(t, tc.status, r.status(4))
			assert.Zero(t, r.obs(0), "the opcode did not run")
			assert.Zero(t, r.ctl(abi.CtrlClaims))
			assert.Zero(t, r.ctl(abi.CtrlOpcodeMetrics+int(abi.OpStoreU32)))
			assert.Zero(t, r.ctl(abi.CtrlPriorityClaims+2))
			assert.Equal(t, uint32(1), r.ctl(abi.CtrlHead+2))
			assert.Equal(t, uint64(1), res.Claims)
			if tc.denied {
				assert.Equal(t, uint32(1), r.ctl(abi.CtrlDenied))
				assert.Equal(t, uint64(1), res.Denied)
				assert.Zero(t, r.ctl(abi.CtrlDoneCount))
				assert.Empty(t, r.records())
				return
			}
			assert.Equal(t, uint32(1), r.ctl(abi.CtrlDoneCount))
			assert.Equal(t, uint32(1), r.ctl(abi.CtrlFaults))
			op := w(r.b.Ring, 4*abi.SlotWords+abi.SlotOpcode)
			assert.Equal(t, [][4]uint32{{abi.LogFaultTag | tc.fault, 4, op, 1}}, r.records())
		})
	}
}

func TestDeniedTenantRunsOnceEnabled(t *testing.T) {
	r := newRig(t, rigConfig{observable: 1, tenants: 1})
	r.publish(host.Item{Opcode: abi.OpAtomicAdd, Tenant: 3, Priority: 1, Args: args(1, abi.CtrlObservable)})
	r.run(4, one)
	assert.Equal(t, uint32(abi.StatusYield), r.status(2))
	st, err := r.q.Requeue(nil)
	require.NoError(t, err)
	assert.Equal(t, host.RequeueStats{Parked: 1}, st)
	assert.False(t, r.q.NeedsSubmit())
	require.NoError(t, r.q.SetTenantMask(3, true))
	_, err = r.q.Requeue(nil)
	require.NoError(t, err)
	r.run(4, one)
	assert.Equal(t, uint32(1), r.obs(0))
	assert.Equal(t, uint32(1), r.ctl(abi.CtrlDenied))
	assert.Equal(t, uint32(1), r.ctl(abi.CtrlDoneCount))
}

func TestShutdown(t *testing.T) {
	t.Run("host-set", func(t *testing.T) {
		r := newRig(t, rigConfig{})
		r.publish(host.Item{Priority: 2}, host.Item{Priority: 0})
		r.q.SetShutdown(true)
		res := r.run(5, ref.Grid{Workgroups: 3, Width: 4})
		assert.Equal(t, ref.Result{Lanes: 12, Iterations: 12}, res, "every lane begins one iteration and stops")
		assert.Equal(t, uint32(abi.StatusPublished), r.status(0))
		assert.Zero(t, r.ctl(abi.CtrlHead))
		assert.Zero(t, r.ctl(abi.CtrlBudgetExhausted), "stopped by SHUTDOWN, not by the budget")
		assert.Equal(t, uint32(1), r.ctl(abi.CtrlDispatches))
		assert.False(t, r.q.NeedsSubmit())
	})
	t.Run("opcode", func(t *testing.T) {
		r := newRig(t, rigConfig{})
		r.publish(host.Item{Priority: 1}, host.Item{Opcode: abi.OpShutdown, Priority: 0},
			host.Item{Priority: 2}, host.Item{Priority: 0})
		// 3 lanes: round 0 runs CRITICAL SHUTDOWN (lane 0), then lane 1 sees
		// SHUTDOWN and stops, and so does lane 2.
		res := r.run(10, ref.Grid{Workgroups: 1, Width: 3})
		assert.Equal(t, uint64(1), res.Claims)
		assert.Equal(t, uint64(3+1), res.Iterations, "lane 0 stops at the top of round 1")
		assert.Equal(t, uint32(1), r.ctl(abi.CtrlShutdown))
		assert.Equal(t, uint32(abi.StatusDone), r.status(0))
		assert.Equal(t, uint32(abi.StatusPublished), r.status(1), "second CRITICAL item not claimed")
		assert.Equal(t, []uint32{1, 0, 0}, []uint32{r.ctl(abi.CtrlHead), r.ctl(abi.CtrlHead + 1), r.ctl(abi.CtrlHead + 2)})
		assert.Zero(t, r.ctl(abi.CtrlBudgetExhausted))
		r.q.SetShutdown(false) // the host resumes
		assert.True(t, r.q.NeedsSubmit())
		r.run(10, one)
		assert.Equal(t, uint32(4), r.ctl(abi.CtrlDoneCount))
	})
}

func TestLogOverflow(t *testing.T) {
	r := newRig(t, rigConfig{slots: 25, logCap: 2})
	for i := uint32(0); i < 4; i++ {
		r.publish(host.Item{Opcode: abi.OpPrintf, Priority: 2, Args: args(100+i, i, 2*i)})
	}
	r.publish(host.Item{Opcode: abi.OpRaise, Priority: 2})
	res := r.run(10, one)
	assert.Equal(t, uint64(5), res.Records)
	assert.Equal(t, uint32(5), w(r.b.Log, abi.LogCursor), "CURSOR counts attempts")
	assert.Equal(t, uint32(2), w(r.b.Log, abi.LogCapacity))
	assert.Equal(t, [][4]uint32{{100, 10, 0, 0}, {101, 11, 1, 2}}, r.records())
	assert.Len(t, r.b.Log, int(abi.LogWords(2))*abi.WordBytes)
	assert.Equal(t, uint32(4), r.ctl(abi.CtrlDoneCount)-r.ctl(abi.CtrlFaults), "PRINTF is DONE even when dropped")

	t.Run("CAPACITY larger than the buffer", func(t *testing.T) {
		r := newRig(t, rigConfig{logCap: 1})
		r.publish(host.Item{Opcode: abi.OpPrintf, Priority: 2, Args: args(1)}, host.Item{Opcode: abi.OpPrintf, Priority: 2, Args: args(2)})
		r.upload()
		setW(r.b.Log, abi.LogCapacity, 1000)
		r.runGPU(10, one)
		assert.Equal(t, uint32(2), w(r.b.Log, abi.LogCursor))
		assert.Equal(t, uint32(1), w(r.b.Log, abi.LogHeaderWords))
		assert.Len(t, r.b.Log, int(abi.LogWords(1))*abi.WordBytes)
	})
	t.Run("CAPACITY zero", func(t *testing.T) {
		r := newRig(t, rigConfig{logCap: 1})
		r.publish(host.Item{Opcode: abi.OpPrintf, Priority: 2, Args: args(1)})
		r.upload()
		setW(r.b.Log, abi.LogCapacity, 0)
		r.runGPU(10, one)
		assert.Equal(t, uint32(1), w(r.b.Log, abi.LogCursor))
		assert.Zero(t, w(r.b.Log, abi.LogHeaderWords))
	})
}

func TestPriorityOrderWithinBudget(t *testing.T) {
	r := newRig(t, rigConfig{})
	// Published lowest priority first; PRINTF records the execution order.
	for p := uint32(abi.PriorityIdle) + 1; p > 0; p-- {
		r.publish(host.Item{Opcode: abi.OpPrintf, Priority: p - 1, Args: args(p - 1)})
	}
	res := r.run(3, one)
	assert.Equal(t, uint64(3), res.Claims)
	assert.Equal(t, []uint32{0, 1, 2}, formats(r.records()), "CRITICAL, HIGH, NORMAL")
	assert.Equal(t, []uint32{1, 1, 1, 0, 0}, words(r, abi.CtrlPriorityClaims, 5))
	assert.Equal(t, uint32(1), r.ctl(abi.CtrlBudgetExhausted))
	assert.Equal(t, uint64(1), res.Exhausted)
	assert.True(t, r.q.NeedsSubmit())
	res = r.run(3, one)
	assert.Equal(t, uint64(2), res.Claims)
	assert.Equal(t, uint64(3), res.Iterations, "two claims, then the failed one")
	assert.Equal(t, []uint32{0, 1, 2, 3, 4}, formats(r.records()))
	assert.Equal(t, uint32(1), r.ctl(abi.CtrlBudgetExhausted), "nothing left: not exhausted again")
	assert.False(t, r.q.NeedsSubmit())
}

func TestPriorityOrderAcrossLanes(t *testing.T) {
	// Each round takes the highest-priority pending work first, lane by lane.
	r := newRig(t, rigConfig{slots: 20})
	for _, p := range []uint32{4, 4, 3, 0, 2, 0, 1} {
		r.publish(host.Item{Opcode: abi.OpPrintf, Priority: p, Args: args(p)})
	}
	r.run(1, ref.Grid{Workgroups: 1, Width: 4})
	assert.Equal(t, []uint32{0, 0, 1, 2}, formats(r.records()))
}

func formats(recs [][4]uint32) []uint32 {
	out := make([]uint32, len(recs))
	for i, r := range recs {
		out[i] = r[0]
	}
	return out
}

func words(r *rig, start, n int) []uint32 {
	out := make([]uint32, n)
	for i := range out {
		out[i] = r.ctl(start + i)
	}
	return out
}

func TestExactlyOnce(t *testing.T) {
	for _, tc := range []struct {
		name   string
		slots  uint32
		items  int
		grid   ref.Grid
		budget uint32
	}{
		{name: "lanes ≫ slots", slots: 10, items: 10, grid: ref.Grid{Workgroups: 64, Width: 64}, budget: 4},
		{name: "slots ≫ lanes", slots: 1000, items: 1000, grid: ref.Grid{Workgroups: 1, Width: 2}, budget: 600},
		{name: "one lane", slots: 100, items: 100, grid: one, budget: 101},
		{name: "partial ring", slots: 500, items: 37, grid: ref.Grid{Workgroups: 3, Width: 64}, budget: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, rigConfig{slots: tc.slots, observable: uint32(tc.items)})
			items := make([]host.Item, tc.items)
			for i := range items {
				items[i] = host.Item{Opcode: abi.OpAtomicAdd, Priority: uint32(i % abi.PriorityLevels), Args: args(1, abi.CtrlObservable+uint32(i))}
			}
			r.publish(items...)
			res := r.run(tc.budget, tc.grid)
			for i := 0; i < tc.items; i++ {
				require.Equal(t, uint32(1), r.obs(i), "item %d ran once", i)
			}
			assert.Equal(t, uint64(tc.items), res.Claims)
			assert.Equal(t, uint32(tc.items), r.ctl(abi.CtrlDoneCount))
			assert.Equal(t, uint32(tc.items), r.ctl(abi.CtrlClaims))
			assert.Equal(t, uint64(tc.items), res.Done)
			assert.LessOrEqual(t, res.Iterations, res.Lanes*uint64(tc.budget))
			assert.Zero(t, r.ctl(abi.CtrlBudgetExhausted))
			assert.False(t, r.q.NeedsSubmit())
		})
	}
}

func TestBudgetExhaustionAndRelaunch(t *testing.T) {
	r := newRig(t, rigConfig{slots: 200, observable: 100})
	items := make([]host.Item, 100)
	for i := range items {
		items[i] = host.Item{Opcode: abi.OpStoreU32, Priority: uint32(i % 5), Args: args(uint32(i), abi.CtrlObservable+uint32(i))}
	}
	r.publish(items...)
	grid := ref.Grid{Workgroups: 1, Width: 2}
	var submissions, exhausted int
	for r.q.NeedsSubmit() {
		require.Less(t, submissions, 10)
		res := r.run(10, grid)
		submissions++
		assert.LessOrEqual(t, res.Iterations, uint64(20))
		if res.Exhausted > 0 {
			exhausted++
			assert.Equal(t, uint64(20), res.Claims)
		}
	}
	assert.Equal(t, 5, submissions, "100 items at 2 lanes × 10")
	assert.Equal(t, 4, exhausted, "the 5th submission drained the rest")
	assert.Equal(t, uint32(8), r.ctl(abi.CtrlBudgetExhausted))
	assert.Equal(t, uint32(5), r.ctl(abi.CtrlDispatches))
	assert.Equal(t, uint32(100), r.ctl(abi.CtrlDoneCount))
	for i := 0; i < 100; i++ {
		assert.Equal(t, uint32(i), r.obs(i))
	}
}

func TestRequeueRoundTrip(t *testing.T) {
	// YIELD, REQUEUE and WAIT_IO come back through the host's Requeue and
	// run again in later submissions.
	r := newRig(t, rigConfig{slots: 20, observable: 2})
	r.publish(host.Item{Opcode: abi.OpWaitIO, Tenant: 1, Priority: 3, Args: args(7)},
		host.Item{Opcode: abi.OpRequeue, Priority: 4})
	io := func(req host.Item) (host.Item, bool) {
		return host.Item{Opcode: abi.OpStoreU32, Tenant: req.Tenant, Args: args(req.Args[0]*6, abi.CtrlObservable)}, true
	}
	var promoted int
	for sub := 0; r.q.NeedsSubmit() && sub < 200; sub++ {
		r.run(4, one)
		st, err := r.q.Requeue(io)
		require.NoError(t, err)
		promoted += st.Promoted
		if promoted == 4 { // reached CRITICAL: let it finish
			for s := uint32(0); s < 20; s++ {
				if it, status, _ := r.q.Item(s); status == abi.StatusPublished && it.Opcode == abi.OpRequeue {
					setW(r.q.Ring(), int(s)*abi.SlotWords+abi.SlotOpcode, abi.OpNop)
				}
			}
		}
	}
	assert.Equal(t, uint32(42), r.obs(0), "WAIT_IO serviced, continuation ran")
	assert.Equal(t, 4, promoted, "IDLE → CRITICAL after 4 × 32 requeues")
	assert.Equal(t, uint32(1), r.ctl(abi.CtrlPriorityClaims), "the NOP ran at CRITICAL")
	assert.Equal(t, uint32(2), r.ctl(abi.CtrlDoneCount))
	assert.False(t, r.q.NeedsSubmit())
}

func TestFinalizeClamp(t *testing.T) {
	for _, tc := range []struct {
		name string
		grid ref.Grid
	}{{"one lane", one}, {"no lanes", ref.Grid{}}} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, rigConfig{})
			r.publish(host.Item{Priority: 1})
			r.upload()
			setW(r.b.Control, abi.CtrlHead, 7)   // past TAIL[0] = 0, like lanes that overshot
			setW(r.b.Control, abi.CtrlHead+1, 5) // past TAIL[1] = 1
			res := r.runGPU(3, tc.grid)
			assert.Zero(t, res.Claims, "HEAD ≥ TAIL: nothing to claim")
			assert.Equal(t, []uint32{0, 1, 0, 0, 0}, words(r, abi.CtrlHead, 5))
			assert.Equal(t, uint32(abi.StatusPublished), r.status(2))
			assert.Equal(t, b2u(tc.grid.Lanes() > 0), r.ctl(abi.CtrlDispatches))
		})
	}
}

func TestUnusablePartitions(t *testing.T) {
	r := newRig(t, rigConfig{slots: 10})
	r.publish(host.Item{Priority: 0}, host.Item{Priority: 2}, host.Item{Priority: 4})
	r.upload()
	// Offsets that point past the ring, and an inverted one.
	setW(r.b.Control, abi.CtrlPriorityOffsets+5, 11)
	setW(r.b.Control, abi.CtrlPriorityOffsets+1, 5)
	res := r.exec(10, one)
	// p0 [0,5): usable; p1 [5,4): inverted; p2 [4,6): usable; p3 [6,8) usable; p4 [8,11) past the ring.
	assert.Equal(t, uint64(2), res.Claims)
	assert.Equal(t, []uint32{1, 0, 1, 0, 0}, words(r, abi.CtrlHead, 5))
	assert.Zero(t, r.ctl(abi.CtrlBudgetExhausted), "the unusable partition is not remaining work")
}

func TestZeroBudget(t *testing.T) {
	r := newRig(t, rigConfig{})
	r.publish(host.Item{Priority: 2})
	res := r.run(0, ref.Grid{Workgroups: 2, Width: 8})
	assert.Equal(t, ref.Result{Lanes: 16, Exhausted: 16}, res)
	assert.Equal(t, uint32(16), r.ctl(abi.CtrlBudgetExhausted))
}

func TestMalformedBuffers(t *testing.T) {
	good := func() ref.Buffers {
		q, err := host.NewQueue(host.ControlConfig{Slots: 2}, 1)
		require.NoError(t, err)
		p := q.Params(1).Bytes()
		return ref.Buffers{Control: q.Control(), Ring: q.Ring(), Log: q.Log(), Params: p[:], Data: make([]byte, 4)}
	}
	for _, tc := range []struct {
		name string
		edit func(*ref.Buffers)
		err  string
	}{
		{"control not words", func(b *ref.Buffers) { b.Control = append(b.Control, 0) }, "ref: control length 641 bytes is not a whole number of 4-byte words"},
		{"control short", func(b *ref.Buffers) { b.Control = b.Control[:636] }, "ref: control length 636 bytes is shorter than 640"},
		{"ring empty", func(b *ref.Buffers) { b.Ring = nil }, "ref: ring length 0 bytes"},
		{"ring partial slot", func(b *ref.Buffers) { b.Ring = b.Ring[:100] }, "ref: ring length 100 bytes is not a whole"},
		{"log short", func(b *ref.Buffers) { b.Log = b.Log[:12] }, "ref: log length 12 bytes"},
		{"log partial record", func(b *ref.Buffers) { b.Log = b.Log[:24] }, "ref: log length 24 bytes"},
		{"params short", func(b *ref.Buffers) { b.Params = b.Params[:12] }, "ref: params length 12 bytes, want 16"},
		{"params long", func(b *ref.Buffers) { b.Params = make([]byte, 20) }, "ref: params length 20 bytes, want 16"},
		{"data empty", func(b *ref.Buffers) { b.Data = nil }, "ref: data buffer is empty"},
		{"data not words", func(b *ref.Buffers) { b.Data = make([]byte, 5) }, "ref: data length 5 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := good()
			tc.edit(&b)
			before := [][]byte{clone(b.Control), clone(b.Ring), clone(b.Log)}
			_, err := ref.Run(b, one)
			assert.EqualError(t, err, tc.err+errSuffix(err, tc.err))
			assert.Equal(t, before, [][]byte{b.Control, b.Ring, b.Log}, "nothing changed")
		})
	}
}

// errSuffix lets a case name only the start of the message.
func errSuffix(err error, prefix string) string {
	if err == nil || len(err.Error()) < len(prefix) {
		return ""
	}
	return err.Error()[len(prefix):]
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }

func TestDeterministic(t *testing.T) {
	mk := func() *rig {
		r := newRig(t, rigConfig{slots: 50, observable: 4})
		for i := uint32(0); i < 40; i++ {
			r.publish(host.Item{Opcode: []uint32{abi.OpAtomicAdd, abi.OpPrintf, abi.OpYield, abi.OpRaise}[i%4], Priority: i % 5, Args: args(i, abi.CtrlObservable+i%4)})
		}
		r.upload()
		return r
	}
	a, b := mk(), mk()
	ra := a.runGPU(3, ref.Grid{Workgroups: 2, Width: 3})
	rb := b.runGPU(3, ref.Grid{Workgroups: 2, Width: 3})
	assert.Equal(t, ra, rb)
	assert.Equal(t, a.b, b.b)
}
