package decode_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
)

func TestOccupancyProxyBps(t *testing.T) {
	tests := []struct {
		name           string
		claimed, lanes uint64
		want           uint16
	}{
		{"no lanes", 0, 0, 0},
		{"claims without lanes", 5, 0, 0},
		{"nothing claimed", 0, 64, 0},
		{"one third floors", 1, 3, 3333},
		{"half", 32, 64, 5000},
		{"every lane", 64, 64, 10000},
		{"lanes that claimed several items cap", 1000, 64, 10000},
		{"huge counts do not overflow", math.MaxUint64 - 1, math.MaxUint64, 9999},
		{"tiny share of huge lanes", 1, math.MaxUint64, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, decode.OccupancyProxyBps(tt.claimed, tt.lanes))
		})
	}
}

func TestFrontierDensityBps(t *testing.T) {
	tests := []struct {
		name          string
		active, total uint64
		want          uint16
	}{
		{"empty ring", 0, 0, 0},
		{"idle ring", 0, 256, 0},
		{"one of 256", 1, 256, 39},
		{"two of four", 2, 4, 5000},
		{"all active", 256, 256, 10000},
		{"more active than slots caps", 300, 256, 10000},
		{"huge counts do not overflow", math.MaxUint64 / 2, math.MaxUint64, 4999},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, decode.FrontierDensityBps(tt.active, tt.total))
		})
	}
}

// TestOccupancyAndFrontierDiffer is the v1 fix of reference §11 item 12:
// a dispatch of 16 × 64 lanes that claimed 100 of 1024 slots, 900 of which
// are still published, reports two different numbers.
func TestOccupancyAndFrontierDiffer(t *testing.T) {
	rec := decode.LaunchRecommendation{WorkgroupSizeX: 64, DispatchGrid: [3]uint32{16, 1, 1}, SlotCount: 1024}
	occ := decode.OccupancyProxyBps(100, rec.Lanes())
	front := decode.FrontierDensityBps(900, uint64(rec.SlotCount))
	assert.Equal(t, uint16(976), occ)
	assert.Equal(t, uint16(8789), front)
}

func TestDispatchTelemetryCopiesThePlan(t *testing.T) {
	req := direct(16384, 128, 256)
	req.MemoryPressureBps, req.DeviceMemoryBudgetBytes = 9000, 1<<30
	rec, err := decode.StandardLaunchPolicy().Recommend(req, nil)
	require.NoError(t, err)

	got := rec.DispatchTelemetry()
	assert.Equal(t, decode.MegakernelTelemetry{
		Topology:                 decode.TopologyMemoryConstrained,
		Pressure:                 rec.Pressure,
		ExecutionMode:            decode.ModeJIT,
		HitCapacity:              16384,
		EstimatedPeakDeviceBytes: 262144,
		DeviceMemoryBudgetBytes:  1 << 30,
	}, got)
}

func TestMegakernelTelemetryJSON(t *testing.T) {
	tel := decode.MegakernelTelemetry{
		BytesUploaded: 640, BytesReadBack: 64, BytesMoved: 704, KernelLaunches: 2, SyncPoints: 1,
		OccupancyProxyBps: 5000, FrontierDensityBps: 2500, ReadbackBuffers: 2, CompiledPipelineCacheHit: true,
		Topology: decode.TopologyHybridFrontier, Pressure: decode.PressureBalanced, ExecutionMode: decode.ModeJIT,
		HitCapacity: 1024, EstimatedPeakDeviceBytes: 16384,
	}
	b, err := json.Marshal(tel)
	require.NoError(t, err)
	assert.JSONEq(t, `{
		"BytesUploaded": 640, "BytesReadBack": 64, "BytesMoved": 704,
		"ResidentAllocations": 0, "KernelLaunches": 2, "SyncPoints": 1,
		"OccupancyProxyBps": 5000, "FrontierDensityBps": 2500, "ReadbackBuffers": 2,
		"CompiledPipelineCacheHit": true, "ResidentInputCacheHit": false,
		"Topology": "hybrid_frontier", "Pressure": "balanced", "ExecutionMode": "jit",
		"HitCapacity": 1024, "EstimatedPeakDeviceBytes": 16384, "DeviceMemoryBudgetBytes": 0
	}`, string(b))
	var back decode.MegakernelTelemetry
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, tel, back)
}

