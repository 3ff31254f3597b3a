package wgsl

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/internal/abigen"
)

// harmlessLiterals are the integer literals a kernel may spell although
// some ABI constant has the same value. Every small ABI value (0–7) is a
// status, an opcode, a fault code and a word index at once, so the lint
// cannot tell a restated STATUS_DONE from an argument position; it allows
// only the few a kernel needs and rejects the rest (4–7, 12, 29, 32, 96,
// 128–160, 0x100…, the magic, the tags), whose names a kernel must use.
var harmlessLiterals = map[uint64]string{
	0:   "zero: initial values, the first lane, no fault",
	1:   "one: increments, the next word, the SHUTDOWN flag value",
	2:   "ARG2's position in the arguments vec4",
	3:   "ARG3's position in the arguments vec4",
	8:   "bits per byte, for byte shifts",
	16:  "the xorshift distance of SPIN's mix",
	31:  "splitmix64's last shift (reduce_shared.wgsl's MIX_SHIFT_C)",
	64:  "the default workgroup width of override WORKGROUP_SIZE_X",
	256: "a DFA table row: one entry per byte value",
}

var (
	lineCommentRE  = regexp.MustCompile(`//[^\n]*`)
	blockCommentRE = regexp.MustCompile(`(?s)/\*.*?\*/`)
	attrRE         = regexp.MustCompile(`@(binding|group)\s*\(\s*([^)]*?)\s*\)`)
	intLiteralRE   = regexp.MustCompile(`\b(0[xX][0-9a-fA-F]+|[0-9]+)[ui]?\b`)
	declRE         = regexp.MustCompile(`\b(const|override|let|var|fn|struct|alias)(?:\s*<[^>]*>)?\s+([A-Za-z_][A-Za-z0-9_]*)`)
	upperSnakeRE   = regexp.MustCompile(`\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\b[A-Z]{2,}[0-9]*\b`)
)

// stripComments blanks comments but keeps newlines, so positions still map
// to source lines.
func stripComments(src string) string {
	blank := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '\n' {
				return r
			}
			return ' '
		}, s)
	}
	src = blockCommentRE.ReplaceAllStringFunc(src, blank)
	return lineCommentRE.ReplaceAllStringFunc(src, blank)
}

func lineOf(src string, offset int) int { return strings.Count(src[:offset], "\n") + 1 }

// abiTables returns the ABI constants by WGSL name and the set of their values.
func abiTables(t *testing.T) (map[string]uint32, map[uint64][]string) {
	t.Helper()
	consts, err := abigen.Constants("abi")
	require.NoError(t, err)
	spawnConsts, err := abigen.Constants("abi/spawn")
	require.NoError(t, err)
	consts = append(consts, spawnConsts...)
	// The assembler sets SPAWN_BINDING (the binding after the user's).
	consts = append(consts, abigen.Const{WGSLName: "SPAWN_BINDING", Value: abi.BindingFirstUser})
	names := map[string]uint32{}
	values := map[uint64][]string{}
	for _, c := range consts {
		names[c.WGSLName] = c.Value
		values[uint64(c.Value)] = append(values[uint64(c.Value)], c.WGSLName)
	}
	return names, values
}

// lintKernel reports the restated ABI numbers of one kernel source.
func lintKernel(file, src string, names map[string]uint32, values map[uint64][]string) []string {
	var problems []string
	code := stripComments(src)
	report := func(off int, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("%s:%d: %s", file, lineOf(code, off), fmt.Sprintf(format, args...)))
	}
	for _, m := range attrRE.FindAllStringSubmatchIndex(code, -1) {
		attr, arg := code[m[2]:m[3]], code[m[4]:m[5]]
		want := "BINDING_"
		if attr == "group" {
			want = "BIND_GROUP"
		}
		if _, ok := names[arg]; !ok || !strings.HasPrefix(arg, want) && arg != "SPAWN_BINDING" {
			report(m[0], "@%s(%s): name the ABI constant (%s…), not a number", attr, arg, want)
		}
	}
	for _, m := range intLiteralRE.FindAllStringSubmatchIndex(code, -1) {
		lit := code[m[2]:m[3]]
		v, err := strconv.ParseUint(lit, 0, 64)
		if err != nil {
			report(m[0], "integer literal %s: %v", lit, err)
			continue
		}
		if abiNames, ok := values[v]; ok {
			if _, harmless := harmlessLiterals[v]; !harmless {
				report(m[0], "literal %s restates an ABI value; use %s", code[m[0]:m[1]], strings.Join(abiNames, " or "))
			}
		}
	}
	for _, m := range declRE.FindAllStringSubmatchIndex(code, -1) {
		if name := code[m[4]:m[5]]; names[name] != 0 || hasName(names, name) {
			report(m[0], "%s %s redefines an ABI name of abi_gen.wgsl", code[m[2]:m[3]], name)
		}
	}
	return problems
}

