//go:build js && wasm

package webgpu

import (
	"context"
	"fmt"
	"slices"
	"syscall/js"

	"github.com/ringscope/ringscope/internal/heapsort"
)

// RequestAdapterOptions is GPURequestAdapterOptions. The zero value asks for
// the implementation's default adapter.
type RequestAdapterOptions struct {
	PowerPreference      string // "", "low-power" or "high-performance"
	ForceFallbackAdapter bool
}

// Adapter is a GPUAdapter. Its info, limits and features are read once, when
// it is requested.
type Adapter struct {
	v        js.Value
	info     AdapterInfo
	limits   Limits
	features []string // sorted
	consumed bool     // requestDevice was called
}

// RequestAdapter calls navigator.gpu.requestAdapter. It returns an error
// matching ErrNoWebGPU when navigator.gpu is missing or no adapter is
// available (the Promise resolves to null).
func RequestAdapter(ctx context.Context, opts RequestAdapterOptions) (*Adapter, error) {
	return requestAdapter(ctx, env().gpu, opts)
}

func requestAdapter(ctx context.Context, gpu js.Value, opts RequestAdapterOptions) (*Adapter, error) {
	if !truthy(gpu) {
		return nil, fmt.Errorf("%w: navigator.gpu is missing", ErrNoWebGPU)
	}
	o := map[string]any{}
	if opts.PowerPreference != "" {
		o["powerPreference"] = opts.PowerPreference
	}
	if opts.ForceFallbackAdapter {
		o["forceFallbackAdapter"] = true
	}
	var p js.Value
	if err := try(func() { p = gpu.Call("requestAdapter", o) }); err != nil {
		return nil, fmt.Errorf("webgpu: request adapter: %w", err)
	}
	v, err := await(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("webgpu: request adapter: %w", err)
	}
	if !truthy(v) {
		return nil, fmt.Errorf("%w: requestAdapter returned null", ErrNoWebGPU)
	}
	a := &Adapter{v: v}
	info := v.Get("info")
	if !truthy(info) && v.Get("requestAdapterInfo").Type() == js.TypeFunction {
		// Implementations that predate GPUAdapter.info.
		if info, err = await(ctx, v.Call("requestAdapterInfo")); err != nil {
			return nil, fmt.Errorf("webgpu: request adapter info: %w", err)
		}
	}
	if truthy(info) {
		a.info = AdapterInfo{
			Vendor:       stringProp(info, "vendor"),
			Architecture: stringProp(info, "architecture"),
			Device:       stringProp(info, "device"),
			Description:  stringProp(info, "description"),
		}
		a.info.IsFallbackAdapter = info.Get("isFallbackAdapter").Truthy()
	}
	if v.Get("isFallbackAdapter").Truthy() {
		a.info.IsFallbackAdapter = true
	}
	a.limits = readLimits(v.Get("limits"))
	a.features = readFeatures(v.Get("features"))
	return a, nil
}

// Info returns the adapter's GPUAdapterInfo.
func (a *Adapter) Info() AdapterInfo { return a.info }

// Limits returns the adapter's supported limits: the most a device may ask for.
func (a *Adapter) Limits() Limits { return a.limits }

// Features returns the adapter's features, sorted.
func (a *Adapter) Features() []string { return slices.Clone(a.features) }

// HasFeature reports whether the adapter supports the named feature.
func (a *Adapter) HasFeature(name string) bool {
	_, ok := slices.BinarySearch(a.features, name)
	return ok
}

// IsFallback reports whether the implementation flags the adapter as a
// fallback adapter (adapter.isFallbackAdapter or info.isFallbackAdapter).
func (a *Adapter) IsFallback() bool { return a.info.IsFallbackAdapter }

// IsCPU reports whether the adapter runs on the CPU (see AdapterInfo.IsCPU).
func (a *Adapter) IsCPU() bool { return a.info.IsCPU() }

func stringProp(v js.Value, name string) string {
	if p := v.Get(name); p.Type() == js.TypeString {
		return p.String()
	}
	return ""
}

func readLimits(v js.Value) Limits {
	var l Limits
	if !truthy(v) {
		return l
	}
	for _, f := range l.fields() {
		if x := v.Get(f.name); x.Type() == js.TypeNumber {
			*f.p = uint64(x.Float())
		}
	}
	return l
}

// readFeatures reads a GPUSupportedFeatures set-like through Array.from,
// since implementations differ in which Set methods they provide (Dawn in
// Node has no forEach).
func readFeatures(v js.Value) []string {
	if !truthy(v) {
		return nil
	}
	arr := env().array.Call("from", v)
	out := make([]string, 0, arr.Length())
	for i := range arr.Length() {
		out = append(out, arr.Index(i).String())
	}
	heapsort.Ordered(out)
	return out
}
