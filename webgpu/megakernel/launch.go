package megakernel

// The launch of one submission: the policy's recommendation for what is
// pending, the grid and program it dispatches, and the control words and
// ring scan it is planned from.

import (
	"math"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// request is the launch request of one submission of queue pending items.
func (o *Options) request(limits webgpu.Limits, queue uint32, l layout) decode.LaunchRequest {
	return decode.LaunchRequest{
		QueueLen:                          queue,
		RequestedWorkerGroups:             o.WorkerGroups,
		MaxWorkgroupSizeX:                 clampU32(limits.MaxComputeWorkgroupSizeX),
		MaxComputeWorkgroupsPerDimension:  clampU32(limits.MaxComputeWorkgroupsPerDimension),
		MaxComputeInvocationsPerWorkgroup: clampU32(limits.MaxComputeInvocationsPerWorkgroup),
		ResidentDeviceBytes:               l.device(),
		DeviceMemoryBudgetBytes:           o.MemoryBudgetBytes,
		PreferredWorkgroupSizeX:           o.WorkgroupSize,
	}
}

// recommend plans a launch; tel, when non-nil, adds what the last readback
// shows (reference §7.9). frontierBps, when non-zero, is the frontier's
// density (a spawning kernel's real frontier, spawnFrontierBps) in place
// of the occupancy proxy.
func (o *Options) recommend(limits webgpu.Limits, queue uint32, l layout, tel *decode.RingTelemetry, frontierBps uint16) (decode.LaunchRecommendation, error) {
	req := o.request(limits, queue, l)
	req.FrontierDensityBps = frontierBps
	if tel != nil {
		return tel.RecommendLaunch(req)
	}
	return decode.StandardLaunchPolicy().Recommend(req, nil)
}

func clampU32(v uint64) uint32 {
	if v > math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(v)
}

// grid is the workgroups a submission dispatches: the recommendation's, or
// the Grid override.
func (o *Options) grid(rec decode.LaunchRecommendation) uint32 {
	if o.Grid != 0 {
		return o.Grid
	}
	return max(rec.DispatchGrid[0], 1)
}

// gridFor is the grid of a submission of queue pending items: grid's,
// raised to the workgroups that give each lane about laneClaims of the
// items, at most maxGroups (the device's maxComputeWorkgroupsPerDimension)
// and at most WorkerGroups when the caller set that ceiling (the page's
// worker cap; tests that pace a drain by it). The Grid override is kept as
// given.
//
// The policy sizes its grid to what the device holds resident by its
// limits alone (255 workgroups on a 65,535 limit): at budget 64 and width
// 64 that claims 1,044,480 items, so a full 1,048,576-slot ring took a
// second submission, with every host pass again, for its last 4,096; and
// each lane ran 64 claims one after another, each a chain of dependent
// memory operations (the ticket, the slot's words, the compare-exchange
// claim and finish), so the pass took 64 chains' latency while the GPU held
// far more lanes than it ran. With laneClaims items per lane the chains
// run side by side; a workgroup that finds none left costs one failed
// atomicAdd. bench/results-h200.md has the grids tried.
//
// On a CPU adapter (cpu: the device's adapter info says so; a device
// without adapter info is taken for a GPU) the grid is instead the fewest
// workgroups that claim the queue at the full budget, at least one, within
// the same ceiling. SwiftShader runs a few workgroups at a time on its
// threads, so more lanes do not overlap the claims' round trips to memory
// as a GPU's do, and each workgroup costs its lanes' setup and the last,
// failed claim, which runs the drain loop's whole body (megakernel.wgsl's
// lane_loop says why): the drain pass of NOP items takes several times as
// long at the policy's workgroups as at a few (bench/results-ring.md, the
// grid rows).
func (o *Options) gridFor(rec decode.LaunchRecommendation, queue, maxGroups uint32, cpu bool) uint32 {
	g := o.grid(rec)
	if o.Grid != 0 {
		return g
	}
	claims := min(o.Budget, laneClaims)
	if cpu {
		claims = o.Budget
	}
	perGroup := uint64(rec.WorkgroupSizeX) * uint64(claims)
	if perGroup == 0 {
		return g
	}
	need := (uint64(queue) + perGroup - 1) / perGroup
	ceiling := uint64(max(maxGroups, 1))
	if o.WorkerGroups != 0 {
		ceiling = min(ceiling, uint64(o.WorkerGroups))
	}
	if cpu {
		return uint32(max(1, min(need, ceiling)))
	}
	return uint32(max(uint64(g), min(need, ceiling)))
}

// laneClaims is the claims per lane gridFor sizes a large submission's
// grid for.
const laneClaims = 8

// program is the drain a submission runs under mode m and the policy's
// choice.
func (o *Options) jit(rec decode.LaunchRecommendation) bool {
	switch o.Mode {
	case ModeInterpreter:
		return false
	case ModeJIT:
		return true
	}
	return rec.ExecutionMode == decode.ModeJIT
}

// pendingItems is Σ (TAIL[p] − HEAD[p]) over the partitions of a control
// buffer: the items published and not yet claimed (32-bit modular, as the
// protocol compares counters).
func pendingItems(control []byte) uint32 {
	var n uint32
	for p := 0; p < abi.PriorityLevels; p++ {
		h, t := abi.Word(control, abi.CtrlHead+p), abi.Word(control, abi.CtrlTail+p)
		if d := t - h; d < 1<<31 {
			n += d
		}
	}
	return n
}

// heads returns HEAD[0..4] of a control buffer.
func heads(control []byte) (h [abi.PriorityLevels]uint32) {
	for p := range h {
		h[p] = abi.Word(control, abi.CtrlHead+p)
	}
	return h
}

// claimed is the tickets taken between two HEAD snapshots.
func claimed(before, after [abi.PriorityLevels]uint32) uint64 {
	var n uint64
	for p := range before {
		n += uint64(after[p] - before[p])
	}
	return n
}

// ringScan is what the next submission will claim: the sorted, distinct
// opcodes of the pending items (the JIT set), and the ring's active slots.
type ringScan struct {
	active  uint32
	opcodes []uint32
}

// scan fills s, reusing s.opcodes, without reading a slot: opcodes are the
// queue's pending set (host.Queue.PendingOpcodes, kept at publish and
// claim time), and active is the pending items plus the slots the last
// readback saw parked or running (CLAIMED, WAIT_IO, YIELD, REQUEUE); a
// slot republished since counts once, as pending. So a Step's plan costs
// the same for 10 pending items as for a million.
func (s *ringScan) scan(control []byte, q *host.Queue, last *decode.RingOccupancy) {
	s.opcodes = q.PendingOpcodes(s.opcodes)
	s.active = 0
	for p := 0; p < abi.PriorityLevels; p++ {
		off, end := abi.Word(control, abi.CtrlPriorityOffsets+p), abi.Word(control, abi.CtrlPriorityOffsets+p+1)
		if off >= end {
			continue // an empty or malformed partition is never claimed
		}
		h, t := abi.Word(control, abi.CtrlHead+p), abi.Word(control, abi.CtrlTail+p)
		if t-h < 1<<31 {
			s.active += min(t-h, end-off) // at most the partition's slots
		}
	}
	if last != nil {
		s.active += last[decode.StatusClaimed] + last[decode.StatusWaitIO] + last[decode.StatusYield] + last[decode.StatusRequeue]
	}
}
