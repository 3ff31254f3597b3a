package decode_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
)

// direct mirrors vyre's ResidentLaunchRequest::direct(q, workers, max_x),
// which its §7.5 vectors start from: the worker ceiling doubles as the grid
// limit and the width limit as the invocation limit.
func direct(queue, workers, maxX uint32) decode.LaunchRequest {
	return decode.LaunchRequest{
		QueueLen:                          queue,
		RequestedWorkerGroups:             workers,
		MaxWorkgroupSizeX:                 maxX,
		MaxComputeWorkgroupsPerDimension:  workers,
		MaxComputeInvocationsPerWorkgroup: maxX,
		ExpectedHitsPerItem:               1,
	}
}

func topo(t decode.Topology) *decode.Topology { return &t }

// TestRecommendWorkedVectors reproduces every worked vector of reference
// §7.5. Topology, pressure rule, mode, hit capacity, peak bytes and the
// out-of-memory check are vyre's; the geometry is ABI v1's (PROTOCOL §6):
// the width is 64 unless a portable width is preferred, and the worker count
// only bounds the grid. vyre's geometry, where it differs, is in each
// case's comment.
func TestRecommendWorkedVectors(t *testing.T) {
	tests := []struct {
		name string
		req  func() decode.LaunchRequest
		want decode.LaunchRecommendation
	}{
		{
			// Same geometry as vyre: there the 64 workers became the width,
			// here the width is 64 by default.
			name: "direct 300 items, 64 workers, 3 hits per item",
			req: func() decode.LaunchRequest {
				r := direct(300, 64, 256)
				r.ExpectedHitsPerItem = 3
				return r
			},
			want: decode.LaunchRecommendation{
				WorkgroupSizeX: 64, SlotCount: 320, DispatchGrid: [3]uint32{5, 1, 1}, WorkerGroups: 64,
				HitCapacity: 1800, EstimatedPeakDeviceBytes: 28800,
				Topology: decode.TopologySparseFrontier, Pressure: decode.PressureLight, ExecutionMode: decode.ModeInterpreter,
			},
		},
		{
			// Same geometry as vyre (64 workers = width 64): 128 groups of
			// work, grid capped at 64 workers.
			name: "hot opcodes and requeues saturate and go JIT",
			req: func() decode.LaunchRequest {
				r := direct(8192, 64, 256)
				r.HotOpcodeCount, r.RequeueCount, r.MaxPriorityAge = 8, 1, 64
				return r
			},
			want: decode.LaunchRecommendation{
				WorkgroupSizeX: 64, SlotCount: 8192, DispatchGrid: [3]uint32{64, 1, 1}, WorkerGroups: 64,
				HitCapacity: 16384, EstimatedPeakDeviceBytes: 262144,
				Topology: decode.TopologySparseFrontier, Pressure: decode.PressureSaturated, ExecutionMode: decode.ModeJIT,
				PromoteHotOpcodes: true, AgePriorityWork: true,
			},
		},
		{
			// vyre: width 256 (= workers), grid 256, 65536 lanes, so its
			// pressure was Balanced. v1: width 64, grid 256, 16384 lanes, and
			// 131072 items are 8 waves: Saturated. The vector pins only
			// topology and mode, which agree.
			name: "dense hot-window graph fuses",
			req: func() decode.LaunchRequest {
				r := direct(131072, 256, 256)
				r.GraphNodeCount, r.GraphEdgeCount, r.FrontierDensityBps, r.HotWindowCount = 32768, 500000, 7500, 4
				return r
			},
			want: decode.LaunchRecommendation{
				WorkgroupSizeX: 64, SlotCount: 131072, DispatchGrid: [3]uint32{256, 1, 1}, WorkerGroups: 256,
				HitCapacity: 262144, EstimatedPeakDeviceBytes: 4194304,
				Topology: decode.TopologyFusedDense, Pressure: decode.PressureSaturated, ExecutionMode: decode.ModeJIT,
				PromoteHotWindows: true,
			},
		},
		{
			// 128 workers shed 25 % at mem 8500 → 96. vyre: width 96, 16416
			// slots (171 × 96), grid 96, 9216 lanes. v1: width 64, 16384
			// slots, grid 96, 6144 lanes; Balanced in both.
			name: "memory pressure at threshold sheds workers and drops headroom",
			req: func() decode.LaunchRequest {
				r := direct(16384, 128, 256)
				r.GraphNodeCount, r.GraphEdgeCount, r.FrontierDensityBps, r.MemoryPressureBps = 16384, 250000, 9000, 8500
				return r
			},
			want: decode.LaunchRecommendation{
				WorkgroupSizeX: 64, SlotCount: 16384, DispatchGrid: [3]uint32{96, 1, 1}, WorkerGroups: 96,
				HitCapacity: 16384, EstimatedPeakDeviceBytes: 262144,
				Topology: decode.TopologyMemoryConstrained, Pressure: decode.PressureBalanced, ExecutionMode: decode.ModeJIT,
			},
		},
		{
			// The vector gives no queue; 1024 items chosen. 128 → 64 workers
			// (50 % shed at full pressure). vyre's width would be 64 too, so
			// the geometry agrees: 16 groups.
			name: "explicit hit capacity at full memory pressure",
			req: func() decode.LaunchRequest {
				r := direct(1024, 128, 256)
				r.RequestedHitCapacity, r.MemoryPressureBps = 65536, 10000
				return r
			},
			want: decode.LaunchRecommendation{
				WorkgroupSizeX: 64, SlotCount: 1024, DispatchGrid: [3]uint32{16, 1, 1}, WorkerGroups: 64,
				HitCapacity: 65536, EstimatedPeakDeviceBytes: 1048576,
				Topology: decode.TopologyMemoryConstrained, Pressure: decode.PressureBalanced, ExecutionMode: decode.ModeInterpreter,
			},
		},
		{
			// Inferred pressure 9000 sheds 33.33 %: 64 → 42 workers. vyre:
			// width 42, 1050 slots (25 × 42), grid 25, 1050 lanes > 1024
			// items: Light. v1: width 64, 1024 slots, grid 16, 1024 lanes:
			// Balanced.
			name: "inferred memory pressure from resident bytes",
			req: func() decode.LaunchRequest {
				r := direct(1024, 64, 256)
				r.ResidentDeviceBytes, r.DeviceMemoryBudgetBytes = 900000, 1000000
				return r
			},
			want: decode.LaunchRecommendation{
				WorkgroupSizeX: 64, SlotCount: 1024, DispatchGrid: [3]uint32{16, 1, 1}, WorkerGroups: 42,
				HitCapacity: 1024, EstimatedPeakDeviceBytes: 916384, DeviceMemoryBudgetBytes: 1000000,
				Topology: decode.TopologyMemoryConstrained, Pressure: decode.PressureBalanced, ExecutionMode: decode.ModeInterpreter,
			},
		},
		{
			// Inferred frontier min(90000, 100000) / 100000 = 9000 bps. Same
			// geometry as vyre (64 workers = width 64): 1407 groups, grid 64.
			name: "inferred dense frontier with hot opcodes fuses",
			req: func() decode.LaunchRequest {
				r := direct(90000, 64, 256)
				r.GraphNodeCount, r.GraphEdgeCount, r.HotOpcodeCount = 100000, 750000, 8
				return r
			},
			want: decode.LaunchRecommendation{
				WorkgroupSizeX: 64, SlotCount: 90048, DispatchGrid: [3]uint32{64, 1, 1}, WorkerGroups: 64,
				HitCapacity: 180000, EstimatedPeakDeviceBytes: 2880000,
				Topology: decode.TopologyFusedDense, Pressure: decode.PressureSaturated, ExecutionMode: decode.ModeJIT,
				PromoteHotOpcodes: true,
			},
		},
		{
			// 256 × 100 / 500 = 51 workers, grid [51, 1, 1] as in vyre. vyre
			// also made 51 the width (100011 slots, 1961 × 51); v1 keeps
			// width 64: 100032 slots (1563 × 64).
			name: "sparse frontier sheds workers to 51",
			req: func() decode.LaunchRequest {
				r := direct(100000, 256, 256)
				r.GraphNodeCount, r.GraphEdgeCount, r.FrontierDensityBps = 1000000, 4000000, 100
				return r
			},
			want: decode.LaunchRecommendation{
				WorkgroupSizeX: 64, SlotCount: 100032, DispatchGrid: [3]uint32{51, 1, 1}, WorkerGroups: 51,
				HitCapacity: 200000, EstimatedPeakDeviceBytes: 3200000,
				Topology: decode.TopologySparseFrontier, Pressure: decode.PressureSaturated, ExecutionMode: decode.ModeJIT,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decode.StandardLaunchPolicy().Recommend(tt.req(), nil)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestRecommendOutOfMemory is §7.5's budget vector: 1024 items × 4 hits × 2
// = 8192 hits × 16 bytes + 1024 resident = 132096 > 65536.
func TestRecommendOutOfMemory(t *testing.T) {
	req := direct(1024, 64, 256)
	req.ExpectedHitsPerItem, req.ResidentDeviceBytes, req.DeviceMemoryBudgetBytes = 4, 1024, 64<<10

	_, err := decode.StandardLaunchPolicy().Recommend(req, nil)
	var oom *decode.OutOfMemoryError
	require.ErrorAs(t, err, &oom)
	assert.Equal(t, decode.OutOfMemoryError{Requested: 132096, Available: 65536}, *oom)
	assert.True(t, strings.HasPrefix(err.Error(),
		"decode: launch needs 132096 bytes of device memory but the budget allows 65536: "), err.Error())

	// A peak exactly at the budget fits.
	req.DeviceMemoryBudgetBytes = 132096
	got, err := decode.StandardLaunchPolicy().Recommend(req, nil)
	require.NoError(t, err)
	assert.Equal(t, uint64(132096), got.EstimatedPeakDeviceBytes)
	assert.Equal(t, uint64(132096), got.DeviceMemoryBudgetBytes)
}

// TestRecommendHysteresis covers reference §7.5's hysteresis vectors and the
// releases just past each margin.
func TestRecommendHysteresis(t *testing.T) {
	type sig struct {
		frontier, mem uint16
		fusible       bool // edges ≥ 65536 and hot opcodes promoted
	}
	tests := []struct {
		name string
		prev *decode.Topology
		sig  sig
		want decode.Topology
	}{
		{"sparse raw without prev at 625", nil, sig{frontier: 625}, decode.TopologyHybridFrontier},
		{"sparse held at 625", topo(decode.TopologySparseFrontier), sig{frontier: 625}, decode.TopologySparseFrontier},
		{"sparse held at 750", topo(decode.TopologySparseFrontier), sig{frontier: 750}, decode.TopologySparseFrontier},
		{"sparse released at 751", topo(decode.TopologySparseFrontier), sig{frontier: 751}, decode.TopologyHybridFrontier},
		{"sparse released at 800", topo(decode.TopologySparseFrontier), sig{frontier: 800}, decode.TopologyHybridFrontier},
		{"hybrid raw without prev at 375", nil, sig{frontier: 375}, decode.TopologySparseFrontier},
		{"hybrid held at 375", topo(decode.TopologyHybridFrontier), sig{frontier: 375}, decode.TopologyHybridFrontier},
		{"hybrid held at 250", topo(decode.TopologyHybridFrontier), sig{frontier: 250}, decode.TopologyHybridFrontier},
		{"hybrid released at 249", topo(decode.TopologyHybridFrontier), sig{frontier: 249}, decode.TopologySparseFrontier},
		{"hybrid held at 4125", topo(decode.TopologyHybridFrontier), sig{frontier: 4125}, decode.TopologyHybridFrontier},
		{"hybrid held at 4125 against fused", topo(decode.TopologyHybridFrontier), sig{frontier: 4125, fusible: true}, decode.TopologyHybridFrontier},
		{"hybrid released at 4251", topo(decode.TopologyHybridFrontier), sig{frontier: 4251}, decode.TopologyDenseFrontier},
		{"dense raw without prev at 3875", nil, sig{frontier: 3875}, decode.TopologyHybridFrontier},
		{"dense held at 3875", topo(decode.TopologyDenseFrontier), sig{frontier: 3875}, decode.TopologyDenseFrontier},
		{"dense released at 3749", topo(decode.TopologyDenseFrontier), sig{frontier: 3749}, decode.TopologyHybridFrontier},
		{"dense falls straight to sparse", topo(decode.TopologyDenseFrontier), sig{frontier: 300}, decode.TopologySparseFrontier},
		{"dense promotes to fused", topo(decode.TopologyDenseFrontier), sig{frontier: 5000, fusible: true}, decode.TopologyFusedDense},
		{"fused held at 3875", topo(decode.TopologyFusedDense), sig{frontier: 3875, fusible: true}, decode.TopologyFusedDense},
		{"fused not held without promotion", topo(decode.TopologyFusedDense), sig{frontier: 3875}, decode.TopologyHybridFrontier},
		{"fused released at 3700", topo(decode.TopologyFusedDense), sig{frontier: 3700, fusible: true}, decode.TopologyHybridFrontier},
		{"memory held at 8375", topo(decode.TopologyMemoryConstrained), sig{frontier: 5000, mem: 8375}, decode.TopologyMemoryConstrained},
		{"memory held at 8250", topo(decode.TopologyMemoryConstrained), sig{frontier: 5000, mem: 8250}, decode.TopologyMemoryConstrained},
		{"memory released at 8249", topo(decode.TopologyMemoryConstrained), sig{frontier: 5000, mem: 8249}, decode.TopologyDenseFrontier},
		{"memory raw without prev at 8375", nil, sig{frontier: 5000, mem: 8375}, decode.TopologyDenseFrontier},
		{"memory overrides a held sparse", topo(decode.TopologySparseFrontier), sig{frontier: 600, mem: 9000}, decode.TopologyMemoryConstrained},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := direct(4096, 128, 256)
			req.GraphNodeCount, req.GraphEdgeCount = 8192, 1000
			req.FrontierDensityBps, req.MemoryPressureBps = tt.sig.frontier, tt.sig.mem
			if tt.sig.fusible {
				req.GraphEdgeCount, req.HotOpcodeCount = 65536, 8
			}
			got, err := decode.StandardLaunchPolicy().Recommend(req, tt.prev)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got.Topology)
		})
	}

	t.Run("empty queue ignores prev", func(t *testing.T) {
		got, err := decode.StandardLaunchPolicy().Recommend(direct(0, 64, 256), topo(decode.TopologyMemoryConstrained))
		require.NoError(t, err)
		assert.Equal(t, decode.TopologyEmpty, got.Topology)
		assert.Equal(t, decode.PressureEmpty, got.Pressure)
		assert.Equal(t, uint32(64), got.SlotCount, "an empty queue still gets one workgroup of slots")
		assert.Equal(t, [3]uint32{1, 1, 1}, got.DispatchGrid)
	})
	t.Run("held memory constraint still sheds workers", func(t *testing.T) {
		req := direct(4096, 128, 256)
		req.MemoryPressureBps = 8375
		got, err := decode.StandardLaunchPolicy().Recommend(req, topo(decode.TopologyMemoryConstrained))
		require.NoError(t, err)
		assert.Equal(t, decode.TopologyMemoryConstrained, got.Topology)
		assert.Equal(t, uint32(96), got.WorkerGroups, "below the threshold the shed is its 25 % floor")
		assert.Equal(t, uint32(8192), got.HitCapacity, "8375 < 8500 keeps the ×2 headroom")
	})
}

func TestRecommendWorkerShaping(t *testing.T) {
	tests := []struct {
		name                  string
		workers               uint32
		frontier, mem         uint16
		nodes                 uint32
		wantWorkers, wantGrid uint32
	}{
		{"memory 9000 keeps two thirds", 128, 0, 9000, 0, 85, 64},
		{"memory 10000 keeps half", 128, 0, 10000, 0, 64, 64},
		{"memory never sheds the last worker", 1, 0, 10000, 0, 1, 1},
		{"sparse frontier 100", 256, 100, 0, 1 << 20, 51, 51},
		{"sparse frontier 1 stops at the warp floor", 256, 1, 0, 1 << 20, 32, 32},
		{"sparse floor never raises workers", 16, 1, 0, 1 << 20, 16, 16},
		{"sparse without a graph is not shaped", 256, 100, 0, 0, 256, 64},
		{"hybrid is not shaped", 256, 2000, 0, 1 << 20, 256, 64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := direct(4096, tt.workers, 256)
			req.MaxComputeWorkgroupsPerDimension = 65535
			req.FrontierDensityBps, req.MemoryPressureBps, req.GraphNodeCount = tt.frontier, tt.mem, tt.nodes
			got, err := decode.StandardLaunchPolicy().Recommend(req, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.wantWorkers, got.WorkerGroups)
			assert.Equal(t, [3]uint32{tt.wantGrid, 1, 1}, got.DispatchGrid)
		})
	}
}

