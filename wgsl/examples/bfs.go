package examples

import (
	_ "embed"
	"fmt"
	"math/rand/v2"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/kerneldef"
)

//go:embed bfs.wgsl
var bfsWGSL string

// BFS is breadth-first search over a CSR graph from one published root:
// each level is a generation the GPU makes (spawn), none published by the
// host.
var BFS = Example{
	Name:  bfsName,
	Title: bfsTitle,
	About: "The host publishes the root; each slot visits up to 64 edges of one vertex (args[0]) at distance args[1] and spawns " +
		"the neighbours whose distance it lowers (dist, atomicMin), one item per 64 of their edges, so each BFS level is a " +
		"generation made on the GPU. The graph (CSR) is the data binding.",
	Build: buildBFS,
	Check: checkBFS,
}

const (
	bfsName  = "bfs"
	bfsTitle = "BFS over a CSR graph, levels spawned on the GPU"
)

// BFSGraph is the graph buildBFS makes for seed: RMAT (a = 0.57,
// b = c = 0.19) of 2^4 … 2^11 vertices, 1 … 8 edges per vertex, and its
// root, a vertex with edges.
func BFSGraph(seed uint64) (CSR, uint32) {
	rng := rand.New(rand.NewPCG(seed, 0x424653)) // "BFS"
	scale := uint(4 + rng.IntN(8))
	g := RMAT(scale, (1<<scale)*(1+rng.IntN(8)), 0.57, 0.19, 0.19, seed)
	// A root with edges: RMAT leaves many vertices without any, and a BFS
	// from one of them makes nothing.
	for range g.Vertices() {
		if v := rng.Uint32N(uint32(g.Vertices())); g.Offsets[v+1] > g.Offsets[v] {
			return g, v
		}
	}
	return g, 0
}

func buildBFS(seed uint64) kerneldef.Definition {
	g, root := BFSGraph(seed)
	return BFSDefinition(g, root)
}

// BFSChunk is the edges one BFS item visits: a vertex of more is
// spawned as one item per chunk, so a hub's edges spread over lanes.
const BFSChunk = 64

// bfsItems is the items of vertex v: one per BFSChunk edges, at least one.
func (g CSR) bfsItems(v int) int {
	return max(1, (int(g.Offsets[v+1]-g.Offsets[v])+BFSChunk-1)/BFSChunk)
}

// BFSDefinition is the BFS kernel over g from root. Every vertex is
// spawned at most once, as g.bfsItems of it spread over the partitions:
// the ring holds them all, twice over in the partitions' slack.
func BFSDefinition(g CSR, root uint32) kerneldef.Definition {
	n := g.Vertices()
	slots := n + 2*len(g.Neighbours)/BFSChunk + 8*abi.PriorityLevels
	dist := make([]uint32, n)
	for i := range dist {
		dist[i] = Unreached
	}
	dist[root] = 0
	op := abi.UserOpcodeFirst
	words := uint64(abi.WordBytes)
	return kerneldef.Definition{
		Format: kerneldef.Format, Title: bfsTitle, Example: bfsName,
		Slots: uint32(slots), Tenants: 1, Data: g.Words(),
		Opcodes: []kerneldef.Opcode{{Opcode: op, Name: "bfs", WGSL: bfsWGSL}},
		Buffers: []kerneldef.Buffer{
			{Name: "dist", Access: "read_write", Element: "atomic<u32>", Size: words * uint64(n), Words: dist},
			{Name: "visits", Access: "read_write", Element: "atomic<u32>", Size: words * uint64(n)},
			{Name: "lost", Access: "read_write", Element: "atomic<u32>", Size: words},
		},
		// The root's chunks: items i of its edges from BFSChunk·i.
		Workload: kerneldef.Workload{Opcode: op, Count: uint32(g.bfsItems(int(root))), Tenants: 1, Priorities: 1,
			Args: mustArgs(fmt.Sprint(root), "0", "0", fmt.Sprintf("%d + %d*i", g.Offsets[root], BFSChunk), fmt.Sprint(BFSChunk))},
	}
}

func checkBFS(d kerneldef.Definition, rb Readback) Result {
	var v verdict
	items, err := d.Workload.Items(nil)
	if err != nil || len(items) == 0 {
		return Result{Summary: "the BFS workload publishes the root's items"}
	}
	dst, ok := d.Buffer("dist")
	if !ok {
		return Result{Summary: "the definition has no buffer dist to check"}
	}
	n := int(dst.Size / abi.WordBytes)
	if len(d.Data) < n+1 {
		return Result{Summary: "the data binding holds no CSR graph of the dist buffer's vertices"}
	}
	off := d.Data[:n+1]
	g := CSR{Offsets: off, Neighbours: d.Data[n+1:][:min(int(off[n]), len(d.Data)-n-1)]}
	want := g.BFS(items[0].Args[0])
	reached, runs := 0, 0
	for v, x := range want {
		if x != Unreached {
			reached++
			runs += g.bfsItems(v)
		}
	}
	if got, ok := v.readWords(rb, "dist"); ok {
		for i := range want {
			if i >= len(got) || got[i] != want[i] {
				v.differ("dist[%d] = %s, want %d", i, wordAt(got, i), want[i])
			}
		}
	}
	if got, ok := v.readWords(rb, "visits"); ok {
		for i := range want {
			w := uint32(1)
			if want[i] == Unreached {
				w = 0
			}
			if i >= len(got) || got[i] != w {
				v.differ("visits[%d] = %s, want %d (the vertex's runs)", i, wordAt(got, i), w)
			}
		}
	}
	if lost, ok := v.readWords(rb, "lost"); ok && len(lost) > 0 && lost[0] != 0 {
		v.differ("lost[0] = %d spawns refused: the ring is too small for a frontier", lost[0])
	}
	v.counts(rb, runs, 0)
	return v.result(fmt.Sprintf("dist equals the host's BFS of %d vertices (%d reached, %d levels made on the GPU); each of their %d items ran once",
		n, reached, levels(want), runs))
}

func levels(dist []uint32) uint32 {
	var m uint32
	for _, d := range dist {
		if d != Unreached {
			m = max(m, d+1)
		}
	}
	return m
}
