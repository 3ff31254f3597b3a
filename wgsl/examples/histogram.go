package examples

import (
	_ "embed"
	"fmt"
	"math/rand/v2"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/kerneldef"
)

//go:embed histogram.wgsl
var histogramWGSL string

// Histogram counts the words of the data binding into 16 bins of a
// read-write atomic<u32> user buffer, one tile of words per slot.
var Histogram = Example{
	Name:  histogramName,
	Title: histogramTitle,
	About: "Each slot counts one tile of the data binding (args[0] its first word, args[1] its length) " +
		"into hist, 16 atomic<u32> bins: bin w % 16 for each word w.",
	Build: buildHistogram,
	Check: checkHistogram,
}

const (
	histogramName  = "histogram"
	histogramTitle = "Histogram of the data buffer"
)

// histogramBins is the size of hist in words.
const histogramBins = 16

// maxTiles keeps every tile in the ring at once: the workload spreads its
// items over the five priority partitions of a 1,024-slot ring, 204 each.
const maxTiles = 150

func buildHistogram(seed uint64) kerneldef.Definition {
	rng := rand.New(rand.NewPCG(seed, 0x4869)) // "Hi"
	n := 1 + rng.IntN(4096)
	data := make([]uint32, n)
	for i := range data {
		data[i] = rng.Uint32()
	}
	tile := max(1+rng.IntN(64), n/maxTiles+1)
	tiles := (n + tile - 1) / tile
	op := abi.UserOpcodeFirst
	return kerneldef.Definition{
		Format: kerneldef.Format, Title: histogramTitle, Example: histogramName,
		Slots: 1024, Tenants: 4, Data: data,
		Opcodes: []kerneldef.Opcode{{Opcode: op, Name: "histogram", WGSL: histogramWGSL}},
		Buffers: []kerneldef.Buffer{{Name: "hist", Access: "read_write", Element: "atomic<u32>", Size: 4 * histogramBins}},
		Workload: kerneldef.Workload{Opcode: op, Count: uint32(tiles), Tenants: 4, Priorities: abi.PriorityLevels,
			Args: mustArgs(fmt.Sprintf("%d*i", tile), fmt.Sprintf("min(%d, %d - %d*i)", tile, n, tile))},
	}
}

func checkHistogram(d kerneldef.Definition, rb Readback) Result {
	var v verdict
	items, err := d.Workload.Items(nil)
	if err != nil {
		return Result{Summary: err.Error()}
	}
	hist, ok := d.Buffer("hist")
	if !ok || hist.Size < abi.WordBytes {
		return Result{Summary: "the definition has no buffer hist to check"}
	}
	want := make([]uint32, hist.Size/abi.WordBytes)
	faults, counted := 0, 0
	for _, it := range items {
		first, count := it.Args[0], it.Args[1]
		if it.Opcode != d.Workload.Opcode || first > uint32(len(d.Data)) || count > uint32(len(d.Data))-first {
			faults++
			continue
		}
		for _, w := range d.Data[first : first+count] {
			want[w%uint32(len(want))]++
		}
		counted += int(count)
	}
	if got, ok := v.readWords(rb, "hist"); ok {
		for i := range want {
			if i >= len(got) || got[i] != want[i] {
				v.differ("hist[%d] = %s, want %d", i, wordAt(got, i), want[i])
			}
		}
	}
	v.counts(rb, len(items), faults)
	return v.result(fmt.Sprintf("hist equals the host's count of %d words in %d bins; %d items ran once each",
		counted, len(want), len(items)))
}

func wordAt(ws []uint32, i int) string {
	if i >= len(ws) {
		return "missing"
	}
	return fmt.Sprint(ws[i])
}

func mustArgs(srcs ...string) []kerneldef.Expr {
	args, err := kerneldef.Args(srcs)
	if err != nil {
		panic(err) // the examples' own expressions
	}
	return args
}
