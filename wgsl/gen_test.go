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

func TestABIGenIsFresh(t *testing.T) {
	want, err := abigen.Generate("abi")
	require.NoError(t, err)
	got, err := os.ReadFile("abi_gen.wgsl")
	require.NoError(t, err, "abi_gen.wgsl is missing: run go generate ./wgsl")
	if string(got) != string(want) {
		t.Fatalf("abi_gen.wgsl is stale (package wgsl/abi changed): run go generate ./wgsl")
	}
	assert.Equal(t, string(want), ABISource(), "the embedded abi_gen.wgsl differs from the file")
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
