//go:build js && wasm

package main

import (
	"cmp"
	"context"
	"slices"
	"syscall/js"

	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/wasm/kernelapi"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl"
)

// installKernelAPI adds the user kernel's methods (wasm/kernelapi) over
// the page's runner.
func installKernelAPI(a *app, obj js.Value) { kernelapi.Install(obj, kernelRing{a}) }

// kernelRing is the page's runner as wasm/kernelapi's Ring.
type kernelRing struct{ a *app }

func (k kernelRing) Do(pause bool, f func(context.Context, *megakernel.Runner) (any, error)) (any, error) {
	return k.a.withRunnerLive(pause, func() (any, error) { return f(k.a.ctx, k.a.runner) })
}

func (k kernelRing) Slots() int                { return k.a.ringSlots() }
func (k kernelRing) Implements(op uint32) bool { return k.a.implements(op) }

// setKernelNames makes the panels, log and exports name k's opcodes.
func (a *app) setKernelNames(k *wgsl.Kernel) {
	names := map[uint32]string{}
	for _, op := range k.Opcodes {
		names[op.Value] = op.Name
	}
	ui.SetUserOpcodeNames(names)
	a.studio.SetUserOpcodes(namedUserOpcodes())
}

// implements reports whether the running kernel runs op (publish's check).
func (a *app) implements(op uint32) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.runner != nil && a.runner.Implements(op)
}

// namedUserOpcodes lists the running kernel's user opcodes by number, for
// a capture's header (and so its metrics and trace).
func namedUserOpcodes() []capture.NamedOpcode {
	names := ui.UserOpcodeNames()
	out := make([]capture.NamedOpcode, 0, len(names))
	for op, name := range names {
		out = append(out, capture.NamedOpcode{Opcode: op, Name: name})
	}
	slices.SortFunc(out, func(a, b capture.NamedOpcode) int { return cmp.Compare(a.Opcode, b.Opcode) })
	return out
}
