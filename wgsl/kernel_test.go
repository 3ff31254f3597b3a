package wgsl

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
)

const countFn = `// counts its slot into hits
fn count(slot: u32, args: Args) -> Outcome {
    atomicAdd(&hits[args[0] % 4u], 1u);
    return done();
}
`

func userKernel() Kernel {
	return Kernel{
		Opcodes: []Opcode{
			{Value: abi.UserOpcodeFirst, Name: "count", WGSL: countFn},
			{Value: abi.UserOpcodeFirst + 3, Name: "noop", WGSL: "fn noop(slot: u32, args: Args) -> Outcome { return done(); }"},
		},
		Buffers: []Buffer{{Name: "hits", Access: ReadWrite, Element: "atomic<u32>", Size: 16}},
	}
}

func TestKernelValidate(t *testing.T) {
	require.NoError(t, userKernel().Clone().validate())
	for name, tc := range map[string]struct {
		edit  func(k *Kernel)
		field string
		want  string
	}{
		"built-in opcode":  {func(k *Kernel) { k.Opcodes[0].Value = abi.OpSpin }, "opcodes[0].opcode", "not a user opcode"},
		"system opcode":    {func(k *Kernel) { k.Opcodes[0].Value = abi.OpYield }, "opcodes[0].opcode", "0x10…0x1f"},
		"past the range":   {func(k *Kernel) { k.Opcodes[1].Value = abi.UserOpcodeLast + 1 }, "opcodes[1].opcode", "not a user opcode"},
		"duplicate number": {func(k *Kernel) { k.Opcodes[1].Value = k.Opcodes[0].Value }, "opcodes[1].opcode", "already opcodes[0] (count)"},
		"duplicate name":   {func(k *Kernel) { k.Opcodes[1].Name = "count" }, "opcodes[1].name", `"count" is already the name of opcodes[0].name`},
		"name of a buffer": {func(k *Kernel) { k.Buffers[0].Name = "noop" }, "buffers[0].name", "already the name of opcodes[1].name"},
		"empty name":       {func(k *Kernel) { k.Opcodes[0].Name = "" }, "opcodes[0].name", "is empty"},
		"not identifier":   {func(k *Kernel) { k.Opcodes[0].Name = "my-op" }, "opcodes[0].name", "not a WGSL identifier"},
		"leading digit":    {func(k *Kernel) { k.Buffers[0].Name = "1x" }, "buffers[0].name", "not a WGSL identifier"},
		"keyword":          {func(k *Kernel) { k.Opcodes[0].Name = "loop" }, "opcodes[0].name", "WGSL keyword"},
		"kernel's fn":      {func(k *Kernel) { k.Opcodes[0].Name = "claim_next" }, "opcodes[0].name", "declared by the kernel"},
		"kernel's var":     {func(k *Kernel) { k.Buffers[0].Name = "ring" }, "buffers[0].name", "declared by the kernel"},
		"abi constant":     {func(k *Kernel) { k.Buffers[0].Name = "SLOT_WORDS" }, "buffers[0].name", "declared by the kernel"},
		"prelude name":     {func(k *Kernel) { k.Opcodes[0].Name = "done" }, "opcodes[0].name", "declared by the kernel"},
		"reserved prefix":  {func(k *Kernel) { k.Opcodes[0].Name = "__x" }, "opcodes[0].name", "reserved"},
		"long name":        {func(k *Kernel) { k.Opcodes[0].Name = strings.Repeat("a", MaxNameBytes+1) }, "opcodes[0].name", "more than 64"},
		"empty wgsl":       {func(k *Kernel) { k.Opcodes[0].WGSL = " \n" }, "opcodes[0].wgsl", "is empty"},
		"no function":      {func(k *Kernel) { k.Opcodes[0].WGSL = "fn counts(slot: u32, args: Args) -> Outcome { return done(); }" }, "opcodes[0].wgsl", "declares no function count"},
		"fn in a comment":  {func(k *Kernel) { k.Opcodes[0].WGSL = "// fn count(\n" }, "opcodes[0].wgsl", "declares no function count"},
		"huge wgsl":        {func(k *Kernel) { k.Opcodes[0].WGSL = countFn + strings.Repeat(" ", MaxOpcodeSourceBytes) }, "opcodes[0].wgsl", "more than"},
		"element":          {func(k *Kernel) { k.Buffers[0].Element = "u64" }, "buffers[0].element", "want one of u32"},
		"read-only atomic": {func(k *Kernel) { k.Buffers[0].Access = ReadOnly }, "buffers[0].access", "must be read_write"},
		"bad access":       {func(k *Kernel) { k.Buffers[0].Access = 7 }, "buffers[0].access", "want read or read_write"},
		"zero size":        {func(k *Kernel) { k.Buffers[0].Size = 0 }, "buffers[0].size", "whole words"},
		"partial word":     {func(k *Kernel) { k.Buffers[0].Size = 6 }, "buffers[0].size", "whole words"},
		"init too long":    {func(k *Kernel) { k.Buffers[0].Init = make([]byte, 20) }, "buffers[0].bytes", "do not fit"},
		"init partial":     {func(k *Kernel) { k.Buffers[0].Init = make([]byte, 3) }, "buffers[0].bytes", "not whole words"},
	} {
		t.Run(name, func(t *testing.T) {
			k := userKernel().Clone()
			tc.edit(&k)
			err := k.Validate()
			var de *DeclError
			require.True(t, errors.As(err, &de), "%v", err)
			assert.Equal(t, tc.field, de.Field)
			assert.Contains(t, err.Error(), tc.want)
			assert.True(t, strings.HasPrefix(err.Error(), "kernel: "+tc.field+": "))
		})
	}
}