// TestRecommendGeometry pins the v1 rule of PROTOCOL §6.
func TestRecommendGeometry(t *testing.T) {
	tests := []struct {
		name                    string
		queue, workers          uint32
		maxX, maxGroups, maxInv uint32
		preferred               uint32
		wantWidth, wantSlots    uint32
		wantWorkers, wantGrid   uint32
	}{
		{"default width on WebGPU defaults", 1000, 0, 256, 65535, 256, 0, 64, 1024, 255, 16},
		{"preferred 128", 1000, 0, 256, 65535, 256, 128, 128, 1024, 255, 8},
		{"preferred 256", 1000, 0, 256, 65535, 256, 256, 256, 1024, 255, 4},
		{"preferred 96 is not portable", 1000, 0, 256, 65535, 256, 96, 64, 1024, 255, 16},
		{"preferred 512 is not portable", 1000, 0, 1024, 65535, 1024, 512, 64, 1024, 255, 16},
		{"preferred 256 lowered to max x 128", 1000, 0, 128, 65535, 256, 256, 128, 1024, 255, 8},
		{"lowered to a power of two under 48", 1000, 0, 48, 65535, 256, 0, 32, 1024, 255, 32},
		{"lowered by invocations", 1000, 0, 256, 65535, 16, 256, 16, 1008, 255, 63},
		{"width 1 on a minimal adapter", 3, 0, 1, 1, 1, 0, 1, 3, 1, 1},
		{"powerful adapter gets 64 workers", 100000, 0, 1024, 1000, 4096, 0, 64, 100032, 64, 64},
		{"small grid limit derives one worker", 1000, 0, 256, 10, 256, 0, 64, 1024, 1, 1},
		{"derived workers capped at 1024", 1 << 20, 0, 256, 1 << 30, 256, 0, 64, 1 << 20, 1024, 1024},
		{"requested workers capped by grid limit", 100000, 500, 256, 100, 256, 0, 64, 100032, 100, 100},
		{"grid never exceeds the work", 100, 500, 256, 65535, 256, 0, 64, 128, 500, 2},
		{"empty queue gets one group", 0, 8, 256, 65535, 256, 0, 64, 64, 8, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := decode.LaunchRequest{
				QueueLen: tt.queue, RequestedWorkerGroups: tt.workers, PreferredWorkgroupSizeX: tt.preferred,
				MaxWorkgroupSizeX: tt.maxX, MaxComputeWorkgroupsPerDimension: tt.maxGroups, MaxComputeInvocationsPerWorkgroup: tt.maxInv,
			}
			got, err := decode.StandardLaunchPolicy().Recommend(req, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.wantWidth, got.WorkgroupSizeX, "width")
			assert.Equal(t, tt.wantSlots, got.SlotCount, "slots")
			assert.Equal(t, tt.wantWorkers, got.WorkerGroups, "workers")
			assert.Equal(t, [3]uint32{tt.wantGrid, 1, 1}, got.DispatchGrid, "grid")
			assert.Equal(t, uint64(tt.wantGrid)*uint64(tt.wantWidth), got.Lanes())
		})
	}
}

