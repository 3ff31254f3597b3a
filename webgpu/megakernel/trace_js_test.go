//go:build js && wasm

package megakernel

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/tasktrace"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/examples"
	"github.com/ringscope/ringscope/wgsl/host"
)

// randomTraceItems is a workload of n items of the opcodes that end a
// slot in one run (DONE, YIELD through a masked tenant, FAULT), random
// priorities and two tenants, the second masked off.
func randomTraceItems(rng *rand.Rand, n int) []host.Item {
	items := make([]host.Item, n)
	for i := range items {
		p := rng.Uint32N(abi.PriorityLevels)
		var it host.Item
		switch rng.IntN(5) {
		case 0:
			it = item(abi.OpNop, p)
		case 1:
			it = item(abi.OpSpin, p, rng.Uint32N(64), 0, rng.Uint32())
		case 2:
			it = addItem(1, 1, p, 0)
		case 3:
			it = item(abi.OpLoadU32, p, 1<<20, 0) // faults OUT_OF_BOUNDS
		default:
			it = item(abi.OpNop, p)
			it.Tenant = 1 // masked: YIELD, DENIED
		}
		items[i] = it
	}
	return items
}

// checkTraceWindow checks a window against the run that made it: every slot
// that ended DONE or FAULT has exactly one record saying so, and the
// records' count equals DONE_COUNT; tickets are unique and a record's
// start precedes its end; every pass handed out two tickets per record;
// nothing overflowed.
func checkTraceWindow(t *testing.T, r *Runner, w *TraceWindow) {
	t.Helper()
	require.NotNil(t, w)
	assert.Zero(t, w.Overflow)
	seen := map[uint32]bool{}
	ended := map[uint32]int{}
	var finished uint32
	for _, rec := range w.Records {
		assert.Less(t, rec.Start, rec.End, "slot %d", rec.Slot)
		assert.False(t, seen[rec.Start] || seen[rec.End], "tickets are unique")
		seen[rec.Start], seen[rec.End] = true, true
		assert.Equal(t, uint32(abi.TraceNoParent), rec.Parent, "nothing is spawned on the GPU")
		if rec.Status == decode.StatusDone || rec.Status == decode.StatusFault {
			ended[rec.Slot]++
			finished++
		}
	}
	for i, p := range w.Passes {
		n := 0
		for _, rec := range w.Records {
			if p.Holds(rec.Start) {
				assert.True(t, p.Holds(rec.End), "a record's tickets are one pass's")
				n++
			}
		}
		assert.EqualValues(t, 2*n, p.Tickets(), "pass %d: two tickets per record", i)
	}
	assert.EqualValues(t, ctl(r, abi.CtrlDoneCount), finished, "a record per DONE or FAULT slot")
	ring := r.Ring()
	for s := range uint32(len(ring) / abi.SlotBytes) {
		st := abi.Word(ring[s*abi.SlotBytes:], abi.SlotStatus)
		if st == abi.StatusDone || st == abi.StatusFault {
			assert.Equal(t, 1, ended[s], "slot %d (%d) has one record of its end", s, st)
		}
	}
}

func testTraceRandom(t *testing.T) {
	dev := shared(t)
	for seed := range uint64(3) {
		rng := rand.New(rand.NewPCG(seed, 33))
		slots := 256 + rng.Uint32N(768)
		r := openT(t, dev, Options{Slots: slots, Masks: []uint32{host.MaskOn, 0}, Observable: 4, Budget: 1 + rng.Uint32N(16),
			LogCapacity: 64, TraceCapacity: 2048})
		n := int(slots) / 2
		_, err := r.Publish(randomTraceItems(rng, n))
		require.NoError(t, err)
		_, err = r.Drain(ctxT(t), 8)
		require.NoError(t, err)
		w := r.Trace()
		checkTraceWindow(t, r, w)
		assert.Positive(t, len(w.Records))
		yields := 0
		for _, rec := range w.Records {
			if rec.Status == decode.StatusYield {
				yields++
				assert.EqualValues(t, 1, rec.Tenant)
			}
		}
		assert.EqualValues(t, ctl(r, abi.CtrlDenied), yields, "seed %d: a record per denied claim", seed)
	}
}

