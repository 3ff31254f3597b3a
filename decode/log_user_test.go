package decode

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ringscope/ringscope/wgsl/abi"
)

func TestUserFaultCodes(t *testing.T) {
	c := FaultCode(abi.FaultUserFirst + 42)
	code, ok := c.User()
	assert.True(t, ok)
	assert.EqualValues(t, 42, code)
	assert.Equal(t, "USER_FAULT(42)", c.String())
	assert.Contains(t, c.Reason(), "user_fault(42)")
	_, ok = FaultUserFault.User()
	assert.False(t, ok, "RAISE's USER_FAULT is a built-in code")
	assert.Equal(t, "SPAWN_OPCODE", FaultCode(7).String())
	assert.Equal(t, "FAULT(0xa)", FaultCode(10).String())
	last := FaultCode(abi.FaultUserFirst + abi.FaultUserCodes - 1)
	assert.Equal(t, "USER_FAULT(65279)", last.String())
	assert.Equal(t, "FAULT(0x10000)", FaultCode(abi.FaultUserFirst+abi.FaultUserCodes).String())
}
