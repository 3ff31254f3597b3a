package decode_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// TestRecommendLaunchBridge is reference §7.9's vector, from real buffer
// bytes: eight opcodes that each ran once and one REQUEUE slot make the
// launch JIT, promote opcodes and age priority work.
func TestRecommendLaunchBridge(t *testing.T) {
	control := make([]uint32, abi.ControlMinWords)
	control[abi.CtrlTenantBase] = abi.TenantBaseValue
	control[abi.CtrlMagic], control[abi.CtrlABIVersion] = abi.Magic, abi.Version
	for op := range 8 {
		control[abi.CtrlOpcodeMetrics+op] = 1
	}
	ring := make([]uint32, 4*abi.SlotWords) // REQUEUE, then three EMPTY slots
	ring[abi.SlotStatus] = abi.StatusRequeue
	var tel decode.RingTelemetry
	err := decode.DecodeInto(&tel, nil, leWords(control), leWords(ring), nil)
	require.NoError(t, err)

	got, err := tel.RecommendLaunch(direct(64, 64, 256))
	require.NoError(t, err)
	assert.Equal(t, decode.ModeJIT, got.ExecutionMode)
	assert.True(t, got.PromoteHotOpcodes)
	assert.True(t, got.AgePriorityWork)
	assert.False(t, got.PromoteHotWindows)
	assert.Equal(t, decode.PressureSaturated, got.Pressure, "a requeue saturates")
	// Nodes 4 (slots), edges 1 (queue depth), frontier 1/4 = 2500 bps.
	assert.Equal(t, decode.TopologyHybridFrontier, got.Topology)
}

func leWords(ws []uint32) []byte {
	b := make([]byte, 0, len(ws)*abi.WordBytes)
	for _, w := range ws {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	return b
}

func TestFillLaunchRequest(t *testing.T) {
	// 8 slots: 2 published, 1 requeue, 1 done, 4 empty → queue depth 3,
	// frontier 3750 bps. Three windows of 4, 3 and 5 slots.
	tel := &decode.RingTelemetry{
		Control: decode.ControlSnapshot{Metrics: []decode.Metric{{Opcode: 1, Count: 5}, {Opcode: 7, Count: 1}}},
		Occupancy: decode.RingOccupancy{
			decode.StatusEmpty: 4, decode.StatusPublished: 2, decode.StatusRequeue: 1, decode.StatusDone: 1,
		},
		Windows: []decode.WindowTelemetry{
			{Ticket: 1, Required: 2, Lookahead: 2},
			{Ticket: 2, Required: 3},
			{Ticket: 3, Required: 1, Lookahead: 4},
		},
	}
	tests := []struct {
		name string
		in   decode.LaunchRequest
		want decode.LaunchRequest
	}{
		{
			name: "unknowns come from the snapshot",
			in:   decode.LaunchRequest{QueueLen: 3},
			want: decode.LaunchRequest{QueueLen: 3, GraphNodeCount: 8, GraphEdgeCount: 3, FrontierDensityBps: 3750,
				HotOpcodeCount: 2, HotWindowCount: 2, RequeueCount: 1},
		},
		{
			name: "the caller's signals are kept",
			in:   decode.LaunchRequest{GraphNodeCount: 100, GraphEdgeCount: 200, FrontierDensityBps: 42, RequeueCount: 10},
			want: decode.LaunchRequest{GraphNodeCount: 100, GraphEdgeCount: 200, FrontierDensityBps: 42,
				HotOpcodeCount: 2, HotWindowCount: 2, RequeueCount: 11},
		},
		{
			name: "larger hot counts from the caller win",
			in:   decode.LaunchRequest{HotOpcodeCount: 9, HotWindowCount: 5},
			want: decode.LaunchRequest{GraphNodeCount: 8, GraphEdgeCount: 3, FrontierDensityBps: 3750,
				HotOpcodeCount: 9, HotWindowCount: 5, RequeueCount: 1},
		},
		{
			name: "requeues saturate",
			in:   decode.LaunchRequest{RequeueCount: math.MaxUint64},
			want: decode.LaunchRequest{GraphNodeCount: 8, GraphEdgeCount: 3, FrontierDensityBps: 3750,
				HotOpcodeCount: 2, HotWindowCount: 2, RequeueCount: math.MaxUint64},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tel.FillLaunchRequest(tt.in, decode.StandardLaunchPolicy())
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}

	t.Run("window threshold comes from the policy", func(t *testing.T) {
		p := decode.StandardLaunchPolicy()
		p.HotWindowThreshold = 5
		got, err := tel.FillLaunchRequest(decode.LaunchRequest{}, p)
		require.NoError(t, err)
		assert.Equal(t, uint32(1), got.HotWindowCount)
	})
}

func TestRecommendLaunchErrors(t *testing.T) {
	t.Run("nil telemetry", func(t *testing.T) {
		var tel *decode.RingTelemetry
		_, err := tel.RecommendLaunch(direct(64, 64, 256))
		require.Error(t, err)
		assert.Contains(t, err.Error(), "decode: ")
	})
	t.Run("adapter limits are still checked", func(t *testing.T) {
		tel := &decode.RingTelemetry{Occupancy: decode.RingOccupancy{decode.StatusPublished: 1}}
		_, err := tel.RecommendLaunch(decode.LaunchRequest{QueueLen: 1})
		var reqErr *decode.LaunchRequestError
		require.ErrorAs(t, err, &reqErr)
		assert.Equal(t, "MaxWorkgroupSizeX", reqErr.Field)
	})
	t.Run("budget overrun is out of memory", func(t *testing.T) {
		tel := &decode.RingTelemetry{Occupancy: decode.RingOccupancy{decode.StatusPublished: 1}}
		req := direct(1, 64, 256)
		req.DeviceMemoryBudgetBytes = 1024
		_, err := tel.RecommendLaunch(req)
		var oom *decode.OutOfMemoryError
		require.ErrorAs(t, err, &oom)
		assert.Equal(t, decode.OutOfMemoryError{Requested: 1024 * 16, Available: 1024}, *oom)
	})
}
