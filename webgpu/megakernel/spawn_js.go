//go:build js && wasm

package megakernel

import (
	"context"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi/spawn"
)

// spawnRun is a runner's spawn extension: on when its kernel spawns.
type spawnRun struct {
	on    bool
	fixed uint32        // Options.Generations
	decls []wgsl.Buffer // bindBuffers of the kernel
	// The scan and finalize pipelines, made for layout.
	layout    *webgpu.PipelineLayout
	scan, fin *webgpu.ComputePipeline
	policy    generationPolicy
	ran       uint32 // passes the last submission ran
	why       string // and why
	tel       decode.SpawnTelemetry
	read      spawnRead
}

// set points the extension at a kernel (Open, Reset).
func (sp *spawnRun) set(o *Options) {
	sp.on, sp.fixed, sp.decls = o.Kernel.Spawns(), o.Generations, bindBuffers(&o.Kernel)
	sp.layout, sp.scan, sp.fin = nil, nil, nil
	sp.policy.reset(o.Generations)
	sp.ran, sp.tel = 0, decode.SpawnTelemetry{}
}

// ensure makes the scan and finalize pipelines for the runner's layout.
func (sp *spawnRun) ensure(ctx context.Context, r *Runner) error {
	if sp.layout == r.prog.pipeLayout && sp.fin != nil {
		return nil
	}
	k := &r.opts.Kernel
	scan, fin := k.SpawnScan(), k.SpawnFinalize()
	mod, err := r.dev.CreateShaderModule(ctx, "ringscope spawn", scan.Source)
	if err != nil {
		return failOn(r.dev, "compile spawn passes", err)
	}
	for _, p := range []struct {
		prog wgsl.Program
		dst  **webgpu.ComputePipeline
	}{{scan, &sp.scan}, {fin, &sp.fin}} {
		if *p.dst, err = r.dev.CreateComputePipelineAsync(ctx, webgpu.ComputePipelineDescriptor{
			Label: p.prog.Label, Layout: r.prog.pipeLayout, Module: mod, EntryPoint: p.prog.EntryPoint, Constants: p.prog.Constants,
		}); err != nil {
			return failOn(r.dev, "create "+p.prog.Label+" pipeline", err)
		}
	}
	sp.layout = r.prog.pipeLayout
	return nil
}

// encode records the submission's generations in pass: each a scan over
// the ring, the drain, the spawn finalize. control is the host copy as
// uploaded: its TAILs are where the submission's spawns begin.
func (sp *spawnRun) encode(pass *webgpu.ComputePassEncoder, drain *webgpu.ComputePipeline, grid uint32, control []byte, slots uint32) {
	sp.ran, sp.why = sp.policy.next, sp.policy.reason
	sp.read.mark(control)
	scanGrid := min((slots+spawn.SpawnScanWidth-1)/spawn.SpawnScanWidth, maxScanGroups)
	for range sp.ran {
		pass.SetPipeline(sp.scan)
		pass.DispatchWorkgroups(scanGrid, 1, 1)
		pass.SetPipeline(drain)
		pass.DispatchWorkgroups(grid, 1, 1)
		pass.SetPipeline(sp.fin)
		pass.DispatchWorkgroups(1, 1, 1)
	}
}

// maxScanGroups bounds the scan's grid (it strides over the rest).
const maxScanGroups = 4096

// absorb decodes the state read back and lets the policy learn.
func (sp *spawnRun) absorb(b []byte, workLeft bool) error {
	if err := decode.DecodeSpawn(b, &sp.tel); err != nil {
		return err
	}
	sp.policy.learn(sp.fixed, sp.ran, sp.tel.History, workLeft)
	return nil
}

// Spawn is what the GPU made, refused and drained, pass by pass, as of
// the last Step; ok is false for a kernel that does not spawn.
func (r *Runner) Spawn() (t decode.SpawnTelemetry, ok bool) { return r.sp.tel, r.sp.on }
