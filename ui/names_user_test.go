package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestUserOpcodeNames(t *testing.T) {
	var names Names
	assert.Equal(t, "USER(0x10)", names.Opcode(0x10))
	names = Names{0x10: "histogram"}
	assert.Equal(t, "histogram", names.Opcode(0x10))
	assert.Equal(t, "SPIN", names.Opcode(0x101), "built-ins keep their names")
	names = nil
	assert.Equal(t, "USER(0x10)", names.Opcode(0x10))
}
