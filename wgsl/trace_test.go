package wgsl

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/internal/abigen"
	"github.com/ringscope/ringscope/wgsl/internal/wgslmin"
)

// TestUntracedDrainIsTheKernelWithoutTracing: with tracing off the drain's
// WGSL is, byte for byte, megakernel.wgsl with its trace hook lines
// deleted, stripped as every kernel is: nothing of the feature reaches the
// pipeline (no binding, no function, not a blank line).
func TestUntracedDrainIsTheKernelWithoutTracing(t *testing.T) {
	src, err := os.ReadFile("megakernel.wgsl")
	require.NoError(t, err)
	var without strings.Builder
	hooks := 0
	for line := range strings.Lines(string(src)) {
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), wgslmin.TraceHook) {
			hooks++
			continue
		}
		without.WriteString(line)
	}
	require.Positive(t, hooks, "megakernel.wgsl has trace hooks")
	want := ABISource() + "\n" + stripped(t, "megakernel.wgsl", without.String())
	assert.True(t, want == DrainSource(), "the untraced drain differs from the kernel without its trace hooks")
	var k Kernel
	got, _ := k.Source()
	assert.True(t, got == DrainSource())
	assert.NotContains(t, strings.ToLower(DrainSource()), "trace")

	user := Kernel{Opcodes: []Opcode{{Value: 0x10, Name: "f", WGSL: "fn f(slot: u32, args: Args) -> Outcome { return done(); }"}}}
	plain, _ := user.Source()
	assert.NotContains(t, strings.ToLower(plain), "trace")
	spawner := Kernel{Opcodes: []Opcode{{Value: 0x10, Name: "f", WGSL: "fn f(slot: u32, args: Args) -> Outcome { spawn(0u, 0u, 2u, args); return done(); }"}}}
	require.True(t, spawner.Spawns())
	plain, _ = spawner.Source()
	assert.NotContains(t, strings.ToLower(plain), "trace", "nor does a spawning kernel's")
	spawner.Trace = true
	traced, _ := spawner.Source()
	assert.Contains(t, traced, "    trace_spawned(base / SLOT_WORDS, spawner);\n", "a traced spawn notes its child's parent")
}

// TestTracedDrain: the traced drain is the same kernel with each hook's
// code in place, after the trace declarations and their constants.
func TestTracedDrain(t *testing.T) {
	traced := TracedDrainSource()
	k := Kernel{Trace: true}
	got, _ := k.Source()
	assert.True(t, got == traced)
	assert.Contains(t, traced, "@binding(BINDING_TRACE) var<storage, read_write> trace_buf")
	assert.Contains(t, traced, "const BINDING_TRACE: u32 = 64u;")
	assert.NotContains(t, traced, wgslmin.TraceHook)
	assert.Equal(t, 2, strings.Count(traced, "let trace_start = trace_ticket();"), "run_plain and run_slot take a start ticket")
	assert.Equal(t, 2, strings.Count(traced, "trace_record(c.slot, op, tenant, trace_start,"), "and record the slot")
	assert.Equal(t, 1, strings.Count(traced, "trace_at(gid.x / WORKGROUP_SIZE_X, lane);"))
	// The untraced lines are all there, in order.
	untraced := DrainSource()
	rest := traced
	for line := range strings.Lines(untraced) {
		i := strings.Index(rest, line)
		require.GreaterOrEqualf(t, i, 0, "traced drain lacks %q", line)
		rest = rest[i+len(line):]
	}
	assert.False(t, k.SameProgram(&Kernel{}), "a traced kernel is another program")

	user := Kernel{Trace: true, Opcodes: []Opcode{{Value: 0x10, Name: "f", WGSL: "fn f(slot: u32, args: Args) -> Outcome { return done(); }"}}}
	src, m := user.Source()
	assert.Contains(t, src, "trace_record(")
	assert.Contains(t, src, "fn f(slot: u32")
	first := m[0].First
	assert.Equal(t, "fn f(slot: u32, args: Args) -> Outcome { return done(); }", strings.Split(src, "\n")[first-1], "the source map counts the trace lines")
}

func TestTraceABIGenIsFresh(t *testing.T) {
	want, err := abigen.GenerateFiles("abi", func(file string) bool { return file == "trace.go" })
	require.NoError(t, err)
	got, err := os.ReadFile("trace_abi_gen.wgsl")
	require.NoError(t, err, "trace_abi_gen.wgsl is missing: run go generate ./wgsl")
	if string(got) != string(want) {
		t.Fatalf("trace_abi_gen.wgsl is stale (wgsl/abi/trace.go changed): run go generate ./wgsl")
	}
	assert.NotContains(t, ABISource(), "TRACE_", "abi_gen.wgsl leaves the trace constants to trace_abi_gen.wgsl")
}

// TestAttachHostTraceLayout: the example host app's traced kernel
// (static/attach-host.wgsl, its trace hook lines) writes records in the
// layout ringscope reads: each TRACE_ constant it declares is the generated
// trace_abi_gen.wgsl's, name and value, and it declares every header and
// record word it needs, so a change to wgsl/abi/trace.go fails here until
// the host app follows.
func TestAttachHostTraceLayout(t *testing.T) {
	decl := regexp.MustCompile(`(?m)^(?:// @trace: )?const (TRACE_[A-Z_]+): u32 = ([0-9A-Fa-fx]+u);`)
	consts := func(src string) map[string]string {
		m := map[string]string{}
		for _, d := range decl.FindAllStringSubmatch(src, -1) {
			m[d[1]] = d[2]
		}
		return m
	}
	host, err := os.ReadFile("../static/attach-host.wgsl")
	require.NoError(t, err)
	gen, err := os.ReadFile("trace_abi_gen.wgsl")
	require.NoError(t, err)
	want, got := consts(string(gen)), consts(string(host))
	for _, name := range []string{"TRACE_HEADER_WORDS", "TRACE_CURSOR", "TRACE_CAPACITY", "TRACE_CLOCK", "TRACE_RECORD_WORDS",
		"TRACE_REC_SLOT", "TRACE_REC_OP_TENANT", "TRACE_REC_GROUP", "TRACE_REC_LANE", "TRACE_REC_START", "TRACE_REC_END",
		"TRACE_REC_OUTCOME", "TRACE_REC_PARENT", "TRACE_OP_MASK", "TRACE_TENANT_SHIFT", "TRACE_FAULT_SHIFT", "TRACE_NO_PARENT"} {
		require.Contains(t, want, name, "trace_abi_gen.wgsl")
		assert.Contains(t, got, name, "attach-host.wgsl declares it")
	}
	for name, v := range got {
		assert.Equal(t, want[name], v, "attach-host.wgsl's %s", name)
	}
}