func TestTraceRandomWorkloads(t *testing.T) { testTraceRandom(t) }

// withWorkgroupClaims runs test with the drain claiming by workgroup, as
// on a GPU: its trace takes tickets and record places per claim round
// (trace.wgsl's trace_round), not per slot.
func withWorkgroupClaims(test func(*testing.T)) func(*testing.T) {
	return func(t *testing.T) {
		on := true
		testWorkgroupClaims = &on
		t.Cleanup(func() { testWorkgroupClaims = nil })
		test(t)
	}
}

func TestTraceRandomWorkloadsWorkgroupClaims(t *testing.T) { withWorkgroupClaims(testTraceRandom)(t) }

// TestTraceOverflow: a trace buffer smaller than a pass keeps the first
// records, counts the rest exactly, and writes nothing past its end.
func TestTraceOverflow(t *testing.T) { testTraceOverflow(t) }

func TestTraceOverflowWorkgroupClaims(t *testing.T) { withWorkgroupClaims(testTraceOverflow)(t) }

func testTraceOverflow(t *testing.T) {
	const slots, capacity = 300, 7
	r := openT(t, shared(t), Options{Slots: slots, Tenants: 1, Observable: 4, Budget: 64, TraceCapacity: capacity})
	items := make([]host.Item, slots)
	for i := range items {
		items[i] = item(abi.OpNop, uint32(i)%abi.PriorityLevels)
	}
	_, err := r.Publish(items)
	require.NoError(t, err)
	_, err = r.Step(ctxT(t))
	require.NoError(t, err)
	require.EqualValues(t, slots, ctl(r, abi.CtrlDoneCount), "one pass ran every slot")
	w := r.Trace()
	assert.Len(t, w.Records, capacity)
	assert.EqualValues(t, slots-capacity, w.Overflow)
	assert.EqualValues(t, 2*slots, w.Passes[0].Tickets(), "every slot took its tickets")
	assert.EqualValues(t, slots-capacity, w.Passes[0].Dropped, "the pass knows it overflowed")
	for _, g := range tasktrace.Bubbles(nil, w.Records, w.Passes, w.Budget) {
		assert.Contains(t, []string{tasktrace.ReasonStart, tasktrace.ReasonBetween}, g.Reason,
			"no bubble past a workgroup's last kept record: %+v", g)
	}
	// The buffer is exactly header + capacity records: the decoder
	// refuses a longer cursor's records, so none were written past it.
	assert.EqualValues(t, tasktrace.Bytes(capacity), r.tr.buf.Size())
}

// TestTraceCapacityFromOpen: the window's capacity is the open ring's
// before its first submission, and the new ring's after a Reset.
func TestTraceCapacityFromOpen(t *testing.T) {
	r := openT(t, shared(t), Options{Slots: 64, Tenants: 1, Observable: 1, Budget: 4, TraceCapacity: 100})
	require.NotNil(t, r.Trace())
	assert.EqualValues(t, 100, r.Trace().Capacity, "before any submission")
	require.NoError(t, r.Reset(Options{Slots: 64, Tenants: 1, Observable: 1, Budget: 4, TraceCapacity: 50}))
	assert.EqualValues(t, 50, r.Trace().Capacity, "the reset ring's, before its first submission")
	_, err := r.Step(ctxT(t))
	require.NoError(t, err)
	assert.EqualValues(t, 50, r.Trace().Capacity)
}

