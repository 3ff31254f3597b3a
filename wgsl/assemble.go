package wgsl

import (
	_ "embed"
	"fmt"
	"github.com/ringscope/ringscope/internal/nocompare"
	"slices"
	"strings"
	"sync"

	"github.com/ringscope/ringscope/internal/heapsort"
	"github.com/ringscope/ringscope/wgsl/abi"
)

//go:embed min/user_prelude.wgsl
var userPrelude string

// The lines of megakernel.wgsl that a user kernel's parts replace.
const (
	declMarker  = "// @user-declarations\n"
	casesMarker = "        // @user-cases\n"
	// userEnablePrefix starts the bool override of each user opcode:
	// ENABLE_USER_OP_16 for opcode 0x10. Like the built-ins' ENABLE_ flags,
	// the JIT turns off those the ring does not hold.
	userEnablePrefix = "ENABLE_USER_OP_"
)

// Span is the lines of an assembled drain that came from one declaration.
type Span struct {
	_ nocompare.T

	Field string // opcodes[i].wgsl, opcodes[i] (its case) or buffers[i]
	Name  string // the opcode's or buffer's name
	First int    // its first line in the assembled source, 1-based
	Lines int
	// FnLine is, for an opcode's case, the line of its fn declaration in
	// the user's source (1-based): a call that does not type-check is the
	// function's signature at fault.
	FnLine int
}

// SourceMap locates lines of an assembled drain in the user's sources.
type SourceMap []Span

// Origin is where one line of an assembled drain came from.
type Origin struct {
	Field, Name string
	// Line is the line in the user's source (for an opcode's wgsl), or in
	// the assembled kernel when Field is "kernel".
	Line int
	// Call marks an error in the kernel's call of the opcode's function,
	// which Line (its fn declaration) is the cause of.
	Call bool
}

// Locate maps line (1-based, of the assembled source) to its origin;
// lines of the built-in kernel are Field "kernel".
func (m SourceMap) Locate(line int) Origin {
	for _, s := range m {
		if line < s.First || line >= s.First+s.Lines {
			continue
		}
		if s.FnLine > 0 {
			return Origin{Field: s.Field + ".wgsl", Name: s.Name, Line: s.FnLine, Call: true}
		}
		return Origin{Field: s.Field, Name: s.Name, Line: line - s.First + 1}
	}
	return Origin{Field: "kernel", Line: line}
}

// Source is the assembled WGSL of k's drain and the map of its user lines:
// abi_gen.wgsl, then megakernel.wgsl with the prelude, the buffers'
// bindings, one override per opcode and the user's functions at
// @user-declarations, and a case per opcode in execute's switch. The
// built-in kernel's source is DrainSource, with an empty map.
func (k *Kernel) Source() (string, SourceMap) {
	if k.IsZero() {
		return assemble(drainBody(k.Trace)), nil
	}
	megakernel := drainBody(k.Trace)
	decl := strings.Index(megakernel, declMarker)
	cases := strings.Index(megakernel, casesMarker)
	if decl < 0 || cases < decl {
		panic("wgsl: megakernel.wgsl lacks its @user-declarations or @user-cases line")
	}
	var w sourceWriter
	w.write(abiGen + "\n" + megakernel[:decl])
	w.write(userPrelude)
	spawns := k.Spawns()
	if spawns {
		w.write(k.spawnDeclarations())
	}
	for i, b := range k.Buffers {
		first := w.line
		w.write(fmt.Sprintf("@group(BIND_GROUP) @binding(%du) var<storage, %s> %s: array<%s>;\n",
			abi.BindingFirstUser+i, b.Access, b.Name, b.element()))
		w.m = append(w.m, Span{Field: fmt.Sprintf("buffers[%d]", i), Name: b.Name, First: first, Lines: w.line - first})
	}
	for _, op := range k.Opcodes {
		w.write(fmt.Sprintf("override %s%d: bool = true;\n", userEnablePrefix, op.Value))
	}
	for i, op := range k.Opcodes {
		w.write(fmt.Sprintf("\n// user opcode %s (%#x), opcodes[%d]\n", op.Name, op.Value, i))
		first := w.line
		src := op.WGSL
		if !strings.HasSuffix(src, "\n") {
			src += "\n"
		}
		w.write(src)
		w.m = append(w.m, Span{Field: fmt.Sprintf("opcodes[%d].wgsl", i), Name: op.Name, First: first, Lines: w.line - first})
	}
	w.write(megakernel[decl+len(declMarker) : cases])
	call := "return"
	if spawns {
		call = "spawner = slot; return" // the slot a refused spawn's record names
	}
	for i, op := range k.Opcodes {
		first := w.line
		w.write(fmt.Sprintf("        case %#xu: {\n            if (%s%d) { %s %s(slot, slot_args(slot)); }\n        }\n",
			op.Value, userEnablePrefix, op.Value, call, op.Name))
		w.m = append(w.m, Span{Field: fmt.Sprintf("opcodes[%d]", i), Name: op.Name, First: first, Lines: w.line - first,
			FnLine: fnLine(op.WGSL, op.Name)})
	}
	w.write(megakernel[cases+len(casesMarker):])
	return w.b.String(), w.m
}

