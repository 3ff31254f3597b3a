package examples

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/kerneldef"
)

// device is what a correct run leaves, computed without the workload's
// expressions or Check's code: every data word counted, every vertex
// stepped once.
func device(t *testing.T, d kerneldef.Definition) (map[string][]uint32, Readback) {
	bufs := map[string][]uint32{}
	runs := d.Workload.Count // one per item published; the spawning examples say theirs
	switch d.Example {
	case histogramName:
		hist := make([]uint32, histogramBins)
		for _, w := range d.Data {
			hist[w%histogramBins]++
		}
		bufs["hist"] = hist
	case graphStepName:
		g, _ := d.Buffer("graph")
		r, _ := d.Buffer("rank_in")
		v := len(r.Words)
		out, visits := make([]uint32, v), make([]uint32, v)
		for i := range v {
			for _, u := range g.Words[v+1+int(g.Words[i]) : v+1+int(g.Words[i+1])] {
				out[i] += r.Words[u]
			}
			visits[i] = 1
		}
		bufs["rank_out"], bufs["visits"] = out, visits
	case bfsName:
		runs = bfsOracle(d, bufs)
	case wavefrontName:
		runs = wavefrontOracle(d, bufs)
	default:
		t.Fatalf("no oracle for %q", d.Example)
	}
	rb := Readback{Done: runs, Runs: runs,
		Buffer: func(name string) ([]byte, error) {
			ws, ok := bufs[name]
			if !ok {
				return nil, errors.New("no such buffer")
			}
			return abi.Bytes(ws), nil
		}}
	return bufs, rb
}

func TestExamplesCheck(t *testing.T) {
	for _, ex := range List {
		t.Run(ex.Name, func(t *testing.T) {
			for seed := range uint64(50) {
				d := ex.Build(seed)
				require.Equal(t, d, ex.Build(seed), "deterministic")
				k := d.Kernel()
				require.NoError(t, k.Validate(), "seed %d", seed)
				perPartition := (d.Workload.Count + d.Workload.Priorities - 1) / d.Workload.Priorities
				require.LessOrEqual(t, perPartition, d.Slots/abi.PriorityLevels, "seed %d: the workload fits the ring", seed)

				bufs, rb := device(t, d)
				res := ex.Check(d, rb)
				require.True(t, res.OK, "seed %d: %+v", seed, res)
				assert.Contains(t, res.Summary, fmt.Sprint(rb.Runs))

				// Each way a run can be wrong is caught.
				for name, ws := range bufs {
					ws[len(ws)-1]++
					bad := ex.Check(d, rb)
					assert.False(t, bad.OK, "seed %d: %s changed", seed, name)
					assert.Contains(t, bad.Wrong[0], fmt.Sprintf("%s[%d]", name, len(ws)-1))
					ws[len(ws)-1]--
				}
				for what, mutate := range map[string]func(*Readback){
					"DONE_COUNT": func(r *Readback) { r.Done++ },
					"ran":        func(r *Readback) { r.Runs-- },
					"FAULTS":     func(r *Readback) { r.Faults = 1 },
				} {
					r := rb
					mutate(&r)
					bad := ex.Check(d, r)
					assert.False(t, bad.OK, what)
					assert.Contains(t, bad.Wrong[0], what)
				}
			}
		})
	}
}

// TestExamplesJSON: a definition survives its JSON, which is what the
// page's panel, a saved file and a link carry.
func TestExamplesJSON(t *testing.T) {
	for _, ex := range List {
		d := ex.Build(3)
		b, err := json.Marshal(d)
		require.NoError(t, err)
		own, err := d.AppendJSON(nil) // what the page's example() hands out
		require.NoError(t, err)
		assert.Equal(t, string(b), string(own), ex.Name)
		var back kerneldef.Definition
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, d, back, ex.Name)
		_, rb := device(t, back)
		assert.True(t, ex.Check(back, rb).OK, ex.Name)
	}
	_, err := Lookup("nope")
	assert.ErrorContains(t, err, "histogram, graph_step, bfs, wavefront")
}

// TestExamplesFromKernel: the definition the page rebuilds from the ring
// it opened (kerneldef.FromKernel) checks as the one it was built from.
func TestExamplesFromKernel(t *testing.T) {
	for _, ex := range List {
		d := ex.Build(5)
		back := kerneldef.FromKernel(d.Kernel(), abi.Bytes(d.Data), d.Workload)
		back.Example = d.Example
		_, rb := device(t, d)
		assert.True(t, ex.Check(back, rb).OK, ex.Name)
		assert.Equal(t, d.Buffers, back.Buffers)
		assert.Equal(t, d.Data, back.Data)
	}
}

// bfsOracle relaxes every edge until nothing changes (Bellman-Ford), not
// the level-by-level search CSR.BFS does, and returns the items run: a
// reached vertex's, one per BFSChunk of its edges.
func bfsOracle(d kerneldef.Definition, bufs map[string][]uint32) uint32 {
	dst, _ := d.Buffer("dist")
	n := int(dst.Size / abi.WordBytes)
	dist := append([]uint32(nil), dst.Words...)
	for changed := true; changed; {
		changed = false
		for v := range n {
			if dist[v] == Unreached {
				continue
			}
			for _, u := range d.Data[n+1+int(d.Data[v]) : n+1+int(d.Data[v+1])] {
				if dist[v]+1 < dist[u] {
					dist[u], changed = dist[v]+1, true
				}
			}
		}
	}
	visits := make([]uint32, n)
	runs := uint32(0)
	for v, x := range dist {
		if x != Unreached {
			visits[v] = 1
			runs += uint32(max(1, (d.Data[v+1]-d.Data[v]+BFSChunk-1)/BFSChunk))
		}
	}
	bufs["dist"], bufs["visits"], bufs["lost"] = dist, visits, []uint32{0}
	return runs
}

// wavefrontOracle fills the edit-distance matrix column by column (the
// Check's fills it row by row) and returns the tiles.
func wavefrontOracle(d kerneldef.Definition, bufs map[string][]uint32) uint32 {
	items, _ := d.Workload.Items(nil)
	args := items[0].Args
	rows, cols, n, m := args[3], args[4], int(args[5]), int(args[6])
	dp := make([]uint32, (n+1)*(m+1))
	at := func(i, j int) *uint32 { return &dp[i*(m+1)+j] }
	for j := 0; j <= m; j++ {
		for i := 0; i <= n; i++ {
			switch {
			case i == 0:
				*at(i, j) = uint32(j)
			case j == 0:
				*at(i, j) = uint32(i)
			default:
				cost := uint32(1)
				if d.Data[i-1] == d.Data[n+j-1] {
					cost = 0
				}
				*at(i, j) = min(*at(i-1, j-1)+cost, *at(i-1, j)+1, *at(i, j-1)+1)
			}
		}
	}
	visits := make([]uint32, rows*cols+1) // the last: refused spawns
	for i := range rows * cols {
		visits[i] = 1
	}
	bufs["dp"], bufs["visits"] = dp, visits
	return rows * cols
}
