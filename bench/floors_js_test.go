//go:build js && wasm

package bench

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"syscall/js"
	"testing"
	"time"

	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
)

//go:embed bare_ring.wgsl
var bareRingWGSL string

//go:embed stream.wgsl
var streamWGSL string

//go:embed warm.wgsl
var warmWGSL string

// warmFor is how long warm keeps the GPU busy before each measured
// submission (bench/device.sh says why).
var warmFor = flag.Duration("warm", 150*time.Millisecond, "GPU work before each measured submission (0: none)")

// floors holds the kernels a drain is measured against on one device, with
// their own control and ring buffers: the bare atomic-head ring
// (bare_ring.wgsl), the memory stream over the same bytes (stream.wgsl),
// and the warm-up (warm.wgsl). Each pass is timed by timestamp queries
// where the device has them.
type floors struct {
	*warmer
	dev                  *webgpu.Device
	bare, stream         *webgpu.ComputePipeline
	bareBind, streamBind *webgpu.BindGroup
	control, ring        *webgpu.Buffer
	stage                *webgpu.Buffer // control readback
	qs                   *webgpu.QuerySet
	resolve, tsStage     *webgpu.Buffer
	width, budget        uint32
	dst, ts              []byte
}

// warmer runs warm.wgsl on a device (warm).
type warmer struct {
	dev          *webgpu.Device
	pipe         *webgpu.ComputePipeline
	bind         *webgpu.BindGroup
	params, sink *webgpu.Buffer
	rounds       uint32 // rounds per dispatch, doubled until one takes ≥ 10 ms
}

func newWarmer(ctx context.Context, t *testing.T, dev *webgpu.Device) *warmer {
	t.Helper()
	w := &warmer{dev: dev, rounds: 1 << 10}
	var err error
	w.sink, err = dev.CreateBuffer(webgpu.BufferDescriptor{Label: "warm sink", Size: abi.WordBytes, Usage: webgpu.BufferUsageStorage})
	must(t, err)
	t.Cleanup(w.sink.Destroy)
	w.params, err = dev.CreateBuffer(webgpu.BufferDescriptor{Label: "warm params", Size: abi.ParamsWords * abi.WordBytes, Usage: webgpu.BufferUsageUniform | webgpu.BufferUsageCopyDst})
	must(t, err)
	t.Cleanup(w.params.Destroy)
	bgl, err := dev.CreateBindGroupLayout(webgpu.BindGroupLayoutDescriptor{Label: "bench warm", Entries: []webgpu.BindGroupLayoutEntry{
		{Binding: abi.BindingControl, Buffer: webgpu.BufferBindingLayout{Type: webgpu.BufferBindingStorage}},
		{Binding: abi.BindingParams, Buffer: webgpu.BufferBindingLayout{Type: webgpu.BufferBindingUniform}}}})
	must(t, err)
	pl, err := dev.CreatePipelineLayout(webgpu.PipelineLayoutDescriptor{Label: "bench warm", BindGroupLayouts: []*webgpu.BindGroupLayout{bgl}})
	must(t, err)
	m, err := dev.CreateShaderModule(ctx, "bench warm", wgsl.ABISource()+warmWGSL)
	must(t, err)
	w.pipe, err = dev.CreateComputePipelineAsync(ctx, webgpu.ComputePipelineDescriptor{Label: "bench warm", Layout: pl, Module: m, EntryPoint: "warm"})
	must(t, err)
	w.bind, err = dev.CreateBindGroup(webgpu.BindGroupDescriptor{Label: "bench warm", Layout: bgl, Entries: []webgpu.BindGroupEntry{
		{Binding: abi.BindingControl, Buffer: w.sink}, {Binding: abi.BindingParams, Buffer: w.params}}})
	must(t, err)
	return w
}