// sourceWriter builds an assembled source, counting its lines.
type sourceWriter struct {
	b    strings.Builder
	line int // the line the next write starts on, 1-based
	m    SourceMap
}

func (w *sourceWriter) write(s string) {
	if w.line == 0 {
		w.line = 1
	}
	w.b.WriteString(s)
	w.line += strings.Count(s, "\n")
}

// fnLine is the line of src that declares fn name (1 when none does).
func fnLine(src, name string) int {
	n := 1
	for line := range strings.Lines(stripLineComments(src)) {
		if declaresFn(line, name) {
			return n
		}
		n++
	}
	return 1
}

// Implements reports whether k's drain runs op: a built-in opcode or one
// of k's user opcodes.
func (k *Kernel) Implements(op uint32) bool {
	_, ok := slices.BinarySearch(k.opcodeList(), op)
	return ok
}

// Name is the user's name of op, or "" when op is not one of k's.
func (k *Kernel) Name(op uint32) string {
	for _, o := range k.Opcodes {
		if o.Value == op {
			return o.Name
		}
	}
	return ""
}

// opcodeList is every opcode k's drain implements, ascending.
func (k *Kernel) opcodeList() []uint32 {
	ops := Opcodes()
	for _, o := range k.Opcodes {
		ops = append(ops, o.Value)
	}
	heapsort.Ordered(ops)
	return slices.Compact(ops)
}

// Drain is k's drain at workgroup width workgroupSizeX, every opcode on.
func (k *Kernel) Drain(workgroupSizeX uint32) Program {
	src, _ := k.Source()
	return atWidth("drain", src, DrainEntryPoint, workgroupSizeX)
}

// JIT is k's drain specialised to opcodes, as the package's JIT is for the
// built-in kernel: every ENABLE_ override, user opcodes' included, is set
// explicitly, on for the opcodes named.
func (k *Kernel) JIT(workgroupSizeX uint32, opcodes []uint32) Program {
	set := k.jitSet(opcodes)
	p := k.Drain(workgroupSizeX)
	p.Label += " " + jitKey(set)
	on := func(v uint32) float64 {
		if _, ok := slices.BinarySearch(set, v); ok {
			return 1
		}
		return 0
	}
	for _, o := range jitOpcodes() {
		p.Constants[o.flag] = on(o.value)
	}
	for _, o := range k.Opcodes {
		p.Constants[fmt.Sprintf("%s%d", userEnablePrefix, o.Value)] = on(o.Value)
	}
	return p
}

// JITKey names the JIT program of opcodes within k (one runner's cache
// holds one kernel's pipelines).
func (k *Kernel) JITKey(opcodes []uint32) string { return jitKey(k.jitSet(opcodes)) }

func (k *Kernel) jitSet(opcodes []uint32) []uint32 {
	known := k.opcodeList()
	if k.Spawns() {
		// The ring's pending opcodes say nothing of what its items spawn.
		return known
	}
	var set []uint32
	for _, op := range opcodes {
		if _, ok := slices.BinarySearch(known, op); ok {
			set = append(set, op)
		}
	}
	heapsort.Ordered(set)
	return slices.Compact(set)
}

// kernelNames are the module-scope names of the drain with the prelude:
// a user opcode or buffer may take none of them.
var kernelNames = sync.OnceValue(func() []string {
	var names []string
	for line := range strings.Lines(abiGen + megakernel + userPrelude + spawnGen + spawnPrelude) {
		if name, ok := declName(line); ok {
			names = append(names, name)
		}
	}
	names = append(names, DrainEntryPoint, "spawn_known", "SPAWN_BINDING")
	heapsort.Ordered(names)
	return slices.Compact(names)
})

// callScopeNames are the names execute() declares before the user
// opcodes' cases, where each case calls its opcode's function by name: its
// parameters and the vars and lets of its body above the cases. An opcode
// named like one of them would have its call resolve to that name, not its
// function. A constant, not parsed from megakernel.wgsl at run time (the
// parser cost the page 3 KB): TestCallScopeNamesAreExecutes derives it
// from the source.
func callScopeNames() []string { return []string{"op", "pre", "slot"} }

// declName reports the name a module-scope declaration line declares:
// fn, const, override, struct, alias, or a var (with its attributes).
func declName(line string) (string, bool) {
	rest := line
	for strings.HasPrefix(rest, "@") {
		i := strings.Index(rest, ") ")
		if i < 0 {
			return "", false
		}
		rest = rest[i+2:]
	}
	if after, ok := strings.CutPrefix(rest, "var<"); ok {
		i := strings.Index(after, "> ")
		if i < 0 {
			return "", false
		}
		rest = after[i+2:]
	} else {
		kw, after, ok := strings.Cut(rest, " ")
		if !ok || !slices.Contains([]string{"fn", "const", "override", "struct", "alias", "var"}, kw) {
			return "", false
		}
		rest = after
	}
	id, _ := cutIdent(rest)
	return id, isIdent(id)
}
