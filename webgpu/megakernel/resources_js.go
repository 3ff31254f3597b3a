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
	usages := [bufCount]webgpu.BufferUsage{
		bufControl: webgpu.BufferUsageStorage | webgpu.BufferUsageCopySrc | webgpu.BufferUsageCopyDst,
		bufRing:    webgpu.BufferUsageStorage | webgpu.BufferUsageCopySrc | webgpu.BufferUsageCopyDst,
		bufLog:     webgpu.BufferUsageStorage | webgpu.BufferUsageCopySrc | webgpu.BufferUsageCopyDst,
		bufParams:  webgpu.BufferUsageUniform | webgpu.BufferUsageCopyDst,
		bufData:    webgpu.BufferUsageStorage | webgpu.BufferUsageCopyDst,
	}
	names := [bufCount]string{"control", "ring", "log", "params", "data"}
	missing := r.bindGroup == nil || len(r.userBufs) != len(r.opts.Kernel.Buffers)
	for i, b := range r.bufs {
		missing = missing || b == nil || b.Size() != sizes[i]
	}
	for _, s := range r.staging {
		missing = missing || s == nil || s.Size() != r.lay.staging()
	}
	timestamps := r.dev.HasFeature(webgpu.FeatureTimestampQuery)
	missing = missing || (timestamps && r.querySet == nil)
	if !missing {
		return false, nil
	}
	if err := r.ensureLayout(); err != nil {
		return false, err
	}
	if err := r.pushScopes(); err != nil {
		return false, err
	}
	var err error
	for i := range r.bufs {
		if r.bufs[i] != nil && r.bufs[i].Size() == sizes[i] {
			continue
		}
		if r.bufs[i] != nil {
			r.bufs[i].Destroy()
		}
		r.bufs[i], err = r.dev.CreateBuffer(webgpu.BufferDescriptor{
			Label: "ringscope " + names[i], Size: sizes[i], Usage: usages[i],
		})
		if err != nil {
			r.bufs[i] = nil
			break
		}
		r.fresh[i] = true
	}
	if err == nil {
		err = r.ensureUserBuffers()
	}
	for i := range r.staging {
		if err != nil || (r.staging[i] != nil && r.staging[i].Size() == r.lay.staging()) {
			continue
		}
		if r.staging[i] != nil {
			r.staging[i].Destroy()
		}
		r.staging[i], err = r.dev.CreateBuffer(webgpu.BufferDescriptor{
			Label: fmt.Sprintf("ringscope readback %d", i), Size: r.lay.staging(),
			Usage: webgpu.BufferUsageMapRead | webgpu.BufferUsageCopyDst,
		})
		if err != nil {
			r.staging[i] = nil
		}
	}
	if err == nil && timestamps && r.querySet == nil {
		r.querySet, err = r.dev.CreateQuerySet(webgpu.QuerySetDescriptor{Label: "ringscope drain pass", Type: webgpu.QueryTypeTimestamp, Count: 2})
		if err == nil {
			r.resolve, err = r.dev.CreateBuffer(webgpu.BufferDescriptor{Label: "ringscope timestamps", Size: timestampBytes,
				Usage: webgpu.BufferUsageQueryResolve | webgpu.BufferUsageCopySrc})
		}
		if err != nil {
			r.querySet, r.resolve = nil, nil
		}
	}
	if err == nil {
		entries := make([]webgpu.BindGroupEntry, bufCount)
		for i, b := range r.bufs {
			entries[i] = webgpu.BindGroupEntry{Binding: uint32(i), Buffer: b}
		}
		entries = append(entries, r.userEntries()...)
		r.bindGroup, err = r.dev.CreateBindGroup(webgpu.BindGroupDescriptor{
			Label: "ringscope bindings", Layout: r.bgl, Entries: entries,
		})
	}
	if serr := r.popScopes(ctx); err == nil {
		err = serr
	}
	if err != nil {
		r.bindGroup = nil
		return true, r.fail("create buffers", err)
	}
	return true, nil
}

func (r *Runner) pushScopes() error {
	if err := r.dev.PushErrorScope(webgpu.ErrorFilterOutOfMemory); err != nil {
		return r.fail("push error scope", err)
	}
	if err := r.dev.PushErrorScope(webgpu.ErrorFilterValidation); err != nil {
		return r.fail("push error scope", err)
	}
	return nil
}

func (r *Runner) popScopes(ctx context.Context) error {
	verr := r.dev.PopErrorScope(ctx)
	oerr := r.dev.PopErrorScope(ctx)
	return errors.Join(oerr, verr)
}

// ensureLayout creates the explicit bind group and pipeline layouts of
// PROTOCOL §1, shared by the drain and the finalize pipelines.
func (r *Runner) ensureLayout() error {
	if r.pipeLayout != nil {
		return nil
	}
	bgl, pl, err := kernelLayout(r.dev, &r.opts.Kernel)
	if err != nil {
		return r.fail("create layout", err)
	}
	r.bgl, r.pipeLayout = bgl, pl
	return nil
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
	return r.compileModules(ctx)
}

// release drops every device resource (destroying the buffers).
func (r *Runner) release() {
	for i, b := range r.bufs {
		if b != nil {
			b.Destroy()
		}
		r.bufs[i] = nil
	}
	for i, b := range r.staging {
		if b != nil {
			b.Destroy()
		}
		r.staging[i] = nil
	}
	r.up.release()
	if r.querySet != nil {
		r.querySet.Destroy()
	}
	if r.resolve != nil {
		r.resolve.Destroy()
	}
	r.querySet, r.resolve = nil, nil
	r.bindGroup, r.bgl, r.pipeLayout = nil, nil, nil
	r.drainModule, r.finalizeModule = nil, nil
	r.pipelines, r.finalize = nil, nil
	r.warming, r.warmed = nil, "" // a compile in flight stores nothing (pipeline)
	r.fresh = [bufCount]bool{}
	r.releaseUserBuffers()
	r.prepared = preparedKernel{}
	r.releaseSummary()
}
