//go:build js && wasm

package megakernel

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/examples"
	"github.com/ringscope/ringscope/wgsl/host"
)

// The two worked examples of docs/OPCODES.md are the page's presets
// (wgsl/examples): these tests run the same definitions and checks.
const opHistogram = abi.UserOpcodeFirst

func userOptions(k wgsl.Kernel) Options {
	return Options{Slots: 1024, Tenants: 4, Observable: 16, LogCapacity: 64, Budget: 64, Kernel: k}
}

func histogramKernel() wgsl.Kernel { return examples.Histogram.Build(1).Kernel() }

// TestUserHistogram and TestUserGraphStep run each worked example over 20
// random inputs of random sizes: every result equals the host's (Check
// recomputes it in Go), every item ran exactly once (DONE_COUNT,
// OPCODE_METRICS and the user buffers agree).
func TestUserHistogram(t *testing.T) { testExample(t, examples.Histogram) }

func TestUserGraphStep(t *testing.T) { testExample(t, examples.GraphStep) }

func testExample(t *testing.T, ex examples.Example) {
	dev := shared(t)
	ctx := ctxT(t)
	var r *Runner
	for seed := range uint64(20) {
		d := ex.Build(seed)
		o := userOptions(d.Kernel())
		o.Slots, o.Tenants, o.Data = d.Slots, d.Tenants, abi.Bytes(d.Data)
		if r == nil {
			r = openT(t, dev, o)
		} else {
			require.NoError(t, r.Reset(o))
		}
		items, err := d.Workload.Items(nil)
		require.NoError(t, err)
		_, err = r.Publish(items)
		require.NoError(t, err)
		rep, err := r.Drain(ctx, 64)
		require.NoError(t, err)
		c := r.Telemetry().Control
		res := ex.Check(d, examples.Readback{
			Buffer: func(name string) ([]byte, error) { return r.ReadBuffer(ctx, name) },
			Done:   c.DoneCount, Runs: metricOf(c, d.Workload.Opcode), Faults: c.Faults,
		})
		require.True(t, res.OK, "seed %d: %s %v", seed, res.Summary, res.Wrong)
		// The run's items: those published and those the GPU spawned.
		var spawned uint32
		if sp, on := r.Spawn(); on {
			spawned = sp.Spawned
		}
		assert.EqualValues(t, spawned, rep.SpawnedItems, "seed %d", seed)
		assert.EqualValues(t, len(items)+int(spawned), rep.ItemsProcessed, "seed %d", seed)
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
	o.Data = abi.Bytes([]uint32{1, 2, 3, 17})
	require.NoError(t, r.Reset(o))
	it := host.Item{Opcode: opHistogram}
	it.Args[1] = 4
	_, err = r.Publish([]host.Item{it})
	require.NoError(t, err)
	_, err = r.Drain(ctx, 4)
	require.NoError(t, err)
	h, err := r.ReadBuffer(ctx, "hist")
	require.NoError(t, err)
	assert.EqualValues(t, []uint32{0, 2, 1, 1}, abi.Words(h)[:4])

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
