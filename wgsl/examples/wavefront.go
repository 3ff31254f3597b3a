package examples

import (
	_ "embed"
	"fmt"
	"math/rand/v2"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/kerneldef"
)

//go:embed wavefront.wgsl
var wavefrontWGSL string

// Wavefront is edit distance over tiles, a 2-D wavefront DAG with joins:
// tile (i, j) runs after (i − 1, j) and (i, j − 1), spawned by whichever
// of them finishes last (an atomic counter per tile), never waited for.
var Wavefront = Example{
	Name:  wavefrontName,
	Title: wavefrontTitle,
	About: "The host publishes tile (0, 0); each slot fills one tile of the edit-distance matrix dp of two strings " +
		"(the data binding) and releases its lower and right neighbours: preds counts each tile's unfinished predecessors, " +
		"and the last predecessor spawns the tile (the join). Diagonals of tiles are generations made on the GPU.",
	Build: buildWavefront,
	Check: checkWavefront,
}

const (
	wavefrontName  = "wavefront"
	wavefrontTitle = "Edit distance over tiles: a wavefront DAG with joins"
)

func buildWavefront(seed uint64) kerneldef.Definition {
	rng := rand.New(rand.NewPCG(seed, 0x5746)) // "WF"
	n, m := 1+rng.IntN(120), 1+rng.IntN(120)
	alphabet := uint32(2 + rng.IntN(4))
	seqs := make([]uint32, n+m)
	for i := range seqs {
		seqs[i] = rng.Uint32N(alphabet)
	}
	return WavefrontDefinition(seqs[:n], seqs[n:], 1+rng.IntN(16))
}

// WavefrontDefinition is the kernel for the edit distance of a and b over
// tiles of side tile.
func WavefrontDefinition(a, b []uint32, tile int) kerneldef.Definition {
	n, m := len(a), len(b)
	rows, cols := (n+tile-1)/tile, (m+tile-1)/tile
	dp := make([]uint32, (n+1)*(m+1))
	for j := 0; j <= m; j++ {
		dp[j] = uint32(j)
	}
	for i := 0; i <= n; i++ {
		dp[i*(m+1)] = uint32(i)
	}
	preds := make([]uint32, rows*cols)
	for i := range rows {
		for j := range cols {
			preds[i*cols+j] = uint32(min(i, 1) + min(j, 1))
		}
	}
	op := abi.UserOpcodeFirst
	words := func(n int) uint64 { return uint64(max(n, 1)) * abi.WordBytes }
	return kerneldef.Definition{
		Format: kerneldef.Format, Title: wavefrontTitle, Example: wavefrontName,
		// Partition 2 holds a diagonal of tiles while the next one is
		// spawned: room for two diagonals (min(rows, cols) tiles each).
		Slots: uint32(abi.PriorityLevels * (2*min(rows, cols) + 2)), Tenants: 1,
		Data:    append(append([]uint32(nil), a...), b...),
		Opcodes: []kerneldef.Opcode{{Opcode: op, Name: "wavefront", WGSL: wavefrontWGSL}},
		Buffers: []kerneldef.Buffer{
			{Name: "dp", Access: "read_write", Size: words(len(dp)), Words: dp},
			{Name: "preds", Access: "read_write", Element: "atomic<u32>", Size: words(len(preds)), Words: preds},
			// The runs of each tile, then the refused spawns.
			{Name: "visits", Access: "read_write", Element: "atomic<u32>", Size: words(len(preds) + 1)},
		},
		Workload: kerneldef.Workload{Opcode: op, Count: 1, Tenants: 1, Priorities: 1,
			Args: mustArgs("0", "0", fmt.Sprint(tile), fmt.Sprint(rows), fmt.Sprint(cols), fmt.Sprint(n), fmt.Sprint(m), "0")},
	}
}

// EditDistance is the DP matrix of a and b, (n + 1) × (m + 1), row-major.
func EditDistance(a, b []uint32) []uint32 {
	w := len(b) + 1
	dp := make([]uint32, (len(a)+1)*w)
	for j := range w {
		dp[j] = uint32(j)
	}
	for i := 1; i <= len(a); i++ {
		dp[i*w] = uint32(i)
		for j := 1; j < w; j++ {
			sub := dp[(i-1)*w+j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			dp[i*w+j] = min(sub, dp[(i-1)*w+j]+1, dp[i*w+j-1]+1)
		}
	}
	return dp
}

func checkWavefront(d kerneldef.Definition, rb Readback) Result {
	var v verdict
	items, err := d.Workload.Items(nil)
	if err != nil || len(items) != 1 {
		return Result{Summary: "the wavefront workload publishes one tile, (0, 0)"}
	}
	args := items[0].Args
	rows, cols, n, m := int(args[3]), int(args[4]), int(args[5]), int(args[6])
	if len(d.Data) < n+m {
		return Result{Summary: "the data binding holds no strings of the workload's lengths"}
	}
	want := EditDistance(d.Data[:n], d.Data[n:n+m])
	if got, ok := v.readWords(rb, "dp"); ok {
		for i := range want {
			if i >= len(got) || got[i] != want[i] {
				v.differ("dp[%d] = %s, want %d (cell %d, %d)", i, wordAt(got, i), want[i], i/(m+1), i%(m+1))
			}
		}
	}
	if got, ok := v.readWords(rb, "visits"); ok {
		for t := range rows * cols {
			if t >= len(got) || got[t] != 1 {
				v.differ("visits[%d] = %s, want 1 (the runs of tile (%d, %d))", t, wordAt(got, t), t/cols, t%cols)
			}
		}
		if lost := rows * cols; lost < len(got) && got[lost] != 0 {
			v.differ("visits[%d] = %d spawns refused: the ring is too small for a diagonal", lost, got[lost])
		}
	}
	v.counts(rb, rows*cols, 0)
	return v.result(fmt.Sprintf("dp equals the host's edit distance (%d) of %d × %d; %d tiles ran once each, each spawned by its last predecessor",
		want[len(want)-1], n, m, rows*cols))
}