func TestRecommendPressureAndHits(t *testing.T) {
	tests := []struct {
		name         string
		queue        uint32
		requeues     uint64
		expectedHits uint32
		want         decode.QueuePressure
		wantHits     uint32
	}{
		{"below one wave is light", 63, 0, 0, decode.PressureLight, 1024},
		{"one wave is balanced", 4096, 0, 0, decode.PressureBalanced, 8192},
		{"just under four waves is balanced", 16383, 0, 0, decode.PressureBalanced, 32766},
		{"four waves saturate", 16384, 0, 0, decode.PressureSaturated, 32768},
		{"a requeue saturates a light queue", 10, 1, 0, decode.PressureSaturated, 1024},
		{"zero hits per item counts as one", 1000, 0, 0, decode.PressureLight, 2000},
		{"hits per item scale capacity", 1000, 0, 5, decode.PressureLight, 10000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// 64 workers of width 64: one wave is 4096 lanes once the queue
			// fills 64 groups.
			req := direct(tt.queue, 64, 256)
			req.RequeueCount, req.ExpectedHitsPerItem = tt.requeues, tt.expectedHits
			got, err := decode.StandardLaunchPolicy().Recommend(req, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got.Pressure)
			assert.Equal(t, tt.wantHits, got.HitCapacity)
		})
	}
}