// TestTraceIdlePassesKeepTheWindow: submissions of an idle ring (the live
// loop's, with nothing queued) hand out no ticket and evict nothing: the
// window keeps the passes that ran tasks, more than the pass bound later.
func TestTraceIdlePassesKeepTheWindow(t *testing.T) {
	const slots = 64
	r := openT(t, shared(t), Options{Slots: slots, Tenants: 1, Observable: 1, Budget: 64, TraceCapacity: 128})
	items := make([]host.Item, slots/2)
	for i := range items {
		items[i] = item(abi.OpNop, uint32(i)%abi.PriorityLevels)
	}
	_, err := r.Publish(items)
	require.NoError(t, err)
	_, err = r.Step(ctxT(t))
	require.NoError(t, err)
	w := r.Trace()
	require.Len(t, w.Records, slots/2)
	require.Len(t, w.Passes, 1)
	changes := w.Changes
	for range 8 {
		_, err = r.Step(ctxT(t))
		require.NoError(t, err)
	}
	assert.Len(t, w.Records, slots/2, "idle passes evict no record")
	assert.Len(t, w.Passes, 1, "an idle pass is not kept")
	assert.Zero(t, w.Evicted)
	assert.Equal(t, changes, w.Changes, "the window did not change")

	// Past the pass bound: only passes that ran tasks count toward it.
	var win TraceWindow
	rec := []tasktrace.Record{{Workgroup: 0, Start: 0, End: 1}}
	win.add(tasktrace.Pass{First: 0, End: 2}, false, rec, 0, 1<<20)
	for range 2 * traceWindowPasses {
		win.add(tasktrace.Pass{First: 2, End: 2}, false, nil, 0, 1<<20)
	}
	assert.Len(t, win.Passes, 1)
	assert.Len(t, win.Records, 1)
	assert.Zero(t, win.Evicted)
	for i := range uint32(traceWindowPasses) {
		f := 2 + 2*i
		win.add(tasktrace.Pass{First: f, End: f + 2}, false, []tasktrace.Record{{Start: f, End: f + 1}}, 0, 1<<20)
	}
	assert.Len(t, win.Passes, traceWindowPasses, "the bound counts passes that ran tasks")
	assert.EqualValues(t, 1, win.Evicted, "the oldest one went")
}

// TestTraceOff: a runner without TraceCapacity binds no trace buffer and
// keeps no window.
func TestTraceOff(t *testing.T) {
	r := openT(t, shared(t), Options{Slots: 16, Tenants: 1, Observable: 1, Budget: 4})
	_, err := r.Publish([]host.Item{item(abi.OpNop, abi.PriorityNormal)})
	require.NoError(t, err)
	_, err = r.Step(ctxT(t))
	require.NoError(t, err)
	assert.Nil(t, r.Trace())
	assert.Nil(t, r.tr.buf)
	assert.False(t, r.opts.Kernel.Trace)
}

// TestTraceSpawnParents: a traced spawn tree, in a ring that reuses no
// slot: every spawned node's record names its parent's slot, whose start
// ticket precedes the child's; the root, published by the host, has none.
func TestTraceSpawnParents(t *testing.T) { testTraceSpawnParents(t) }

func TestTraceSpawnParentsWorkgroupClaims(t *testing.T) {
	withWorkgroupClaims(testTraceSpawnParents)(t)
}

func testTraceSpawnParents(t *testing.T) {
	for _, gens := range []uint32{1, 3} {
		tr := examples.SpawnTree{Fanout: 2, Depth: 5, Seed: 7, Capacity: treeCapacity}
		o := userOptions(tr.Kernel())
		o.Slots, o.Tenants, o.Budget, o.Generations, o.TraceCapacity = 1024, 1, 8, gens, 256
		r := openT(t, shared(t), o)
		_, err := r.Publish([]host.Item{{Opcode: examples.SpawnTreeOpcode, Priority: 2, Args: tr.Root()}})
		require.NoError(t, err)
		run, err := r.DrainWith(ctxT(t), DrainOptions{MaxSubmissions: 64})
		require.NoError(t, err)
		require.Equal(t, DrainEmpty, run.Outcome)
		w := r.Trace()
		require.Len(t, w.Records, int(tr.Nodes()), "a record per node")
		bySlot := map[uint32]tasktrace.Record{}
		for _, rec := range w.Records {
			_, dup := bySlot[rec.Slot]
			require.False(t, dup, "no slot reused")
			bySlot[rec.Slot] = rec
		}
		roots := 0
		for _, rec := range w.Records {
			if !rec.HasParent() {
				roots++
				continue
			}
			p, ok := bySlot[rec.Parent]
			require.True(t, ok, "slot %d's parent %d ran", rec.Slot, rec.Parent)
			assert.Less(t, p.Start, rec.Start, "a child starts after its parent")
		}
		assert.Equal(t, 1, roots, "only the root has no parent (generations %d)", gens)
	}
}
