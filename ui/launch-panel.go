package ui

import (
	"strconv"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
)

// LaunchPanel shows the launch recommendation: topology, pressure, mode,
// geometry, hit capacity and peak device memory against the budget.
type LaunchPanel struct {
	Frame *frame.Frame
}

func (c *LaunchPanel) rec() *decode.LaunchRecommendation {
	if c.Frame == nil {
		return nil
	}
	return c.Frame.Launch
}

// Sub names the geometry.
func (c *LaunchPanel) Sub() string {
	r := c.rec()
	if r == nil {
		return "no plan yet"
	}
	return Thousands(uint64(r.DispatchGrid[0])) + " × " + strconv.Itoa(int(r.WorkgroupSizeX)) + " lanes"
}

// Error is the policy's refusal, if any.
func (c *LaunchPanel) Error() string {
	if c.Frame == nil || c.Frame.LaunchErr == nil {
		return ""
	}
	return "launch refused: " + c.Frame.LaunchErr.Error()
}

// Tags are the categorical choices as coloured chips.
func (c *LaunchPanel) Tags() []KV {
	r := c.rec()
	if r == nil {
		return nil
	}
	pressure := "chip"
	switch r.Pressure {
	case decode.PressureSaturated:
		pressure = "chip chip-bad"
	case decode.PressureBalanced:
		pressure = "chip chip-ok"
	}
	tags := []KV{
		{Label: "topology", Value: r.Topology.String(), Class: "chip chip-info", Title: "Topology: sparse ≤ 5 % frontier, dense ≥ 40 %, memory-constrained ≥ 85 % of the device-memory budget; hysteresis 2.5 %"},
		{Label: "pressure", Value: r.Pressure.String(), Class: pressure, Title: "Pressure: light < 1 item per lane ≤ balanced < 4 ≤ saturated (or any requeue)"},
		{Label: "mode", Value: r.ExecutionMode.String(), Class: "chip", Title: "ExecutionMode: jit for queues ≥ 4,096 items, hot opcodes/windows or fused-dense; else interpreter"},
	}
	if r.PromoteHotOpcodes {
		tags = append(tags, KV{Label: "hot-ops", Value: "promote hot opcodes", Class: "chip chip-warn", Title: "≥ 8 hot opcodes: specialise the pipeline"})
	}
	if r.PromoteHotWindows {
		tags = append(tags, KV{Label: "hot-win", Value: "promote hot windows", Class: "chip chip-warn", Title: "≥ 4 hot windows: fuse them"})
	}
	if r.AgePriorityWork {
		tags = append(tags, KV{Label: "age", Value: "age priority work", Class: "chip chip-warn", Title: "requeues seen or priority age ≥ 32: promote old work"})
	}
	return tags
}

// Items lists the geometry numbers.
func (c *LaunchPanel) Items() []KV {
	r := c.rec()
	if r == nil {
		return []KV{{Label: "plan", Value: dash, Title: "no recommendation yet"}}
	}
	return []KV{
		{Label: "workgroup size x", Value: Thousands(uint64(r.WorkgroupSizeX)), Title: "WorkgroupSizeX: lanes per workgroup (64, 128 or 256 within the adapter's limits)"},
		{Label: "dispatch grid", Value: Thousands(uint64(r.DispatchGrid[0])) + " × " + strconv.Itoa(int(r.DispatchGrid[1])) + " × " + strconv.Itoa(int(r.DispatchGrid[2])), Title: "DispatchGrid: dispatchWorkgroups(x, y, z) = min(slots ÷ width, worker groups)"},
		{Label: "lanes", Value: Thousands(r.Lanes()), Title: "grid × width: invocations launched; each lane claims until its lane budget or the queue runs out"},
		{Label: "worker groups", Value: Thousands(uint64(r.WorkerGroups)), Title: "WorkerGroups: the shaped worker ceiling (size the grid to what the device holds resident)"},
		{Label: "slot count", Value: Thousands(uint64(r.SlotCount)), Title: "SlotCount: the queue rounded up to whole workgroups, slots"},
		{Label: "hit capacity", Value: Thousands(uint64(r.HitCapacity)), Title: "HitCapacity: sparse-hit records reserved (16 bytes each); ≥ 1,024"},
	}
}

// BudgetBps is the peak as a share of the budget, in bps (0 when
// unbounded), capped at 10000.
func (c *LaunchPanel) BudgetBps() int {
	r := c.rec()
	if r == nil || r.DeviceMemoryBudgetBytes == 0 {
		return 0
	}
	return int(min(r.EstimatedPeakDeviceBytes*10000/r.DeviceMemoryBudgetBytes, 10000))
}

// BudgetText is "peak / budget".
func (c *LaunchPanel) BudgetText() string {
	r := c.rec()
	if r == nil {
		return dash
	}
	if r.DeviceMemoryBudgetBytes == 0 {
		return Bytes(r.EstimatedPeakDeviceBytes) + " / unbounded"
	}
	return Bytes(r.EstimatedPeakDeviceBytes) + " / " + Bytes(r.DeviceMemoryBudgetBytes) + " (" + Percent(r.EstimatedPeakDeviceBytes, r.DeviceMemoryBudgetBytes) + ")"
}

// BudgetTitle explains the bar.
func (c *LaunchPanel) BudgetTitle() string {
	return "EstimatedPeakDeviceBytes (resident bytes + hit capacity × 16) against DeviceMemoryBudgetBytes; above 85 % the topology becomes memory_constrained and workers are shed"
}