func newFloors(ctx context.Context, t *testing.T, dev *webgpu.Device, controlBytes, ringBytes int, width, budget uint32) *floors {
	t.Helper()
	f := &floors{warmer: newWarmer(ctx, t, dev), dev: dev, width: width, budget: budget}
	storage := webgpu.BufferBindingLayout{Type: webgpu.BufferBindingStorage}
	layout := func(label string, entries ...webgpu.BindGroupLayoutEntry) (*webgpu.BindGroupLayout, *webgpu.PipelineLayout) {
		bgl, err := dev.CreateBindGroupLayout(webgpu.BindGroupLayoutDescriptor{Label: label, Entries: entries})
		must(t, err)
		pl, err := dev.CreatePipelineLayout(webgpu.PipelineLayoutDescriptor{Label: label, BindGroupLayouts: []*webgpu.BindGroupLayout{bgl}})
		must(t, err)
		return bgl, pl
	}
	pipe := func(label, src, entry string, pl *webgpu.PipelineLayout, consts map[string]float64) *webgpu.ComputePipeline {
		m, err := dev.CreateShaderModule(ctx, label, wgsl.ABISource()+src)
		must(t, err)
		p, err := dev.CreateComputePipelineAsync(ctx, webgpu.ComputePipelineDescriptor{Label: label, Layout: pl, Module: m, EntryPoint: entry, Constants: consts})
		must(t, err)
		return p
	}
	buf := func(label string, size int, usage webgpu.BufferUsage) *webgpu.Buffer {
		b, err := dev.CreateBuffer(webgpu.BufferDescriptor{Label: label, Size: uint64(size), Usage: usage})
		must(t, err)
		t.Cleanup(b.Destroy)
		return b
	}
	rw := webgpu.BufferUsageStorage | webgpu.BufferUsageCopyDst | webgpu.BufferUsageCopySrc
	f.control = buf("floor control", controlBytes, rw)
	f.ring = buf("floor ring", ringBytes, rw)
	f.stage = buf("floor stage", controlBytes, webgpu.BufferUsageMapRead|webgpu.BufferUsageCopyDst)
	f.dst = make([]byte, controlBytes)
	w := map[string]float64{"WORKGROUP_SIZE_X": float64(width)}

	bgl, pl := layout("bench bare ring", webgpu.BindGroupLayoutEntry{Binding: abi.BindingControl, Buffer: storage}, webgpu.BindGroupLayoutEntry{Binding: abi.BindingRing, Buffer: storage})
	f.bare = pipe("bench bare ring", bareRingWGSL, "bare", pl, map[string]float64{"WORKGROUP_SIZE_X": float64(width), "BUDGET": float64(budget)})
	var err error
	f.bareBind, err = dev.CreateBindGroup(webgpu.BindGroupDescriptor{Label: "bench bare ring", Layout: bgl, Entries: []webgpu.BindGroupEntry{
		{Binding: abi.BindingControl, Buffer: f.control}, {Binding: abi.BindingRing, Buffer: f.ring}}})
	must(t, err)

	bgl, pl = layout("bench stream", webgpu.BindGroupLayoutEntry{Binding: abi.BindingRing, Buffer: storage})
	f.stream = pipe("bench stream", streamWGSL, "stream", pl, w)
	f.streamBind, err = dev.CreateBindGroup(webgpu.BindGroupDescriptor{Label: "bench stream", Layout: bgl, Entries: []webgpu.BindGroupEntry{{Binding: abi.BindingRing, Buffer: f.ring}}})
	must(t, err)

	if dev.HasFeature(webgpu.FeatureTimestampQuery) {
		f.qs, err = dev.CreateQuerySet(webgpu.QuerySetDescriptor{Label: "bench floors", Type: webgpu.QueryTypeTimestamp, Count: 2})
		must(t, err)
		t.Cleanup(f.qs.Destroy)
		f.resolve = buf("bench resolve", 16, webgpu.BufferUsageQueryResolve|webgpu.BufferUsageCopySrc)
		f.tsStage = buf("bench timestamps", 16, webgpu.BufferUsageMapRead|webgpu.BufferUsageCopyDst)
		f.ts = make([]byte, 16)
	}
	return f
}

// warm keeps the GPU busy for warmFor (dispatches of warm.wgsl, each
// awaited), so the measured submission that follows starts at a held-up
// clock; its rounds double until one dispatch takes 10 ms.
func (f *warmer) warm(ctx context.Context) error {
	if *warmFor <= 0 {
		return nil
	}
	for t0 := time.Now(); time.Since(t0) < *warmFor; {
		var p [abi.ParamsWords * abi.WordBytes]byte
		p[0], p[1], p[2], p[3] = byte(f.rounds), byte(f.rounds>>8), byte(f.rounds>>16), byte(f.rounds>>24)
		if err := f.dev.Queue().WriteBuffer(f.params, 0, p[:]); err != nil {
			return err
		}
		enc, err := f.dev.CreateCommandEncoder("bench warm")
		if err != nil {
			return err
		}
		pass := enc.BeginComputePass(webgpu.ComputePassDescriptor{Label: "bench warm"})
		pass.SetPipeline(f.pipe)
		pass.SetBindGroup(abi.BindGroup, f.bind)
		pass.DispatchWorkgroups(1024, 1, 1)
		pass.End()
		cmd, err := enc.Finish()
		if err != nil {
			return err
		}
		t1 := time.Now()
		if err := f.dev.Queue().Submit(cmd); err != nil {
			return err
		}
		if err := f.dev.Queue().OnSubmittedWorkDone(ctx); err != nil {
			return err
		}
		if time.Since(t1) < 10*time.Millisecond && f.rounds < 1<<24 {
			f.rounds *= 2
		}
	}
	return nil
}

