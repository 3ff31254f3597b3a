package wgsl

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/ringscope/ringscope/internal/heapsort"
	"github.com/ringscope/ringscope/wgsl/internal/wgslmin"
)

// The kernels as the GPU gets them: min/ holds the .wgsl files of this
// directory with their comments stripped (go generate writes them; package
// wgsl/internal/wgslmin says why).
var (
	//go:embed min/abi_gen.wgsl
	abiGen string
	//go:embed min/megakernel.wgsl
	megakernel string
	//go:embed min/finalize.wgsl
	finalize string
	//go:embed min/reduce_shared.wgsl
	reduceShared string
	//go:embed min/reduce.wgsl
	reduce string
	//go:embed min/reduce_windows.wgsl
	reduceWindows string
	//go:embed min/window_tenants.wgsl
	windowTenants string
	//go:embed min/trace_abi_gen.wgsl
	traceABIGen string
	//go:embed min/trace.wgsl
	traceDecls string
)

// drainBody is megakernel.wgsl as the drain compiles it: with trace, its
// trace hooks (wgslmin.TraceHook lines) are code and trace.wgsl with its
// constants comes first; without, the hook lines are gone, so the source
// is, byte for byte, the kernel as it was before tracing existed
// (TestUntracedDrainIsTheKernelWithoutTracing).
func drainBody(trace bool) string {
	if trace {
		return tracedBody()
	}
	return untracedBody()
}

var untracedBody = sync.OnceValue(func() string { return hooks(megakernel, false) })

var tracedBody = sync.OnceValue(func() string {
	return traceABIGen + "\n" + traceDecls + "\n" + hooks(megakernel, true)
})

// hooks turns each trace hook line of src into its code (on) or drops it.
func hooks(src string, on bool) string {
	var b strings.Builder
	b.Grow(len(src))
	for line := range strings.Lines(src) {
		body := strings.TrimLeft(line, " \t")
		code, ok := strings.CutPrefix(body, wgslmin.TraceHook)
		switch {
		case !ok:
			b.WriteString(line)
		case on:
			b.WriteString(line[:len(line)-len(body)])
			b.WriteString(code)
		}
	}
	return b.String()
}

// Entry points and override names of the kernels.
const (
	// DrainEntryPoint is the entry point of megakernel.wgsl (Drain and JIT).
	DrainEntryPoint = "drain"
	// FinalizeEntryPoint is the entry point of finalize.wgsl.
	FinalizeEntryPoint = "finalize"
	// ReduceEntryPoint is the entry point of reduce.wgsl.
	ReduceEntryPoint = "reduce"
	// ReduceWindowsEntryPoint is the entry point of reduce_windows.wgsl,
	// the window table's counting pass.
	ReduceWindowsEntryPoint = "reduce_windows"
	// WindowTenantsEntryPoint is the entry point of window_tenants.wgsl.
	WindowTenantsEntryPoint = "window_tenants"
	// WindowTenantsWidth is window_tenants.wgsl's workgroup width: dispatch
	// ceil(capacity / WindowTenantsWidth) workgroups (or fewer).
	WindowTenantsWidth = 64
	// WorkgroupSizeX is the override constant that sets the drain's
	// workgroup width (default 64).
	WorkgroupSizeX = "WORKGROUP_SIZE_X"
	// WorkgroupClaims is the drain's bool override that claims tickets by
	// workgroup rather than by lane (default off: megakernel.wgsl says why).
	WorkgroupClaims = "WORKGROUP_CLAIMS"
	// enablePrefix starts the bool override of each implemented opcode:
	// ENABLE_ + the opcode's name in abi_gen.wgsl (ENABLE_OP_SPIN).
	enablePrefix = "ENABLE_"
)

// Program is what a runner needs for one compute pipeline: the WGSL of the
// shader module, its entry point and the pipeline-overridable constants
// (GPUProgrammableStage.constants; a bool override takes 0 or 1).
type Program struct {
	Label      string
	Source     string
	EntryPoint string
	Constants  map[string]float64
}

// ABISource is abi_gen.wgsl, the WGSL constants of package wgsl/abi.
func ABISource() string { return abiGen }

