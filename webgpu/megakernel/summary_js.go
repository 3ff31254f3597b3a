//go:build js && wasm

package megakernel

import (
	"context"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// summary holds the device resources of decode.ReadbackSummary: the reduce,
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

// reducePipelines are the entry points of reduce.wgsl and
// reduce_windows.wgsl (one shader module) at one width.
type reducePipelines struct{ reduce, windows *webgpu.ComputePipeline }

func (o *Options) summaryOn() bool { return o.Readback == decode.ReadbackSummary }

// readsRing reports whether every Step reads the ring back: full, and
// auto, which the page resolves before it opens (a runner given it reads
// as full did, the zero value's mode).
func (o *Options) readsRing() bool {
	return o.Readback == decode.ReadbackFull || o.Readback == decode.ReadbackAuto
}

// reduceTarget is what a reduce pass runs over: the device, the options
// that shape the summary (Summary, WindowOpcodes), the layout's summary
// sizes, the ring's slots and the control and ring buffers it reads. The
// runner's own buffers are one target (Runner.reduceTarget), a host page's
// attached ring another (Attachment).
type reduceTarget struct {
	dev           *webgpu.Device
	opts          *Options
	lay           *layout
	slots         uint32
	control, ring *webgpu.Buffer
	// ringBytes is the ring binding's size: 0 binds the whole buffer.
	ringBytes uint64
}

func (r *Runner) reduceTarget() reduceTarget {
	return reduceTarget{dev: r.dev, opts: &r.opts, lay: &r.lay, slots: r.q.Slots(), control: r.res.bufs[bufControl], ring: r.res.bufs[bufRing]}
}

// ensure creates what the reduce pass over t needs (on a cache miss) and
// returns its pipelines for width; buffersChanged says the ABI buffers
// were just (re)created, so the bind group must be rebuilt.
func (s *summary) ensure(ctx context.Context, t reduceTarget, width uint32, buffersChanged bool) (*reducePipelines, bool, error) {
	red, hit, err := s.ensurePipelines(ctx, t.dev, width)
	if err != nil {
		return nil, false, err
	}
	if err := s.ensureBuffers(t, buffersChanged); err != nil {
		return nil, false, err
	}
	return red, hit, nil
}

// ensurePipelines compiles the modules and makes the layout and the
// pipelines for width on dev, unless they exist; hit reports they did.
func (s *summary) ensurePipelines(ctx context.Context, dev *webgpu.Device, width uint32) (*reducePipelines, bool, error) {
	hit := true
	var err error
	if s.reduceModule == nil {
		if s.reduceModule, err = dev.CreateShaderModule(ctx, "ringscope reduce", wgsl.ReduceSource()); err != nil {
			return nil, false, failOn(dev, "compile reduce", err)
		}
		if s.tenantsModule, err = dev.CreateShaderModule(ctx, "ringscope window tenants", wgsl.WindowTenantsSource()); err != nil {
			s.reduceModule = nil
			return nil, false, failOn(dev, "compile window tenants", err)
		}
	}
	if s.pipeLayout == nil {
		ro := webgpu.BufferBindingLayout{Type: webgpu.BufferBindingReadOnlyStorage}
		rw := webgpu.BufferBindingLayout{Type: webgpu.BufferBindingStorage}
		bgl, err := dev.CreateBindGroupLayout(webgpu.BindGroupLayoutDescriptor{Label: "ringscope summary", Entries: []webgpu.BindGroupLayoutEntry{
			{Binding: abi.BindingControl, Buffer: ro},
			{Binding: abi.BindingRing, Buffer: ro},
			{Binding: abi.BindingSummary, Buffer: rw},
			{Binding: abi.BindingStatusMap, Buffer: rw},
			{Binding: abi.BindingSummaryParams, Buffer: ro},
		}})
		if err != nil {
			return nil, false, failOn(dev, "create summary bind group layout", err)
		}
		pl, err := dev.CreatePipelineLayout(webgpu.PipelineLayoutDescriptor{Label: "ringscope summary", BindGroupLayouts: []*webgpu.BindGroupLayout{bgl}})
		if err != nil {
			return nil, false, failOn(dev, "create summary pipeline layout", err)
		}
		s.bgl, s.pipeLayout = bgl, pl
	}
	if s.tenants == nil {
		p := wgsl.WindowTenants()
		if s.tenants, err = dev.CreateComputePipelineAsync(ctx, webgpu.ComputePipelineDescriptor{
			Label: p.Label, Layout: s.pipeLayout, Module: s.tenantsModule, EntryPoint: p.EntryPoint, Constants: p.Constants,
		}); err != nil {
			s.tenants = nil
			return nil, false, failOn(dev, "create window tenants pipeline", err)
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
			if *p.dst, err = dev.CreateComputePipelineAsync(ctx, webgpu.ComputePipelineDescriptor{
				Label: p.prog.Label, Layout: s.pipeLayout, Module: s.reduceModule, EntryPoint: p.prog.EntryPoint, Constants: p.prog.Constants,
			}); err != nil {
				return nil, false, failOn(dev, "create "+p.prog.Label+" pipeline", err)
			}
		}
		if s.reduce == nil {
			s.reduce = make(map[uint32]*reducePipelines)
		}
		s.reduce[width] = red
		hit = false
	}
	return red, hit, nil
}

// ensureBuffers makes the summary's buffers, sized by t's layout, the bind
// group that follows them (and t's control and ring buffers, which
// buffersChanged says were just created), and writes the params when
// fresh.
func (s *summary) ensureBuffers(t reduceTarget, buffersChanged bool) error {
	dev := t.dev
	var err error
	sizes := [3]uint64{t.lay.summary, t.lay.statusMap, t.lay.sparams}
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
		if *b, err = dev.CreateBuffer(webgpu.BufferDescriptor{Label: "ringscope " + names[i], Size: sizes[i], Usage: usages[i]}); err != nil {
			*b = nil
			return failOn(dev, "create "+names[i], err)
		}
		if i == 2 {
			s.fresh = true
		}
	}
	if rebind {
		s.bindGroup, err = dev.CreateBindGroup(webgpu.BindGroupDescriptor{Label: "ringscope summary", Layout: s.bgl, Entries: []webgpu.BindGroupEntry{
			{Binding: abi.BindingControl, Buffer: t.control},
			{Binding: abi.BindingRing, Buffer: t.ring, Size: t.ringBytes},
			{Binding: abi.BindingSummary, Buffer: s.buf},
			{Binding: abi.BindingStatusMap, Buffer: s.statusMap},
			{Binding: abi.BindingSummaryParams, Buffer: s.params},
		}})
		if err != nil {
			s.bindGroup = nil
			return failOn(dev, "create summary bind group", err)
		}
	}
	if s.fresh {
		s.pbuf = t.opts.summaryParams().AppendBytes(s.pbuf[:0])
		if err := dev.Queue().WriteBuffer(s.params, 0, s.pbuf); err != nil {
			return failOn(dev, "upload summary params", err)
		}
		s.fresh = false
	}
	return nil
}

