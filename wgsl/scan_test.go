package wgsl

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The scanners of sources.go replace these expressions; the wasm module
// must not link package regexp, so the tests keep them as the oracle.
var (
	abiConstRE   = regexp.MustCompile(`^const ([A-Z][A-Z0-9_]*): u32 = (0x[0-9A-F]+|[0-9]+)u;`)
	enableFlagRE = regexp.MustCompile(`^override (` + enablePrefix + `([A-Z][A-Z0-9_]*)): bool\b`)
)

func scanLines() []string {
	lines := []string{
		"const A: u32 = 0u;",
		"const OP_SPIN: u32 = 0x101u;",
		"const OP_SPIN: u32 = 0x101u; // comment",
		"const X_1: u32 = 42u;\n",
		"const X: u32 = 0xu;",
		"const X: u32 = 0xabu;",
		"const X: u32 = u;",
		"const X: u32 = 12;",
		"const x: u32 = 1u;",
		"const _X: u32 = 1u;",
		"const X : u32 = 1u;",
		"const X: i32 = 1u;",
		" const X: u32 = 1u;",
		"const X: u32 = 1",
		"override ENABLE_OP_SPIN: bool = true;",
		"override ENABLE_OP_SPIN: bool\n",
		"override ENABLE_OP_SPIN: bool",
		"override ENABLE_OP_SPIN: boolean = true;",
		"override ENABLE_OP_SPIN: bool_x",
		"override ENABLE_: bool",
		"override ENABLE_op: bool",
		"override WORKGROUP_SIZE_X: u32 = 64;",
		"override ENABLE_A1_B: bool;",
		"",
	}
	lines = append(lines, strings.Split(ABISource(), "\n")...)
	return append(lines, strings.Split(megakernel, "\n")...)
}

func TestABIConstMatchesRegexp(t *testing.T) {
	matched := 0
	for _, line := range scanLines() {
		name, value, ok := abiConst(line)
		m := abiConstRE.FindStringSubmatch(line)
		if !assert.Equal(t, m != nil, ok, "%q", line) || m == nil {
			continue
		}
		matched++
		assert.Equal(t, m[1], name, "%q", line)
		assert.Equal(t, m[2], value, "%q", line)
	}
	assert.Greater(t, matched, 10)
}

func TestEnableFlagMatchesRegexp(t *testing.T) {
	matched := 0
	for _, line := range scanLines() {
		flag, ok := enableFlag(line)
		m := enableFlagRE.FindStringSubmatch(line)
		if !assert.Equal(t, m != nil, ok, "%q", line) || m == nil {
			continue
		}
		matched++
		assert.Equal(t, m[1], flag, "%q", line)
	}
	assert.Greater(t, matched, 3)
}
