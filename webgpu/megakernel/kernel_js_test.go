//go:build js && wasm

package megakernel

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// The two worked examples of docs/OPCODES.md, as the page ships them.
const (
	opHistogram = abi.UserOpcodeFirst
	opGraphStep = abi.UserOpcodeFirst + 1
	histBins    = 16
)

const histogramWGSL = `// One tile of the input per slot: args[0] first word of data, args[1] words.
fn histogram(slot: u32, args: Args) -> Outcome {
    let first = args[0];
    let count = args[1];
    if (first > data_words() || count > data_words() - first) {
        return user_fault(1u);
    }
    let bins = arrayLength(&hist);
    for (var i = 0u; i < count; i++) {
        atomicAdd(&hist[data[first + i] % bins], 1u);
    }
    return done();
}
`

const graphStepWGSL = `// One vertex per slot (args[0]): rank_out[v] = sum of rank_in over v's
// neighbours. graph is CSR: row offsets (vertices + 1 words), then the
// neighbour lists from word args[1]. visits counts the runs.
fn graph_step(slot: u32, args: Args) -> Outcome {
    let v = args[0];
    let cols = args[1];
    if (v + 1u >= cols || cols > arrayLength(&graph)) {
        return user_fault(2u);
    }
    var sum = 0u;
    for (var j = graph[v]; j < graph[v + 1u]; j++) {
        sum += rank_in[graph[cols + j]];
    }
    rank_out[v] = sum;
    atomicAdd(&visits[v], 1u);
    return done();
}
`

