//go:build js && wasm

package megakernel

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/examples"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/ref"
)

// treeCapacity bounds the trees of TestSpawnTreeAgainstRef: one kernel,
// one compile for all of them.
const treeCapacity = 1 << 10

// TestSpawnTreeAgainstRef drains random spawn trees on the GPU through
// rings of random sizes (small ones refuse spawns) and random generations
// per submission: every node is visited once or dropped once (the user
// buffers), and DONE_COUNT, the spawn counters and the history agree
// with them; where neither the GPU nor wgsl/ref refused anything, the
// two visited the same nodes.
func TestSpawnTreeAgainstRef(t *testing.T) {
	dev := shared(t)
	ctx := ctxT(t)
	rng := rand.New(rand.NewPCG(31, 1))
	var r *Runner
	refused, exact := 0, 0
	for i := range 24 {
		tr := examples.SpawnTree{Fanout: 1 + rng.Uint32N(3), Depth: 1 + rng.Uint32N(5), Seed: rng.Uint32(), Tenant: rng.Uint32N(2), Capacity: treeCapacity}
		for tr.Nodes() > treeCapacity {
			tr.Depth--
		}
		o := userOptions(tr.Kernel())
		o.Slots, o.Tenants, o.Budget = 5+rng.Uint32N(300), 2, 1+rng.Uint32N(16)
		o.Generations = rng.Uint32N(5) // 0: the policy
		if r == nil {
			r = openT(t, dev, o)
		} else {
			require.NoError(t, r.Reset(o))
		}
		_, err := r.Publish([]host.Item{{Opcode: examples.SpawnTreeOpcode, Tenant: tr.Tenant, Priority: 2, Args: tr.Root()}})
		require.NoError(t, err)
		run, err := r.DrainWith(ctx, DrainOptions{MaxSubmissions: 400})
		require.NoError(t, err)
		require.Equalf(t, DrainEmpty, run.Outcome, "case %d", i)
		visits, dropped := readWords(t, r, "visits"), readWords(t, r, "dropped")
		sp, ok := r.Spawn()
		require.True(t, ok)
		c := r.Telemetry().Control
		v, d, err := tr.Check(visits, dropped, c.DoneCount, sp.Spawned, sp.RefusedFull)
		require.NoErrorf(t, err, "case %d: %+v in %d slots", i, tr, o.Slots)
		assert.Zero(t, sp.RefusedBad)
		assert.Equal(t, v-1, sp.ByOpcode[examples.SpawnTreeOpcode])
		// The run's items are the root and every spawned node, all done.
		rep := run.Report
		assert.EqualValuesf(t, sp.Spawned, rep.SpawnedItems, "case %d", i)
		assert.EqualValuesf(t, 1+sp.Spawned, rep.ItemsProcessed, "case %d", i)
		assert.Zerof(t, rep.ItemsRemaining, "case %d", i)
		var claimed, spawned uint32
		for _, g := range sp.History {
			claimed += g.Claimed
			spawned += g.Spawned
		}
		if sp.Generations <= uint32(len(sp.History)) {
			assert.Equalf(t, v, claimed, "case %d: the history's frontiers are every item", i)
			assert.Equal(t, v-1, spawned)
		}
		if d > 0 {
			refused++
			continue
		}
		// wgsl/ref on the same ring: with nothing refused, the same nodes.
		rv, rd := refTree(t, tr, o)
		if rd == 0 {
			exact++
			assert.Equalf(t, rv, visits[:tr.Nodes()], "case %d", i)
		}
	}
	assert.Greater(t, refused, 2, "small rings refuse spawns")
	assert.Greater(t, exact, 2, "large rings refuse none")
}

