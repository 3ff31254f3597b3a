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

// compileModules compiles the drain and finalize modules at once: each
// waits for its compilation info, and the implementation compiles them in
// parallel (startup waits for the slower, not the sum).
func (r *Runner) compileModules(ctx context.Context) error {
	// Every Step asks; the closures below would move their variables to the
	// heap, an allocation per Step, were they declared before this return.
	if r.drainModule != nil && r.finalizeModule != nil {
		return nil
	}
	var drainErr, finalizeErr error
	var wg sync.WaitGroup
	if r.drainModule == nil {
		wg.Go(func() {
			var m *webgpu.ShaderModule
			if m, drainErr = compileDrain(ctx, r.dev, &r.opts.Kernel); drainErr == nil {
				r.drainModule = m
			}
		})
	}
	if r.finalizeModule == nil {
		wg.Go(func() {
			var m *webgpu.ShaderModule
			if m, finalizeErr = r.dev.CreateShaderModule(ctx, "ringscope finalize", wgsl.FinalizeSource()); finalizeErr == nil {
				r.finalizeModule = m
			}
		})
	}
	wg.Wait()
	var ce *CompileError
	if errors.As(drainErr, &ce) {
		return drainErr
	}
	if drainErr != nil {
		return r.fail("compile drain", drainErr)
	}
	if finalizeErr != nil {
		return r.fail("compile finalize", finalizeErr)
	}
	return nil
}

// pipeline returns the drain pipeline for width and mode, compiling it on
// a cache miss, with its cache key; hit reports that both the drain and
// the finalize pipeline were reused.
func (r *Runner) pipeline(ctx context.Context, width uint32, jit bool) (p *webgpu.ComputePipeline, key string, hit bool, err error) {
	if err := r.compileModules(ctx); err != nil {
		return nil, "", false, err
	}
	if err := r.ensureLayout(); err != nil {
		return nil, "", false, err
	}
	// Warm's compile may end after Rebind or Close released the
	// pipelines: its results belong to the layout it started with.
	layout := r.pipeLayout
	key = r.pipelineKey(width, jit)
	hit = r.finalize != nil
	p = r.pipelines[key]
	if p != nil && hit {
		return p, key, true, nil // the steady state: before the closures' heap variables
	}
	// The finalize and drain pipelines compile at once (the first Step
	// needs both): the implementation compiles them in parallel.
	var finalizeErr error
	var wg sync.WaitGroup
	if r.finalize == nil {
		wg.Go(func() {
			fp := wgsl.Finalize()
			var fin *webgpu.ComputePipeline
			fin, finalizeErr = r.dev.CreateComputePipelineAsync(ctx, webgpu.ComputePipelineDescriptor{
				Label: fp.Label, Layout: r.pipeLayout, Module: r.finalizeModule, EntryPoint: fp.EntryPoint, Constants: fp.Constants,
			})
			if finalizeErr == nil && r.pipeLayout == layout {
				r.finalize = fin
			}
		})
	}
	if p != nil {
		wg.Wait()
		if finalizeErr != nil {
			return nil, key, false, r.fail("create finalize pipeline", finalizeErr)
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
	if r.workgroupClaims() {
		consts[wgsl.WorkgroupClaims] = 1
	}
	p, err = r.dev.CreateComputePipelineAsync(ctx, webgpu.ComputePipelineDescriptor{
		Label: prog.Label, Layout: r.pipeLayout, Module: r.drainModule, EntryPoint: prog.EntryPoint, Constants: consts,
	})
	wg.Wait()
	if finalizeErr != nil {
		return nil, key, false, r.fail("create finalize pipeline", finalizeErr)
	}
	if err != nil {
		return nil, key, false, r.fail("create drain pipeline", err)
	}
	if r.pipeLayout != layout {
		return nil, key, false, errors.New("megakernel: pipelines released while compiling")
	}
	if r.pipelines == nil {
		r.pipelines = make(map[string]*webgpu.ComputePipeline)
	}
	r.pipelines[key] = p
	return p, key, false, nil
}

// testWorkgroupClaims, when set by a test, overrides workgroupClaims.
var testWorkgroupClaims *bool

// workgroupClaims reports whether the drain claims tickets by workgroup
// (wgsl.WorkgroupClaims): only on an adapter known to be a GPU. On a CPU
// adapter (SwiftShader) the barriers cost more than the per-lane atomics
// they replace (bench/results-ring-earlier.md), and a device without
// adapter info, or whose info lacks isFallbackAdapter but names SwiftShader
// (Chromium's page measured 0.69x the frame rate with them on), keeps the
// per-lane loop.
func (r *Runner) workgroupClaims() bool {
	if testWorkgroupClaims != nil {
		return *testWorkgroupClaims
	}
	_, ok := r.dev.AdapterInfo()
	return ok && !r.cpuAdapter()
}

// pipelineKey names the drain pipeline of width and mode; the last key is
// kept, so a steady state builds no string.
func (r *Runner) pipelineKey(width uint32, jit bool) string {
	k := &r.lastKey
	if k.key != "" && k.width == width && k.jit == jit && (!jit || slices.Equal(k.opcodes, r.scan.opcodes)) {
		return k.key
	}
	k.width, k.jit, k.opcodes = width, jit, append(k.opcodes[:0], r.scan.opcodes...)
	if jit {
		k.key = fmt.Sprintf("%s/x%d", r.opts.Kernel.JITKey(r.scan.opcodes), width)
	} else {
		k.key = fmt.Sprintf("interpreter/x%d", width)
	}
	return k.key
}
