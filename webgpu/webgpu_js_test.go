//go:build js && wasm

package webgpu

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"syscall/js"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// doubleWGSL multiplies every u32 of data by FACTOR (2 unless overridden).
// Binding table: @group(0) @binding(0) data, storage read_write.
const doubleWGSL = `override FACTOR: u32 = 2u;
@group(0) @binding(0) var<storage, read_write> data: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x < arrayLength(&data)) {
    data[id.x] = data[id.x] * FACTOR;
  }
}
`

var (
	adapterOnce sync.Once
	adapter     *Adapter
	adapterErr  error
)

func testAdapter(t testing.TB) *Adapter {
	t.Helper()
	adapterOnce.Do(func() {
		adapter, adapterErr = RequestAdapter(context.Background(), RequestAdapterOptions{})
	})
	require.NoError(t, adapterErr, "this tier needs a WebGPU adapter (shared/docs/BROWSER.md)")
	return adapter
}

// freshAdapter requests a new adapter: an adapter gives one device.
func freshAdapter(t testing.TB) *Adapter {
	t.Helper()
	a, err := RequestAdapter(context.Background(), RequestAdapterOptions{})
	require.NoError(t, err)
	return a
}

func testDevice(t testing.TB, desc DeviceDescriptor) *Device {
	t.Helper()
	d, err := freshAdapter(t).RequestDevice(context.Background(), desc)
	require.NoError(t, err)
	t.Cleanup(d.Destroy)
	return d
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func u32Bytes(v []uint32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

func bytesU32(b []byte) []uint32 {
	v := make([]uint32, len(b)/4)
	for i := range v {
		v[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return v
}

// doubler is the doubling kernel set up on a device: an explicit layout, a
// storage buffer, a MAP_READ staging buffer and their bind group.
type doubler struct {
	d        *Device
	pipeline *ComputePipeline
	storage  *Buffer
	readback *Buffer
	group    *BindGroup
	n        int
}

func newDoubler(t testing.TB, d *Device, n int, constants map[string]float64) *doubler {
	t.Helper()
	ctx := ctxT(t)
	mod, err := d.CreateShaderModule(ctx, "double", doubleWGSL)
	require.NoError(t, err)
	bgl, err := d.CreateBindGroupLayout(BindGroupLayoutDescriptor{Label: "double", Entries: []BindGroupLayoutEntry{
		{Binding: 0, Visibility: ShaderStageCompute, Buffer: BufferBindingLayout{Type: BufferBindingStorage}},
	}})
	require.NoError(t, err)
	pl, err := d.CreatePipelineLayout(PipelineLayoutDescriptor{Label: "double", BindGroupLayouts: []*BindGroupLayout{bgl}})
	require.NoError(t, err)
	pipe, err := d.CreateComputePipelineAsync(ctx, ComputePipelineDescriptor{
		Label: "double", Layout: pl, Module: mod, EntryPoint: "main", Constants: constants,
	})
	require.NoError(t, err)
	size := uint64(4 * n)
	storage, err := d.CreateBuffer(BufferDescriptor{Label: "data", Size: size, Usage: BufferUsageStorage | BufferUsageCopyDst | BufferUsageCopySrc})
	require.NoError(t, err)
	readback, err := d.CreateBuffer(BufferDescriptor{Label: "readback", Size: size, Usage: BufferUsageMapRead | BufferUsageCopyDst})
	require.NoError(t, err)
	group, err := d.CreateBindGroup(BindGroupDescriptor{Label: "double", Layout: bgl, Entries: []BindGroupEntry{{Binding: 0, Buffer: storage}}})
	require.NoError(t, err)
	return &doubler{d: d, pipeline: pipe, storage: storage, readback: readback, group: group, n: n}
}

// run uploads in, dispatches, copies back and reads into out.
func (k *doubler) run(ctx context.Context, in, out []byte) error {
	q := k.d.Queue()
	if err := q.WriteBuffer(k.storage, 0, in); err != nil {
		return err
	}
	enc, err := k.d.CreateCommandEncoder("")
	if err != nil {
		return err
	}
	pass := enc.BeginComputePass(ComputePassDescriptor{})
	pass.SetPipeline(k.pipeline)
	pass.SetBindGroup(0, k.group)
	pass.DispatchWorkgroups(uint32((k.n+63)/64), 1, 1)
	pass.End()
	enc.CopyBufferToBuffer(k.storage, 0, k.readback, 0, uint64(len(in)))
	cb, err := enc.Finish()
	if err != nil {
		return err
	}
	if err := q.Submit(cb); err != nil {
		return err
	}
	return k.readback.MapReadInto(ctx, out, 0)
}

func TestAdapterInfoLimitsFeatures(t *testing.T) {
	a := testAdapter(t)
	info := a.Info()
	t.Logf("adapter: %+v; IsFallback=%v IsCPU=%v", info, a.IsFallback(), a.IsCPU())
	t.Logf("limits: %+v", a.Limits())
	t.Logf("features: %v", a.Features())
	assert.NotEmpty(t, info.Vendor)
	if info.Architecture == "swiftshader" {
		assert.True(t, a.IsCPU(), "SwiftShader is a CPU adapter")
	}
	if a.IsFallback() {
		assert.True(t, a.IsCPU())
	}
	l := a.Limits()
	assert.GreaterOrEqual(t, l.MaxComputeWorkgroupsPerDimension, uint64(65535))
	assert.GreaterOrEqual(t, l.MaxComputeInvocationsPerWorkgroup, uint64(256))
	assert.GreaterOrEqual(t, l.MaxComputeWorkgroupSizeX, uint64(256))
	assert.GreaterOrEqual(t, l.MaxStorageBufferBindingSize, uint64(128<<20))
	assert.GreaterOrEqual(t, l.MaxBufferSize, l.MaxStorageBufferBindingSize)
	assert.GreaterOrEqual(t, l.MaxStorageBuffersPerShaderStage, uint64(8))
	assert.GreaterOrEqual(t, l.MaxComputeWorkgroupStorageSize, uint64(16384))
	assert.NotZero(t, l.MinStorageBufferOffsetAlignment)
	fs := a.Features()
	assert.True(t, slices.IsSorted(fs))
	for _, f := range fs {
		assert.True(t, a.HasFeature(f), f)
	}
	assert.False(t, a.HasFeature("no-such-feature"))
}

func TestRequestAdapterNoWebGPU(t *testing.T) {
	ctx := ctxT(t)
	_, err := requestAdapter(ctx, js.Undefined(), RequestAdapterOptions{})
	assert.ErrorIs(t, err, ErrNoWebGPU)

	nullGPU := js.Global().Get("Object").New()
	resolveNull := js.FuncOf(func(js.Value, []js.Value) any {
		return js.Global().Get("Promise").Call("resolve", js.Null())
	})
	defer resolveNull.Release()
	nullGPU.Set("requestAdapter", resolveNull)
	_, err = requestAdapter(ctx, nullGPU, RequestAdapterOptions{})
	assert.ErrorIs(t, err, ErrNoWebGPU)
	assert.Contains(t, err.Error(), "null")
}

func TestRequestDeviceRequiredLimits(t *testing.T) {
	a := testAdapter(t)
	def := testDevice(t, DeviceDescriptor{})
	want := a.Limits().MaxStorageBufferBindingSize
	if want <= def.Limits().MaxStorageBufferBindingSize {
		t.Skipf("adapter offers no more than the default maxStorageBufferBindingSize (%d)", want)
	}
	d := testDevice(t, DeviceDescriptor{Label: "big", RequiredLimits: Limits{MaxStorageBufferBindingSize: want, MaxBufferSize: a.Limits().MaxBufferSize}})
	assert.Equal(t, want, d.Limits().MaxStorageBufferBindingSize)
	assert.Less(t, def.Limits().MaxStorageBufferBindingSize, d.Limits().MaxStorageBufferBindingSize)
	t.Logf("maxStorageBufferBindingSize: default device %d, requested %d", def.Limits().MaxStorageBufferBindingSize, d.Limits().MaxStorageBufferBindingSize)

	a = freshAdapter(t)
	_, err := a.RequestDevice(ctxT(t), DeviceDescriptor{RequiredLimits: Limits{MaxStorageBufferBindingSize: want + 4}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "maxStorageBufferBindingSize")

	_, err = a.RequestDevice(ctxT(t), DeviceDescriptor{RequiredFeatures: []string{"no-such-feature"}})
	assert.ErrorContains(t, err, `lacks feature "no-such-feature"`)

	// Those failed in Go; the adapter is still unused, once.
	d2, err := a.RequestDevice(ctxT(t), DeviceDescriptor{})
	require.NoError(t, err)
	defer d2.Destroy()
	_, err = a.RequestDevice(ctxT(t), DeviceDescriptor{})
	assert.ErrorContains(t, err, "already gave a device")
}

func TestComputeRoundTrip(t *testing.T) {
	d := testDevice(t, DeviceDescriptor{})
	const n = 1000 // not a multiple of the workgroup size
	start := time.Now()
	k := newDoubler(t, d, n, nil)
	t.Logf("shader module + layouts + pipeline + buffers: %v", time.Since(start))

	in := make([]uint32, n)
	for i := range in {
		in[i] = uint32(i*7 + 1)
	}
	out := make([]byte, 4*n)
	require.NoError(t, k.run(ctxT(t), u32Bytes(in), out))
	got := bytesU32(out)
	for i := range in {
		require.Equal(t, in[i]*2, got[i], "element %d", i)
	}
	require.NoError(t, d.Queue().OnSubmittedWorkDone(ctxT(t)))

	s := d.Stats()
	t.Logf("stats: %+v", s)
	assert.Equal(t, uint64(2), s.BuffersCreated)
	assert.Equal(t, uint64(4*n), s.BytesWritten)
	assert.Equal(t, uint64(4*n), s.BytesRead)
	assert.Equal(t, uint64(1), s.Submits)
	assert.Equal(t, uint64(1), s.CommandBuffers)
	assert.Equal(t, uint64(1), s.DispatchCalls)
	assert.Equal(t, uint64(1), s.Maps)
	assert.Equal(t, uint64(1), s.ShaderModules)
	assert.Equal(t, uint64(1), s.Pipelines)
	// compilation info + its error scope, the pipeline, the map, the work-done wait
	assert.Equal(t, uint64(5), s.PromisesAwaited)

	// A partial, unaligned-length read at an offset.
	part := make([]byte, 10)
	require.NoError(t, k.readback.MapReadInto(ctxT(t), part, 8))
	assert.Equal(t, out[8:18], part)
}

func TestOverrideConstants(t *testing.T) {
	d := testDevice(t, DeviceDescriptor{})
	ctx := ctxT(t)
	in := []uint32{1, 2, 3, 40000}
	for _, tc := range []struct {
		name      string
		constants map[string]float64
		factor    uint32
	}{
		{"default", nil, 2},
		{"FACTOR=3", map[string]float64{"FACTOR": 3}, 3},
		{"FACTOR=0", map[string]float64{"FACTOR": 0}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := newDoubler(t, d, len(in), tc.constants)
			out := make([]byte, 4*len(in))
			require.NoError(t, k.run(ctx, u32Bytes(in), out))
			for i, x := range bytesU32(out) {
				assert.Equal(t, in[i]*tc.factor, x)
			}
		})
	}

	// The "auto" layout path, and an unknown constant rejected with its reason.
	mod, err := d.CreateShaderModule(ctx, "double", doubleWGSL)
	require.NoError(t, err)
	pipe, err := d.CreateComputePipelineAsync(ctx, ComputePipelineDescriptor{Module: mod, Constants: map[string]float64{"FACTOR": 5}})
	require.NoError(t, err)
	_, err = pipe.GetBindGroupLayout(0)
	require.NoError(t, err)
	_, err = d.CreateComputePipelineAsync(ctx, ComputePipelineDescriptor{Label: "bad", Module: mod, Constants: map[string]float64{"NOPE": 1}})
	var je *JSError
	require.ErrorAs(t, err, &je)
	assert.Contains(t, je.Message, "NOPE")
}

func TestShaderCompileError(t *testing.T) {
	d := testDevice(t, DeviceDescriptor{})
	code := "@compute @workgroup_size(1)\nfn main() {\n  let x: u32 = 1.5;\n}\n"
	_, err := d.CreateShaderModule(ctxT(t), "broken", code)
	var se *ShaderError
	require.ErrorAs(t, err, &se)
	t.Logf("%v", err)
	errs := se.Errors()
	require.NotEmpty(t, errs)
	assert.Equal(t, 3, errs[0].Line)
	assert.Equal(t, 16, errs[0].Column) // the "1.5"
	assert.Equal(t, "broken", se.Label)
	assert.Contains(t, err.Error(), `webgpu: shader module "broken": 3:16: `)
	assert.Equal(t, uint64(0), d.Stats().ShaderModules)
}

func TestValidationErrorFromScope(t *testing.T) {
	d := testDevice(t, DeviceDescriptor{})
	ctx := ctxT(t)
	k := newDoubler(t, d, 64, nil)
	small, err := d.CreateBuffer(BufferDescriptor{Label: "small", Size: 16, Usage: BufferUsageMapRead | BufferUsageCopyDst})
	require.NoError(t, err)

	for _, tc := range []struct {
		name   string
		encode func(enc *CommandEncoder)
		want   string
	}{
		{"missing bind group", func(enc *CommandEncoder) {
			pass := enc.BeginComputePass(ComputePassDescriptor{})
			pass.SetPipeline(k.pipeline)
			pass.DispatchWorkgroups(1, 1, 1)
			pass.End()
		}, "bind group"},
		{"copy into a buffer too small", func(enc *CommandEncoder) {
			enc.CopyBufferToBuffer(k.storage, 0, small, 0, 256)
		}, "small"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, d.PushErrorScope(ErrorFilterValidation))
			enc, err := d.CreateCommandEncoder(tc.name)
			require.NoError(t, err)
			tc.encode(enc)
			cb, err := enc.Finish()
			require.NoError(t, err)
			require.NoError(t, d.Queue().Submit(cb))
			err = d.PopErrorScope(ctx)
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			t.Logf("%v", err)
			assert.Contains(t, ve.Message, tc.want)
			assert.Contains(t, err.Error(), "webgpu: validation error: ")
		})
	}

	// A clean scope pops nil; popping with none pushed is an error.
	require.NoError(t, d.PushErrorScope(ErrorFilterValidation))
	require.NoError(t, d.PushErrorScope(ErrorFilterOutOfMemory))
	assert.NoError(t, d.PopErrorScope(ctx))
	assert.NoError(t, d.PopErrorScope(ctx))
	assert.ErrorContains(t, d.PopErrorScope(ctx), "no error scope")
}

func TestBufferArgumentChecks(t *testing.T) {
	d := testDevice(t, DeviceDescriptor{})
	ctx := ctxT(t)
	for _, tc := range []struct {
		name string
		desc BufferDescriptor
		want string
	}{
		{"no usage", BufferDescriptor{Size: 16}, "usage is empty"},
		{"map read with storage", BufferDescriptor{Size: 16, Usage: BufferUsageMapRead | BufferUsageStorage}, "MAP_READ"},
		{"too big", BufferDescriptor{Size: d.Limits().MaxBufferSize + 4, Usage: BufferUsageStorage}, "maxBufferSize"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := d.CreateBuffer(tc.desc)
			assert.ErrorContains(t, err, tc.want)
			assert.ErrorContains(t, err, "webgpu: create buffer")
		})
	}
	rb, err := d.CreateBuffer(BufferDescriptor{Size: 64, Usage: BufferUsageMapRead | BufferUsageCopyDst})
	require.NoError(t, err)
	assert.ErrorContains(t, rb.MapReadInto(ctx, make([]byte, 8), 4), "multiple of 8")
	assert.ErrorContains(t, rb.MapReadInto(ctx, make([]byte, 64), 8), "exceeds buffer")
	assert.ErrorContains(t, d.Queue().WriteBuffer(rb, 0, make([]byte, 3)), "multiples of 4")
	st, err := d.CreateBuffer(BufferDescriptor{Size: 64, Usage: BufferUsageStorage})
	require.NoError(t, err)
	assert.ErrorContains(t, st.MapReadInto(ctx, make([]byte, 8), 0), "lacks MAP_READ")
}

func TestAwaitKeepsRejectionReason(t *testing.T) {
	ctx := ctxT(t)
	promise := js.Global().Get("Promise")
	for _, tc := range []struct {
		name   string
		reason js.Value
		want   JSError
	}{
		{"Error", js.Global().Get("TypeError").New("boom"), JSError{Name: "TypeError", Message: "boom"}},
		{"string", js.ValueOf("plain reason"), JSError{Message: "plain reason"}},
		{"number", js.ValueOf(42), JSError{Message: "42"}},
		{"undefined", js.Undefined(), JSError{Message: "undefined"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := await(ctx, promise.Call("reject", tc.reason))
			var je *JSError
			require.ErrorAs(t, err, &je)
			assert.Equal(t, tc.want, *je)
		})
	}
	v, err := await(ctx, promise.Call("resolve", 7))
	require.NoError(t, err)
	assert.Equal(t, 7, v.Int())

	// A rejected pipeline keeps the implementation's reason.
	d := testDevice(t, DeviceDescriptor{})
	mod, err := d.CreateShaderModule(ctx, "double", doubleWGSL)
	require.NoError(t, err)
	_, err = d.CreateComputePipelineAsync(ctx, ComputePipelineDescriptor{Label: "p", Module: mod, EntryPoint: "nope"})
	var je *JSError
	require.ErrorAs(t, err, &je)
	t.Logf("%v", err)
	assert.Equal(t, "GPUPipelineError", je.Name)
	assert.Equal(t, "validation", je.Reason)
	assert.Contains(t, je.Message, "nope")
	assert.Contains(t, err.Error(), `webgpu: create compute pipeline "p": GPUPipelineError(validation): `)
}

// waitLiveFuncs waits (letting the JS event loop run) until LiveFuncs is
// want, and returns the last value seen.
func waitLiveFuncs(want int64) int64 {
	deadline := time.Now().Add(3 * time.Second)
	for LiveFuncs() != want && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	return LiveFuncs()
}

func TestContextCancellation(t *testing.T) {
	// Earlier tests' devices release their device.lost watchers once the
	// promise resolves.
	base := waitLiveFuncs(0)
	// A promise that settles 200 ms later, awaited for 10 ms.
	slow := js.Global().Get("Promise").New(js.FuncOf(func(_ js.Value, args []js.Value) any {
		js.Global().Call("setTimeout", args[0], 200, "late")
		return nil
	}))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := await(ctx, slow)
	assert.ErrorIs(t, err, context.DeadlineExceeded, "returned on the deadline, not the resolution")
	t.Logf("await returned after %v", time.Since(start))
	assert.Equal(t, base+2, LiveFuncs(), "the abandoned await holds its funcs until the promise settles")
	assert.Equal(t, base, waitLiveFuncs(base), "released once it settles")

	// Calls taking a context fail with its error and wrap it.
	d := testDevice(t, DeviceDescriptor{})
	rb, err := d.CreateBuffer(BufferDescriptor{Size: 16, Usage: BufferUsageMapRead | BufferUsageCopyDst})
	require.NoError(t, err)
	done, cancelNow := context.WithCancel(context.Background())
	cancelNow()
	err = rb.MapReadInto(done, make([]byte, 16), 0)
	assert.ErrorIs(t, err, context.Canceled)
	assert.ErrorContains(t, err, "webgpu: map readback: ")
	_, err = d.CreateShaderModule(done, "x", doubleWGSL)
	assert.ErrorIs(t, err, context.Canceled)
	// The buffer is usable afterwards.
	require.NoError(t, rb.MapReadInto(ctxT(t), make([]byte, 16), 0))
}

func TestDeviceDestroyIsLost(t *testing.T) {
	d := testDevice(t, DeviceDescriptor{})
	ctx := ctxT(t)
	k := newDoubler(t, d, 64, nil)
	mod, err := d.CreateShaderModule(ctx, "double", doubleWGSL)
	require.NoError(t, err)
	require.NoError(t, d.Err())
	select {
	case <-d.Lost():
		t.Fatal("lost before Destroy")
	default:
	}

	d.Destroy()
	select {
	case <-d.Lost():
	default:
		t.Fatal("Lost not closed by Destroy")
	}
	reason, msg := d.LostReason()
	assert.Equal(t, "destroyed", reason)
	assert.NotEmpty(t, msg)

	_, encErr := d.CreateCommandEncoder("")
	_, bufErr := d.CreateBuffer(BufferDescriptor{Size: 16, Usage: BufferUsageStorage})
	_, modErr := d.CreateShaderModule(ctx, "x", doubleWGSL)
	_, pipeErr := d.CreateComputePipelineAsync(ctx, ComputePipelineDescriptor{Module: mod})
	_, bgErr := d.CreateBindGroupLayout(BindGroupLayoutDescriptor{})
	for name, err := range map[string]error{
		"Err":                        d.Err(),
		"CreateCommandEncoder":       encErr,
		"CreateBuffer":               bufErr,
		"CreateShaderModule":         modErr,
		"CreateComputePipelineAsync": pipeErr,
		"CreateBindGroupLayout":      bgErr,
		"WriteBuffer":                d.Queue().WriteBuffer(k.storage, 0, make([]byte, 16)),
		"Submit":                     d.Queue().Submit(),
		"OnSubmittedWorkDone":        d.Queue().OnSubmittedWorkDone(ctx),
		"MapReadInto":                k.readback.MapReadInto(ctx, make([]byte, 16), 0),
		"PushErrorScope":             d.PushErrorScope(ErrorFilterValidation),
		"PopErrorScope":              d.PopErrorScope(ctx),
	} {
		assert.ErrorIs(t, err, ErrDeviceLost, name)
		var le *DeviceLostError
		if assert.ErrorAs(t, err, &le, name) {
			assert.Equal(t, "destroyed", le.Reason, name)
		}
	}
	t.Logf("%v", k.readback.MapReadInto(ctx, make([]byte, 16), 0))
	d.Destroy() // twice is fine
}

// A MAP_READ that races a Destroy is reported as the loss, not as an AbortError.
func TestDestroyDuringMap(t *testing.T) {
	d := testDevice(t, DeviceDescriptor{})
	rb, err := d.CreateBuffer(BufferDescriptor{Size: 1 << 20, Usage: BufferUsageMapRead | BufferUsageCopyDst})
	require.NoError(t, err)
	errc := make(chan error, 1)
	go func() { errc <- rb.MapReadInto(context.Background(), make([]byte, 1<<20), 0) }()
	time.Sleep(0) // let the map start
	d.Destroy()
	select {
	case err := <-errc:
		// The map may also have finished before the destroy took effect.
		if err != nil {
			assert.ErrorIs(t, err, ErrDeviceLost)
		}
		t.Logf("map racing destroy: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("map never settled after Destroy")
	}
}

// OnSubmit runs after each successful Submit with the submission count;
// a Destroy there lands before the submission's readback, every time.
func TestOnSubmitDestroyLandsBeforeTheReadback(t *testing.T) {
	d := testDevice(t, DeviceDescriptor{})
	src, err := d.CreateBuffer(BufferDescriptor{Size: 256, Usage: BufferUsageCopySrc})
	require.NoError(t, err)
	rb, err := d.CreateBuffer(BufferDescriptor{Size: 256, Usage: BufferUsageMapRead | BufferUsageCopyDst})
	require.NoError(t, err)
	var seen []uint64
	d.OnSubmit(func(n uint64) {
		seen = append(seen, n)
		if n == 2 {
			d.Destroy()
		}
	})
	for i := 0; i < 2; i++ {
		enc, err := d.CreateCommandEncoder("copy")
		require.NoError(t, err)
		enc.CopyBufferToBuffer(src, 0, rb, 0, 256)
		cmd, err := enc.Finish()
		require.NoError(t, err)
		require.NoError(t, d.Queue().Submit(cmd), "submission %d itself succeeds", i+1)
		if i == 0 {
			require.NoError(t, rb.MapReadInto(ctxT(t), make([]byte, 256), 0))
		}
	}
	assert.Equal(t, []uint64{1, 2}, seen)
	assert.ErrorIs(t, rb.MapReadInto(ctxT(t), make([]byte, 256), 0), ErrDeviceLost)

	d.OnSubmit(nil)
	assert.ErrorIs(t, d.Queue().Submit(), ErrDeviceLost, "a lost device refuses, the hook gone")
	assert.Equal(t, []uint64{1, 2}, seen)
}

// A device destroyed from JavaScript, not through Destroy, rejects the
// pending map with an AbortError before device.lost resolves; the map still
// reports the loss.
func TestJSDestroyDuringMapIsALoss(t *testing.T) {
	d := testDevice(t, DeviceDescriptor{})
	rb, err := d.CreateBuffer(BufferDescriptor{Size: 1 << 20, Usage: BufferUsageMapRead | BufferUsageCopyDst})
	require.NoError(t, err)
	errc := make(chan error, 1)
	go func() { errc <- rb.MapReadInto(context.Background(), make([]byte, 1<<20), 0) }()
	time.Sleep(0) // let the map start
	d.v.Call("destroy")
	select {
	case err := <-errc:
		if err != nil {
			assert.ErrorIs(t, err, ErrDeviceLost)
		}
		t.Logf("map racing a JS destroy: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("map never settled after destroy()")
	}
	select {
	case <-d.Lost():
	case <-time.After(5 * time.Second):
		t.Fatal("device.lost never resolved")
	}
	assert.ErrorIs(t, d.Err(), ErrDeviceLost)
}

func TestMapReadIntoDoesNotAllocatePerByte(t *testing.T) {
	d := testDevice(t, DeviceDescriptor{})
	ctx := ctxT(t)
	allocs := map[int]float64{}
	for _, size := range []int{4 << 10, 1 << 20} {
		rb, err := d.CreateBuffer(BufferDescriptor{Size: uint64(size), Usage: BufferUsageMapRead | BufferUsageCopyDst})
		require.NoError(t, err)
		dst := make([]byte, size)
		require.NoError(t, rb.MapReadInto(ctx, dst, 0)) // warm up
		allocs[size] = testing.AllocsPerRun(50, func() {
			if err := rb.MapReadInto(ctx, dst, 0); err != nil {
				panic(err)
			}
		})
	}
	t.Logf("allocations per MapReadInto: %v", allocs)
	for size, a := range allocs {
		assert.LessOrEqual(t, a, 40.0, "MapReadInto of %d bytes", size)
	}
	assert.Equal(t, allocs[4<<10], allocs[1<<20], "allocations must not grow with the size read")

	st, err := d.CreateBuffer(BufferDescriptor{Size: 1 << 20, Usage: BufferUsageStorage | BufferUsageCopyDst})
	require.NoError(t, err)
	src := make([]byte, 1<<20)
	require.NoError(t, d.Queue().WriteBuffer(st, 0, src))
	w := testing.AllocsPerRun(50, func() {
		if err := d.Queue().WriteBuffer(st, 0, src); err != nil {
			panic(err)
		}
	})
	t.Logf("allocations per WriteBuffer of 1 MiB: %v", w)
	assert.LessOrEqual(t, w, 10.0)
}

func TestTimestampQuery(t *testing.T) {
	a := testAdapter(t)
	if !a.HasFeature(FeatureTimestampQuery) {
		t.Skipf("adapter %q does not offer %s", a.Info().Description, FeatureTimestampQuery)
	}
	plain := testDevice(t, DeviceDescriptor{})
	_, err := plain.CreateQuerySet(QuerySetDescriptor{Count: 2})
	assert.ErrorContains(t, err, "lacks feature")

	d := testDevice(t, DeviceDescriptor{RequiredFeatures: []string{FeatureTimestampQuery}})
	require.True(t, d.HasFeature(FeatureTimestampQuery))
	ctx := ctxT(t)
	const n = 1 << 16
	k := newDoubler(t, d, n, nil)
	qs, err := d.CreateQuerySet(QuerySetDescriptor{Label: "pass", Count: 2})
	require.NoError(t, err)
	defer qs.Destroy()
	resolve, err := d.CreateBuffer(BufferDescriptor{Size: 16, Usage: BufferUsageQueryResolve | BufferUsageCopySrc})
	require.NoError(t, err)
	tsRead, err := d.CreateBuffer(BufferDescriptor{Size: 16, Usage: BufferUsageMapRead | BufferUsageCopyDst})
	require.NoError(t, err)

	require.NoError(t, d.PushErrorScope(ErrorFilterValidation))
	enc, err := d.CreateCommandEncoder("timed")
	require.NoError(t, err)
	pass := enc.BeginComputePass(ComputePassDescriptor{Label: "timed", TimestampWrites: &ComputePassTimestampWrites{QuerySet: qs, BeginningOfPassWriteIndex: 0, EndOfPassWriteIndex: 1}})
	pass.SetPipeline(k.pipeline)
	pass.SetBindGroup(0, k.group)
	pass.DispatchWorkgroups(n/64, 1, 1)
	pass.End()
	enc.ResolveQuerySet(qs, 0, 2, resolve, 0)
	enc.CopyBufferToBuffer(resolve, 0, tsRead, 0, 16)
	cb, err := enc.Finish()
	require.NoError(t, err)
	require.NoError(t, d.Queue().Submit(cb))
	require.NoError(t, d.PopErrorScope(ctx))

	raw := make([]byte, 16)
	require.NoError(t, tsRead.MapReadInto(ctx, raw, 0))
	ts := DecodeTimestamps(nil, raw)
	require.Len(t, ts, 2)
	dur, ok := TimestampInterval(ts[0], ts[1])
	t.Logf("timestamps %v: GPU time of a %d-element dispatch %v (ok=%v)", ts, n, dur, ok)
	assert.True(t, ok, "begin and end timestamps written, end after begin")
	assert.Less(t, dur, 10*time.Second)
}

func TestLiveFuncsReturnToZero(t *testing.T) {
	d, err := freshAdapter(t).RequestDevice(ctxT(t), DeviceDescriptor{})
	require.NoError(t, err)
	assert.GreaterOrEqual(t, LiveFuncs(), int64(1), "the device.lost watcher")
	k := newDoubler(t, d, 256, nil)
	out := make([]byte, 4*256)
	for range 3 {
		require.NoError(t, k.run(ctxT(t), make([]byte, 4*256), out))
	}
	_, err = d.CreateShaderModule(ctxT(t), "bad", "fn (")
	require.Error(t, err)
	d.Destroy()
	// Devices of earlier tests were destroyed by their cleanups; their
	// device.lost watchers release once the promise resolves.
	assert.Equal(t, int64(0), waitLiveFuncs(0))
}

// BenchmarkRoundTrip is one upload + dispatch + copy + submit + readback of
// 4 KiB, reporting the median and p90 wall time per round trip.
func BenchmarkRoundTrip(b *testing.B) {
	for _, n := range []int{1024, 256 << 10} {
		b.Run(fmt.Sprintf("bytes=%d", 4*n), func(b *testing.B) {
			d := testDevice(b, DeviceDescriptor{})
			k := newDoubler(b, d, n, nil)
			ctx := context.Background()
			in, out := make([]byte, 4*n), make([]byte, 4*n)
			require.NoError(b, k.run(ctx, in, out))
			times := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				if err := k.run(ctx, in, out); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds()), "median-µs")
			b.ReportMetric(float64(times[len(times)*9/10].Microseconds()), "p90-µs")
		})
	}
}

// BenchmarkCreateComputePipelineAsync creates a distinct pipeline (a new
// override value, so no cache hit) per iteration.
func BenchmarkCreateComputePipelineAsync(b *testing.B) {
	d := testDevice(b, DeviceDescriptor{})
	ctx := context.Background()
	mod, err := d.CreateShaderModule(ctx, "double", doubleWGSL)
	require.NoError(b, err)
	b.ResetTimer()
	for i := range b.N {
		if _, err := d.CreateComputePipelineAsync(ctx, ComputePipelineDescriptor{Module: mod, Constants: map[string]float64{"FACTOR": float64(i + 10)}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/pipeline")
}

var _ = errors.Is

// TestWriteBufferInPlace: under Go's wasm_exec.js WriteBuffer reads Go
// memory in place (no staging copy), and what it writes is the slice's
// bytes, also from a sub-slice and after the memory grew (which detaches
// the ArrayBuffer it found first).
func TestWriteBufferInPlace(t *testing.T) {
	d := testDevice(t, DeviceDescriptor{})
	ctx := ctxT(t)
	require.True(t, d.Queue().DirectUpload(), "wasm_exec.js should let WriteBuffer read Go memory in place")
	const size = 64 << 10
	st, err := d.CreateBuffer(BufferDescriptor{Size: size, Usage: BufferUsageCopySrc | BufferUsageCopyDst})
	require.NoError(t, err)
	rb, err := d.CreateBuffer(BufferDescriptor{Size: size, Usage: BufferUsageMapRead | BufferUsageCopyDst})
	require.NoError(t, err)
	check := func(name string, src []byte, at uint64) {
		require.NoError(t, d.Queue().WriteBuffer(st, at, src), name)
		enc, err := d.CreateCommandEncoder(name)
		require.NoError(t, err)
		enc.CopyBufferToBuffer(st, 0, rb, 0, size)
		cmd, err := enc.Finish()
		require.NoError(t, err)
		require.NoError(t, d.Queue().Submit(cmd))
		got := make([]byte, size)
		require.NoError(t, rb.MapReadInto(ctx, got, 0))
		assert.Equal(t, src, got[at:at+uint64(len(src))], name)
	}
	big := make([]byte, size)
	for i := range big {
		big[i] = byte(i*7 + 3)
	}
	check("whole", big, 0)
	check("sub-slice", big[4100:8196], 1024)
	// Grow the memory: 256 MiB more than it has now.
	grow := make([][]byte, 0, 4)
	for range 4 {
		grow = append(grow, make([]byte, 64<<20))
	}
	small := make([]byte, 256)
	for i := range small {
		small[i] = byte(255 - i)
	}
	check("after growth", small, 4096)
	runtime.KeepAlive(grow)
}

// TestMapWriteRoundTrip: bytes written through MapWrite + WriteMapped at
// an offset reach another buffer by copyBufferToBuffer; the buffer maps
// again after the submission (BeginMapWrite, then MapWrite), and a buffer
// destroyed with a map in flight leaves no callback behind.
func TestMapWriteRoundTrip(t *testing.T) {
	d := testDevice(t, DeviceDescriptor{})
	ctx := ctxT(t)
	const n = 1 << 16
	up, err := d.CreateBuffer(BufferDescriptor{Label: "up", Size: n, Usage: BufferUsageMapWrite | BufferUsageCopySrc})
	require.NoError(t, err)
	rb, err := d.CreateBuffer(BufferDescriptor{Size: n, Usage: BufferUsageMapRead | BufferUsageCopyDst})
	require.NoError(t, err)
	assert.ErrorContains(t, up.WriteMapped(0, make([]byte, 4)), "not mapped")
	got := make([]byte, n)
	for round := range 2 {
		if round == 1 {
			require.NoError(t, up.BeginMapWrite())
			assert.ErrorContains(t, up.BeginMapWrite(), "already mapped or mapping")
		}
		require.NoError(t, up.MapWrite(ctx))
		src := make([]byte, 1024)
		for i := range src {
			src[i] = byte(i + round)
		}
		before := d.Stats().BytesWritten
		require.NoError(t, up.WriteMapped(4096, src))
		assert.EqualValues(t, len(src), d.Stats().BytesWritten-before)
		assert.ErrorContains(t, up.WriteMapped(n-4, src), "exceeds")
		up.Unmap()
		enc, err := d.CreateCommandEncoder("")
		require.NoError(t, err)
		enc.CopyBufferToBuffer(up, 4096, rb, 4096, uint64(len(src)))
		cb, err := enc.Finish()
		require.NoError(t, err)
		require.NoError(t, d.Queue().Submit(cb))
		require.NoError(t, rb.MapReadInto(ctx, got, 0))
		assert.Equal(t, src, got[4096:4096+len(src)], "round %d", round)
	}
	require.NoError(t, up.BeginMapWrite())
	up.Destroy()
	assert.ErrorContains(t, up.BeginMapWrite(), "destroyed")
}

// TestPendingPool: a device's awaits reuse their handlers (LiveFuncs stays
// put over many), including after a cancelled wait, and a destroyed device
// releases them.
func TestPendingPool(t *testing.T) {
	base := waitLiveFuncs(0)
	d, err := freshAdapter(t).RequestDevice(ctxT(t), DeviceDescriptor{})
	require.NoError(t, err)
	promise := js.Global().Get("Promise")
	for range 3 {
		_, err := d.await(ctxT(t), promise.Call("resolve", 1))
		require.NoError(t, err)
	}
	held := LiveFuncs()
	for range 20 {
		v, err := d.await(ctxT(t), promise.Call("resolve", 2))
		require.NoError(t, err)
		assert.Equal(t, 2, v.Int())
	}
	_, err = d.await(ctxT(t), promise.Call("reject", "no"))
	assert.ErrorContains(t, err, "no")
	assert.Equal(t, held, LiveFuncs(), "the pool's handlers serve every await")
	// A cancelled wait hands its handlers back once the promise settles,
	// and the next result is the next promise's.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	late := promise.New(js.FuncOf(func(_ js.Value, args []js.Value) any {
		js.Global().Call("setTimeout", args[0], 20, "late")
		return nil
	}))
	_, err = d.await(ctx, late)
	assert.ErrorIs(t, err, context.Canceled)
	v, err := d.await(ctxT(t), promise.Call("resolve", 3))
	require.NoError(t, err)
	assert.Equal(t, 3, v.Int())
	d.Destroy()
	assert.Equal(t, base, waitLiveFuncs(base), "released with the device")
}

// BenchmarkAwait is an await of a settled promise with new handlers (the
// package await) and with a device's pooled ones (Device.await).
func BenchmarkAwait(b *testing.B) {
	promise := js.Global().Get("Promise")
	d := testDevice(b, DeviceDescriptor{})
	for _, c := range []struct {
		name  string
		await func(context.Context, js.Value) (js.Value, error)
	}{{"new", await}, {"pooled", d.await}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := c.await(context.Background(), promise.Call("resolve", 1)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
