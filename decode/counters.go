package decode

import (
	"fmt"
	"math"
)

// Scales of the runtime counters.
const (
	bpsScale = 10_000
	ppmScale = 1_000_000
)

// RuntimeCounters aggregates t into the runtime summary of reference §5.5,
// with vyre's formulas (integer floor divisions):
//
//	GPUIdlePPM         = min(1e6, EMPTY × 1e6 / total)
//	FrontierDensityBps = QueueDepth × 10000 / total
//	OccupancyProxyBps  = (total − EMPTY) × 10000 / total (DONE counts as occupied)
//
// all 0 for an empty ring. TenantFairnessSkew is max − min over the non-zero
// tenant claim counters. The error is reserved for a hand-built snapshot
// whose occupancy counts more than 2^32 − 1 slots; a decoded one never fails.
func (t *RingTelemetry) RuntimeCounters() (RuntimeCounters, error) {
	o := &t.Occupancy
	if sum := o.sum(anyStatus); sum > math.MaxUint32 {
		return RuntimeCounters{}, fmt.Errorf("decode: occupancy counts %d slots, more than the 32-bit telemetry ABI can hold", sum)
	}
	total, queue, empty := o.TotalSlots(), o.QueueDepth(), o[StatusEmpty]
	rc := RuntimeCounters{
		TotalSlots:           total,
		QueueDepth:           queue,
		GPUIdleSlots:         empty,
		DrainedSlots:         t.Control.DoneCount,
		UnreclaimedDoneSlots: o[StatusDone],
		RequeueSlots:         o[StatusRequeue],
		FaultSlots:           o[StatusFault],
	}
	if total > 0 {
		rc.GPUIdlePPM = uint32(min(ppmScale, uint64(empty)*ppmScale/uint64(total)))
		frontier := uint64(queue) * bpsScale / uint64(total)
		occupancy := uint64(total-empty) * bpsScale / uint64(total)
		if frontier > math.MaxUint16 || occupancy > math.MaxUint16 {
			return RuntimeCounters{}, fmt.Errorf("decode: density %d/%d bps does not fit in u16", frontier, occupancy)
		}
		rc.FrontierDensityBps, rc.OccupancyProxyBps = uint16(frontier), uint16(occupancy)
	}
	lo, hi := uint32(math.MaxUint32), uint32(0)
	for _, c := range t.Control.TenantFairness {
		rc.TenantFairnessTotal += uint64(c) // 32 u32 words cannot overflow u64
		if c != 0 {
			lo, hi = min(lo, c), max(hi, c)
		}
	}
	if hi != 0 {
		rc.TenantFairnessSkew = hi - lo
	}
	for _, c := range t.Control.PriorityFairness {
		rc.PriorityFairnessTotal += uint64(c)
	}
	return rc, nil
}