// DrainSource is the assembled WGSL of the drain kernel: abi_gen.wgsl, then
// megakernel.wgsl. Drain and JIT programs share this one shader module.
func DrainSource() string { return assemble(untracedBody()) }

// TracedDrainSource is DrainSource with tracing on (docs/TRACE.md): the
// trace buffer at BINDING_TRACE and a record per claimed slot.
func TracedDrainSource() string { return assemble(tracedBody()) }

// FinalizeSource is the assembled WGSL of the finalize kernel.
func FinalizeSource() string { return assemble(finalize) }

// ReduceSource is the assembled WGSL of the telemetry reduction: one
// shader module of both its passes, reduce_shared.wgsl first.
func ReduceSource() string { return assemble(reduceShared + reduce + reduceWindows) }

// WindowTenantsSource is the assembled WGSL of the reduction's second pass.
func WindowTenantsSource() string { return assemble(windowTenants) }

func assemble(kernel string) string { return abiGen + "\n" + kernel }

// atWidth is the program of entry in source at workgroup width
// workgroupSizeX (its WORKGROUP_SIZE_X override), labelled by name.
func atWidth(name, source, entry string, workgroupSizeX uint32) Program {
	return Program{
		Label:      fmt.Sprintf("ringscope %s x%d", name, workgroupSizeX),
		Source:     source,
		EntryPoint: entry,
		Constants:  map[string]float64{WorkgroupSizeX: float64(workgroupSizeX)},
	}
}

// Drain is the bounded drain of PROTOCOL §3 with every opcode of §4, at
// workgroup width workgroupSizeX (64, 128 or 256; see PROTOCOL §6).
func Drain(workgroupSizeX uint32) Program {
	return atWidth("drain", DrainSource(), DrainEntryPoint, workgroupSizeX)
}

// JIT is the drain specialised to opcodes: every opcode the kernel
// implements but opcodes does not name is switched off by its ENABLE_
// override, so the backend compiles only the named cases; an opcode switched
// off, or one the kernel does not implement, faults UNKNOWN_OPCODE. The
// order and repetitions of opcodes do not matter; Constants holds every
// ENABLE_ flag explicitly, so equal JITKeys give equal programs.
func JIT(workgroupSizeX uint32, opcodes []uint32) Program {
	var builtIn Kernel
	return builtIn.JIT(workgroupSizeX, opcodes)
}

// JITKey names the JIT program of opcodes for a pipeline cache: opcodes the
// kernel implements, sorted, deduplicated, in hex ("jit:0x0,0x1,0x101").
// Sets that differ only in opcodes the kernel does not implement share a key.
func JITKey(opcodes []uint32) string {
	var builtIn Kernel
	return builtIn.JITKey(opcodes)
}

// Finalize clamps HEAD[p] to TAIL[p]; dispatch one workgroup after the
// drain dispatches of each submission.
func Finalize() Program {
	return Program{
		Label:      "ringscope finalize",
		Source:     FinalizeSource(),
		EntryPoint: FinalizeEntryPoint,
		Constants:  map[string]float64{},
	}
}

// Reduce is the telemetry reduction of docs/SUMMARY.md at workgroup width
// workgroupSizeX (64, 128 or 256): dispatch it after the drain and
// finalize of a submission, over a summary buffer cleared in the same
// command encoder, with any grid (each lane takes a contiguous block of
// status-map words; size the grid to what the device holds resident).
// Sketch shape and window table come from the summary params (binding BindingSummaryParams), not from the program, so
// one pipeline serves every shape.
func Reduce(workgroupSizeX uint32) Program {
	return atWidth("reduce", ReduceSource(), ReduceEntryPoint, workgroupSizeX)
}

// ReduceWindows counts the window slots into the window table (Reduce's
// shader module, its other entry point); dispatch it right after Reduce, with
// Reduce's grid, when window opcodes and a table are registered.
func ReduceWindows(workgroupSizeX uint32) Program {
	return atWidth("reduce windows", ReduceSource(), ReduceWindowsEntryPoint, workgroupSizeX)
}

// WindowTenants fills the window entries' tenants and frees the sealed
// ones; dispatch it right after ReduceWindows.
func WindowTenants() Program {
	return Program{
		Label:      "ringscope window tenants",
		Source:     WindowTenantsSource(),
		EntryPoint: WindowTenantsEntryPoint,
		Constants:  map[string]float64{},
	}
}