func TestMegakernelReportAdd(t *testing.T) {
	var r decode.MegakernelReport
	_, ok := r.Last()
	assert.False(t, ok, "a fresh report has no dispatch")

	first := decode.MegakernelTelemetry{
		BytesUploaded: 1000, BytesReadBack: 200, BytesMoved: 1200, ResidentAllocations: 5, KernelLaunches: 2,
		SyncPoints: 1, ReadbackBuffers: 2, EstimatedPeakDeviceBytes: 5000, Topology: decode.TopologySparseFrontier,
	}
	second := decode.MegakernelTelemetry{
		BytesUploaded: 64, BytesReadBack: 200, BytesMoved: 264, KernelLaunches: 2, SyncPoints: 1, ReadbackBuffers: 2,
		CompiledPipelineCacheHit: true, ResidentInputCacheHit: true, EstimatedPeakDeviceBytes: 4000,
		Topology: decode.TopologyHybridFrontier,
	}
	r.Add(first)
	r.Add(second)

	assert.Equal(t, uint64(2), r.DispatchCount)
	assert.Equal(t, uint64(1064), r.BytesUploaded)
	assert.Equal(t, uint64(400), r.BytesReadBack)
	assert.Equal(t, uint64(1464), r.BytesMoved)
	assert.Equal(t, uint64(5), r.ResidentAllocations)
	assert.Equal(t, uint64(4), r.KernelLaunches)
	assert.Equal(t, uint64(2), r.SyncPoints)
	assert.Equal(t, uint64(4), r.ReadbackBuffers)
	assert.Equal(t, uint64(1), r.PipelineCacheHits)
	assert.Equal(t, uint64(1), r.ResidentInputCacheHits)
	assert.Equal(t, uint64(5000), r.PeakDeviceBytes, "the peak is a maximum, not a sum")
	assert.Equal(t, []decode.MegakernelTelemetry{first, second}, r.Dispatches)
	last, ok := r.Last()
	require.True(t, ok)
	assert.Equal(t, second, last)
}

func TestMegakernelReportKeepsBoundedHistory(t *testing.T) {
	var r decode.MegakernelReport
	const n = decode.MaxReportDispatches + 44
	for i := range n {
		r.Add(decode.MegakernelTelemetry{HitCapacity: uint32(i), BytesMoved: 1})
	}
	assert.Equal(t, uint64(n), r.DispatchCount)
	assert.Equal(t, uint64(n), r.BytesMoved, "totals cover every dispatch")
	require.Len(t, r.Dispatches, decode.MaxReportDispatches)
	assert.Equal(t, uint32(44), r.Dispatches[0].HitCapacity, "oldest kept first")
	assert.Equal(t, uint32(n-1), r.Dispatches[len(r.Dispatches)-1].HitCapacity)
}

func TestMegakernelReportSaturates(t *testing.T) {
	var r decode.MegakernelReport
	r.Add(decode.MegakernelTelemetry{BytesUploaded: math.MaxUint64 - 1})
	r.Add(decode.MegakernelTelemetry{BytesUploaded: 10})
	assert.Equal(t, uint64(math.MaxUint64), r.BytesUploaded)
}

func TestMegakernelReportRecordProgress(t *testing.T) {
	tests := []struct {
		name                         string
		published, spawned, terminal uint64
		processed, remaining         uint64
	}{
		{"nothing yet", 100, 0, 0, 0, 100},
		{"part way", 100, 0, 40, 40, 60},
		{"done", 100, 0, 100, 100, 0},
		{"counter past the run is capped", 100, 0, 130, 100, 0},
		{"nothing published", 0, 0, 5, 0, 0},
		// A spawn tree: one root published, 127 spawned on the GPU.
		{"spawned items are the run's", 1, 127, 128, 128, 0},
		{"spawned items still queued remain", 1, 300, 3, 3, 298},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r decode.MegakernelReport
			r.RecordProgress(tt.published, tt.spawned, tt.terminal)
			assert.Equal(t, tt.published, r.PublishedItems)
			assert.Equal(t, tt.spawned, r.SpawnedItems)
			assert.Equal(t, tt.processed, r.ItemsProcessed)
			assert.Equal(t, tt.remaining, r.ItemsRemaining)
		})
	}
}
