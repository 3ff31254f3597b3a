//go:build js && wasm

package megakernel

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl"
)

// The Runner's shader modules and pipelines: the drain module compiled
// once per kernel, and the drain pipelines cached by program (interpreter
// or JIT opcode set) and width, so that a steady state compiles nothing.

// programs are the runner's shader modules, layouts and pipelines, and
// the compiles in flight or prepared.
type programs struct {
	drainModule, finalizeModule *webgpu.ShaderModule
	bgl                         *webgpu.BindGroupLayout
	pipeLayout                  *webgpu.PipelineLayout
	pipelines                   map[string]*webgpu.ComputePipeline
	finalize                    *webgpu.ComputePipeline
	// warming is closed when Warm's compile ends (nil: none in flight);
	// warmed is the pipeline key it compiled, which the next Step counts
	// as a miss: that Step waited for the compile.
	warming chan struct{}
	warmed  string
	// lastKey is the last pipeline key built (pipeKey.of).
	lastKey pipeKey
	// prepared is a drain module PrepareKernel compiled for the next Reset.
	prepared preparedKernel
}

// compile compiles k's drain module and the finalize module on dev at
// once: each waits for its compilation info, and the implementation
// compiles them in parallel (startup waits for the slower, not the sum).
func (p *programs) compile(ctx context.Context, dev *webgpu.Device, k *wgsl.Kernel) error {
	// Every Step asks; the closures below would move their variables to the
	// heap, an allocation per Step, were they declared before this return.
	if p.drainModule != nil && p.finalizeModule != nil {
		return nil
	}
	var drainErr, finalizeErr error
	var wg sync.WaitGroup
	if p.drainModule == nil {
		wg.Go(func() {
			var m *webgpu.ShaderModule
			if m, drainErr = compileDrain(ctx, dev, k); drainErr == nil {
				p.drainModule = m
			}
		})
	}
	if p.finalizeModule == nil {
		wg.Go(func() {
			var m *webgpu.ShaderModule
			if m, finalizeErr = dev.CreateShaderModule(ctx, "ringscope finalize", wgsl.FinalizeSource()); finalizeErr == nil {
				p.finalizeModule = m
			}
		})
	}
	wg.Wait()
	var ce *CompileError
	if errors.As(drainErr, &ce) {
		return drainErr
	}
	if drainErr != nil {
		return failOn(dev, "compile drain", drainErr)
	}
	if finalizeErr != nil {
		return failOn(dev, "compile finalize", finalizeErr)
	}
	return nil
}

// layout creates the explicit bind group and pipeline layouts of
// PROTOCOL §1 for k on dev, shared by the drain and the finalize
// pipelines.
func (p *programs) layout(dev *webgpu.Device, k *wgsl.Kernel) error {
	if p.pipeLayout != nil {
		return nil
	}
	bgl, pl, err := kernelLayout(dev, k)
	if err != nil {
		return failOn(dev, "create layout", err)
	}
	p.bgl, p.pipeLayout = bgl, pl
	return nil
}