func TestRecommendInvalidRequests(t *testing.T) {
	tests := []struct {
		name      string
		edit      func(*decode.LaunchRequest)
		wantField string
	}{
		{"zero max workgroup size x", func(r *decode.LaunchRequest) { r.MaxWorkgroupSizeX = 0 }, "MaxWorkgroupSizeX"},
		{"zero workgroups per dimension", func(r *decode.LaunchRequest) { r.MaxComputeWorkgroupsPerDimension = 0 }, "MaxComputeWorkgroupsPerDimension"},
		{"zero invocations per workgroup", func(r *decode.LaunchRequest) { r.MaxComputeInvocationsPerWorkgroup = 0 }, "MaxComputeInvocationsPerWorkgroup"},
		{"frontier above 100 %", func(r *decode.LaunchRequest) { r.FrontierDensityBps = 10001 }, "FrontierDensityBps"},
		{"memory pressure above 100 %", func(r *decode.LaunchRequest) { r.MemoryPressureBps = math.MaxUint16 }, "MemoryPressureBps"},
		{"slot count past 32 bits", func(r *decode.LaunchRequest) { r.QueueLen = math.MaxUint32 }, "QueueLen"},
		{"hit capacity past 32 bits", func(r *decode.LaunchRequest) {
			r.QueueLen, r.ExpectedHitsPerItem = 1<<30, math.MaxUint32
		}, "ExpectedHitsPerItem"},
		{"peak past 64 bits", func(r *decode.LaunchRequest) { r.ResidentDeviceBytes = math.MaxUint64 }, "ResidentDeviceBytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := direct(1000, 64, 256)
			tt.edit(&req)
			_, err := decode.StandardLaunchPolicy().Recommend(req, nil)
			var reqErr *decode.LaunchRequestError
			require.ErrorAs(t, err, &reqErr)
			assert.Equal(t, tt.wantField, reqErr.Field)
			assert.True(t, strings.HasPrefix(err.Error(), "decode: launch request "+tt.wantField+" = "), err.Error())
		})
	}

	t.Run("zero adapter limit says how to fix", func(t *testing.T) {
		req := direct(1000, 64, 256)
		req.MaxWorkgroupSizeX = 0
		_, err := decode.StandardLaunchPolicy().Recommend(req, nil)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "real limits")
	})
	t.Run("zero policy is rejected", func(t *testing.T) {
		_, err := decode.LaunchPolicy{}.Recommend(direct(1000, 64, 256), nil)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "StandardLaunchPolicy")
	})
	t.Run("memory threshold of 100 % is rejected", func(t *testing.T) {
		p := decode.StandardLaunchPolicy()
		p.MemoryPressureThresholdBps = 10000
		_, err := p.Recommend(direct(1000, 64, 256), nil)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "MemoryPressureThresholdBps")
	})
}

