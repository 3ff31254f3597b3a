package ref_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/abi/spawn"
	"github.com/ringscope/ringscope/wgsl/examples"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/ref"
)

// treeRun drains a spawn tree from its root through host submissions of
// passes generations each, as a runner does, and returns the buffers.
// After each submission every TAIL is at least what it was and the ring
// is unlapped (with passes = 1: after every generation).
type treeRun struct {
	visits, dropped []uint32
	k               ref.Kernel
	r               *rig
	submissions     int
}

func runTree(t *testing.T, tr examples.SpawnTree, slots uint32, g ref.Grid, budget uint32, passes int) *treeRun {
	t.Helper()
	q, err := host.NewQueue(host.ControlConfig{Slots: slots, Tenants: 2, Spawn: true}, 64)
	require.NoError(t, err)
	r := &rig{t: t, q: q, b: ref.Buffers{Data: make([]byte, 4)}}
	run := &treeRun{visits: make([]uint32, tr.Nodes()), dropped: make([]uint32, tr.Nodes()), r: r}
	run.k = ref.Kernel{User: tr.Ref(run.visits, run.dropped), Spawn: ref.NewSpawnState()}
	r.publish(host.Item{Opcode: examples.SpawnTreeOpcode, Tenant: tr.Tenant, Priority: 2, Args: tr.Root()})
	var tails [abi.PriorityLevels]uint32
	for q.NeedsSubmit() {
		require.Less(t, run.submissions, 1000, "the tree never drains")
		r.upload()
		p := q.Params(budget).Bytes()
		r.b.Params = p[:]
		_, err := ref.RunGenerations(r.b, g, run.k, passes)
		require.NoError(t, err)
		require.NoError(t, q.Absorb(r.b.Control, r.b.Ring, r.b.Log))
		run.submissions++
		// TAIL only grows, and never laps HEAD (docs/PROTOCOL-SPAWN.md §3),
		// generation after generation.
		for p := range tails {
			now := abi.Word(q.Control(), abi.CtrlTail+p)
			require.GreaterOrEqualf(t, now, tails[p], "submission %d: TAIL[%d] went back", run.submissions, p)
			tails[p] = now
		}
		require.Truef(t, q.Unlapped(), "submission %d: TAIL passed HEAD + capacity", run.submissions)
	}
	return run
}

func (run *treeRun) sp(w int) uint32 { return abi.Word(run.k.Spawn, w) }

func TestSpawnTreeUnrefusedIsLevelByLevel(t *testing.T) {
	tr := examples.SpawnTree{Fanout: 2, Depth: 5, Seed: 3}
	run := runTree(t, tr, 256, ref.Grid{Workgroups: 2, Width: 32}, 64, 8)
	v, d, err := tr.Check(run.visits, run.dropped, run.r.ctl(abi.CtrlDoneCount), run.sp(spawn.SpawnTotal), run.sp(spawn.SpawnRefusedFull))
	require.NoError(t, err)
	assert.EqualValues(t, tr.Nodes(), v)
	assert.Zero(t, d)
	assert.Equal(t, 1, run.submissions, "one submission of 8 generations drains 6 levels")
	assert.EqualValues(t, 8, run.sp(spawn.SpawnGenerations))
	assert.EqualValues(t, v-1, run.sp(spawn.SpawnOpcodeCounts+int(examples.SpawnTreeOpcode)))
	// The history: each pass drained one level and spawned the next.
	for g, want := range []uint32{1, 2, 4, 8, 16, 32, 0, 0} {
		e := spawn.SpawnHistoryFirst + g*spawn.SpawnEntryWords
		assert.EqualValuesf(t, g+1, run.sp(e+spawn.SpawnEntryPass), "pass %d", g)
		assert.EqualValuesf(t, want, run.sp(e+spawn.SpawnEntryClaimed), "pass %d claimed", g)
		if g < 5 {
			assert.EqualValuesf(t, 2*want, run.sp(e+spawn.SpawnEntrySpawned), "pass %d spawned", g)
		}
	}
}

