package ui

import "github.com/ringscope/ringscope/decode/frame"

// CountersPanel shows every RuntimeCounters field with its meaning.
type CountersPanel struct {
	Frame *frame.Frame
}

// Items lists the counters.
func (c *CountersPanel) Items() []KV {
	if c.Frame == nil || c.Frame.Counters == nil {
		return []KV{{Label: "counters", Value: dash, Title: "no frame yet"}}
	}
	r := c.Frame.Counters
	n := func(v uint32) string { return Thousands(uint64(v)) }
	cls := func(bad bool, c string) string {
		if bad {
			return c
		}
		return ""
	}
	return []KV{
		{Label: "total slots", Value: n(r.TotalSlots), Title: "TotalSlots: slots in the ring"},
		{Label: "queue depth", Value: n(r.QueueDepth), Title: "QueueDepth: slots neither EMPTY nor DONE (FAULT and unknown included), slots"},
		{Label: "GPU idle slots", Value: n(r.GPUIdleSlots), Title: "GPUIdleSlots: EMPTY slots, free for publishing"},
		{Label: "GPU idle", Value: PPM(r.GPUIdlePPM), Title: "GPUIdlePPM: EMPTY ÷ total, parts per million (shown as %)"},
		{Label: "frontier density", Value: Bps(uint32(r.FrontierDensityBps)), Title: "FrontierDensityBps: queue depth ÷ total, basis points (shown as %)"},
		{Label: "occupancy proxy", Value: Bps(uint32(r.OccupancyProxyBps)), Title: "OccupancyProxyBps: (total − EMPTY) ÷ total, basis points; DONE slots count as occupied"},
		{Label: "drained", Value: n(r.DrainedSlots), Title: "DrainedSlots: DONE_COUNT, slots that reached DONE or FAULT this generation"},
		{Label: "unreclaimed DONE", Value: n(r.UnreclaimedDoneSlots), Title: "UnreclaimedDoneSlots: DONE slots the publisher has not reused yet"},
		{Label: "tenant claims Σ", Value: Thousands(r.TenantFairnessTotal), Title: "TenantFairnessTotal: sum of TENANT_CLAIMS, claims"},
		{Label: "tenant skew", Value: n(r.TenantFairnessSkew), Class: cls(r.TenantFairnessTotal > 0 && uint64(r.TenantFairnessSkew)*2 > r.TenantFairnessTotal, "num-warn"), Title: "TenantFairnessSkew: max − min over tenants with non-zero claims, claims; large = unfair"},
		{Label: "priority claims Σ", Value: Thousands(r.PriorityFairnessTotal), Title: "PriorityFairnessTotal: sum of PRIORITY_CLAIMS, claims"},
		{Label: "requeue slots", Value: n(r.RequeueSlots), Class: cls(r.RequeueSlots > 0, "num-warn"), Title: "RequeueSlots: slots in REQUEUE"},
		{Label: "fault slots", Value: n(r.FaultSlots), Class: cls(r.FaultSlots > 0, "num-bad"), Title: "FaultSlots: slots in FAULT"},
	}
}
