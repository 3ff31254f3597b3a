package ui

import (
	"github.com/ringscope/ringscope/internal/nocompare"
	"sort"
	"strconv"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// ControlPanel shows the decoded control buffer: flags, counters, the
// priority partitions' heads and tails, and executions per opcode.
// Tenants is how many tenant ids (0…Tenants−1) the ring runs; 0 when
// unknown (every id counts).
type ControlPanel struct {
	Frame   *frame.Frame
	Tenants int
	// Names name the kernel's user opcodes.
	Names Names
}

func (c *ControlPanel) ctl() *decode.ControlSnapshot {
	if c.Frame == nil || c.Frame.Ring == nil {
		return nil
	}
	return &c.Frame.Ring.Control
}

// ABI says which layout the buffer has.
func (c *ControlPanel) ABI() string {
	k := c.ctl()
	switch {
	case k == nil:
		return "no frame yet"
	case k.Legacy:
		return "legacy vyre dump (MAGIC 0)"
	}
	return "ABI v" + strconv.FormatUint(uint64(k.ABIVersion), 10)
}

// Items lists the flags and counters.
func (c *ControlPanel) Items() []KV {
	k := c.ctl()
	if k == nil {
		return []KV{
			{Label: "done", Value: dash, TestID: "done-count", Title: "DONE_COUNT"},
			{Label: "fence epoch", Value: dash, TestID: "epoch", Title: "EPOCH: BATCH_FENCE opcodes the GPU executed"},
			{Label: "generation", Value: dash, TestID: "generation", Title: "GENERATION"},
		}
	}
	n := func(v uint32) string { return Thousands(uint64(v)) }
	masked := MaskedTenants(k, c.Tenants)
	shutdown, shutClass := "no", ""
	if k.Shutdown {
		shutdown, shutClass = "YES", "num-bad"
	}
	bad := func(v uint32) string {
		if v > 0 {
			return "num-bad"
		}
		return ""
	}
	warn := func(v uint32) string {
		if v > 0 {
			return "num-warn"
		}
		return ""
	}
	return []KV{
		{Label: "shutdown", Value: shutdown, Class: shutClass, Title: "SHUTDOWN (word 0): non-zero stops every lane from claiming"},
		{Label: "done", Value: n(k.DoneCount), TestID: "done-count", Title: "DONE_COUNT (word 1): slots that reached DONE or FAULT in this generation (count, wraps mod 2^32)"},
		{Label: "fence epoch", Value: n(k.Epoch), TestID: "epoch", Title: "EPOCH (word 128): BATCH_FENCE opcodes executed (count); not the host epoch fault records carry"},
		{Label: "generation", Value: n(k.Generation), TestID: "generation", Title: "GENERATION (word 143): bumped by the host on every ring re-initialisation; counters restart"},
		{Label: "dispatches", Value: n(k.Dispatches), Title: "DISPATCHES (word 144): drain dispatches in this generation (count)"},
		{Label: "claims", Value: n(k.Claims), Title: "CLAIMS (word 145): slots claimed by lanes (count)"},
		{Label: "faults", Value: n(k.Faults), TestID: "faults", Class: bad(k.Faults), Title: "FAULTS (word 146): slots that ended FAULT (count); reasons are in the log"},
		{Label: "denied", Value: n(k.Denied), Class: warn(k.Denied), Title: "DENIED (word 147): claims refused because the tenant's mask is 0; the slot became YIELD (count)"},
		{Label: "lane budget exhausted", Value: n(k.BudgetExhausted), Class: warn(k.BudgetExhausted), Title: "BUDGET_EXHAUSTED (word 148): lanes that ran out of their lane budget while work remained; the host re-submits (count)"},
		{Label: "starvation", Value: n(k.Starvation), Title: "STARVATION (word 135): consecutive claims at priority ≤ 1 (informational)"},
		{Label: "masked tenants", Value: n(uint32(masked)), TestID: "masked-tenants", Class: warn(uint32(masked)), Title: maskedTitle(c.Tenants)},
	}
}

// MaskedTenants counts the tenants of the ring (ids below tenants; every
// id when tenants is 0) whose mask word is 0: an id the ring does not run
// is masked too, and means nothing.
func MaskedTenants(k *decode.ControlSnapshot, tenants int) int {
	masks := k.TenantMasks[:]
	if tenants > 0 && tenants < len(masks) {
		masks = masks[:tenants]
	}
	n := 0
	for _, m := range masks {
		if m == 0 {
			n++
		}
	}
	return n
}

func maskedTitle(tenants int) string {
	ids := "0…28"
	if tenants > 0 && tenants < abi.TenantCount {
		ids = "0…" + strconv.Itoa(tenants-1) + ", the ring's,"
	}
	return "tenants " + ids + " whose TENANT_MASK word is 0: their slots are denied and yield"
}

// PartitionRow is one priority partition of the control panel.
type PartitionRow struct {
	_ nocompare.T

	Name, Range, Head, Tail, Pending, Claims, Class string
}

// Partitions lists the five priority partitions.
func (c *ControlPanel) Partitions() []PartitionRow {
	k := c.ctl()
	if k == nil {
		return nil
	}
	rows := make([]PartitionRow, abi.PriorityLevels)
	for p := range rows {
		pending := k.Tails[p] - k.Heads[p] // modulo 2^32, as the protocol compares
		r := PartitionRow{
			Name:    strconv.Itoa(p) + " " + PriorityName(uint32(p)),
			Range:   Thousands(uint64(k.PriorityOffsets[p])) + "–" + Thousands(uint64(k.PriorityOffsets[p+1])),
			Head:    Thousands(uint64(k.Heads[p])),
			Tail:    Thousands(uint64(k.Tails[p])),
			Pending: Thousands(uint64(pending)),
			Claims:  Thousands(uint64(k.PriorityFairness[p])),
		}
		if pending > 0 && pending < 1<<31 {
			r.Class = "row-pending"
		}
		rows[p] = r
	}
	return rows
}

// MetricRow is one opcode of the executions table; Share is in bps of all
// executions.
type MetricRow struct {
	_ nocompare.T

	Name, Count, Percent, Title string
	Share                       int
}

// Metrics lists, most first and at most 16 rows, the items that ended
// per opcode as the host counted them (Frame.OpcodeEnds: every opcode,
// so the shares are of all that ended), or where the host did not count
// them (an attached ring, a replay) OPCODE_METRICS, the GPU's executions
// of the opcodes below 32.
func (c *ControlPanel) Metrics() []MetricRow {
	k := c.ctl()
	if k == nil {
		return nil
	}
	src, what := k.Metrics, "OPCODE_METRICS: executions of "
	if ends := c.Frame.OpcodeEnds; ends != nil {
		src, what = ends, "items that ended DONE or FAULT, counted by the host: "
	}
	if len(src) == 0 {
		return nil
	}
	ms := make([]decode.Metric, len(src))
	copy(ms, src)
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Count > ms[j].Count })
	var total uint64
	for _, m := range ms {
		total += uint64(m.Count)
	}
	if total == 0 {
		return nil
	}
	ms = ms[:min(len(ms), maxRows)]
	rows := make([]MetricRow, len(ms))
	for i, m := range ms {
		rows[i] = MetricRow{
			Name:    c.Names.Opcode(m.Opcode),
			Count:   Thousands(uint64(m.Count)),
			Percent: Percent(uint64(m.Count), total),
			Share:   int(uint64(m.Count) * 10000 / max(total, 1)),
			Title:   what + c.Names.Opcode(m.Opcode) + " (0x" + strconv.FormatUint(uint64(m.Opcode), 16) + "), and their share of all",
		}
	}
	return rows
}

// maxRows caps every table: the DOM is re-rendered on every frame.
const maxRows = 16
