//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/ringscope/ringscope/internal/heapsort"
	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/wasm/kernelapi"
)

// installKernelAPI adds the user kernel's methods (wasm/kernelapi) over
// the page's runner (the controller is its Ring).
func installKernelAPI(a *app, obj js.Value) { kernelapi.Install(obj, a.ring) }

// namedUserOpcodes lists a kernel's user opcodes by number, for a
// capture's header (and so its metrics and trace).
func namedUserOpcodes(names ui.Names) []capture.NamedOpcode {
	out := make([]capture.NamedOpcode, 0, len(names))
	for op, name := range names {
		out = append(out, capture.NamedOpcode{Opcode: op, Name: name})
	}
	heapsort.Func(out, func(a, b capture.NamedOpcode) bool { return a.Opcode < b.Opcode }) // no pdqsort linked for this type
	return out
}
