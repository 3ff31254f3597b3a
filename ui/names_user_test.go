package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestUserOpcodeNames(t *testing.T) {
	t.Cleanup(func() { SetUserOpcodeNames(nil) })
	assert.Equal(t, "USER(0x10)", OpcodeName(0x10))
	SetUserOpcodeNames(map[uint32]string{0x10: "histogram"})
	assert.Equal(t, "histogram", OpcodeName(0x10))
	assert.Equal(t, "SPIN", OpcodeName(0x101), "built-ins keep their names")
	SetUserOpcodeNames(nil)
	assert.Equal(t, "USER(0x10)", OpcodeName(0x10))
}