func TestStandardLaunchPolicyConstants(t *testing.T) {
	p := decode.StandardLaunchPolicy()
	// Reference §7.1, the table as published.
	assert.Equal(t, []uint32{1024, 2, 4, 8, 4, 4096, 32, 65536, 16},
		[]uint32{p.MinHitCapacity, p.HitCapacityMultiplier, p.SaturatedWaves, p.HotOpcodeThreshold, p.HotWindowThreshold,
			p.JITQueueLenThreshold, p.PriorityAgeThreshold, p.FusionEdgeThreshold, p.ScratchBytesPerHit})
	assert.Equal(t, []uint16{500, 4000, 8500, 250, 250},
		[]uint16{p.SparseFrontierThresholdBps, p.DenseFrontierThresholdBps, p.MemoryPressureThresholdBps,
			p.FrontierHysteresisBps, p.MemoryHysteresisBps})
	assert.Equal(t, []uint32{256, 1024, 4096, 64, 32, 64, 256},
		[]uint32{p.OccupancyWorkerDivisor, p.MaxOccupancyWorkerGroups, p.PowerfulInvocationThreshold,
			p.PowerfulMinWorkerGroups, p.SparseMinWorkerGroups, p.DefaultWorkgroupSizeX, p.MaxPortableWorkgroupSizeX})
}