func hasName(names map[string]uint32, name string) bool { _, ok := names[name]; return ok }

// kernelFiles are the hand-written WGSL files of the package.
func kernelFiles(t *testing.T) map[string]string {
	t.Helper()
	paths, err := filepath.Glob("*.wgsl")
	require.NoError(t, err)
	files := map[string]string{}
	for _, p := range paths {
		if p == "abi_gen.wgsl" || p == "trace_abi_gen.wgsl" || p == "spawn_gen.wgsl" {
			continue
		}
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		files[p] = string(b)
	}
	require.NotEmpty(t, files)
	return files
}

func TestKernelsNameABINumbers(t *testing.T) {
	names, values := abiTables(t)
	for file, src := range kernelFiles(t) {
		for _, p := range lintKernel(file, src, names, values) {
			t.Error(p)
		}
	}
}

// TestLintCatches proves the lint above can fail.
func TestLintCatches(t *testing.T) {
	names, values := abiTables(t)
	for name, tc := range map[string]struct{ src, want string }{
		"numeric binding":       {"@group(BIND_GROUP) @binding(1) var<storage> r: array<u32>;", "@binding(1)"},
		"numeric group":         {"@group(0) @binding(BINDING_RING) var<storage> r: array<u32>;", "@group(0)"},
		"wrong name":            {"@group(BIND_GROUP) @binding(SLOT_WORDS) var<storage> r: array<u32>;", "@binding(SLOT_WORDS)"},
		"observable":            {"fn f() { let w = 160u; }", "literal 160u restates an ABI value; use CTRL_OBSERVABLE or CONTROL_MIN_WORDS"},
		"magic":                 {"fn f() { let m = 0x31435352u; }", "use MAGIC"},
		"yield opcode":          {"fn f() { let y = 0xFFF0; }", "literal 0xFFF0"},
		"fault tag":             {"fn f() { let t = 0xffff0000u; }", "LOG_FAULT_TAG"},
		"slot words":            {"fn f(s: u32) -> u32 { return s * 16u + 12u; }", "literal 12u"},
		"status":                {"fn f() { let s = 7u; }", "STATUS_FAULT"},
		"const redefinition":    {"const SLOT_WORDS: u32 = 16u;", "const SLOT_WORDS redefines"},
		"override redefinition": {"override CTRL_EPOCH: u32;", "override CTRL_EPOCH redefines"},
	} {
		t.Run(name, func(t *testing.T) {
			problems := lintKernel("x.wgsl", tc.src, names, values)
			require.NotEmpty(t, problems)
			assert.Contains(t, strings.Join(problems, "\n"), tc.want)
		})
	}
	clean := "// 160u in a comment is fine\n@group(BIND_GROUP) @binding(BINDING_RING) var<storage> r: array<u32>;\nfn f() -> u32 { return 0xFFu + 1u + 1024u; }\n"
	assert.Empty(t, lintKernel("x.wgsl", clean, names, values))
}

