package wgsl

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// The drain reads params as a vec4<u32>.
func TestParamsFitAVec4(t *testing.T) {
	assert.Equal(t, 4, abi.ParamsWords)
}

func TestDrainProgram(t *testing.T) {
	p := Drain(256)
	assert.Equal(t, DrainSource(), p.Source)
	assert.Equal(t, DrainEntryPoint, p.EntryPoint)
	assert.Equal(t, map[string]float64{WorkgroupSizeX: 256}, p.Constants)
	assert.NotEmpty(t, p.Label)
}

func TestFinalizeProgram(t *testing.T) {
	p := Finalize()
	assert.Equal(t, FinalizeSource(), p.Source)
	assert.Equal(t, FinalizeEntryPoint, p.EntryPoint)
	assert.Empty(t, p.Constants)
}

func TestJIT(t *testing.T) {
	p := JIT(64, []uint32{abi.OpSpin, abi.OpNop, 0x1234, abi.OpSpin, abi.OpPrintf})
	assert.Equal(t, DrainSource(), p.Source, "one shader module for every opcode set")
	assert.Equal(t, DrainEntryPoint, p.EntryPoint)
	assert.Equal(t, float64(64), p.Constants[WorkgroupSizeX])
	assert.Len(t, p.Constants, 1+len(Opcodes()), "every flag is set explicitly")
	for _, tc := range []struct {
		flag string
		on   float64
	}{
		{"ENABLE_OP_NOP", 1}, {"ENABLE_OP_SPIN", 1}, {"ENABLE_OP_PRINTF", 1},
		{"ENABLE_OP_STORE_U32", 0}, {"ENABLE_OP_HASH", 0}, {"ENABLE_OP_SHUTDOWN", 0},
	} {
		v, ok := p.Constants[tc.flag]
		assert.Truef(t, ok, "%s missing", tc.flag)
		assert.Equalf(t, tc.on, v, "%s", tc.flag)
	}
}

func TestJITIsDeterministic(t *testing.T) {
	a := []uint32{abi.OpHash, abi.OpStoreU32, abi.OpStoreU32, 0x7777}
	b := []uint32{abi.OpStoreU32, abi.OpHash}
	assert.Equal(t, JIT(128, a), JIT(128, b))
	assert.Equal(t, "jit:0x1,0x100", JITKey(a))
	assert.Equal(t, JITKey(a), JITKey(b))
	assert.NotEqual(t, JITKey(a), JITKey([]uint32{abi.OpHash}))
	assert.Equal(t, "jit:", JITKey(nil))
	assert.Equal(t, "jit:0xffffffff", JITKey([]uint32{abi.OpShutdown}))
}

func TestJITAllOpcodesEqualsDrainFlags(t *testing.T) {
	p := JIT(64, Opcodes())
	for name, v := range p.Constants {
		if name != WorkgroupSizeX {
			assert.Equalf(t, float64(1), v, "%s", name)
		}
	}
}
