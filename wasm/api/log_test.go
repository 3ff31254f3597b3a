package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

func TestLogOf(t *testing.T) {
	assert.Nil(t, LogOf(nil, nil, nil))
	l := &decode.Log{Cursor: 3, Capacity: 4, Records: []decode.LogRecord{
		{Format: abi.LogFaultTag | abi.FaultUnknownOpcode, Slot: 7, A: 9, B: 2},
		{Format: 1, Slot: 3, A: 42, B: 0xff},
		{Format: 77, Slot: 4, A: 1, B: 2},
	}}
	got := LogOf(l, map[uint32]string{1: "tenant %d hash %x"}, nil)
	require.Len(t, got.Records, 3)
	assert.Equal(t, uint32(3), got.Cursor)
	f := got.Records[0]
	assert.True(t, f.Fault)
	assert.Equal(t, "UNKNOWN_OPCODE", f.Name)
	assert.Contains(t, f.Text, "at epoch 2: ")
	assert.Equal(t, uint32(abi.LogFaultTag|abi.FaultUnknownOpcode), f.Format)
	assert.Equal(t, LogRecord{Format: 1, Slot: 3, A: 42, B: 0xff, Name: "PRINTF", Text: "tenant 42 hash ff"}, got.Records[1])
	assert.Equal(t, "fmt#77 a=1 b=2", got.Records[2].Text)

	// The API's JSON names.
	p := Plain(got).(map[string]any)
	rec := p["records"].([]any)[1].(map[string]any)
	assert.Equal(t, "PRINTF", rec["name"])
	assert.Equal(t, "tenant 42 hash ff", rec["text"])
}
