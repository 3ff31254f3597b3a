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
	default:
		t.Fatalf("no oracle for %q", d.Example)
	}
	rb := Readback{Done: d.Workload.Count, Runs: d.Workload.Count,
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
				assert.Contains(t, res.Summary, fmt.Sprint(d.Workload.Count))

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
	assert.ErrorContains(t, err, "histogram, graph_step")
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
