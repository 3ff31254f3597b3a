package wgsl

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// The spawn extension (docs/PROTOCOL-SPAWN.md): only a kernel whose
// opcodes call spawn gets these parts, so every other kernel assembles to
// the v1 drain byte for byte.
var (
	//go:embed min/spawn_gen.wgsl
	spawnGen string
	//go:embed min/spawn_prelude.wgsl
	spawnPrelude string
	//go:embed min/spawn_shared.wgsl
	spawnShared string
	//go:embed min/spawn_scan.wgsl
	spawnScan string
	//go:embed min/spawn_finalize.wgsl
	spawnFinalize string
)

// Entry points of spawn_scan.wgsl and spawn_finalize.wgsl: the scan before each drain pass and the
// finalize after it (one generation: scan, drain, finalize).
const (
	SpawnScanEntryPoint     = "spawn_scan"
	SpawnFinalizeEntryPoint = "spawn_finalize"
)

// Spawns reports whether one of k's opcodes calls spawn: the kernel then
// binds the spawn state buffer and runs its drain passes between
// spawn_scan and spawn_finalize.
func (k *Kernel) Spawns() bool {
	for _, op := range k.Opcodes {
		if callsFn(blankComments(op.WGSL), "spawn") {
			return true
		}
	}
	return false
}

// SpawnBinding is the binding of the spawn state buffer: the one after
// k's buffers.
func (k *Kernel) SpawnBinding() uint32 { return abi.BindingFirstUser + uint32(len(k.Buffers)) }

// spawnDeclarations is what a spawning kernel adds after the user
// prelude: the extension's constants, its binding, spawn, and
// spawn_known over the opcodes k implements.
func (k *Kernel) spawnDeclarations() string {
	var b strings.Builder
	b.WriteString(spawnGen)
	fmt.Fprintf(&b, "const SPAWN_BINDING: u32 = %du;\n", k.SpawnBinding())
	b.WriteString(hooks(spawnPrelude, k.Trace))
	b.WriteString("fn spawn_known(op: u32) -> bool {\n    switch op {\n        case ")
	for i, op := range k.opcodeList() {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%#xu", op)
	}
	b.WriteString(": { return true; }\n        default: { return false; }\n    }\n}\n")
	return b.String()
}

// SpawnScan and SpawnFinalize are the passes around each drain pass of a
// spawning kernel (spawn_scan.wgsl, spawn_finalize.wgsl: one shader
// module, spawn_shared.wgsl first); dispatch SpawnScan over
// ceil(slots / abi-spawn SpawnScanWidth) workgroups (fewer: it strides)
// and SpawnFinalize over one.
func (k *Kernel) SpawnScan() Program { return k.spawnPass("spawn scan", SpawnScanEntryPoint) }

func (k *Kernel) SpawnFinalize() Program {
	return k.spawnPass("spawn finalize", SpawnFinalizeEntryPoint)
}

func (k *Kernel) spawnPass(name, entry string) Program {
	src := abiGen + "\n" + spawnGen + fmt.Sprintf("const SPAWN_BINDING: u32 = %du;\n", k.SpawnBinding()) + spawnShared + spawnScan + spawnFinalize
	return Program{Label: "ringscope " + name, Source: src, EntryPoint: entry, Constants: map[string]float64{}}
}

// callsFn reports whether code calls name: "name(" after a byte that
// cannot continue an identifier.
func callsFn(code, name string) bool {
	for rest := code; ; {
		i := strings.Index(rest, name)
		if i < 0 {
			return false
		}
		before := i == 0 || !isWordByte(rest[i-1])
		if before && strings.HasPrefix(strings.TrimLeft(rest[i+len(name):], " \t\n"), "(") {
			return true
		}
		rest = rest[i+len(name):]
	}
}
