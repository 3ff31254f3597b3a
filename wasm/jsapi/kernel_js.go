//go:build js && wasm

package jsapi

import (
	"context"
	"errors"
	"fmt"
	"github.com/ringscope/ringscope/internal/nocompare"
	"strconv"
	"syscall/js"

	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/examples"
	"github.com/ringscope/ringscope/wgsl/kerneldef"
)

// Ring is the page's runner as the kernel API uses it.
type Ring interface {
	// Do runs f with the runner under the page's lock (the live loop
	// paused when pause), and encodes its result (api.Encode) before the
	// lock is released; it refuses with api.ErrNotReady before the page
	// has a runner.
	Do(pause bool, f func(ctx context.Context, r *megakernel.Runner) (any, error)) (any, error)
	// Slots is the ring's size, 0 before the page has a runner.
	Slots() int
	// DoPublish is Do for a call that publishes: the live loop pauses
	// only while it runs the page's own workload.
	DoPublish(f func(ctx context.Context, r *megakernel.Runner) (any, error)) (any, error)
	// Implements says whether the running kernel runs op.
	Implements(op uint32) bool
}

// kernelAPI is the user kernel's part of the JS API (docs/OPCODES.md):
// readBuffer, and the Kernel panel's worked examples (§4): examples as
// definitions, publishing a workload form, checking a run of an example on
// the host. The panel (static/src/kernel-panel) is a client of this API
// like any embedder.
type kernelAPI struct {
	ring Ring
	// last is what publishWorkload last published (guarded by the lock
	// Ring.Do holds).
	last workloadRun
}

// installKernel adds the user kernel's methods (docs/OPCODES.md):
// readBuffer, examples, example, publishWorkload and checkExample, over
// ring (the controller).
func installKernel(obj js.Value, ring Ring) {
	k := &kernelAPI{ring: ring}
	RawMethod(obj, "readBuffer", k.apiReadBuffer)
	Method(obj, "examples", func([]js.Value) (any, error) { return exampleList(), nil })
	Method(obj, "example", apiExample)
	Method(obj, "publishWorkload", k.apiPublishWorkload)
	Method(obj, "checkExample", k.apiCheckExample)
}

// workloadRun is the last workload publishWorkload published, and the
// ring GENERATION it went into: what checkExample compares a run with.
type workloadRun struct {
	w          kerneldef.Workload
	generation uint32
	ok         bool
}

// ExampleInfo is one entry of examples().
type ExampleInfo struct {
	_ nocompare.T

	Name, Title, About string
}

func exampleList() []ExampleInfo {
	out := make([]ExampleInfo, len(examples.List))
	for i, e := range examples.List {
		out[i] = ExampleInfo{Name: e.Name, Title: e.Title, About: e.About}
	}
	return out
}

// apiExample: example(name, {seed}) resolves to the example's kernel
// definition (kerneldef.Definition's JSON), the same for the same seed.
func apiExample(args []js.Value) (any, error) {
	name, err := String(Arg(args, 0), "example: name", 64)
	if err != nil {
		return nil, err
	}
	ex, err := examples.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("example: %w", err)
	}
	if err := Known(Arg(args, 1), &api.ExampleOptions, ""); err != nil {
		return nil, err
	}
	seed, err := OptUint32(Arg(args, 1), "example", "seed", 1)
	if err != nil {
		return nil, err
	}
	b, err := ex.Build(uint64(seed)).AppendJSON(nil)
	return api.RawJSON(b), err
}

// apiPublishWorkload: publishWorkload({opcode, count, tenants?,
// priorities?, args?}) makes the workload's items in Go
// (kerneldef.Workload) and publishes them as publish does. args are
// expressions of the item index i and the count n ("64*i"), or numbers.
func (k *kernelAPI) apiPublishWorkload(args []js.Value) (any, error) {
	w, err := workloadArg(Arg(args, 0))
	if err != nil {
		return nil, err
	}
	if max := k.ring.Slots(); max == 0 {
		return nil, api.ErrNotReady
	} else if int(w.Count) > max {
		return nil, fmt.Errorf("publishWorkload: workload.count: %d items, more than the ring's %d slots", w.Count, max)
	}
	items, err := w.Items(nil)
	if err != nil {
		return nil, fmt.Errorf("publishWorkload: %w", err)
	}
	if err := api.CheckKnownOpcodes(items[:1], k.ring.Implements); err != nil {
		return nil, fmt.Errorf("publishWorkload: workload.opcode: %w", err)
	}
	return k.ring.DoPublish(func(_ context.Context, r *megakernel.Runner) (any, error) {
		o := r.Options()
		if err := api.CheckTenants(items, o.RingTenants()); err != nil {
			return nil, fmt.Errorf("publishWorkload: workload.tenants %d: %w", w.Tenants, err)
		}
		n, err := r.Publish(items)
		if err != nil {
			return nil, fmt.Errorf("publishWorkload: %w", err)
		}
		k.last = workloadRun{w: w, generation: abi.Word(r.Control(), abi.CtrlGeneration), ok: true}
		return n, nil
	})
}

