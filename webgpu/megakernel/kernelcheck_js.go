//go:build js && wasm

package megakernel

import (
	"context"
	"errors"
	"maps"
	"strconv"
	"strings"

	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl"
)

// checkPipeline makes k's drain pipeline from mod, every opcode on, in
// k's own layout, and drops it: WGSL can compile and still make no
// pipeline (a binding the layout lacks, an override with no value, more
// workgroup memory than the device has), and such a kernel must be refused
// before it replaces the ring that runs (issue 35), not by every Step
// after. The failure is a *CompileError naming the user's opcodes.
// width is the runner's workgroup width (0: the policy's) and claims
// whether it claims by workgroup (workgroupClaims).
func checkPipeline(ctx context.Context, dev *webgpu.Device, k *wgsl.Kernel, mod *webgpu.ShaderModule, width uint32, claims bool) error {
	_, layout, err := kernelLayout(dev, k)
	if err != nil {
		return failOn(dev, "prepare kernel: layout", err)
	}
	if width == 0 {
		width = 64 // the policy's narrowest: any width makes the same bindings and overrides
	}
	prog := k.Drain(width)
	consts := maps.Clone(prog.Constants)
	if claims {
		consts[wgsl.WorkgroupClaims] = 1
	}
	_, err = dev.CreateComputePipelineAsync(ctx, webgpu.ComputePipelineDescriptor{
		Label: prog.Label, Layout: layout, Module: mod, EntryPoint: prog.EntryPoint, Constants: consts,
	})
	var je *webgpu.JSError
	if err == nil || !errors.As(err, &je) || je.Name != "GPUPipelineError" || dev.Err() != nil {
		if err != nil {
			return failOn(dev, "prepare kernel: drain pipeline", err)
		}
		return nil
	}
	return pipelineError(k, je.Message)
}

// pipelineError is a pipeline the device would not make for k, as a
// *CompileError naming every user opcode (the implementation's message
// names no source line, so any of them may be at fault), with the
// message's first line (the rest is the implementation's call stack).
func pipelineError(k *wgsl.Kernel, msg string) *CompileError {
	msg, _, _ = strings.Cut(strings.TrimSpace(msg), "\n")
	msg = "makes no pipeline: " + strings.TrimSpace(msg)
	e := &CompileError{}
	for i, op := range k.Opcodes {
		e.Diagnostics = append(e.Diagnostics, Diagnostic{Field: "opcodes[" + strconv.Itoa(i) + "].wgsl", Opcode: op.Name,
			Type: "error", Message: msg})
	}
	if len(e.Diagnostics) == 0 {
		e.Diagnostics = []Diagnostic{{Field: "buffers", Type: "error", Message: msg}}
	}
	return e
}