func TestEnumsEncodeByName(t *testing.T) {
	type planned struct {
		Topology decode.Topology
		Pressure decode.QueuePressure
		Mode     decode.ExecutionMode
	}
	tests := []struct {
		name string
		in   planned
		want string
	}{
		{"zero values", planned{}, `{"Topology":"empty","Pressure":"empty","Mode":"interpreter"}`},
		{"sparse light", planned{decode.TopologySparseFrontier, decode.PressureLight, decode.ModeJIT},
			`{"Topology":"sparse_frontier","Pressure":"light","Mode":"jit"}`},
		{"hybrid balanced", planned{decode.TopologyHybridFrontier, decode.PressureBalanced, decode.ModeInterpreter},
			`{"Topology":"hybrid_frontier","Pressure":"balanced","Mode":"interpreter"}`},
		{"dense saturated", planned{decode.TopologyDenseFrontier, decode.PressureSaturated, decode.ModeJIT},
			`{"Topology":"dense_frontier","Pressure":"saturated","Mode":"jit"}`},
		{"fused", planned{Topology: decode.TopologyFusedDense}, `{"Topology":"fused_dense","Pressure":"empty","Mode":"interpreter"}`},
		{"memory constrained", planned{Topology: decode.TopologyMemoryConstrained},
			`{"Topology":"memory_constrained","Pressure":"empty","Mode":"interpreter"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.in)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(b))
			var back planned
			require.NoError(t, json.Unmarshal(b, &back))
			assert.Equal(t, tt.in, back)
		})
	}

	t.Run("String", func(t *testing.T) {
		assert.Equal(t, "fused_dense", decode.TopologyFusedDense.String())
		assert.Equal(t, "saturated", decode.PressureSaturated.String())
		assert.Equal(t, "jit", decode.ModeJIT.String())
		assert.Equal(t, "Topology(9)", decode.Topology(9).String())
		assert.Equal(t, "QueuePressure(4)", decode.QueuePressure(4).String())
		assert.Equal(t, "ExecutionMode(2)", decode.ExecutionMode(2).String())
	})
	t.Run("unknown values do not encode", func(t *testing.T) {
		_, err := json.Marshal(planned{Topology: 6})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "decode: cannot encode unknown topology 6")
		_, err = decode.QueuePressure(4).MarshalText()
		assert.Error(t, err)
		_, err = decode.ExecutionMode(2).MarshalText()
		assert.Error(t, err)
	})
	t.Run("unknown names do not decode and leave the value", func(t *testing.T) {
		tp := decode.TopologyDenseFrontier
		err := tp.UnmarshalText([]byte("dense"))
		require.Error(t, err)
		assert.Contains(t, err.Error(), `decode: unknown topology "dense"`)
		assert.Equal(t, decode.TopologyDenseFrontier, tp)
		var q decode.QueuePressure
		assert.Error(t, q.UnmarshalText([]byte("Light")))
		var m decode.ExecutionMode
		assert.Error(t, m.UnmarshalText([]byte("")))
	})
}
