//go:build js && wasm

package megakernel

import (
	"context"
	"errors"
	"fmt"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// summary holds the device resources of RingSummary: the reduce,
// reduce-windows and window-tenants pipelines (the first two per width),
// their layout, the summary, status-map and params buffers and their bind
// group.
type summary struct {
	reduceModule, tenantsModule *webgpu.ShaderModule
	bgl                         *webgpu.BindGroupLayout
	pipeLayout                  *webgpu.PipelineLayout
	reduce                      map[uint32]*reducePipelines
	tenants                     *webgpu.ComputePipeline
	buf, statusMap, params      *webgpu.Buffer
	bindGroup                   *webgpu.BindGroup
	// fresh marks a params buffer not yet written (new, or new options).
	fresh bool
	pbuf  []byte
}

// reducePipelines are the two entry points of reduce.wgsl at one width.
type reducePipelines struct{ reduce, windows *webgpu.ComputePipeline }

func (r *Runner) summaryOn() bool { return r.opts.RingReadback == RingSummary }

// ensureSummary creates what the reduce pass needs (on a cache miss) and
// returns its pipelines for width; buffersChanged says the ABI buffers were
// just (re)created, so the bind group must be rebuilt.
func (r *Runner) ensureSummary(ctx context.Context, width uint32, buffersChanged bool) (*reducePipelines, bool, error) {
	s := &r.sum
	hit := true
	var err error
	if s.reduceModule == nil {
		if s.reduceModule, err = r.dev.CreateShaderModule(ctx, "ringscope reduce", wgsl.ReduceSource()); err != nil {
			return nil, false, r.fail("compile reduce", err)
		}
		if s.tenantsModule, err = r.dev.CreateShaderModule(ctx, "ringscope window tenants", wgsl.WindowTenantsSource()); err != nil {
			s.reduceModule = nil
			return nil, false, r.fail("compile window tenants", err)
		}
	}
	if s.pipeLayout == nil {
		ro := webgpu.BufferBindingLayout{Type: webgpu.BufferBindingReadOnlyStorage}
		rw := webgpu.BufferBindingLayout{Type: webgpu.BufferBindingStorage}
		bgl, err := r.dev.CreateBindGroupLayout(webgpu.BindGroupLayoutDescriptor{Label: "ringscope summary", Entries: []webgpu.BindGroupLayoutEntry{
			{Binding: abi.BindingControl, Buffer: ro},
			{Binding: abi.BindingRing, Buffer: ro},
			{Binding: abi.BindingSummary, Buffer: rw},
			{Binding: abi.BindingStatusMap, Buffer: rw},
			{Binding: abi.BindingSummaryParams, Buffer: ro},
		}})
		if err != nil {
			return nil, false, r.fail("create summary bind group layout", err)
		}
		pl, err := r.dev.CreatePipelineLayout(webgpu.PipelineLayoutDescriptor{Label: "ringscope summary", BindGroupLayouts: []*webgpu.BindGroupLayout{bgl}})
		if err != nil {
			return nil, false, r.fail("create summary pipeline layout", err)
		}
		s.bgl, s.pipeLayout = bgl, pl
	}
	if s.tenants == nil {
		p := wgsl.WindowTenants()
		if s.tenants, err = r.dev.CreateComputePipelineAsync(ctx, webgpu.ComputePipelineDescriptor{
			Label: p.Label, Layout: s.pipeLayout, Module: s.tenantsModule, EntryPoint: p.EntryPoint, Constants: p.Constants,
		}); err != nil {
			s.tenants = nil
			return nil, false, r.fail("create window tenants pipeline", err)
		}
		hit = false
	}
	red := s.reduce[width]
	if red == nil {
		red = new(reducePipelines)
		for _, p := range []struct {
			prog wgsl.Program
			dst  **webgpu.ComputePipeline
		}{{wgsl.Reduce(width), &red.reduce}, {wgsl.ReduceWindows(width), &red.windows}} {
			if *p.dst, err = r.dev.CreateComputePipelineAsync(ctx, webgpu.ComputePipelineDescriptor{
				Label: p.prog.Label, Layout: s.pipeLayout, Module: s.reduceModule, EntryPoint: p.prog.EntryPoint, Constants: p.prog.Constants,
			}); err != nil {
				return nil, false, r.fail("create "+p.prog.Label+" pipeline", err)
			}
		}
		if s.reduce == nil {
			s.reduce = make(map[uint32]*reducePipelines)
		}
		s.reduce[width] = red
		hit = false
	}

	// Buffers, sized by the layout; the bind group follows them.
	sizes := [3]uint64{r.lay.summary, r.lay.statusMap, r.lay.sparams}
	bufs := [3]**webgpu.Buffer{&s.buf, &s.statusMap, &s.params}
	names := [3]string{"summary", "status map", "summary params"}
	usages := [3]webgpu.BufferUsage{
		webgpu.BufferUsageStorage | webgpu.BufferUsageCopySrc | webgpu.BufferUsageCopyDst,
		webgpu.BufferUsageStorage | webgpu.BufferUsageCopySrc,
		webgpu.BufferUsageStorage | webgpu.BufferUsageCopyDst,
	}
	rebind := buffersChanged || s.bindGroup == nil
	for i, b := range bufs {
		if *b != nil && (*b).Size() == sizes[i] {
			continue
		}
		rebind = true
		if *b != nil {
			(*b).Destroy()
		}
		if *b, err = r.dev.CreateBuffer(webgpu.BufferDescriptor{Label: "ringscope " + names[i], Size: sizes[i], Usage: usages[i]}); err != nil {
			*b = nil
			return nil, false, r.fail("create "+names[i], err)
		}
		if i == 2 {
			s.fresh = true
		}
	}
	if rebind {
		s.bindGroup, err = r.dev.CreateBindGroup(webgpu.BindGroupDescriptor{Label: "ringscope summary", Layout: s.bgl, Entries: []webgpu.BindGroupEntry{
			{Binding: abi.BindingControl, Buffer: r.bufs[bufControl]},
			{Binding: abi.BindingRing, Buffer: r.bufs[bufRing]},
			{Binding: abi.BindingSummary, Buffer: s.buf},
			{Binding: abi.BindingStatusMap, Buffer: s.statusMap},
			{Binding: abi.BindingSummaryParams, Buffer: s.params},
		}})
		if err != nil {
			s.bindGroup = nil
			return nil, false, r.fail("create summary bind group", err)
		}
	}
	if s.fresh {
		s.pbuf = r.opts.summaryParams().AppendBytes(s.pbuf[:0])
		if err := r.dev.Queue().WriteBuffer(s.params, 0, s.pbuf); err != nil {
			return nil, false, r.fail("upload summary params", err)
		}
		s.fresh = false
	}
	return red, hit, nil
}

// encodeSummary clears the summary (before the passes: clearBuffer is a
// command of the encoder) — call it first — and returns a func that adds
// the reduce pass (reduce, then, with a window table, reduce windows and
// window tenants) after the drain pass.
func (r *Runner) encodeSummary(enc *webgpu.CommandEncoder, red *reducePipelines, width uint32) func() {
	s := &r.sum
	enc.ClearBuffer(s.buf, 0, s.buf.Size())
	return func() {
		pass := enc.BeginComputePass(webgpu.ComputePassDescriptor{Label: "ringscope reduce"})
		r.encodeReduce(pass, red, width)
		pass.End()
	}
}

// encodeReduce records the reduce pass's dispatches into pass. Each
// dispatch boundary is a global barrier: reduce_windows starts once every
// open window has its entry, window_tenants once every window's lowest
// slot is final.
func (r *Runner) encodeReduce(pass *webgpu.ComputePassEncoder, red *reducePipelines, width uint32) {
	s := &r.sum
	grid := reduceGrid(r.q.Slots(), width, r.dev.Limits().MaxComputeWorkgroupsPerDimension)
	pass.SetPipeline(red.reduce)
	pass.SetBindGroup(abi.BindGroup, s.bindGroup)
	pass.DispatchWorkgroups(grid, 1, 1)
	if sh := r.opts.summaryShape(); sh.WindowCapacity > 0 && len(r.opts.WindowOpcodes) > 0 {
		pass.SetPipeline(red.windows)
		pass.DispatchWorkgroups(grid, 1, 1)
		pass.SetPipeline(s.tenants)
		pass.DispatchWorkgroups(tenantsGrid(sh.WindowCapacity, r.dev.Limits().MaxComputeWorkgroupsPerDimension), 1, 1)
	}
}

// releaseSummary drops the summary's device resources.
func (r *Runner) releaseSummary() {
	for _, b := range []*webgpu.Buffer{r.sum.buf, r.sum.statusMap, r.sum.params} {
		if b != nil {
			b.Destroy()
		}
	}
	r.sum = summary{pbuf: r.sum.pbuf[:0]}
}

// SummaryBytes and StatusMapBytes are the GPU summary and packed status map
// the last Step read back under RingSummary (nil otherwise). They alias the
// runner's readback storage, reused by the next Step.
func (r *Runner) SummaryBytes() []byte {
	if !r.summaryOn() || r.rb == nil {
		return nil
	}
	return r.rb[r.lay.summaryOffset():r.lay.statusMapOffset()]
}

func (r *Runner) StatusMapBytes() []byte {
	if !r.summaryOn() || r.rb == nil {
		return nil
	}
	return r.rb[r.lay.statusMapOffset():r.lay.ringOffset()]
}

// Sketches fills dst with the five Count-Min sketches of the last Step's
// GPU summary (decode.SummarySketchInto), reusing dst's storage; it fails
// unless the runner is in RingSummary mode and has stepped.
func (r *Runner) Sketches(dst *decode.SketchTelemetry) error {
	sb := r.SummaryBytes()
	if sb == nil {
		return errors.New("megakernel: sketches: no GPU summary (RingReadback is not RingSummary, or no Step yet)")
	}
	if err := decode.SummarySketchInto(dst, sb); err != nil {
		return fmt.Errorf("megakernel: sketches: %w", err)
	}
	return nil
}