func (k Kernel) validate() error { return k.Validate() }

func TestKernelSourceMapsUserLines(t *testing.T) {
	k := userKernel()
	src, m := k.Source()
	lines := strings.Split(src, "\n")
	at := func(line int) string { return lines[line-1] }

	// Every line of each user function maps back to the same line of its source.
	for i, op := range k.Opcodes {
		header := findLine(t, lines, fmt.Sprintf("// user opcode %s (%#x), opcodes[%d]", op.Name, op.Value, i), 1)
		for n, want := range strings.Split(strings.TrimSuffix(op.WGSL, "\n"), "\n") {
			line := header + 1 + n
			require.Equal(t, want, at(line))
			assert.Equal(t, Origin{Field: fmt.Sprintf("opcodes[%d].wgsl", i), Name: op.Name, Line: n + 1}, m.Locate(line))
		}
	}
	// The kernel's call of a user function points at its fn line.
	call := findLine(t, lines, "return count(slot, slot_args(slot));", 1)
	assert.Equal(t, Origin{Field: "opcodes[0].wgsl", Name: "count", Line: 2, Call: true}, m.Locate(call))
	// The buffer's declaration.
	decl := findLine(t, lines, "var<storage, read_write> hits: array<atomic<u32>>;", 1)
	assert.Equal(t, Origin{Field: "buffers[0]", Name: "hits", Line: 1}, m.Locate(decl))
	assert.Contains(t, at(decl), "@binding(8u)")
	// The built-in kernel's lines stay the kernel's.
	assert.Equal(t, Origin{Field: "kernel", Line: 3}, m.Locate(3))
	entry := findLine(t, lines, "fn drain(@builtin(global_invocation_id) gid: vec3<u32>,", 1)
	assert.Equal(t, "kernel", m.Locate(entry).Field)

	builtIn, none := (&Kernel{}).Source()
	assert.Equal(t, DrainSource(), builtIn)
	assert.Nil(t, none)
}

// findLine is the 1-based line of the nth line containing s.
func findLine(t *testing.T, lines []string, s string, nth int) int {
	t.Helper()
	for i, l := range lines {
		if strings.Contains(l, s) {
			if nth--; nth == 0 {
				return i + 1
			}
		}
	}
	t.Fatalf("no line %q", s)
	return 0
}

