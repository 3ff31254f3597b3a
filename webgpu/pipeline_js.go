//go:build js && wasm

package webgpu

import (
	"context"
	"errors"
	"fmt"
	"github.com/ringscope/ringscope/internal/nocompare"
	"syscall/js"
)

// ShaderModule is a GPUShaderModule that compiled without errors.
type ShaderModule struct {
	v        js.Value
	label    string
	messages []CompilationMessage
}

// CreateShaderModule compiles WGSL code and waits for getCompilationInfo().
// If it reports errors, the result is a *ShaderError with every message and
// its line:col. Warnings of a module that compiled are kept in Messages.
func (d *Device) CreateShaderModule(ctx context.Context, label, code string) (*ShaderModule, error) {
	op := "create shader module " + quote(label)
	if err := d.check(op); err != nil {
		return nil, err
	}
	o := map[string]any{"code": code}
	if label != "" {
		o["label"] = label
	}
	var v js.Value
	pop, err := d.scoped(func() { v = d.v.Call("createShaderModule", o) })
	if err != nil {
		return nil, d.fail(op, err)
	}
	var info js.Value
	if err := try(func() { info = v.Call("getCompilationInfo") }); err != nil {
		return nil, d.fail(op, err)
	}
	info, err = d.await(ctx, info)
	if err != nil {
		return nil, d.fail(op, err)
	}
	scopeErr, popErr := d.await(ctx, pop)
	m := &ShaderModule{v: v, label: label, messages: readCompilationMessages(info)}
	for _, msg := range m.messages {
		if msg.Type == "error" {
			return nil, &ShaderError{Label: label, Messages: m.messages}
		}
	}
	if popErr != nil {
		return nil, d.fail(op, popErr)
	}
	if err := gpuError(ErrorFilterValidation, scopeErr); err != nil {
		return nil, fmt.Errorf("webgpu: %s: %w", op, err)
	}
	d.stats.shaderModules.Add(1)
	return m, nil
}

// Messages returns the compilation messages (warnings, info) of the module.
func (m *ShaderModule) Messages() []CompilationMessage { return m.messages }

// Label returns the module's label.
func (m *ShaderModule) Label() string { return m.label }

func readCompilationMessages(info js.Value) []CompilationMessage {
	if !truthy(info) {
		return nil
	}
	msgs := info.Get("messages")
	out := make([]CompilationMessage, 0, msgs.Length())
	for i := range msgs.Length() {
		m := msgs.Index(i)
		out = append(out, CompilationMessage{
			Type:    stringProp(m, "type"),
			Line:    intProp(m, "lineNum"),
			Column:  intProp(m, "linePos"),
			Offset:  intProp(m, "offset"),
			Length:  intProp(m, "length"),
			Message: stringProp(m, "message"),
		})
	}
	return out
}

func intProp(v js.Value, name string) int {
	if p := v.Get(name); p.Type() == js.TypeNumber {
		return p.Int()
	}
	return 0
}

// BufferBindingLayout is GPUBufferBindingLayout. The zero value is a
// uniform buffer binding with no minimum size.
type BufferBindingLayout struct {
	_ nocompare.T

	Type             BufferBindingType
	HasDynamicOffset bool
	MinBindingSize   uint64
}

// BindGroupLayoutEntry is a buffer GPUBindGroupLayoutEntry. A zero
// Visibility means ShaderStageCompute.
type BindGroupLayoutEntry struct {
	_ nocompare.T

	Binding    uint32
	Visibility ShaderStage
	Buffer     BufferBindingLayout
}

// BindGroupLayoutDescriptor is GPUBindGroupLayoutDescriptor.
type BindGroupLayoutDescriptor struct {
	Label   string
	Entries []BindGroupLayoutEntry
}

// BindGroupLayout is a GPUBindGroupLayout.
type BindGroupLayout struct {
	v     js.Value
	label string
}

