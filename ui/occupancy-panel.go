package ui

import (
	"github.com/ringscope/ringscope/internal/nocompare"
	"strconv"
	"strings"

	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// OccupancyPanel shows slots per status: the current counts (data-testid
// occupancy-<status>, occupancy-total) and their history as a stacked area.
type OccupancyPanel struct {
	// Names name the kernel's user opcodes.
	Names   Names
	Frame   *frame.Frame
	History *History

	plot Plot
}

// OccRow is one status of the legend.
type OccRow struct {
	_ nocompare.T

	Key, Name, Count, Percent, Title, TestID, Swatch string
}

// Seq is the frame sequence number (0 before the first frame).
func (c *OccupancyPanel) Seq() uint64 {
	if c.Frame == nil {
		return 0
	}
	return c.Frame.Seq
}

// Painter draws the stacked area.
func (c *OccupancyPanel) Painter() Painter { return OccupancyPainter{H: c.History} }

// Sub summarises the ring.
func (c *OccupancyPanel) Sub() string {
	if c.Frame == nil || c.Frame.Ring == nil {
		return "no frame yet"
	}
	o := &c.Frame.Ring.Occupancy
	return Thousands(uint64(o.TotalSlots())) + " slots · " + Thousands(uint64(o.ActiveSlots())) + " active"
}

// Rows lists every status with its count and share of the ring.
func (c *OccupancyPanel) Rows() []OccRow {
	rows := make([]OccRow, len(StatusOrder))
	for i, s := range StatusOrder {
		key := StatusKey(s)
		r := OccRow{Key: key, Name: key, Count: dash, Percent: "", Title: StatusMeaning(s) + " (slots)",
			TestID: "occupancy-" + key, Swatch: "swatch st-" + key}
		if c.Frame != nil && c.Frame.Ring != nil {
			o := &c.Frame.Ring.Occupancy
			n := o.Of(s)
			r.Count = Thousands(uint64(n))
			r.Percent = Percent(uint64(n), uint64(o.TotalSlots()))
		}
		rows[i] = r
	}
	return rows
}

// Total is the number of slots.
func (c *OccupancyPanel) Total() string {
	if c.Frame == nil || c.Frame.Ring == nil {
		return dash
	}
	return Thousands(uint64(c.Frame.Ring.Occupancy.TotalSlots()))
}

// Depth is the queue depth, labelled.
func (c *OccupancyPanel) Depth() string {
	if c.Frame == nil || c.Frame.Ring == nil {
		return ""
	}
	return "depth " + Thousands(uint64(c.Frame.Ring.Occupancy.QueueDepth()))
}

// Rendered draws the plot.
func (c *OccupancyPanel) Rendered() { c.plot.Draw(c.Seq(), c.Painter()) }

// TopActive is how many tenants and opcodes ActiveBreakdown lists.
const TopActive = 3

// ActiveBreakdown lists the active slots (PUBLISHED, CLAIMED, WAIT_IO,
// YIELD, REQUEUE) per priority (data-testid active-priority-<name>), then
// the busiest tenants and opcodes, from RingTelemetry.Active: a full
// decode and a GPU summary both fill it, so it needs no slot snapshots.
func (c *OccupancyPanel) ActiveBreakdown() []KV {
	if c.Frame == nil || c.Frame.Ring == nil {
		return nil
	}
	a := &c.Frame.Ring.Active
	items := make([]KV, 0, abi.PriorityLevels+1+2*TopActive)
	for p := uint32(0); p < abi.PriorityLevels; p++ {
		name := PriorityName(p)
		items = append(items, KV{Label: "active " + strings.ToLower(name), Value: Thousands(uint64(a.Priority[p])),
			TestID: "active-priority-" + strings.ToLower(name), Title: "active slots whose PRIORITY word is " + strconv.Itoa(int(p)) + " (" + name + ")"})
	}
	if a.PriorityOther > 0 {
		items = append(items, KV{Label: "active priority ≥ 5", Value: Thousands(uint64(a.PriorityOther)), Class: "num-bad", Title: "active slots with an out-of-range PRIORITY word"})
	}
	for _, t := range topIndices(a.Tenant[:], TopActive) {
		items = append(items, KV{Label: "active tenant " + strconv.Itoa(t), Value: Thousands(uint64(a.Tenant[t])), Title: "one of the tenants with the most active slots"})
	}
	for _, op := range topIndices(a.Opcode[:], TopActive) {
		items = append(items, KV{Label: "active " + c.Names.Opcode(uint32(op)), Value: Thousands(uint64(a.Opcode[op])), Title: "one of the opcodes (< 32) with the most active slots"})
	}
	return items
}

// topIndices returns the indices of the n largest non-zero counts, largest
// first (ties: lower index first).
func topIndices(counts []uint32, n int) []int {
	var top []int
	for i, v := range counts {
		if v == 0 {
			continue
		}
		at := len(top)
		for at > 0 && counts[top[at-1]] < v {
			at--
		}
		if at >= n {
			continue
		}
		top = append(top, 0)
		copy(top[at+1:], top[at:])
		top[at] = i
		if len(top) > n {
			top = top[:n]
		}
	}
	return top
}