// pipeline returns the drain pipeline for width and mode, compiling it on
// a cache miss, with its cache key; hit reports that both the drain and
// the finalize pipeline were reused.
func (r *Runner) pipeline(ctx context.Context, width uint32, jit bool) (p *webgpu.ComputePipeline, key string, hit bool, err error) {
	if err := r.prog.compile(ctx, r.dev, &r.opts.Kernel); err != nil {
		return nil, "", false, err
	}
	if err := r.prog.layout(r.dev, &r.opts.Kernel); err != nil {
		return nil, "", false, err
	}
	// Warm's compile may end after Rebind or Close released the
	// pipelines: its results belong to the layout it started with.
	layout := r.prog.pipeLayout
	key = r.prog.lastKey.of(&r.opts.Kernel, width, jit, r.scan.opcodes)
	hit = r.prog.finalize != nil
	p = r.prog.pipelines[key]
	if p != nil && hit {
		return p, key, true, nil // the steady state: before the closures' heap variables
	}
	// The finalize and drain pipelines compile at once (the first Step
	// needs both): the implementation compiles them in parallel.
	var finalizeErr error
	var wg sync.WaitGroup
	if r.prog.finalize == nil {
		wg.Go(func() {
			fp := wgsl.Finalize()
			var fin *webgpu.ComputePipeline
			fin, finalizeErr = r.dev.CreateComputePipelineAsync(ctx, webgpu.ComputePipelineDescriptor{
				Label: fp.Label, Layout: r.prog.pipeLayout, Module: r.prog.finalizeModule, EntryPoint: fp.EntryPoint, Constants: fp.Constants,
			})
			if finalizeErr == nil && r.prog.pipeLayout == layout {
				r.prog.finalize = fin
			}
		})
	}
	if p != nil {
		wg.Wait()
		if finalizeErr != nil {
			return nil, key, false, failOn(r.dev, "create finalize pipeline", finalizeErr)
		}
		return p, key, hit, nil
	}
	var prog wgsl.Program
	if jit {
		prog = r.opts.Kernel.JIT(width, r.scan.opcodes)
	} else {
		prog = r.opts.Kernel.Drain(width)
	}
	consts := maps.Clone(prog.Constants)
	if workgroupClaims(r.dev, r.cpu.of(r.dev)) {
		consts[wgsl.WorkgroupClaims] = 1
	}
	p, err = r.dev.CreateComputePipelineAsync(ctx, webgpu.ComputePipelineDescriptor{
		Label: prog.Label, Layout: r.prog.pipeLayout, Module: r.prog.drainModule, EntryPoint: prog.EntryPoint, Constants: consts,
	})
	wg.Wait()
	if finalizeErr != nil {
		return nil, key, false, failOn(r.dev, "create finalize pipeline", finalizeErr)
	}
	if err != nil {
		return nil, key, false, failOn(r.dev, "create drain pipeline", err)
	}
	if r.prog.pipeLayout != layout {
		return nil, key, false, errors.New("megakernel: pipelines released while compiling")
	}
	if r.prog.pipelines == nil {
		r.prog.pipelines = make(map[string]*webgpu.ComputePipeline)
	}
	r.prog.pipelines[key] = p
	return p, key, false, nil
}

// testWorkgroupClaims, when set by a test, overrides workgroupClaims.
var testWorkgroupClaims *bool

// workgroupClaims reports whether the drain claims tickets by workgroup
// (wgsl.WorkgroupClaims): only on an adapter known to be a GPU. On a CPU
// adapter (SwiftShader) the barriers cost more than the per-lane atomics
// they replace (bench/results-ring-earlier.md), and a device without
// adapter info, or whose info lacks isFallbackAdapter but names SwiftShader
// (Chromium's page ran at a lower frame rate with them on:
// bench/results-ring-earlier.md), keeps the per-lane loop.
func workgroupClaims(dev *webgpu.Device, cpu bool) bool {
	if testWorkgroupClaims != nil {
		return *testWorkgroupClaims
	}
	_, ok := dev.AdapterInfo()
	return ok && !cpu
}

// pipeKey is the last drain pipeline key built, with what it was built
// for, so a steady state builds no string.
type pipeKey struct {
	key     string
	width   uint32
	jit     bool
	opcodes []uint32
}

// of names the drain pipeline of k at width, interpreted or JIT-compiled
// for opcodes.
func (pk *pipeKey) of(k *wgsl.Kernel, width uint32, jit bool, opcodes []uint32) string {
	if pk.key != "" && pk.width == width && pk.jit == jit && (!jit || slices.Equal(pk.opcodes, opcodes)) {
		return pk.key
	}
	pk.width, pk.jit, pk.opcodes = width, jit, append(pk.opcodes[:0], opcodes...)
	if jit {
		pk.key = fmt.Sprintf("%s/x%d", k.JITKey(opcodes), width)
	} else {
		pk.key = fmt.Sprintf("interpreter/x%d", width)
	}
	return pk.key
}
