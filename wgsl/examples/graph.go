package examples

import (
	_ "embed"
	"fmt"
	"math/rand/v2"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/kerneldef"
)

//go:embed graph_step.wgsl
var graphStepWGSL string

// GraphStep is an irregular workload: one step of a rank propagation over a
// random CSR graph, one vertex per slot, a few hubs of up to 200
// neighbours among vertices of 0–8, so slots do very different amounts of
// work.
var GraphStep = Example{
	Name:  graphStepName,
	Title: graphStepTitle,
	About: "Each slot computes rank_out[v] = Σ rank_in[u] over the neighbours u of one vertex v (args[0]) " +
		"of a CSR graph (row offsets, then neighbour lists from word args[1], in graph); visits counts each vertex's runs.",
	Build: buildGraphStep,
	Check: checkGraphStep,
}

const (
	graphStepName  = "graph_step"
	graphStepTitle = "One step over a CSR graph (irregular work)"
)

// maxVertices keeps every vertex in the ring at once (maxTiles's reason).
const maxVertices = 500

func buildGraphStep(seed uint64) kerneldef.Definition {
	rng := rand.New(rand.NewPCG(seed, 0x4753)) // "GS"
	v := 1 + rng.IntN(maxVertices)
	graph := make([]uint32, v+1, v+1+8*v)
	for i := range v {
		deg := rng.IntN(9)
		if rng.IntN(10) == 0 {
			deg = rng.IntN(200) // a hub
		}
		for range deg {
			graph = append(graph, uint32(rng.IntN(v)))
		}
		graph[i+1] = uint32(len(graph) - (v + 1))
	}
	if len(graph) == v+1 {
		graph = append(graph, 0) // a buffer holds at least one word past the offsets
	}
	rank := make([]uint32, v)
	for i := range rank {
		rank[i] = rng.Uint32()
	}
	op := abi.UserOpcodeFirst + 1
	words := uint64(abi.WordBytes)
	return kerneldef.Definition{
		Format: kerneldef.Format, Title: graphStepTitle, Example: graphStepName,
		Slots: 1024, Tenants: 4,
		Opcodes: []kerneldef.Opcode{{Opcode: op, Name: "graph_step", WGSL: graphStepWGSL}},
		Buffers: []kerneldef.Buffer{
			{Name: "graph", Access: "read", Size: words * uint64(len(graph)), Words: graph},
			{Name: "rank_in", Access: "read", Size: words * uint64(v), Words: rank},
			{Name: "rank_out", Access: "read_write", Size: words * uint64(v)},
			// Four user buffers: what an adapter with the default 8 storage
			// buffers per stage allows (docs/OPCODES.md §2).
			{Name: "visits", Access: "read_write", Element: "atomic<u32>", Size: words * uint64(v)},
		},
		Workload: kerneldef.Workload{Opcode: op, Count: uint32(v), Tenants: 4, Priorities: abi.PriorityLevels,
			Args: mustArgs("i", fmt.Sprint(v+1))},
	}
}

func checkGraphStep(d kerneldef.Definition, rb Readback) Result {
	var vd verdict
	items, err := d.Workload.Items(nil)
	if err != nil {
		return Result{Summary: err.Error()}
	}
	graph, _ := d.Buffer("graph")
	rankIn, _ := d.Buffer("rank_in")
	out, ok := d.Buffer("rank_out")
	if !ok || len(rankIn.Words) == 0 || len(graph.Words) == 0 {
		return Result{Summary: "the definition lacks graph, rank_in or rank_out to check"}
	}
	n := int(out.Size / abi.WordBytes)
	want := make([]uint32, n)
	visits := make([]uint32, n)
	g, faults, edges := graph.Words, 0, 0
	for _, it := range items {
		v, cols := it.Args[0], it.Args[1]
		if it.Opcode != d.Workload.Opcode || v+1 >= cols || cols > uint32(len(g)) || int(v) >= n {
			faults++
			continue
		}
		var sum uint32
		for j := g[v]; j < g[v+1]; j++ {
			sum += wordOr0(rankIn.Words, wordOr0(g, cols+j))
			edges++
		}
		want[v] = sum
		visits[v]++
	}
	compare := func(name string, want []uint32) {
		got, ok := vd.readWords(rb, name)
		if !ok {
			return
		}
		for i := range want {
			if i >= len(got) || got[i] != want[i] {
				vd.differ("%s[%d] = %s, want %d", name, i, wordAt(got, i), want[i])
			}
		}
	}
	compare("rank_out", want)
	compare("visits", visits)
	vd.counts(rb, len(items), faults)
	return vd.result(fmt.Sprintf("rank_out equals the host's step over %d vertices and %d edges; every vertex ran once",
		len(items)-faults, edges))
}

// wordOr0 is ws[i], or 0 past the end (as the GPU reads a robust access).
func wordOr0(ws []uint32, i uint32) uint32 {
	if uint64(i) >= uint64(len(ws)) {
		return 0
	}
	return ws[i]
}