// upload writes control and ring into the floors' buffers (not timed).
func (f *floors) upload(control, ring []byte) error {
	if err := f.dev.Queue().WriteBuffer(f.control, 0, control); err != nil {
		return err
	}
	return f.dev.Queue().WriteBuffer(f.ring, 0, ring)
}

// passTime runs one pass of pipe (x × y workgroups) timed by timestamp
// queries; without them it returns 0.
func (f *floors) passTime(ctx context.Context, pipe *webgpu.ComputePipeline, bind *webgpu.BindGroup, x, y uint32) (time.Duration, error) {
	if f.qs == nil {
		return 0, nil
	}
	enc, err := f.dev.CreateCommandEncoder("bench floor pass")
	if err != nil {
		return 0, err
	}
	pass := enc.BeginComputePass(webgpu.ComputePassDescriptor{Label: "bench floor pass",
		TimestampWrites: &webgpu.ComputePassTimestampWrites{QuerySet: f.qs, BeginningOfPassWriteIndex: 0, EndOfPassWriteIndex: 1}})
	pass.SetPipeline(pipe)
	pass.SetBindGroup(abi.BindGroup, bind)
	pass.DispatchWorkgroups(x, y, 1)
	pass.End()
	return f.submitTimed(ctx, enc)
}

// submitTimed resolves the pass timestamps enc wrote, submits it and reads
// them back: the GPU time of the pass.
func (f *floors) submitTimed(ctx context.Context, enc *webgpu.CommandEncoder) (time.Duration, error) {
	enc.ResolveQuerySet(f.qs, 0, 2, f.resolve, 0)
	enc.CopyBufferToBuffer(f.resolve, 0, f.tsStage, 0, 16)
	cmd, err := enc.Finish()
	if err != nil {
		return 0, err
	}
	if err := f.dev.Queue().Submit(cmd); err != nil {
		return 0, err
	}
	if err := f.tsStage.MapReadInto(ctx, f.ts, 0); err != nil {
		return 0, err
	}
	ts := webgpu.DecodeTimestamps(nil, f.ts)
	d, ok := webgpu.TimestampInterval(ts[0], ts[1])
	if !ok {
		return 0, errors.New("bench: timestamps out of order")
	}
	return d, nil
}

// bareTime is the bare ring's pass over the uploaded bytes, grid workgroups.
func (f *floors) bareTime(ctx context.Context, grid uint32) (time.Duration, error) {
	return f.passTime(ctx, f.bare, f.bareBind, grid, 1)
}

// streamTime is the memory stream's pass over the uploaded ring.
func (f *floors) streamTime(ctx context.Context, slots uint32) (time.Duration, error) {
	groups := (slots + f.width - 1) / f.width
	maxX := max(uint32(min(f.dev.Limits().MaxComputeWorkgroupsPerDimension, 65535)), 1)
	x := min(groups, maxX)
	return f.passTime(ctx, f.stream, f.streamBind, x, (groups+x-1)/x)
}

// jsFloor is the floor of a drain through WebGPU from JS: the same
// control and ring bytes, already in JS Uint8Arrays, written with
// queue.writeBuffer, one dispatch of the bare ring (grid workgroups), a
// copy of control and its mapAsync; timed from the first writeBuffer to
// the control bytes in Go, which must show want items DONE.
func (f *floors) jsFloor(ctx context.Context, jsControl, jsRing js.Value, grid, want uint32) (time.Duration, error) {
	jq := f.dev.JSValue().Get("queue")
	t0 := time.Now()
	jq.Call("writeBuffer", f.ring.JSValue(), 0, jsRing)
	jq.Call("writeBuffer", f.control.JSValue(), 0, jsControl)
	enc, err := f.dev.CreateCommandEncoder("bench js floor")
	if err != nil {
		return 0, err
	}
	pass := enc.BeginComputePass(webgpu.ComputePassDescriptor{Label: "bench js floor"})
	pass.SetPipeline(f.bare)
	pass.SetBindGroup(abi.BindGroup, f.bareBind)
	pass.DispatchWorkgroups(grid, 1, 1)
	pass.End()
	enc.CopyBufferToBuffer(f.control, 0, f.stage, 0, uint64(len(f.dst)))
	cmd, err := enc.Finish()
	if err != nil {
		return 0, err
	}
	if err := f.dev.Queue().Submit(cmd); err != nil {
		return 0, err
	}
	if err := f.stage.MapReadInto(ctx, f.dst, 0); err != nil {
		return 0, err
	}
	d := time.Since(t0)
	if got := abi.Word(f.dst, abi.CtrlDoneCount); got != want {
		return 0, fmt.Errorf("bench: js floor: DONE_COUNT %d, want %d", got, want)
	}
	return d, nil
}

// jsBytes is a JS Uint8Array holding a copy of b.
func jsBytes(b []byte) js.Value {
	v := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(v, b)
	return v
}