// workloadArg reads publishWorkload's argument, naming each bad field.
func workloadArg(o js.Value) (kerneldef.Workload, error) {
	const what = "publishWorkload: workload"
	var w kerneldef.Workload
	if TypeName(o) != "object" {
		return w, fmt.Errorf("%s must be an object {opcode, count, tenants, priorities, args}, got %s", what, TypeName(o))
	}
	if err := Known(o, &api.WorkloadOptions, what); err != nil {
		return w, err
	}
	for _, f := range []struct {
		name string
		dst  *uint32
		def  uint32
	}{{"opcode", &w.Opcode, 0}, {"count", &w.Count, 0}, {"tenants", &w.Tenants, 1}, {"priorities", &w.Priorities, 1}} {
		v, err := OptUint32(o, what, f.name, f.def)
		if err != nil {
			return w, err
		}
		*f.dst = v
	}
	if v, _ := Get(o, "", "opcode"); v.IsUndefined() {
		return w, fmt.Errorf("%s.opcode is missing", what)
	}
	srcs, err := exprArgs(o)
	if err != nil {
		return w, err
	}
	if w.Args, err = kerneldef.Args(srcs); err != nil {
		return w, fmt.Errorf("publishWorkload: %w", err)
	}
	return w, w.Check()
}

// exprArgs reads args: strings (expressions) or numbers, at most SlotArgs.
func exprArgs(o js.Value) ([]string, error) {
	const what = "publishWorkload: workload.args"
	v, err := Get(o, what, "args")
	if err != nil || v.IsUndefined() || v.IsNull() {
		return nil, err
	}
	n, err := Array(v, what, abi.SlotArgs)
	if err != nil {
		return nil, err
	}
	srcs := make([]string, n)
	for k := range n {
		e, err := Get(v, what, k)
		if err != nil {
			return nil, err
		}
		field := fmt.Sprintf("%s[%d]", what, k)
		switch TypeName(e) {
		case "number":
			u, err := api.Uint32(field, e.Float())
			if err != nil {
				return nil, err
			}
			srcs[k] = strconv.FormatUint(uint64(u), 10)
		case "string":
			if srcs[k], err = String(e, field, 256); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("%s must be a number or an expression string, got %s", field, TypeName(e))
		}
	}
	return srcs, nil
}

// errNoWorkload is checkExample's refusal before a workload was published
// into the ring that runs.
var errNoWorkload = errors.New("checkExample: no workload was published since the kernel was applied: publish it, drain, then check")

// apiCheckExample: checkExample(name) compares the ring that runs (its
// kernel's initial buffers, its data, the last published workload) with
// the example's host computation: {ok, summary, wrong}.
func (k *kernelAPI) apiCheckExample(args []js.Value) (any, error) {
	name, err := String(Arg(args, 0), "checkExample: name", 64)
	if err != nil {
		return nil, err
	}
	ex, err := examples.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("checkExample: %w", err)
	}
	return k.ring.Do(false, func(ctx context.Context, r *megakernel.Runner) (any, error) {
		run := k.last
		if !run.ok || run.generation != abi.Word(r.Control(), abi.CtrlGeneration) {
			return nil, errNoWorkload
		}
		o := r.Options()
		d := kerneldef.FromKernel(o.Kernel, o.Data, run.w)
		c := &r.Telemetry().Control
		var runs uint32
		for _, m := range c.Metrics {
			if m.Opcode == run.w.Opcode {
				runs = m.Count
			}
		}
		return ex.Check(d, examples.Readback{
			Buffer: func(name string) ([]byte, error) { return r.ReadBuffer(ctx, name) },
			Done:   c.DoneCount, Runs: runs, Faults: c.Faults,
		}), nil
	})
}

// apiReadBuffer: readBuffer(name) resolves to a Uint8Array of the user
// buffer as the last submission left it. It does not pause the live loop.
func (k *kernelAPI) apiReadBuffer(args []js.Value) (js.Value, error) {
	name, err := String(Arg(args, 0), "readBuffer: name", wgsl.MaxNameBytes)
	if err != nil {
		return js.Undefined(), err
	}
	var out []byte
	_, err = k.ring.Do(false, func(ctx context.Context, r *megakernel.Runner) (any, error) {
		b, err := r.ReadBuffer(ctx, name)
		out = b
		return nil, err
	})
	if err != nil {
		return js.Undefined(), fmt.Errorf("readBuffer: %w", err)
	}
	u8 := js.Global().Get("Uint8Array").New(len(out))
	js.CopyBytesToJS(u8, out)
	return u8, nil
}