func leWords(ws []uint32) []byte {
	b := make([]byte, 4*len(ws))
	for i, w := range ws {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

func fromLE(b []byte) []uint32 {
	out := make([]uint32, len(b)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

func userOptions(k wgsl.Kernel) Options {
	o := Options{Slots: 1024, Tenants: 4, Observable: 16, LogCapacity: 64, Budget: 64, Kernel: k}
	return o
}

func histogramKernel() wgsl.Kernel {
	return wgsl.Kernel{
		Opcodes: []wgsl.Opcode{{Value: opHistogram, Name: "histogram", WGSL: histogramWGSL}},
		Buffers: []wgsl.Buffer{{Name: "hist", Access: wgsl.ReadWrite, Element: "atomic<u32>", Size: 4 * histBins}},
	}
}

// TestUserHistogram runs the histogram example over 20 random inputs: the
// user buffer equals Go's histogram, every tile ran once (DONE_COUNT,
// OPCODE_METRICS and the buffer's total agree).
func TestUserHistogram(t *testing.T) {
	dev := shared(t)
	ctx := ctxT(t)
	rng := rand.New(rand.NewPCG(17, 1))
	r := openT(t, dev, userOptions(histogramKernel()))
	for round := range 20 {
		n := 1 + rng.IntN(4096)
		data := make([]uint32, n)
		for i := range data {
			data[i] = rng.Uint32()
		}
		o := userOptions(histogramKernel())
		o.Data = leWords(data)
		require.NoError(t, r.Reset(o))
		tile := max(1+rng.IntN(64), n/150+1) // ≤ 150 tiles: each partition holds 204
		var items []host.Item
		for first := 0; first < n; first += tile {
			it := host.Item{Opcode: opHistogram, Tenant: uint32(rng.IntN(4)), Priority: uint32(rng.IntN(abi.PriorityLevels))}
			it.Args[0], it.Args[1] = uint32(first), uint32(min(tile, n-first))
			items = append(items, it)
		}
		_, err := r.Publish(items)
		require.NoError(t, err)
		rep, err := r.Drain(ctx, 64)
		require.NoError(t, err)

		var want [histBins]uint32
		for _, v := range data {
			want[v%histBins]++
		}
		got, err := r.ReadBuffer(ctx, "hist")
		require.NoError(t, err)
		require.Equal(t, want[:], fromLE(got), "round %d: %d words in tiles of %d", round, n, tile)
		c := r.Telemetry().Control
		assert.EqualValues(t, len(items), c.DoneCount, "round %d", round)
		assert.EqualValues(t, len(items), metricOf(c, opHistogram), "round %d", round)
		assert.EqualValues(t, 0, c.Faults)
		assert.EqualValues(t, len(items), rep.ItemsProcessed)
	}
}

// TestUserGraphStep runs the CSR example over 20 random graphs: rank_out
// equals Go's step, every vertex visited exactly once.
func TestUserGraphStep(t *testing.T) {
	dev := shared(t)
	ctx := ctxT(t)
	rng := rand.New(rand.NewPCG(18, 2))
	var r *Runner
	for round := range 20 {
		v := 1 + rng.IntN(500)
		rowPtr := make([]uint32, v+1)
		var cols []uint32
		for i := range v {
			deg := rng.IntN(9)
			if rng.IntN(10) == 0 {
				deg = rng.IntN(200) // a few hubs: irregular work per slot
			}
			for range deg {
				cols = append(cols, uint32(rng.IntN(v)))
			}
			rowPtr[i+1] = uint32(len(cols))
		}
		if len(cols) == 0 {
			cols = []uint32{0}
		}
		rank := make([]uint32, v)
		for i := range rank {
			rank[i] = rng.Uint32()
		}
		k := wgsl.Kernel{
			Opcodes: []wgsl.Opcode{{Value: opGraphStep, Name: "graph_step", WGSL: graphStepWGSL}},
			Buffers: []wgsl.Buffer{
				{Name: "graph", Size: uint64(4 * (len(rowPtr) + len(cols))), Init: leWords(append(rowPtr, cols...))},
				{Name: "rank_in", Size: uint64(4 * v), Init: leWords(rank)},
				{Name: "rank_out", Access: wgsl.ReadWrite, Size: uint64(4 * v)},
				// Four user buffers: what an adapter with the default 8 storage buffers per stage allows.
				{Name: "visits", Access: wgsl.ReadWrite, Element: "atomic<u32>", Size: uint64(4 * v)},
			},
		}
		o := userOptions(k)
		if r == nil {
			r = openT(t, dev, o)
		} else {
			require.NoError(t, r.Reset(o))
		}
		items := make([]host.Item, v)
		for i := range items {
			items[i] = host.Item{Opcode: opGraphStep, Priority: uint32(rng.IntN(abi.PriorityLevels))}
			items[i].Args[0], items[i].Args[1] = uint32(i), uint32(len(rowPtr))
		}
		_, err := r.Publish(items)
		require.NoError(t, err)
		_, err = r.Drain(ctx, 64)
		require.NoError(t, err)

		want := make([]uint32, v)
		for i := range v {
			for j := rowPtr[i]; j < rowPtr[i+1]; j++ {
				want[i] += rank[cols[j]]
			}
		}
		out, err := r.ReadBuffer(ctx, "rank_out")
		require.NoError(t, err)
		require.Equal(t, want, fromLE(out), "round %d: %d vertices, %d edges", round, v, len(cols))
		visits, err := r.ReadBuffer(ctx, "visits")
		require.NoError(t, err)
		for i, n := range fromLE(visits) {
			require.EqualValues(t, 1, n, "round %d: vertex %d ran %d times", round, i, n)
		}
		c := r.Telemetry().Control
		assert.EqualValues(t, v, c.DoneCount)
		assert.EqualValues(t, v, metricOf(c, opGraphStep))
	}
}

// TestUserFaultAndEnds checks the prelude's endings: user_fault's code in
// the log, and a user opcode ending YIELD is republished by Drain.
func TestUserFaultAndEnds(t *testing.T) {
	dev := shared(t)
	ctx := ctxT(t)
	k := wgsl.Kernel{Opcodes: []wgsl.Opcode{
		{Value: 0x12, Name: "boom", WGSL: "fn boom(slot: u32, args: Args) -> Outcome { return user_fault(args[0]); }"},
		{Value: 0x13, Name: "once", WGSL: `fn once(slot: u32, args: Args) -> Outcome {
    if (observable_load(args[0]) == 0u) {
        observable_store(args[0], 7u);
        return yield_slot();
    }
    observable_add(args[1], 1u);
    return done();
}`},
	}}
	r := openT(t, dev, userOptions(k))
	boom := host.Item{Opcode: 0x12}
	boom.Args[0] = 42
	once := host.Item{Opcode: 0x13}
	once.Args[0], once.Args[1] = 3, 4
	_, err := r.Publish([]host.Item{boom, once})
	require.NoError(t, err)
	_, err = r.Drain(ctx, 16)
	require.NoError(t, err)
	obs := r.Observable()
	assert.EqualValues(t, 7, obs[3])
	assert.EqualValues(t, 1, obs[4], "the yielded slot ran again, once")
	require.Len(t, r.Log().Records, 1)
	rec := r.Log().Records[0]
	assert.Equal(t, decode.FaultCode(abi.FaultUserFirst+42), rec.FaultCode())
	assert.EqualValues(t, 0x12, rec.A, "the fault record names the opcode")
	assert.Equal(t, "USER_FAULT(42)", rec.FaultCode().String())
}

// TestUserKernelErrors: a compile error comes back at the user's own line
// and column with the opcode's name, and the ring that ran keeps running;
// a bad declaration is refused before any GPU work.
func TestUserKernelErrors(t *testing.T) {
	dev := shared(t)
	ctx := ctxT(t)
	r := openT(t, dev, userOptions(histogramKernel()))
	bad := histogramKernel()
	bad.Opcodes[0].WGSL = "fn histogram(slot: u32, args: Args) -> Outcome {\n    let x: u32 = 1u;\n    let y = x + nope;\n    return done();\n}\n"
	err := r.PrepareKernel(ctx, bad)
	var ce *CompileError
	require.True(t, errors.As(err, &ce), "%v", err)
	var found bool
	for _, d := range ce.Diagnostics {
		if d.Type == "error" {
			found = true
			assert.Equal(t, "opcodes[0].wgsl", d.Field)
			assert.Equal(t, "histogram", d.Opcode)
			assert.Equal(t, 3, d.Line, "%s", d)
			assert.Equal(t, 17, d.Column, "%s", d)
		}
	}
	assert.True(t, found, "an error message: %v", err)
	assert.Error(t, r.Reset(userOptions(bad)), "Reset refuses it too")

	// The ring that was running keeps running, with its kernel.
	o := userOptions(histogramKernel())
	o.Data = leWords([]uint32{1, 2, 3, 17})
	require.NoError(t, r.Reset(o))
	it := host.Item{Opcode: opHistogram}
	it.Args[1] = 4
	_, err = r.Publish([]host.Item{it})
	require.NoError(t, err)
	_, err = r.Drain(ctx, 4)
	require.NoError(t, err)
	h, err := r.ReadBuffer(ctx, "hist")
	require.NoError(t, err)
	assert.EqualValues(t, []uint32{0, 2, 1, 1}, fromLE(h)[:4])

	// Declarations refused before the GPU, naming the field.
	lim := dev.Limits()
	for field, k := range map[string]wgsl.Kernel{
		"opcodes[0].opcode": {Opcodes: []wgsl.Opcode{{Value: abi.OpSpin, Name: "x", WGSL: "fn x(slot: u32, args: Args) -> Outcome { return done(); }"}}},
		"buffers[0].size":   {Buffers: []wgsl.Buffer{{Name: "big", Size: bindLimit(lim) + 4}}},
		"buffers": {Buffers: func() []wgsl.Buffer {
			var bs []wgsl.Buffer
			for i := range lim.MaxStorageBuffersPerShaderStage {
				bs = append(bs, wgsl.Buffer{Name: "b" + string(rune('a'+i)), Size: 4})
			}
			return bs
		}()},
	} {
		before := dev.Stats()
		err := r.PrepareKernel(ctx, k)
		var de *wgsl.DeclError
		require.True(t, errors.As(err, &de), "%s: %v", field, err)
		assert.Equal(t, field, de.Field)
		assert.Equal(t, before, dev.Stats(), "%s: no GPU work", field)
		assert.Error(t, Options{Slots: 64, Budget: 1, Kernel: k}.Validate(lim))
	}
}

// metricOf is OPCODE_METRICS[op] of a decoded control buffer.
func metricOf(c decode.ControlSnapshot, op uint32) uint32 {
	for _, m := range c.Metrics {
		if m.Opcode == op {
			return m.Count
		}
	}
	return 0
}

// Example_userOpcode is the shortest complete Go program with a user
// opcode: it declares one that squares its argument into OBSERVABLE, opens
// a runner on the first WebGPU device, publishes three items and drains.
func Example_userOpcode() {
	ctx := context.Background()
	adapter, err := webgpu.RequestAdapter(ctx, webgpu.RequestAdapterOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	dev, err := adapter.RequestDevice(ctx, webgpu.DeviceDescriptor{Label: "example"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer dev.Destroy()
	square := wgsl.Opcode{Value: 0x10, Name: "square", WGSL: `
fn square(slot: u32, args: Args) -> Outcome {
    if (!observable_store(args[1], args[0] * args[0])) {
        return user_fault(1u);
    }
    return done();
}`}
	r, err := Open(ctx, dev, Options{Slots: 64, Tenants: 1, Observable: 4, Budget: 8,
		Kernel: wgsl.Kernel{Opcodes: []wgsl.Opcode{square}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	var items []host.Item
	for i, x := range []uint32{3, 4, 12} {
		it := host.Item{Opcode: square.Value}
		it.Args[0], it.Args[1] = x, uint32(i)
		items = append(items, it)
	}
	if _, err := r.Publish(items); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := r.Drain(ctx, 8); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Observable()[:3], r.Telemetry().Control.DoneCount)
	// Output: [9 16 144] 3
}
