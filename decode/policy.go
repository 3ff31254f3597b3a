package decode

import (
	"fmt"
	"github.com/ringscope/ringscope/internal/nocompare"
	"math"
	"math/bits"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// bpsWhole is 100 % in basis points.
const bpsWhole = 10000

// hitRecordWords is the size of one sparse-hit record (the reference's
// scratch_bytes_per_hit of 16 bytes is four words). Hits are not part of the
// ring ABI, so the word count lives here; the word size comes from abi.
const hitRecordWords = 4

// Memory shedding (reference §7.4 step 6): a MemoryConstrained launch sheds
// memShedBaseBps of its workers at the pressure threshold, rising linearly to
// memShedBaseBps+memShedRangeBps (25 % … 50 %) at 100 % pressure.
const (
	memShedBaseBps  = 2500
	memShedRangeBps = 2500
)

// LaunchPolicy holds the tunables of the megakernel launch policy
// (reference §7.1 and its embedded sizing policy). The zero LaunchPolicy is
// not usable: Recommend rejects it. Start from StandardLaunchPolicy and
// change fields when experimenting.
type LaunchPolicy struct {
	// MinHitCapacity is the floor of a derived hit capacity.
	MinHitCapacity uint32
	// HitCapacityMultiplier scales queue × hits-per-item when memory is not
	// under pressure; under pressure the multiplier is 1.
	HitCapacityMultiplier uint32
	// SaturatedWaves is how many full waves of lanes make a queue Saturated.
	SaturatedWaves uint32
	// HotOpcodeThreshold is the hot-opcode count that promotes opcodes.
	HotOpcodeThreshold uint32
	// HotWindowThreshold is the hot-window count that promotes windows.
	HotWindowThreshold uint32
	// JITQueueLenThreshold is the queue length from which JIT mode pays off.
	JITQueueLenThreshold uint32
	// PriorityAgeThreshold is the priority age from which work is aged up.
	PriorityAgeThreshold uint32
	// SparseFrontierThresholdBps is the frontier density at or below which
	// the frontier is sparse.
	SparseFrontierThresholdBps uint16
	// DenseFrontierThresholdBps is the frontier density from which the
	// frontier is dense.
	DenseFrontierThresholdBps uint16
	// MemoryPressureThresholdBps is the memory pressure from which the
	// launch is MemoryConstrained. It must be below 10000.
	MemoryPressureThresholdBps uint16
	// FusionEdgeThreshold is the graph edge count from which a dense, hot
	// workload is fused.
	FusionEdgeThreshold uint32
	// ScratchBytesPerHit is the device memory one sparse hit record takes.
	ScratchBytesPerHit uint32
	// FrontierHysteresisBps is how far past a frontier threshold the
	// previous topology is kept.
	FrontierHysteresisBps uint16
	// MemoryHysteresisBps is how far below the memory threshold a previous
	// MemoryConstrained topology is kept.
	MemoryHysteresisBps uint16

	// OccupancyWorkerDivisor turns MaxComputeWorkgroupsPerDimension into a
	// derived worker count when the request asks for none.
	OccupancyWorkerDivisor uint32
	// MaxOccupancyWorkerGroups caps that derived worker count.
	MaxOccupancyWorkerGroups uint32
	// PowerfulInvocationThreshold is the MaxComputeInvocationsPerWorkgroup
	// from which an adapter counts as powerful.
	PowerfulInvocationThreshold uint32
	// PowerfulMinWorkerGroups is the derived worker floor on a powerful
	// adapter.
	PowerfulMinWorkerGroups uint32
	// SparseMinWorkerGroups is the floor below which sparse-frontier shaping
	// never sheds workers (the reference's "warp floor").
	SparseMinWorkerGroups uint32
	// DefaultWorkgroupSizeX is the workgroup width used when the request
	// prefers none (or an unsupported one). A power of two.
	DefaultWorkgroupSizeX uint32
	// MaxPortableWorkgroupSizeX is the widest preferred width honoured. The
	// preferred widths are the powers of two from DefaultWorkgroupSizeX to
	// this value: 64, 128 and 256 in the standard policy.
	MaxPortableWorkgroupSizeX uint32
}

// StandardLaunchPolicy returns the policy of reference §7.1
// (vyre's ResidentLaunchPolicy::standard with SchedulingPolicy::standard).
func StandardLaunchPolicy() LaunchPolicy {
	return LaunchPolicy{
		MinHitCapacity:             1024,
		HitCapacityMultiplier:      2,
		SaturatedWaves:             4,
		HotOpcodeThreshold:         8,
		HotWindowThreshold:         4,
		JITQueueLenThreshold:       4096,
		PriorityAgeThreshold:       abi.PriorityAgeThreshold,
		SparseFrontierThresholdBps: 500,
		DenseFrontierThresholdBps:  4000,
		MemoryPressureThresholdBps: 8500,
		FusionEdgeThreshold:        65536,
		ScratchBytesPerHit:         hitRecordWords * abi.WordBytes,
		FrontierHysteresisBps:      250,
		MemoryHysteresisBps:        250,

		OccupancyWorkerDivisor:      256,
		MaxOccupancyWorkerGroups:    1024,
		PowerfulInvocationThreshold: 4096,
		PowerfulMinWorkerGroups:     64,
		SparseMinWorkerGroups:       32,
		DefaultWorkgroupSizeX:       64,
		MaxPortableWorkgroupSizeX:   256,
	}
}

// LaunchRequest describes one planned megakernel launch: the work, the
// adapter's limits and the signals telemetry supplies (reference §7.2). A
// zero signal means "unknown" unless a field says otherwise; the three
// adapter limits must be the device's real limits.
type LaunchRequest struct {
	// QueueLen is the number of logical work items (ring slots) to drain.
	QueueLen uint32
	// RequestedWorkerGroups is the ceiling on workgroups; 0 derives it from
	// the adapter's limits.
	RequestedWorkerGroups uint32
	// MaxWorkgroupSizeX is the adapter's maxComputeWorkgroupSizeX.
	MaxWorkgroupSizeX uint32
	// MaxComputeWorkgroupsPerDimension is the adapter's
	// maxComputeWorkgroupsPerDimension.
	MaxComputeWorkgroupsPerDimension uint32
	// MaxComputeInvocationsPerWorkgroup is the adapter's
	// maxComputeInvocationsPerWorkgroup.
	MaxComputeInvocationsPerWorkgroup uint32
	// RequestedHitCapacity is the sparse-hit capacity; 0 derives it.
	RequestedHitCapacity uint32
	// ExpectedHitsPerItem is the expected hits per work item; 0 means 1.
	ExpectedHitsPerItem uint32
	// HotOpcodeCount is the number of opcodes seen hot.
	HotOpcodeCount uint32
	// HotWindowCount is the number of ticketed windows seen hot.
	HotWindowCount uint32
	// RequeueCount is the number of requeues observed.
	RequeueCount uint64
	// MaxPriorityAge is the oldest priority age observed.
	MaxPriorityAge uint32
	// GraphNodeCount is the node count of the work graph; 0 means unknown.
	GraphNodeCount uint32
	// GraphEdgeCount is the edge count of the work graph; 0 means unknown.
	GraphEdgeCount uint32
	// FrontierDensityBps is the active fraction of the frontier in basis
	// points (≤ 10000); 0 means infer it from QueueLen and GraphNodeCount.
	FrontierDensityBps uint16
	// MemoryPressureBps is device memory use in basis points (≤ 10000); 0
	// means infer it from ResidentDeviceBytes and DeviceMemoryBudgetBytes.
	MemoryPressureBps uint16
	// ResidentDeviceBytes is the device memory already resident.
	ResidentDeviceBytes uint64
	// DeviceMemoryBudgetBytes is the hard device memory budget; 0 means
	// unbounded.
	DeviceMemoryBudgetBytes uint64
	// PreferredWorkgroupSizeX is the workgroup width the caller prefers (ABI
	// v1): 64, 128 or 256 are honoured, anything else (0 included) means the
	// policy's default.
	PreferredWorkgroupSizeX uint32
}

// LaunchRecommendation is the policy's plan for one launch (reference §7.3,
// with the geometry of PROTOCOL §6).
type LaunchRecommendation struct {
	_ nocompare.T

	// WorkgroupSizeX is the workgroup width: a power of two within the
	// adapter's limits, never the worker count.
	WorkgroupSizeX uint32
	// SlotCount is the ring size: QueueLen (at least 1) rounded up to a
	// whole number of workgroups.
	SlotCount uint32
	// DispatchGrid is the dispatchWorkgroups argument, [x, 1, 1].
	DispatchGrid [3]uint32
	// WorkerGroups is the shaped worker ceiling the grid was sized from.
	WorkerGroups uint32
	// HitCapacity is the sparse-hit capacity.
	HitCapacity uint32
	// Pressure classifies the queue against the launched lanes.
	Pressure QueuePressure
	// ExecutionMode is the interpreter or JIT route.
	ExecutionMode ExecutionMode
	// Topology is the scale-aware topology; pass it back as prev next time.
	Topology Topology
	// PromoteHotOpcodes is set when enough opcodes are hot to specialise.
	PromoteHotOpcodes bool
	// PromoteHotWindows is set when enough windows are hot to fuse.
	PromoteHotWindows bool
	// AgePriorityWork is set when requeued or old work should be aged up.
	AgePriorityWork bool
	// EstimatedPeakDeviceBytes is resident bytes plus the hit scratch.
	EstimatedPeakDeviceBytes uint64
	// DeviceMemoryBudgetBytes is the budget applied; 0 means unbounded.
	DeviceMemoryBudgetBytes uint64
}

// Lanes returns the invocations the recommendation launches:
// DispatchGrid[0] × WorkgroupSizeX. It is the denominator of
// OccupancyProxyBps.
func (r LaunchRecommendation) Lanes() uint64 {
	return uint64(r.DispatchGrid[0]) * uint64(r.WorkgroupSizeX)
}

// OutOfMemoryError reports a launch whose estimated peak device memory
// exceeds the request's budget. It is returned before anything is
// allocated.
type OutOfMemoryError struct {
	// Requested is the estimated peak device bytes of the launch.
	Requested uint64
	// Available is the request's DeviceMemoryBudgetBytes.
	Available uint64
}

func (e *OutOfMemoryError) Error() string {
	return fmt.Sprintf("decode: launch needs %d bytes of device memory but the budget allows %d: "+
		"lower RequestedHitCapacity or ExpectedHitsPerItem, split the queue, release resident buffers, "+
		"or raise DeviceMemoryBudgetBytes", e.Requested, e.Available)
}

// LaunchRequestError reports a LaunchRequest the policy cannot plan for.
type LaunchRequestError struct {
	// Field is the LaunchRequest field at fault.
	Field string
	// Value is that field's value.
	Value uint64
	// Reason says why, and how to fix it.
	Reason string
}

func (e *LaunchRequestError) Error() string {
	return fmt.Sprintf("decode: launch request %s = %d: %s", e.Field, e.Value, e.Reason)
}

// Recommend plans one launch. prev is the topology of the previous launch
// of the same workload, or nil; when given, topology changes need to clear
// the hysteresis margins, so a signal hovering at a threshold does not flip
// the plan on every poll. It follows reference §7.4 (without its memo
// cache: the function is pure and cheap) with the geometry of PROTOCOL §6.
//
// Errors: *LaunchRequestError for zero adapter limits, densities above
// 10000 bps and sizes that overflow; *OutOfMemoryError when the estimated
// peak exceeds a non-zero budget; an error when p is not a usable policy.
func (p LaunchPolicy) Recommend(req LaunchRequest, prev *Topology) (LaunchRecommendation, error) {
	if err := p.validate(); err != nil {
		return LaunchRecommendation{}, err
	}
	if err := validateRequest(req); err != nil {
		return LaunchRecommendation{}, err
	}

	// Step 2: infer missing signals.
	frontier := uint32(req.FrontierDensityBps)
	if frontier == 0 && req.QueueLen > 0 && req.GraphNodeCount > 0 {
		active := min(uint64(req.QueueLen), uint64(req.GraphNodeCount))
		frontier = uint32(max(active*bpsWhole/uint64(req.GraphNodeCount), 1)) // ≤ 10000: active ≤ nodes
	}
	mem := uint32(req.MemoryPressureBps)
	if mem == 0 && req.DeviceMemoryBudgetBytes > 0 && req.ResidentDeviceBytes > 0 {
		mem = uint32(cappedBps(req.ResidentDeviceBytes, req.DeviceMemoryBudgetBytes))
	}

	// Step 3: promotion.
	promoteOps := req.HotOpcodeCount >= p.HotOpcodeThreshold
	promoteWins := req.HotWindowCount >= p.HotWindowThreshold

	// Steps 4–5: topology, then hysteresis against prev.
	sig := topologySignals{
		queue:    req.QueueLen,
		frontier: frontier,
		mem:      mem,
		nodes:    req.GraphNodeCount,
		edges:    req.GraphEdgeCount,
		promoted: promoteOps || promoteWins,
	}
	topo := p.rawTopology(sig)
	if prev != nil {
		topo = p.hysteresis(*prev, topo, sig)
	}

	// Step 6: shape the requested workers by topology.
	workers := p.shapeWorkers(topo, req.RequestedWorkerGroups, frontier, mem, req.GraphNodeCount)

	// v1 geometry (PROTOCOL §6, replacing reference step 7).
	width := p.workgroupWidth(req)
	if workers == 0 {
		workers = p.occupancyWorkers(req)
	}
	workers = max(min(workers, req.MaxComputeWorkgroupsPerDimension), 1)
	groups := (uint64(max(req.QueueLen, 1)) + uint64(width) - 1) / uint64(width)
	slots := groups * uint64(width)
	if slots > math.MaxUint32 {
		return LaunchRecommendation{}, &LaunchRequestError{Field: "QueueLen", Value: uint64(req.QueueLen),
			Reason: fmt.Sprintf("padded to workgroups of %d it needs %d slots, more than a 32-bit ring holds; split the queue", width, slots)}
	}
	grid := uint32(min(groups, uint64(workers)))
	lanes := uint64(grid) * uint64(width)

	// Step 9: pressure.
	var pressure QueuePressure
	switch q := uint64(req.QueueLen); {
	case q == 0:
		pressure = PressureEmpty
	case req.RequeueCount > 0 || q >= uint64(p.SaturatedWaves)*lanes:
		pressure = PressureSaturated
	case q >= lanes:
		pressure = PressureBalanced
	default:
		pressure = PressureLight
	}

	// Step 10: hit capacity.
	hits := uint64(req.RequestedHitCapacity)
	if hits == 0 {
		mult := uint64(p.HitCapacityMultiplier)
		if mem >= uint32(p.MemoryPressureThresholdBps) {
			mult = 1 // under memory pressure, no headroom
		}
		perItem := uint64(max(req.ExpectedHitsPerItem, 1))
		hi, lo := bits.Mul64(uint64(req.QueueLen)*perItem, mult) // the inner product is < 2^64
		if hi != 0 || lo > math.MaxUint32 {
			return LaunchRecommendation{}, &LaunchRequestError{Field: "ExpectedHitsPerItem", Value: uint64(req.ExpectedHitsPerItem),
				Reason: fmt.Sprintf("%d items × %d hits × %d overflows the 32-bit hit capacity; set RequestedHitCapacity or split the queue",
					req.QueueLen, perItem, mult)}
		}
		hits = max(lo, uint64(p.MinHitCapacity))
	}

	// Step 11: peak memory, checked before anything is allocated.
	scratch := hits * uint64(p.ScratchBytesPerHit) // < 2^64: both factors < 2^32
	peak, carry := bits.Add64(req.ResidentDeviceBytes, scratch, 0)
	if carry != 0 {
		return LaunchRecommendation{}, &LaunchRequestError{Field: "ResidentDeviceBytes", Value: req.ResidentDeviceBytes,
			Reason: fmt.Sprintf("plus %d bytes of hit scratch overflows 64 bits; report real resident bytes", scratch)}
	}
	if req.DeviceMemoryBudgetBytes > 0 && peak > req.DeviceMemoryBudgetBytes {
		return LaunchRecommendation{}, &OutOfMemoryError{Requested: peak, Available: req.DeviceMemoryBudgetBytes}
	}

	// Step 12: execution mode; step 13: priority aging.
	mode := ModeInterpreter
	if req.QueueLen >= p.JITQueueLenThreshold || promoteOps || promoteWins || topo == TopologyFusedDense {
		mode = ModeJIT
	}
	age := req.RequeueCount > 0 || req.MaxPriorityAge >= p.PriorityAgeThreshold

	return LaunchRecommendation{
		WorkgroupSizeX:           width,
		SlotCount:                uint32(slots),
		DispatchGrid:             [3]uint32{grid, 1, 1},
		WorkerGroups:             workers,
		HitCapacity:              uint32(hits),
		Pressure:                 pressure,
		ExecutionMode:            mode,
		Topology:                 topo,
		PromoteHotOpcodes:        promoteOps,
		PromoteHotWindows:        promoteWins,
		AgePriorityWork:          age,
		EstimatedPeakDeviceBytes: peak,
		DeviceMemoryBudgetBytes:  req.DeviceMemoryBudgetBytes,
	}, nil
}

// validate rejects policies that would divide by zero or loop, so a
// hand-built LaunchPolicy fails with a message instead of a panic.
func (p LaunchPolicy) validate() error {
	switch {
	case p.SparseFrontierThresholdBps == 0:
		return fmt.Errorf("decode: launch policy SparseFrontierThresholdBps is 0; start from StandardLaunchPolicy()")
	case p.MemoryPressureThresholdBps >= bpsWhole:
		return fmt.Errorf("decode: launch policy MemoryPressureThresholdBps %d is not below %d; start from StandardLaunchPolicy()",
			p.MemoryPressureThresholdBps, bpsWhole)
	case p.OccupancyWorkerDivisor == 0:
		return fmt.Errorf("decode: launch policy OccupancyWorkerDivisor is 0; start from StandardLaunchPolicy()")
	case p.SaturatedWaves == 0:
		return fmt.Errorf("decode: launch policy SaturatedWaves is 0; start from StandardLaunchPolicy()")
	case !isPowerOfTwo(p.DefaultWorkgroupSizeX) || !isPowerOfTwo(p.MaxPortableWorkgroupSizeX) ||
		p.MaxPortableWorkgroupSizeX < p.DefaultWorkgroupSizeX:
		return fmt.Errorf("decode: launch policy workgroup widths %d…%d are not powers of two in order; start from StandardLaunchPolicy()",
			p.DefaultWorkgroupSizeX, p.MaxPortableWorkgroupSizeX)
	}
	return nil
}

// validateRequest rejects requests no launch can be planned for.
func validateRequest(req LaunchRequest) error {
	const limitFix = "adapter limits must be the device's real limits (GPUAdapter.limits), not zero"
	switch {
	case req.MaxWorkgroupSizeX == 0:
		return &LaunchRequestError{Field: "MaxWorkgroupSizeX", Reason: limitFix}
	case req.MaxComputeWorkgroupsPerDimension == 0:
		return &LaunchRequestError{Field: "MaxComputeWorkgroupsPerDimension", Reason: limitFix}
	case req.MaxComputeInvocationsPerWorkgroup == 0:
		return &LaunchRequestError{Field: "MaxComputeInvocationsPerWorkgroup", Reason: limitFix}
	case req.FrontierDensityBps > bpsWhole:
		return &LaunchRequestError{Field: "FrontierDensityBps", Value: uint64(req.FrontierDensityBps),
			Reason: "a density is at most 10000 basis points (100 %); 0 means unknown"}
	case req.MemoryPressureBps > bpsWhole:
		return &LaunchRequestError{Field: "MemoryPressureBps", Value: uint64(req.MemoryPressureBps),
			Reason: "a pressure is at most 10000 basis points (100 %); 0 means unknown"}
	}
	return nil
}

// topologySignals are the inferred inputs of the topology rules.
type topologySignals struct {
	queue         uint32
	frontier, mem uint32 // basis points, ≤ 10000
	nodes, edges  uint32
	promoted      bool // hot opcodes or hot windows promoted
}

// rawTopology is reference §7.4 step 4: the first matching rule wins.
// An unknown frontier (0) lands in SparseFrontier, as in vyre.
func (p LaunchPolicy) rawTopology(s topologySignals) Topology {
	switch {
	case s.queue == 0:
		return TopologyEmpty
	case s.mem >= uint32(p.MemoryPressureThresholdBps):
		return TopologyMemoryConstrained
	case s.frontier <= uint32(p.SparseFrontierThresholdBps):
		return TopologySparseFrontier
	case s.frontier >= uint32(p.DenseFrontierThresholdBps) && p.fusible(s):
		return TopologyFusedDense
	case s.frontier >= uint32(p.DenseFrontierThresholdBps):
		return TopologyDenseFrontier
	default:
		return TopologyHybridFrontier
	}
}

// fusible reports whether a dense workload is large and hot enough to fuse.
func (p LaunchPolicy) fusible(s topologySignals) bool {
	return s.nodes > 0 && s.edges >= p.FusionEdgeThreshold && s.promoted
}

// hysteresis is reference §7.4 step 5: keep prev while the signal is
// within the margin past its threshold.
func (p LaunchPolicy) hysteresis(prev, raw Topology, s topologySignals) Topology {
	if raw == TopologyEmpty || raw == TopologyMemoryConstrained {
		return raw
	}
	fh := uint32(p.FrontierHysteresisBps)
	sparse, dense := uint32(p.SparseFrontierThresholdBps), uint32(p.DenseFrontierThresholdBps)
	switch {
	case prev == TopologyMemoryConstrained &&
		s.mem >= minusSat(uint32(p.MemoryPressureThresholdBps), uint32(p.MemoryHysteresisBps)):
		return TopologyMemoryConstrained
	case prev == TopologySparseFrontier && raw != TopologySparseFrontier && s.frontier <= sparse+fh:
		return TopologySparseFrontier
	case prev == TopologyHybridFrontier && raw == TopologySparseFrontier && s.frontier >= minusSat(sparse, fh):
		return TopologyHybridFrontier
	case prev == TopologyHybridFrontier && (raw == TopologyDenseFrontier || raw == TopologyFusedDense) && s.frontier <= dense+fh:
		return TopologyHybridFrontier
	case prev == TopologyDenseFrontier && raw == TopologyHybridFrontier && s.frontier >= minusSat(dense, fh):
		return TopologyDenseFrontier
	case prev == TopologyFusedDense && raw == TopologyHybridFrontier && s.frontier >= minusSat(dense, fh) &&
		s.edges >= p.FusionEdgeThreshold && s.promoted:
		return TopologyFusedDense
	}
	return raw
}

// shapeWorkers is reference §7.4 step 6. It returns 0 when w is 0 (derive
// from the adapter later).
func (p LaunchPolicy) shapeWorkers(topo Topology, w, frontier, mem, nodes uint32) uint32 {
	if w <= 1 {
		return w
	}
	switch topo {
	case TopologyMemoryConstrained:
		if mem == 0 {
			return w
		}
		threshold := uint32(p.MemoryPressureThresholdBps)
		span := bpsWhole - threshold
		// Saturating: hysteresis may keep MemoryConstrained below the threshold.
		over := min(minusSat(mem, threshold), span)
		shed := uint64(memShedBaseBps) + uint64(over)*memShedRangeBps/uint64(span)
		return uint32(max(uint64(w)*(bpsWhole-shed)/bpsWhole, 1))
	case TopologySparseFrontier:
		if nodes == 0 || frontier == 0 {
			return w
		}
		sparse := uint64(p.SparseFrontierThresholdBps)
		scaled := uint64(w) * min(max(uint64(frontier), 1), sparse) / sparse
		return uint32(min(max(scaled, uint64(min(w, p.SparseMinWorkerGroups))), uint64(w)))
	}
	return w
}

// workgroupWidth is the v1 width rule: the preferred width when it is one
// of the portable powers of two, else the default, lowered to the largest
// power of two the adapter allows.
func (p LaunchPolicy) workgroupWidth(req LaunchRequest) uint32 {
	width := p.DefaultWorkgroupSizeX
	if pw := req.PreferredWorkgroupSizeX; isPowerOfTwo(pw) && pw >= p.DefaultWorkgroupSizeX && pw <= p.MaxPortableWorkgroupSizeX {
		width = pw
	}
	limit := min(req.MaxWorkgroupSizeX, req.MaxComputeInvocationsPerWorkgroup) // ≥ 1, validated
	return min(width, uint32(1)<<(bits.Len32(limit)-1))
}

// occupancyWorkers is the reference's worker count for a request that asks
// for none: a share of the adapter's grid limit, with a floor on adapters
// that allow large workgroups.
func (p LaunchPolicy) occupancyWorkers(req LaunchRequest) uint32 {
	occ := min(max(req.MaxComputeWorkgroupsPerDimension/p.OccupancyWorkerDivisor, 1), max(p.MaxOccupancyWorkerGroups, 1))
	if req.MaxComputeInvocationsPerWorkgroup >= p.PowerfulInvocationThreshold {
		occ = max(occ, p.PowerfulMinWorkerGroups)
	}
	return occ
}

// cappedBps is num ÷ den in basis points, floored and capped at 10000; 0
// when den is 0. It never overflows.
func cappedBps(num, den uint64) uint16 {
	if den == 0 {
		return 0
	}
	if num >= den {
		return bpsWhole
	}
	hi, lo := bits.Mul64(num, bpsWhole)
	q, _ := bits.Div64(hi, lo, den) // hi < den: the quotient is < 10000
	return uint16(q)
}

func minusSat(a, b uint32) uint32 {
	if a < b {
		return 0
	}
	return a - b
}

func isPowerOfTwo(x uint32) bool { return x != 0 && x&(x-1) == 0 }
