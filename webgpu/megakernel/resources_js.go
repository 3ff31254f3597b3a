//go:build js && wasm

package megakernel

import (
	"context"
	"errors"
	"fmt"

	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// The Runner's device resources: the ABI buffers, the readback staging,
// the timestamp queries, the bind group and the layouts, created when
// their shapes change and dropped together (release) when the runner
// moves to another device or closes. Kept apart from the submission path
// (step_js.go), which only asks for them.

// resources are the runner's device buffers: the ABI bindings (bufs),
// the user buffers of opts.Kernel, the two readback stagings and the bind
// group of them all, with what the device holds of the host copy.
type resources struct {
	bufs    [bufCount]*webgpu.Buffer
	staging [2]*webgpu.Buffer
	// userBufs are the user buffers of opts.Kernel (wasm/jsapi reads
	// them).
	userBufs  []*webgpu.Buffer
	bindGroup *webgpu.BindGroup
	// fresh marks device buffers that hold none of the host copy yet (new,
	// or on a new device): the next upload writes them whole.
	fresh [bufCount]bool
	// params is the params uniform's bytes on the device.
	params [paramsBytes]byte
}

// bufferUsages and bufferNames are the ABI buffers' usages and labels,
// by binding.
var (
	bufferUsages = [bufCount]webgpu.BufferUsage{
		bufControl: webgpu.BufferUsageStorage | webgpu.BufferUsageCopySrc | webgpu.BufferUsageCopyDst,
		bufRing:    webgpu.BufferUsageStorage | webgpu.BufferUsageCopySrc | webgpu.BufferUsageCopyDst,
		bufLog:     webgpu.BufferUsageStorage | webgpu.BufferUsageCopySrc | webgpu.BufferUsageCopyDst,
		bufParams:  webgpu.BufferUsageUniform | webgpu.BufferUsageCopyDst,
		bufData:    webgpu.BufferUsageStorage | webgpu.BufferUsageCopyDst,
	}
	bufferNames = [bufCount]string{"control", "ring", "log", "params", "data"}
)

// ensureBuffers creates the device buffers whose shape changed (or that do
// not exist), inside an out-of-memory and a validation error scope, and
// reports whether it created any.
func (r *Runner) ensureBuffers(ctx context.Context) (bool, error) {
	sizes := [bufCount]uint64{
		bufControl: r.lay.control,
		bufRing:    r.lay.ring,
		bufLog:     r.lay.log,
		bufParams:  paramsBytes,
		bufData:    r.lay.data,
	}
	timestamps := r.dev.HasFeature(webgpu.FeatureTimestampQuery)
	if !r.res.missing(sizes, r.lay.staging(), len(r.sp.decls)) && (!timestamps || r.tq.querySet != nil) &&
		!r.tr.stale() {
		return false, nil
	}
	if err := r.prog.layout(r.dev, &r.opts.Kernel); err != nil {
		return false, err
	}
	if err := pushScopes(r.dev); err != nil {
		return false, failOn(r.dev, "push error scope", err)
	}
	err := r.res.create(r.dev, sizes, r.lay.staging(), r.sp.decls)
	if err == nil && timestamps && r.tq.querySet == nil {
		err = r.tq.create(r.dev)
	}
	var traceEntries []webgpu.BindGroupEntry
	if err == nil {
		traceEntries, err = r.tr.ensure()
	}
	if err == nil {
		entries := make([]webgpu.BindGroupEntry, bufCount)
		for i, b := range r.res.bufs {
			entries[i] = webgpu.BindGroupEntry{Binding: uint32(i), Buffer: b}
		}
		entries = append(entries, r.res.userEntries()...)
		entries = append(entries, traceEntries...)
		r.res.bindGroup, err = r.dev.CreateBindGroup(webgpu.BindGroupDescriptor{
			Label: "ringscope bindings", Layout: r.prog.bgl, Entries: entries,
		})
	}
	if serr := popScopes(ctx, r.dev); err == nil {
		err = serr
	}
	if err != nil {
		r.res.bindGroup = nil
		return true, failOn(r.dev, "create buffers", err)
	}
	return true, nil
}

// missing reports whether a buffer of sizes, a staging of stagingSize,
// one of users user buffers or the bind group is missing or of another
// size.
func (res *resources) missing(sizes [bufCount]uint64, stagingSize uint64, users int) bool {
	missing := res.bindGroup == nil || len(res.userBufs) != users
	for i, b := range res.bufs {
		missing = missing || b == nil || b.Size() != sizes[i]
	}
	for _, s := range res.staging {
		missing = missing || s == nil || s.Size() != stagingSize
	}
	return missing
}

// create makes the ABI buffers of sizes that are missing or of another
// size (marking them fresh), the user buffers of decls and the stagings
// of stagingSize on dev.
func (res *resources) create(dev *webgpu.Device, sizes [bufCount]uint64, stagingSize uint64, decls []wgsl.Buffer) error {
	var err error
	for i := range res.bufs {
		if res.bufs[i] != nil && res.bufs[i].Size() == sizes[i] {
			continue
		}
		if res.bufs[i] != nil {
			res.bufs[i].Destroy()
		}
		res.bufs[i], err = dev.CreateBuffer(webgpu.BufferDescriptor{
			Label: "ringscope " + bufferNames[i], Size: sizes[i], Usage: bufferUsages[i],
		})
		if err != nil {
			res.bufs[i] = nil
			return err
		}
		res.fresh[i] = true
	}
	if err := res.ensureUserBuffers(dev, decls); err != nil {
		return err
	}
	for i := range res.staging {
		if res.staging[i] != nil && res.staging[i].Size() == stagingSize {
			continue
		}
		if res.staging[i] != nil {
			res.staging[i].Destroy()
		}
		res.staging[i], err = dev.CreateBuffer(webgpu.BufferDescriptor{
			Label: fmt.Sprintf("ringscope readback %d", i), Size: stagingSize,
			Usage: webgpu.BufferUsageMapRead | webgpu.BufferUsageCopyDst,
		})
		if err != nil {
			res.staging[i] = nil
			return err
		}
	}
	return nil
}

// create makes the query set and the buffer it resolves into on dev.
func (ts *timestamps) create(dev *webgpu.Device) error {
	var err error
	ts.querySet, err = dev.CreateQuerySet(webgpu.QuerySetDescriptor{Label: "ringscope drain pass", Type: webgpu.QueryTypeTimestamp, Count: 2})
	if err == nil {
		ts.resolve, err = dev.CreateBuffer(webgpu.BufferDescriptor{Label: "ringscope timestamps", Size: timestampBytes,
			Usage: webgpu.BufferUsageQueryResolve | webgpu.BufferUsageCopySrc})
	}
	if err != nil {
		ts.querySet, ts.resolve = nil, nil
	}
	return err
}

// pushScopes opens an out-of-memory and a validation error scope on dev;
// popScopes closes them and joins what they caught.
func pushScopes(dev *webgpu.Device) error {
	if err := dev.PushErrorScope(webgpu.ErrorFilterOutOfMemory); err != nil {
		return err
	}
	return dev.PushErrorScope(webgpu.ErrorFilterValidation)
}

func popScopes(ctx context.Context, dev *webgpu.Device) error {
	verr := dev.PopErrorScope(ctx)
	oerr := dev.PopErrorScope(ctx)
	return errors.Join(oerr, verr)
}

// kernelLayout is k's bind group layout (the ABI's bindings, then k's
// buffers) and the pipeline layout of it.
func kernelLayout(dev *webgpu.Device, k *wgsl.Kernel) (*webgpu.BindGroupLayout, *webgpu.PipelineLayout, error) {
	storage := webgpu.BufferBindingLayout{Type: webgpu.BufferBindingStorage}
	entries := []webgpu.BindGroupLayoutEntry{
		{Binding: abi.BindingControl, Buffer: storage},
		{Binding: abi.BindingRing, Buffer: storage},
		{Binding: abi.BindingLog, Buffer: storage},
		{Binding: abi.BindingParams, Buffer: webgpu.BufferBindingLayout{Type: webgpu.BufferBindingUniform}},
		{Binding: abi.BindingData, Buffer: webgpu.BufferBindingLayout{Type: webgpu.BufferBindingReadOnlyStorage}},
	}
	entries = append(entries, userLayoutEntries(k)...)
	entries = append(entries, traceLayoutEntries(k.Trace)...)
	bgl, err := dev.CreateBindGroupLayout(webgpu.BindGroupLayoutDescriptor{Label: "ringscope abi v1", Entries: entries})
	if err != nil {
		return nil, nil, fmt.Errorf("bind group layout: %w", err)
	}
	pl, err := dev.CreatePipelineLayout(webgpu.PipelineLayoutDescriptor{Label: "ringscope abi v1", BindGroupLayouts: []*webgpu.BindGroupLayout{bgl}})
	if err != nil {
		return nil, nil, fmt.Errorf("pipeline layout: %w", err)
	}
	return bgl, pl, nil
}

// Rebind moves the runner to dev, normally a new device after the old one
// was lost. Buffers and pipelines are created anew there by the next Step,
// which uploads the whole host copy: the host copy is the truth, so nothing
// published is lost, and slots already DONE in it stay DONE (work the lost
// device did after the last readback is redone).
func (r *Runner) Rebind(ctx context.Context, dev *webgpu.Device) error {
	if r.closed {
		return ErrClosed
	}
	if dev == nil {
		return errors.New("megakernel: rebind: nil device")
	}
	if err := dev.Err(); err != nil {
		return fmt.Errorf("megakernel: rebind: %w", err)
	}
	if _, err := r.opts.plan(dev.Limits()); err != nil {
		return err
	}
	r.release()
	r.dev = dev
	r.current = [3]bool{}
	return r.prog.compile(ctx, r.dev, &r.opts.Kernel)
}

// release drops every device resource (destroying the buffers).
func (r *Runner) release() {
	for i, b := range r.res.bufs {
		if b != nil {
			b.Destroy()
		}
		r.res.bufs[i] = nil
	}
	for i, b := range r.res.staging {
		if b != nil {
			b.Destroy()
		}
		r.res.staging[i] = nil
	}
	r.up.release()
	if r.tq.querySet != nil {
		r.tq.querySet.Destroy()
	}
	if r.tq.resolve != nil {
		r.tq.resolve.Destroy()
	}
	r.tq.querySet, r.tq.resolve = nil, nil
	r.res.bindGroup, r.prog.bgl, r.prog.pipeLayout = nil, nil, nil
	r.prog.drainModule, r.prog.finalizeModule = nil, nil
	r.prog.pipelines, r.prog.finalize = nil, nil
	r.prog.warming, r.prog.warmed = nil, "" // a compile in flight stores nothing (pipeline)
	r.res.fresh = [bufCount]bool{}
	r.res.releaseUserBuffers()
	r.prog.prepared = preparedKernel{}
	r.sum.release()
	r.tr.release()
}