// TestSpawnTreeExactlyOnce runs random trees through random small rings,
// grids, budgets and generations, so that partitions fill and spawns are
// refused: every node exists once or is dropped once, never both, and
// the counters agree with the user buffers.
func TestSpawnTreeExactlyOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	refusals := 0
	for i := range 300 {
		tr := examples.SpawnTree{Fanout: 1 + rng.Uint32N(4), Depth: 1 + rng.Uint32N(5), Seed: rng.Uint32(), Tenant: rng.Uint32N(2)}
		slots := 5 + rng.Uint32N(60)
		g := ref.Grid{Workgroups: 1 + rng.Uint32N(3), Width: 1 + rng.Uint32N(16)}
		run := runTree(t, tr, slots, g, 1+rng.Uint32N(8), 1+rng.IntN(4))
		_, d, err := tr.Check(run.visits, run.dropped, run.r.ctl(abi.CtrlDoneCount), run.sp(spawn.SpawnTotal), run.sp(spawn.SpawnRefusedFull))
		require.NoErrorf(t, err, "case %d: %+v in %d slots", i, tr, slots)
		require.Zero(t, run.sp(spawn.SpawnRefusedBad))
		if d > 0 {
			refusals++
		}
	}
	assert.Greater(t, refusals, 50, "small rings force refusals")
}

// TestSpawnRefusesBadRequests: an opcode the kernel lacks, a masked or
// invalid tenant and a priority past IDLE are refused at the spawner, with
// a log record of its slot, and the spawner goes on to DONE.
func TestSpawnRefusesBadRequests(t *testing.T) {
	q, err := host.NewQueue(host.ControlConfig{Slots: 20, Tenants: 1, Spawn: true}, 8)
	require.NoError(t, err)
	r := &rig{t: t, q: q, b: ref.Buffers{Data: make([]byte, 4)}}
	var got []bool
	k := ref.Kernel{Spawn: ref.NewSpawnState(), User: map[uint32]ref.UserFunc{0x10: func(c *ref.Call) (uint32, uint32) {
		var a [abi.SlotArgs]uint32
		got = append(got,
			c.Spawn(0x1F, 0, 0, a),       // not implemented
			c.Spawn(abi.OpNop, 1, 0, a),  // masked tenant
			c.Spawn(abi.OpNop, 29, 0, a), // no such tenant
			c.Spawn(abi.OpNop, 0, 5, a),  // no such priority
			c.Spawn(abi.OpNop, 0, 4, a),  // fine
		)
		return abi.StatusDone, 0
	}}}
	r.publish(host.Item{Opcode: 0x10, Priority: 1})
	r.upload()
	p := q.Params(4).Bytes()
	r.b.Params = p[:]
	_, err = ref.RunGenerations(r.b, one, k, 2)
	require.NoError(t, err)
	assert.Equal(t, []bool{false, false, false, false, true}, got)
	assert.EqualValues(t, 4, abi.Word(k.Spawn, spawn.SpawnRefusedBad))
	slot := uint32(abi.DefaultPartitions(20)[1])
	assert.Equal(t, [][4]uint32{
		{abi.LogFaultTag | spawn.FaultSpawnOpcode, slot, 0x1F, 0},
		{abi.LogFaultTag | spawn.FaultSpawnTenant, slot, abi.OpNop, 0},
		{abi.LogFaultTag | spawn.FaultSpawnTenant, slot, abi.OpNop, 0},
		{abi.LogFaultTag | spawn.FaultSpawnPriority, slot, abi.OpNop, 0},
	}, r.records())
	assert.EqualValues(t, 2, r.ctl(abi.CtrlDoneCount), "the spawner and the NOP it spawned")
	assert.Zero(t, r.ctl(abi.CtrlFaults))
}
