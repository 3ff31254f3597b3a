package examples

import (
	"fmt"

	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/ref"
)

// SpawnTree is the spawn differential program: a complete tree of Fanout
// children per node and Depth levels below the root, made on the GPU. The
// item of node n counts itself in visits[n] and spawns its children
// (n·Fanout + 1 … n·Fanout + Fanout) with one level less, each at
// priority (Seed + child) mod 5 for Tenant; a refused child is counted in
// dropped[child] and never exists. Exactly once then reads: the root
// visited once, and every other node's visits + dropped is 1 when its
// parent was visited, 0 when not.
type SpawnTree struct {
	Fanout, Depth uint32
	Seed, Tenant  uint32
	// Capacity is the words of visits and dropped, at least Nodes; 0
	// means Nodes. Trees of one capacity share one kernel (one compile).
	Capacity uint32
}

// SpawnTreeOpcode is the tree's opcode.
const SpawnTreeOpcode = abi.UserOpcodeFirst

const spawnTreeWGSL = `fn tree(slot: u32, args: Args) -> Outcome {
    let id = args[0];
    if (id >= arrayLength(&visits)) {
        return user_fault(1u);
    }
    atomicAdd(&visits[id], 1u);
    if (args[1] == 0u) {
        return done();
    }
    for (var j = 0u; j < args[2]; j++) {
        let child = id * args[2] + j + 1u;
        var a = args;
        a[0] = child;
        a[1] = args[1] - 1u;
        if (!spawn(16u, args[4], (args[3] + child) % 5u, a)) {
            atomicAdd(&dropped[child], 1u);
        }
    }
    return done();
}
`

// Nodes is the tree's node count.
func (t SpawnTree) Nodes() uint32 {
	n, level := uint32(1), uint32(1)
	for range t.Depth {
		level *= t.Fanout
		n += level
	}
	return n
}

// Kernel is the tree's kernel: opcode SpawnTreeOpcode ("tree") and the
// buffers visits and dropped, a word per node.
func (t SpawnTree) Kernel() wgsl.Kernel {
	size := uint64(max(t.Capacity, t.Nodes())) * abi.WordBytes
	return wgsl.Kernel{
		Opcodes: []wgsl.Opcode{{Value: SpawnTreeOpcode, Name: "tree", WGSL: spawnTreeWGSL}},
		Buffers: []wgsl.Buffer{
			{Name: "visits", Access: wgsl.ReadWrite, Element: "atomic<u32>", Size: size},
			{Name: "dropped", Access: wgsl.ReadWrite, Element: "atomic<u32>", Size: size},
		},
	}
}

// Root is the root's args: publish it as opcode SpawnTreeOpcode.
func (t SpawnTree) Root() [abi.SlotArgs]uint32 {
	return [abi.SlotArgs]uint32{0, t.Depth, t.Fanout, t.Seed, t.Tenant}
}

// Ref is the tree's opcode for wgsl/ref, over visits and dropped.
func (t SpawnTree) Ref(visits, dropped []uint32) map[uint32]ref.UserFunc {
	return map[uint32]ref.UserFunc{SpawnTreeOpcode: func(c *ref.Call) (uint32, uint32) {
		id := c.Args[0]
		if int(id) >= len(visits) {
			return 0, abi.FaultUserFirst + 1
		}
		visits[id]++
		if c.Args[1] == 0 {
			return abi.StatusDone, 0
		}
		for j := range c.Args[2] {
			child := id*c.Args[2] + j + 1
			a := c.Args
			a[0], a[1] = child, c.Args[1]-1
			if !c.Spawn(SpawnTreeOpcode, c.Args[4], (c.Args[3]+child)%abi.PriorityLevels, a) {
				dropped[child]++
			}
		}
		return abi.StatusDone, 0
	}}
}

// Check verifies exactly once over every node: visits and dropped as the
// type's doc says, DONE_COUNT the visits, spawned the visits but the
// root, refused the drops. It returns the visits and drops it counted.
func (t SpawnTree) Check(visits, dropped []uint32, done, spawned, refused uint32) (v, d uint32, err error) {
	if len(visits) < int(t.Nodes()) || len(dropped) < int(t.Nodes()) {
		return 0, 0, fmt.Errorf("tree: %d visits and %d dropped words, want %d", len(visits), len(dropped), t.Nodes())
	}
	if visits[0] != 1 || dropped[0] != 0 {
		return 0, 0, fmt.Errorf("tree: root visited %d times, dropped %d, want 1 and 0", visits[0], dropped[0])
	}
	v = 1
	for n := uint32(1); n < t.Nodes(); n++ {
		want := visits[(n-1)/t.Fanout]
		if visits[n]+dropped[n] != want || want > 1 {
			return 0, 0, fmt.Errorf("tree: node %d visited %d, dropped %d; its parent visited %d", n, visits[n], dropped[n], want)
		}
		v += visits[n]
		d += dropped[n]
	}
	switch {
	case done != v:
		return 0, 0, fmt.Errorf("tree: DONE_COUNT %d, %d visits", done, v)
	case spawned != v-1:
		return 0, 0, fmt.Errorf("tree: %d spawned, %d visits but the root", spawned, v-1)
	case refused != d:
		return 0, 0, fmt.Errorf("tree: %d refused, %d dropped", refused, d)
	}
	return v, d, nil
}