func TestKernelJIT(t *testing.T) {
	k := userKernel()
	assert.True(t, k.Implements(abi.UserOpcodeFirst))
	assert.True(t, k.Implements(abi.OpSpin))
	assert.False(t, k.Implements(abi.UserOpcodeFirst+1))
	assert.Equal(t, "count", k.Name(abi.UserOpcodeFirst))
	assert.Equal(t, "", k.Name(abi.OpSpin))

	p := k.JIT(128, []uint32{abi.UserOpcodeFirst, abi.OpNop, abi.UserOpcodeFirst + 1})
	assert.Equal(t, 1.0, p.Constants["ENABLE_USER_OP_16"])
	assert.Equal(t, 0.0, p.Constants["ENABLE_USER_OP_19"])
	assert.Equal(t, 1.0, p.Constants["ENABLE_OP_NOP"])
	assert.Equal(t, 0.0, p.Constants["ENABLE_OP_SPIN"])
	assert.Equal(t, 128.0, p.Constants[WorkgroupSizeX])
	assert.Equal(t, "jit:0x0,0x10", k.JITKey([]uint32{0x10, 0, 0x11, 0x10}))
	src, _ := k.Source()
	assert.Equal(t, src, p.Source)
	for flag := range p.Constants {
		assert.Contains(t, src, "override "+flag+":", "every constant names an override of the source")
	}
	// The built-in kernel's JIT is the package's.
	assert.Equal(t, JIT(64, []uint32{0, 0x101}), (&Kernel{}).JIT(64, []uint32{0, 0x101}))
}

func TestDeclaresFn(t *testing.T) {
	assert.True(t, declaresFn("fn f(a: u32) {}", "f"))
	assert.True(t, declaresFn("const K = 1u;\nfn  f (a: u32) {}", "f"))
	assert.False(t, declaresFn("fn ff(a: u32) {}", "f"))
	assert.False(t, declaresFn("myfn f(a: u32) {}", "f"))
	assert.False(t, declaresFn("// fn f(\n", "f"))
	assert.False(t, declaresFn("fn f", "f"))
}

// The names in scope where execute() calls a user opcode's function (its
// parameters op and slot, its var pre, the lets of the built-in cases)
// are refused as opcode names: the call would resolve to them, and the
// compile error said so in the kernel's terms, not the user's.
func TestOpcodeNamesExecuteDeclaresAreRefused(t *testing.T) {
	assert.Subset(t, callScopeNames(), []string{"op", "slot", "pre"})
	for _, name := range []string{"op", "slot", "pre"} {
		k := Kernel{Opcodes: []Opcode{{Value: abi.UserOpcodeFirst, Name: name,
			WGSL: "fn " + name + "(slot: u32, args: Args) -> Outcome { return done(); }"}}}
		err := k.Validate()
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "opcodes[0].name")
		assert.Contains(t, err.Error(), "where it calls the opcode")
	}
	// A buffer may take such a name: the call passes execute's slot.
	k := Kernel{Opcodes: []Opcode{{Value: abi.UserOpcodeFirst, Name: "touch",
		WGSL: "fn touch(s: u32, args: Args) -> Outcome { pre[0] = 1u; return done(); }"}},
		Buffers: []Buffer{{Name: "pre", Size: 4, Access: ReadWrite}}}
	assert.NoError(t, k.Validate())
}

// callScopeNames is what execute() in megakernel.wgsl declares before the
// user opcodes' cases: its parameters and its body's own vars and lets
// (four spaces in; a case's lets are in their own block).
func TestCallScopeNamesAreExecutes(t *testing.T) {
	body := megakernel[strings.Index(megakernel, "\nfn execute("):strings.Index(megakernel, casesMarker)]
	var names []string
	sig, _, _ := strings.Cut(body, "{")
	for _, p := range strings.Split(sig[strings.Index(sig, "(")+1:], ",") {
		if name, _, ok := strings.Cut(strings.TrimSpace(p), ":"); ok {
			names = append(names, strings.TrimSpace(name))
		}
	}
	for line := range strings.Lines(body) {
		for _, kw := range []string{"    var ", "    let "} {
			if rest, ok := strings.CutPrefix(line, kw); ok {
				names = append(names, strings.FieldsFunc(rest, func(r rune) bool { return r == ' ' || r == ':' || r == '=' })[0])
			}
		}
	}
	slices.Sort(names)
	assert.Equal(t, slices.Compact(names), callScopeNames())
}