// Opcodes lists the opcodes the drain kernel implements, ascending: those
// with an ENABLE_ override in megakernel.wgsl.
func Opcodes() []uint32 {
	ops := jitOpcodes()
	out := make([]uint32, len(ops))
	for i, o := range ops {
		out[i] = o.value
	}
	return out
}

func jitKey(set []uint32) string {
	parts := make([]string, len(set))
	for i, op := range set {
		parts[i] = fmt.Sprintf("%#x", op)
	}
	return "jit:" + strings.Join(parts, ",")
}

type jitOpcode struct {
	value uint32
	flag  string
}

// jitOpcodes pairs each ENABLE_ override of megakernel.wgsl with the value
// of the opcode it names in abi_gen.wgsl: both files are the source, so no
// list is kept in Go. Sorted by value.
var jitOpcodes = sync.OnceValue(func() []jitOpcode {
	values := map[string]uint32{}
	for line := range strings.Lines(abiGen) {
		name, value, ok := abiConst(line)
		if !ok {
			continue
		}
		v, err := strconv.ParseUint(value, 0, 32)
		if err != nil {
			panic("wgsl: abi_gen.wgsl: " + err.Error())
		}
		values[name] = uint32(v)
	}
	var ops []jitOpcode
	for line := range strings.Lines(megakernel) {
		flag, ok := enableFlag(line)
		if !ok {
			continue
		}
		v, ok := values[flag[len(enablePrefix):]]
		if !ok {
			panic("wgsl: megakernel.wgsl: override " + flag + " names no constant of abi_gen.wgsl")
		}
		ops = append(ops, jitOpcode{value: v, flag: flag})
	}
	heapsort.Func(ops, func(a, b jitOpcode) bool { return a.value < b.value })
	return ops
})

// The two scanners below read the lines of the form the generator and the
// kernel write, and nothing else; they replace the regular expressions
//
//	^const ([A-Z][A-Z0-9_]*): u32 = (0x[0-9A-F]+|[0-9]+)u;
//	^override (ENABLE_([A-Z][A-Z0-9_]*)): bool\b
//
// without linking package regexp (and the Unicode tables it keeps alive)
// into the wasm module.

// abiConst reports the name and the literal of a line
// "const NAME: u32 = 0x1Fu;" or "const NAME: u32 = 31u;" of abi_gen.wgsl.
func abiConst(line string) (name, value string, ok bool) {
	rest, ok := strings.CutPrefix(line, "const ")
	if !ok {
		return "", "", false
	}
	name, rest = upperIdent(rest)
	if name == "" {
		return "", "", false
	}
	if rest, ok = strings.CutPrefix(rest, ": u32 = "); !ok {
		return "", "", false
	}
	digits := "0123456789"
	n := 0
	if strings.HasPrefix(rest, "0x") {
		digits, n = "0123456789ABCDEF", 2
	}
	start := n
	for n < len(rest) && strings.IndexByte(digits, rest[n]) >= 0 {
		n++
	}
	if n == start || !strings.HasPrefix(rest[n:], "u;") {
		return "", "", false
	}
	return name, rest[:n], true
}

// enableFlag reports the override name of a line
// "override ENABLE_OP_SPIN: bool ..." of megakernel.wgsl.
func enableFlag(line string) (flag string, ok bool) {
	rest, ok := strings.CutPrefix(line, "override "+enablePrefix)
	if !ok {
		return "", false
	}
	name, rest := upperIdent(rest)
	if name == "" {
		return "", false
	}
	rest, ok = strings.CutPrefix(rest, ": bool")
	if !ok || rest != "" && isWordByte(rest[0]) {
		return "", false
	}
	return enablePrefix + name, true
}

// upperIdent splits s after its longest prefix [A-Z][A-Z0-9_]*; name is
// empty when s does not start with A-Z.
func upperIdent(s string) (name, rest string) {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return "", s
	}
	n := 1
	for n < len(s) && (s[n] >= 'A' && s[n] <= 'Z' || s[n] >= '0' && s[n] <= '9' || s[n] == '_') {
		n++
	}
	return s[:n], s[n:]
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}
