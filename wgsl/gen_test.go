package wgsl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/internal/abigen"
	"github.com/ringscope/ringscope/wgsl/internal/wgslmin"
)

func TestABIGenIsFresh(t *testing.T) {
	want, err := abigen.Generate("abi")
	require.NoError(t, err)
	got, err := os.ReadFile("abi_gen.wgsl")
	require.NoError(t, err, "abi_gen.wgsl is missing: run go generate ./wgsl")
	if string(got) != string(want) {
		t.Fatalf("abi_gen.wgsl is stale (package wgsl/abi changed): run go generate ./wgsl")
	}
	assert.Equal(t, stripped(t, "abi_gen.wgsl", string(want)), ABISource(), "the embedded abi_gen.wgsl differs from the file")
}

// TestMinIsFresh checks min/, the stripped copies sources.go embeds,
// against the .wgsl files that gen.go lists.
func TestMinIsFresh(t *testing.T) {
	gen, err := os.ReadFile("gen.go")
	require.NoError(t, err)
	var names []string
	for line := range strings.Lines(string(gen)) {
		if args, ok := strings.CutPrefix(strings.TrimSpace(line), "//go:generate go run ./internal/cmd/wgslmin -o min "); ok {
			names = strings.Fields(args)
		}
	}
	require.NotEmpty(t, names, "gen.go runs wgslmin")
	for _, name := range names {
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		got, err := os.ReadFile("min/" + name)
		require.NoError(t, err, "min/%s is missing: run go generate ./wgsl", name)
		assert.Truef(t, string(got) == stripped(t, name, string(src)), "min/%s is stale: run go generate ./wgsl", name)
	}
	embedded, err := filepath.Glob("*.wgsl")
	require.NoError(t, err)
	assert.ElementsMatch(t, embedded, names, "gen.go strips every kernel file")
}

// stripped is the copy of the WGSL file name (source src) in min/.
func stripped(t *testing.T, name, src string) string {
	t.Helper()
	s, err := wgslmin.File(name, src)
	require.NoError(t, err)
	return s
}

func TestABIGenHeaderMarksGenerated(t *testing.T) {
	first, _, _ := strings.Cut(ABISource(), "\n")
	assert.Regexp(t, `^// Code generated .* DO NOT EDIT\.$`, first)
}

// TestABIGenValues spot-checks names and spellings against the Go constants.
func TestABIGenValues(t *testing.T) {
	for _, line := range []string{
		"const CTRL_DONE_COUNT: u32 = 1u;",
		"const SLOT_WORDS: u32 = 16u;",
		"const BINDING_RING: u32 = 1u;",
		"const OP_SPIN: u32 = 0x101u;",
		"const OP_DFA_STEP: u32 = 6u;",
		"const CTRL_ABI_VERSION: u32 = 142u;",
		"const MAGIC: u32 = 0x31435352u;",
		"const OP_SHUTDOWN: u32 = 0xFFFFFFFFu;",
		"const LOG_FAULT_TAG: u32 = 0xFFFF0000u;",
		"const CTRL_OBSERVABLE: u32 = 160u;",
	} {
		assert.Contains(t, ABISource(), line+"")
	}
	consts, err := abigen.Constants("abi")
	require.NoError(t, err)
	byName := map[string]uint32{}
	for _, c := range consts {
		byName[c.GoName] = c.Value
	}
	assert.Equal(t, uint32(abi.CtrlTail), byName["CtrlTail"])
	assert.Equal(t, uint32(abi.SlotBytes), byName["SlotBytes"])
	assert.Equal(t, abi.LogFaultMask, byName["LogFaultMask"])
}