// CreateBindGroupLayout creates an explicit bind group layout.
func (d *Device) CreateBindGroupLayout(desc BindGroupLayoutDescriptor) (*BindGroupLayout, error) {
	op := "create bind group layout " + quote(desc.Label)
	if err := d.check(op); err != nil {
		return nil, err
	}
	entries := make([]any, len(desc.Entries))
	for i, e := range desc.Entries {
		vis := e.Visibility
		if vis == 0 {
			vis = ShaderStageCompute
		}
		typ := e.Buffer.Type
		if typ == "" {
			typ = BufferBindingUniform
		}
		buf := map[string]any{"type": string(typ)}
		if e.Buffer.HasDynamicOffset {
			buf["hasDynamicOffset"] = true
		}
		if e.Buffer.MinBindingSize != 0 {
			buf["minBindingSize"] = float64(e.Buffer.MinBindingSize)
		}
		entries[i] = map[string]any{"binding": e.Binding, "visibility": uint32(vis), "buffer": buf}
	}
	o := map[string]any{"entries": entries}
	if desc.Label != "" {
		o["label"] = desc.Label
	}
	var v js.Value
	if err := try(func() { v = d.v.Call("createBindGroupLayout", o) }); err != nil {
		return nil, d.fail(op, err)
	}
	return &BindGroupLayout{v: v, label: desc.Label}, nil
}

// PipelineLayoutDescriptor is GPUPipelineLayoutDescriptor.
type PipelineLayoutDescriptor struct {
	Label            string
	BindGroupLayouts []*BindGroupLayout
}

// PipelineLayout is a GPUPipelineLayout.
type PipelineLayout struct {
	v     js.Value
	label string
}

// CreatePipelineLayout creates an explicit pipeline layout.
func (d *Device) CreatePipelineLayout(desc PipelineLayoutDescriptor) (*PipelineLayout, error) {
	op := "create pipeline layout " + quote(desc.Label)
	if err := d.check(op); err != nil {
		return nil, err
	}
	layouts := make([]any, len(desc.BindGroupLayouts))
	for i, l := range desc.BindGroupLayouts {
		if l == nil {
			return nil, fmt.Errorf("webgpu: %s: bind group layout %d is nil", op, i)
		}
		layouts[i] = l.v
	}
	o := map[string]any{"bindGroupLayouts": layouts}
	if desc.Label != "" {
		o["label"] = desc.Label
	}
	var v js.Value
	if err := try(func() { v = d.v.Call("createPipelineLayout", o) }); err != nil {
		return nil, d.fail(op, err)
	}
	return &PipelineLayout{v: v, label: desc.Label}, nil
}

// BindGroupEntry binds a buffer range. A zero Size binds the rest of the
// buffer from Offset.
type BindGroupEntry struct {
	_ nocompare.T

	Binding uint32
	Buffer  *Buffer
	Offset  uint64
	Size    uint64
}

// BindGroupDescriptor is GPUBindGroupDescriptor.
type BindGroupDescriptor struct {
	Label   string
	Layout  *BindGroupLayout
	Entries []BindGroupEntry
}

// BindGroup is a GPUBindGroup.
type BindGroup struct {
	v     js.Value
	label string
}

// CreateBindGroup creates a bind group.
func (d *Device) CreateBindGroup(desc BindGroupDescriptor) (*BindGroup, error) {
	op := "create bind group " + quote(desc.Label)
	if err := d.check(op); err != nil {
		return nil, err
	}
	if desc.Layout == nil {
		return nil, fmt.Errorf("webgpu: %s: nil layout", op)
	}
	entries := make([]any, len(desc.Entries))
	for i, e := range desc.Entries {
		if e.Buffer == nil {
			return nil, fmt.Errorf("webgpu: %s: entry %d (binding %d) has no buffer", op, i, e.Binding)
		}
		res := map[string]any{"buffer": e.Buffer.v}
		if e.Offset != 0 {
			res["offset"] = float64(e.Offset)
		}
		if e.Size != 0 {
			res["size"] = float64(e.Size)
		}
		entries[i] = map[string]any{"binding": e.Binding, "resource": res}
	}
	o := map[string]any{"layout": desc.Layout.v, "entries": entries}
	if desc.Label != "" {
		o["label"] = desc.Label
	}
	var v js.Value
	if err := try(func() { v = d.v.Call("createBindGroup", o) }); err != nil {
		return nil, d.fail(op, err)
	}
	return &BindGroup{v: v, label: desc.Label}, nil
}

// ComputePipelineDescriptor is GPUComputePipelineDescriptor.
type ComputePipelineDescriptor struct {
	Label string
	// Layout nil means "auto": bind group layouts come from the shader (see
	// ComputePipeline.GetBindGroupLayout).
	Layout     *PipelineLayout
	Module     *ShaderModule
	EntryPoint string // "" lets WebGPU pick the module's only compute entry point
	// Constants sets WGSL override constants by name (or @id).
	Constants map[string]float64
}