// encodeClear clears the summary. Call it before the drain pass:
// clearBuffer is a command of the encoder, not of a pass.
func (s *summary) encodeClear(enc *webgpu.CommandEncoder) {
	enc.ClearBuffer(s.buf, 0, s.buf.Size())
}

// encodePass adds the reduce pass (reduce, then, with a window table,
// reduce windows and window tenants) for target t, after the drain pass.
// Two methods rather than one returning the pass as a func: that closure
// was an allocation per submission.
func (s *summary) encodePass(enc *webgpu.CommandEncoder, t reduceTarget, red *reducePipelines, width uint32) {
	pass := enc.BeginComputePass(webgpu.ComputePassDescriptor{Label: "ringscope reduce"})
	s.encodeReduce(pass, t, red, width)
	pass.End()
}

// encodeReduce records the reduce pass's dispatches into pass. Each
// dispatch boundary is a global barrier: reduce_windows starts once every
// open window has its entry, window_tenants once every window's lowest
// slot is final.
func (s *summary) encodeReduce(pass *webgpu.ComputePassEncoder, t reduceTarget, red *reducePipelines, width uint32) {
	maxPerDim := t.dev.Limits().MaxComputeWorkgroupsPerDimension
	grid := reduceGrid(t.slots, width, maxPerDim)
	pass.SetPipeline(red.reduce)
	pass.SetBindGroup(abi.BindGroup, s.bindGroup)
	pass.DispatchWorkgroups(grid, 1, 1)
	if sh := t.opts.summaryShape(); sh.WindowCapacity > 0 && len(t.opts.WindowOpcodes) > 0 {
		pass.SetPipeline(red.windows)
		pass.DispatchWorkgroups(grid, 1, 1)
		pass.SetPipeline(s.tenants)
		pass.DispatchWorkgroups(tenantsGrid(sh.WindowCapacity, maxPerDim), 1, 1)
	}
}

// release destroys the summary's buffers and forgets its pipelines,
// keeping the params scratch.
func (s *summary) release() {
	for _, b := range []*webgpu.Buffer{s.buf, s.statusMap, s.params} {
		if b != nil {
			b.Destroy()
		}
	}
	*s = summary{pbuf: s.pbuf[:0]}
}
