package wgsl

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/internal/abigen"
)

const (
	plainFn   = "fn f(slot: u32, args: Args) -> Outcome {\n    out[0] = args[0];\n    return done();\n}\n"
	spawnerFn = "fn f(slot: u32, args: Args) -> Outcome {\n    out[0] = args[0];\n    if (!spawn(0x10u, 0u, 2u, args)) { return user_fault(1u); }\n    return done();\n}\n"
)

func kernelOf(wgsl string) Kernel {
	return Kernel{
		Opcodes: []Opcode{{Value: abi.UserOpcodeFirst, Name: "f", WGSL: wgsl}},
		Buffers: []Buffer{{Name: "out", Access: ReadWrite, Size: 16}},
	}
}

func TestSpawnsDetectsCalls(t *testing.T) {
	for src, want := range map[string]bool{
		plainFn:   false,
		spawnerFn: true,
		"fn f(slot: u32, args: Args) -> Outcome { spawn (1u, 0u, 0u, args); return done(); }":    true,
		"fn f(slot: u32, args: Args) -> Outcome { // spawn(1u, 0u, 0u, args)\n return done(); }": false,
		"fn f(slot: u32, args: Args) -> Outcome { /* spawn(1u) */ return done(); }":              false,
		"fn f(slot: u32, args: Args) -> Outcome { my_spawn(1u); return done(); }":                false,
		"fn f(slot: u32, args: Args) -> Outcome { respawn(1u); return done(); }":                 false,
	} {
		k := kernelOf(src)
		assert.Equalf(t, want, k.Spawns(), "%q", src)
	}
}

// TestNoSpawnNoExtension: a kernel whose opcodes do not spawn assembles to
// the v1 drain, byte for byte what the spawning twin is without the
// extension's parts, and the built-in kernel carries none of it.
func TestNoSpawnNoExtension(t *testing.T) {
	plain, spawner := kernelOf(plainFn), kernelOf(spawnerFn)
	ps, _ := plain.Source()
	ss, _ := spawner.Source()
	for _, src := range []string{ps, DrainSource(), ABISource(), FinalizeSource()} {
		assert.NotContains(t, src, "spawn")
		assert.NotContains(t, src, "SPAWN")
	}
	require.Contains(t, ss, spawner.spawnDeclarations())
	back := strings.Replace(ss, spawner.spawnDeclarations(), "", 1)
	back = strings.Replace(back, "spawner = slot; return f(", "return f(", 1)
	back = strings.Replace(back, spawnerFn, plainFn, 1)
	assert.Equal(t, ps, back, "the spawning kernel is the plain one plus the extension")

	// The JIT of a plain kernel specialises to the ring's opcodes; a
	// spawning one turns every opcode on (its items' children are not in
	// the ring yet).
	pj, sj := plain.JIT(64, []uint32{abi.OpNop}), spawner.JIT(64, []uint32{abi.OpNop})
	assert.Equal(t, 0.0, pj.Constants["ENABLE_USER_OP_16"])
	assert.Equal(t, 0.0, pj.Constants["ENABLE_OP_SPIN"])
	assert.Equal(t, 1.0, sj.Constants["ENABLE_USER_OP_16"])
	assert.Equal(t, 1.0, sj.Constants["ENABLE_OP_SPIN"])
}

func TestSpawnDeclarations(t *testing.T) {
	k := kernelOf(spawnerFn)
	assert.Equal(t, uint32(abi.BindingFirstUser+1), k.SpawnBinding())
	src, _ := k.Source()
	assert.Contains(t, src, "const SPAWN_BINDING: u32 = 9u;")
	assert.Contains(t, src, "case 0x0u, 0x1u,")
	assert.Contains(t, src, ", 0x10u, 0x100u, 0x101u,")
	for _, p := range []Program{k.SpawnScan(), k.SpawnFinalize()} {
		assert.Contains(t, p.Source, "const SPAWN_BINDING: u32 = 9u;")
		assert.True(t, strings.HasPrefix(p.Source, ABISource()))
	}
	// A user name may not take the extension's.
	for _, name := range []string{"spawn", "spawn_state", "spawn_known", "spawner", "SPAWN_BINDING"} {
		bad := Kernel{Opcodes: []Opcode{{Value: abi.UserOpcodeFirst, Name: name, WGSL: "fn " + name + "(slot: u32, args: Args) -> Outcome { return done(); }"}}}
		assert.ErrorContainsf(t, bad.Validate(), "declared by the kernel", "%s", name)
	}
	if dir := os.Getenv("RINGSCOPE_DUMP_WGSL"); dir != "" {
		require.NoError(t, os.WriteFile(dir+"/spawn_drain.wgsl", []byte(src), 0o644))
		require.NoError(t, os.WriteFile(dir+"/spawn_passes.wgsl", []byte(k.SpawnScan().Source), 0o644))
	}
}

func TestSpawnGenIsFresh(t *testing.T) {
	want, err := abigen.Generate("abi/spawn")
	require.NoError(t, err)
	got, err := os.ReadFile("spawn_gen.wgsl")
	require.NoError(t, err)
	assert.Truef(t, string(got) == string(want), "spawn_gen.wgsl is stale (package wgsl/abi/spawn changed): run go generate ./wgsl")
}
