package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/tasktrace"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/wgsl/abi"
)

func TestTraceOf(t *testing.T) {
	assert.Nil(t, TraceOf(nil))
	tt := &capture.TaskTrace{Capacity: 8, Overflow: 3, Evicted: 1,
		Passes: []tasktrace.Pass{{First: 10, End: 14, BeginNS: 5000, EndNS: 5400, Timed: true}},
		Budget: []bool{true},
		Records: []tasktrace.Record{
			{Slot: 7, Opcode: abi.OpSpin, Tenant: 2, Workgroup: 3, Lane: 9, Start: 10, End: 13, Status: decode.StatusFault,
				Fault: decode.FaultOutOfBounds, Parent: abi.TraceNoParent},
			{Slot: 8, Opcode: 0x10, Start: 11, End: 12, Status: decode.StatusDone, Parent: 7},
			{Slot: 9, Start: 99, End: 100, Parent: abi.TraceNoParent}, // in no pass
		},
		Name: func(op uint32) string { return map[uint32]string{abi.OpSpin: "SPIN", 0x10: "square"}[op] }}
	got := TraceOf(tt)
	require.NotNil(t, got)
	assert.Equal(t, "ns", got.Axis)
	assert.Equal(t, []TracePass{{FirstTicket: 10, EndTicket: 14, Begin: 0, End: 400, Timed: true, BudgetSpent: true}}, got.Passes)
	assert.Equal(t, []TraceRecord{
		{Slot: 7, Opcode: abi.OpSpin, Name: "SPIN", Tenant: 2, Workgroup: 3, Lane: 9, StartTicket: 10, EndTicket: 13,
			Start: 50, End: 350, Status: "FAULT", Fault: "OUT_OF_BOUNDS", Parent: -1},
		{Slot: 8, Opcode: 0x10, Name: "square", StartTicket: 11, EndTicket: 12, Start: 150, End: 250, Status: "DONE", Parent: 7},
	}, got.Records)
	assert.EqualValues(t, 3, got.Overflow)

	tt.Passes[0].Timed = false
	got = TraceOf(tt)
	assert.Equal(t, "logical", got.Axis)
	assert.Equal(t, 0.0, got.Records[0].Start)
	assert.Equal(t, 3.0, got.Records[0].End, "tickets since the window's first")
	assert.Equal(t, 4.0, got.Passes[0].End)
}