// ComputePipeline is a GPUComputePipeline.
type ComputePipeline struct {
	v     js.Value
	label string
}

// CreateComputePipelineAsync creates a compute pipeline with
// createComputePipelineAsync; an invalid descriptor fails with the rejection
// (a *JSError, Name "GPUPipelineError", carrying the implementation's
// message).
func (d *Device) CreateComputePipelineAsync(ctx context.Context, desc ComputePipelineDescriptor) (*ComputePipeline, error) {
	op := "create compute pipeline " + quote(desc.Label)
	if err := d.check(op); err != nil {
		return nil, err
	}
	if desc.Module == nil {
		return nil, fmt.Errorf("webgpu: %s: nil shader module", op)
	}
	compute := map[string]any{"module": desc.Module.v}
	if desc.EntryPoint != "" {
		compute["entryPoint"] = desc.EntryPoint
	}
	if len(desc.Constants) > 0 {
		c := make(map[string]any, len(desc.Constants))
		for k, v := range desc.Constants {
			c[k] = v
		}
		compute["constants"] = c
	}
	var layout any = "auto"
	if desc.Layout != nil {
		layout = desc.Layout.v
	}
	o := map[string]any{"layout": layout, "compute": compute}
	if desc.Label != "" {
		o["label"] = desc.Label
	}
	var p js.Value
	if err := try(func() { p = d.v.Call("createComputePipelineAsync", o) }); err != nil {
		return nil, d.fail(op, err)
	}
	v, err := d.await(ctx, p)
	if err != nil {
		return nil, d.fail(op, err)
	}
	d.stats.pipelines.Add(1)
	return &ComputePipeline{v: v, label: desc.Label}, nil
}

// GetBindGroupLayout returns the pipeline's bind group layout at index (for
// "auto" layouts).
func (p *ComputePipeline) GetBindGroupLayout(index uint32) (*BindGroupLayout, error) {
	var v js.Value
	if err := try(func() { v = p.v.Call("getBindGroupLayout", index) }); err != nil {
		return nil, fmt.Errorf("webgpu: get bind group layout %d of pipeline %s: %w", index, quote(p.label), err)
	}
	return &BindGroupLayout{v: v}, nil
}

// Label returns the pipeline's label.
func (p *ComputePipeline) Label() string { return p.label }

// QueryType is GPUQueryType.
type QueryType string

// GPUQueryType values.
const (
	QueryTypeTimestamp QueryType = "timestamp"
	QueryTypeOcclusion QueryType = "occlusion"
)

// QuerySetDescriptor is GPUQuerySetDescriptor. A zero Type means timestamp.
type QuerySetDescriptor struct {
	Label string
	Type  QueryType
	Count uint32
}

// QuerySet is a GPUQuerySet.
type QuerySet struct {
	d     *Device
	v     js.Value
	typ   QueryType
	count uint32
}

// CreateQuerySet creates a query set. Timestamp query sets need the device
// to have been requested with FeatureTimestampQuery.
func (d *Device) CreateQuerySet(desc QuerySetDescriptor) (*QuerySet, error) {
	op := "create query set " + quote(desc.Label)
	if err := d.check(op); err != nil {
		return nil, err
	}
	typ := desc.Type
	if typ == "" {
		typ = QueryTypeTimestamp
	}
	if typ == QueryTypeTimestamp && !d.HasFeature(FeatureTimestampQuery) {
		return nil, fmt.Errorf("webgpu: %s: device lacks feature %q", op, FeatureTimestampQuery)
	}
	if desc.Count == 0 {
		return nil, errors.New("webgpu: " + op + ": count is 0")
	}
	o := map[string]any{"type": string(typ), "count": desc.Count}
	if desc.Label != "" {
		o["label"] = desc.Label
	}
	var v js.Value
	if err := try(func() { v = d.v.Call("createQuerySet", o) }); err != nil {
		return nil, d.fail(op, err)
	}
	return &QuerySet{d: d, v: v, typ: typ, count: desc.Count}, nil
}

// Count returns the number of queries in the set.
func (q *QuerySet) Count() uint32 { return q.count }

// Destroy destroys the query set.
func (q *QuerySet) Destroy() { _ = try(func() { q.v.Call("destroy") }) }