// refTree drains tr on wgsl/ref through a ring like o's, one pass per
// submission, and returns its visits and drops.
func refTree(t *testing.T, tr examples.SpawnTree, o Options) ([]uint32, uint32) {
	q, err := host.NewQueue(o.controlConfig(), 8)
	require.NoError(t, err)
	visits, dropped := make([]uint32, tr.Nodes()), make([]uint32, tr.Nodes())
	k := ref.Kernel{User: tr.Ref(visits, dropped), Spawn: ref.NewSpawnState()}
	_, err = q.Publish([]host.Item{{Opcode: examples.SpawnTreeOpcode, Tenant: tr.Tenant, Priority: 2, Args: tr.Root()}})
	require.NoError(t, err)
	b := ref.Buffers{Data: make([]byte, abi.WordBytes)}
	for n := 0; q.NeedsSubmit(); n++ {
		require.Less(t, n, 400)
		b.Control, b.Ring, b.Log = append(b.Control[:0], q.Control()...), append(b.Ring[:0], q.Ring()...), append(b.Log[:0], q.Log()...)
		q.ClearDirty()
		p := q.Params(o.Budget).Bytes()
		b.Params = p[:]
		_, err := ref.RunGenerations(b, ref.Grid{Workgroups: 4, Width: 64}, k, 1)
		require.NoError(t, err)
		require.NoError(t, q.Absorb(b.Control, b.Ring, b.Log))
	}
	var d uint32
	for _, x := range dropped {
		d += x
	}
	return visits, d
}

func readWords(t *testing.T, r *Runner, name string) []uint32 {
	b, err := r.ReadBuffer(ctxT(t), name)
	require.NoError(t, err)
	return abi.Words(b)
}

// TestUserBFS and TestUserWavefront run the spawning examples over 20
// random inputs each (testExample): BFS distances equal a Go BFS, every
// reached vertex ran once; the wavefront's matrix equals a Go DP, every
// tile ran once, spawned by its last predecessor.
func TestUserBFS(t *testing.T) { testExample(t, examples.BFS) }

func TestUserWavefront(t *testing.T) { testExample(t, examples.Wavefront) }

// TestSpawnRefusesBadRequestsOnGPU is wgsl/ref's TestSpawnRefusesBadRequests
// on the GPU: an opcode the kernel lacks, a masked or invalid tenant and a
// priority past IDLE are refused at the spawner with a named log record,
// counted, and the spawner goes on; the valid spawn runs.
func TestSpawnRefusesBadRequestsOnGPU(t *testing.T) {
	dev := shared(t)
	ctx := ctxT(t)
	k := wgsl.Kernel{Opcodes: []wgsl.Opcode{{Value: 0x10, Name: "asks", WGSL: `fn asks(slot: u32, args: Args) -> Outcome {
    var a: Args;
    var got = 0u;
    if (spawn(0x1Fu, 0u, 0u, a)) { got |= 1u; }
    if (spawn(0u, 1u, 0u, a)) { got |= 2u; }
    if (spawn(0u, 29u, 0u, a)) { got |= 4u; }
    if (spawn(0u, 0u, 5u, a)) { got |= 8u; }
    if (spawn(0u, 0u, 4u, a)) { got |= 16u; }
    observable_store(0u, got);
    return done();
}`}}}
	o := userOptions(k)
	o.Slots, o.Tenants = 20, 1
	r := openT(t, dev, o)
	_, err := r.Publish([]host.Item{{Opcode: 0x10, Priority: 1}})
	require.NoError(t, err)
	_, err = r.Drain(ctx, 16)
	require.NoError(t, err)
	assert.EqualValues(t, 16, r.Observable()[0], "only the valid spawn succeeded")
	sp, ok := r.Spawn()
	require.True(t, ok)
	assert.EqualValues(t, 4, sp.RefusedBad)
	assert.EqualValues(t, 1, sp.Spawned)
	var codes []string
	for _, rec := range r.Log().Records {
		codes = append(codes, rec.FaultCode().String())
		assert.EqualValues(t, abi.DefaultPartitions(20)[1], rec.Slot, "the spawner's slot")
	}
	assert.ElementsMatch(t, []string{"SPAWN_OPCODE", "SPAWN_TENANT", "SPAWN_TENANT", "SPAWN_PRIORITY"}, codes)
	c := r.Telemetry().Control
	assert.EqualValues(t, 2, c.DoneCount, "the spawner and its NOP")
	assert.Zero(t, c.Faults, "a refusal is no FAULT")
}
