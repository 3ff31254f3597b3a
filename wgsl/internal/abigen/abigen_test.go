package abigen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUpperSnake(t *testing.T) {
	for in, want := range map[string]string{
		"CtrlDoneCount":         "CTRL_DONE_COUNT",
		"SlotWords":             "SLOT_WORDS",
		"BindingRing":           "BINDING_RING",
		"OpSpin":                "OP_SPIN",
		"CtrlABIVersion":        "CTRL_ABI_VERSION",
		"OpDFAStep":             "OP_DFA_STEP",
		"OpStoreU32":            "OP_STORE_U32",
		"OpWaitIO":              "OP_WAIT_IO",
		"SlotArg0":              "SLOT_ARG0",
		"Magic":                 "MAGIC",
		"BindingFirstExtension": "BINDING_FIRST_EXTENSION",
		"U32Value":              "U32_VALUE",
	} {
		assert.Equal(t, want, UpperSnake(in), in)
	}
}

func writePkg(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644))
	return dir
}

func TestGenerate(t *testing.T) {
	dir := writePkg(t, `package p

// Things (one group).
const (
	// A is documented.
	A = 3
	BigHex uint32 = 0xFFFF0000 // tagged
	Sum = A * 2
	unexported = 9
)

const Lone = 0x10
`)
	got, err := Generate(dir)
	require.NoError(t, err)
	want := Header + `
//
// Every exported constant of github.com/ringscope/ringscope/wgsl/abi (docs/PROTOCOL.md,
// ABI v1), renamed to UPPER_SNAKE. Kernels use these names, never the numbers;
// regenerate with ` + "`go generate ./wgsl`" + ` after changing the Go constants.

// Things (one group).
// A is documented.
const A: u32 = 3u;
const BIG_HEX: u32 = 0xFFFF0000u; // tagged
const SUM: u32 = 6u;

const LONE: u32 = 0x10u;
`
	assert.Equal(t, want, string(got))
	assert.NotContains(t, string(got), "UNEXPORTED")
}

func TestGenerateRejects(t *testing.T) {
	for name, src := range map[string]string{
		"negative":  "package p\nconst A = -1\n",
		"too big":   "package p\nconst A = 1 << 32\n",
		"string":    "package p\nconst A = \"x\"\n",
		"float":     "package p\nconst A = 1.5\n",
		"collision": "package p\nconst (\n\tABCd = 1\n\tAbCd = 2\n)\n",
		"no consts": "package p\nvar A = 1\n",
		"bad type":  "package p\nconst A int = \"x\"\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Generate(writePkg(t, src))
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), "abigen: "), err.Error())
		})
	}
}