// TestKernelsAssemble checks that every UPPER_SNAKE name a kernel uses is
// declared by abi_gen.wgsl or by its module, so the assembled source has
// no missing names, and that each file has a header naming its one entry
// point or saying it has none.
func TestKernelsAssemble(t *testing.T) {
	names, _ := abiTables(t)
	assembled := map[string]string{"megakernel.wgsl": DrainSource(), "finalize.wgsl": FinalizeSource(),
		"reduce_shared.wgsl": ReduceSource(), "reduce.wgsl": ReduceSource(), "reduce_windows.wgsl": ReduceSource(),
		"window_tenants.wgsl": WindowTenantsSource()}
	user := Kernel{Opcodes: []Opcode{{Value: abi.UserOpcodeFirst, Name: "f", WGSL: "fn f(slot: u32, args: Args) -> Outcome { return done(); }"}}}
	assembled["user_prelude.wgsl"], _ = user.Source()
	assembled["trace.wgsl"] = TracedDrainSource()
	spawner := Kernel{Opcodes: []Opcode{{Value: abi.UserOpcodeFirst, Name: "f", WGSL: "fn f(slot: u32, args: Args) -> Outcome { spawn(0u, 0u, 0u, args); return done(); }"}}}
	assembled["spawn_prelude.wgsl"], _ = spawner.Source()
	for _, file := range []string{"spawn_shared.wgsl", "spawn_scan.wgsl", "spawn_finalize.wgsl"} {
		assembled[file] = spawner.SpawnScan().Source
	}
	for file, src := range kernelFiles(t) {
		t.Run(file, func(t *testing.T) {
			full, embedded := assembled[file]
			require.Truef(t, embedded, "%s is not embedded by sources.go", file)
			assert.True(t, strings.HasPrefix(full, ABISource()), "the ABI constants come first")
			// The GPU gets the copy without comments (min/), and without
			// its trace hooks unless it traces (trace.wgsl).
			min := hooks(stripped(t, file, src), false)
			_, body, _ := strings.Cut(min, "\n")
			assert.Contains(t, full, body, "the file is in the assembled module")

			// Every name is declared by the ABI or by the module: a file
			// may use what another file of its module declares.
			code := stripComments(src)
			declared := map[string]bool{}
			for _, m := range declRE.FindAllStringSubmatch(stripComments(full), -1) {
				declared[m[2]] = true
			}
			for _, m := range upperSnakeRE.FindAllStringIndex(code, -1) {
				name := code[m[0]:m[1]]
				if !declared[name] && !hasName(names, name) {
					t.Errorf("%s:%d: %s is declared neither in abi_gen.wgsl nor in the kernel", file, lineOf(code, m[0]), name)
				}
			}

			// One entry point per file (shared/docs/STYLE.md), named by
			// the header. A file spliced into the drain (user_prelude.wgsl)
			// or shared by the entry points of one module
			// (reduce_shared.wgsl) says it has none.
			if strings.HasPrefix(src, "// "+file+": no entry point") {
				assert.Zero(t, strings.Count(code, "@compute"), "no entry point")
				return
			}
			header := regexp.MustCompile(`^// ` + regexp.QuoteMeta(file) + ": entry point `(\\w+)`").FindStringSubmatch(src)
			require.NotNil(t, header, "header comment names the entry point, or says there is none")
			assert.Regexp(t, `@compute @workgroup_size\([^)]*\)\s*fn `+header[1]+`\(`, code, "entry point %s", header[1])
			assert.Equal(t, 1, strings.Count(code, "@compute"), "one entry point per file")
			assert.Contains(t, src, "// Bindings", "header lists the bindings")
			assert.Contains(t, src, "// Invariants", "header lists the invariants")
		})
	}
}

func TestEntryPoints(t *testing.T) {
	assert.Contains(t, stripComments(DrainSource()), "fn "+DrainEntryPoint+"(")
	assert.Contains(t, stripComments(FinalizeSource()), "fn "+FinalizeEntryPoint+"(")
	assert.Contains(t, stripComments(DrainSource()), "override "+WorkgroupSizeX+": u32")
	assert.Contains(t, stripComments(DrainSource()), "@workgroup_size("+WorkgroupSizeX+")")
}

// TestEveryOpcodeHasACase checks that the drain implements every opcode a
// host may publish among the ABI's Op constants.
func TestEveryOpcodeHasACase(t *testing.T) {
	consts, err := abigen.Constants("abi")
	require.NoError(t, err)
	var want []uint32
	for _, c := range consts {
		if strings.HasPrefix(c.GoName, "Op") && !strings.HasPrefix(c.GoName, "OpSystem") {
			require.Truef(t, abi.IsPublishable(c.Value), "%s", c.GoName)
			want = append(want, c.Value)
			assert.Containsf(t, stripComments(megakernel), "case "+c.WGSLName+":", "switch case of %s", c.WGSLName)
		}
	}
	slices.Sort(want)
	assert.Equal(t, want, Opcodes())
}
