package ui

import (
	"sort"
	"strconv"

	"github.com/ringscope/ringscope/decode"
)

// WindowsPanel lists ticketed windows, active ones first, capped at
// maxRows, with a progress bar each.
type WindowsPanel struct {
	Frame *Frame
}

// WindowRow is one window of the table; Progress is in bps.
type WindowRow struct {
	Key, Ticket, Opcode, Tenant, Slots, Counts, ProgressTitle, Class string
	Progress                                                         int
}

func (c *WindowsPanel) windows() []decode.WindowTelemetry {
	if c.Frame == nil || c.Frame.Ring == nil {
		return nil
	}
	return c.Frame.Ring.Windows
}

// Sub counts windows.
func (c *WindowsPanel) Sub() string {
	ws := c.windows()
	active := 0
	for _, w := range ws {
		if w.Active() {
			active++
		}
	}
	return Thousands(uint64(active)) + " active of " + Thousands(uint64(len(ws)))
}

// Empty explains an empty table.
func (c *WindowsPanel) Empty() string {
	return "no window slots in the ring (set window opcodes in the settings)"
}

// WindowProgress is the terminal share of a window in bps.
func WindowProgress(w *decode.WindowTelemetry) (done, total uint64) {
	total = uint64(w.Published) + uint64(w.Claimed) + uint64(w.WaitIO) + uint64(w.Yield) + uint64(w.Requeue) + uint64(w.Done) + uint64(w.Fault)
	return uint64(w.Done) + uint64(w.Fault), total
}

// Rows returns up to maxRows windows: active first (least progress first),
// then finished ones by ticket.
func (c *WindowsPanel) Rows() []WindowRow {
	ws := c.windows()
	if len(ws) == 0 {
		return nil
	}
	idx := make([]int, len(ws))
	for i := range idx {
		idx[i] = i
	}
	prog := func(i int) float64 {
		d, t := WindowProgress(&ws[i])
		if t == 0 {
			return 1
		}
		return float64(d) / float64(t)
	}
	sort.SliceStable(idx, func(a, b int) bool {
		wa, wb := ws[idx[a]].Active(), ws[idx[b]].Active()
		if wa != wb {
			return wa
		}
		if wa {
			return prog(idx[a]) < prog(idx[b])
		}
		return false
	})
	idx = idx[:min(len(idx), maxRows)]
	rows := make([]WindowRow, len(idx))
	for k, i := range idx {
		w := &ws[i]
		d, t := WindowProgress(w)
		r := WindowRow{
			Key:    strconv.FormatUint(uint64(w.Ticket), 10) + "/" + strconv.FormatUint(uint64(w.Opcode), 10),
			Ticket: Thousands(uint64(w.Ticket)), Opcode: OpcodeName(w.Opcode), Tenant: strconv.FormatUint(uint64(w.Tenant), 10),
			Slots: Thousands(uint64(w.Required)) + "+" + Thousands(uint64(w.Lookahead)),
			Counts: Thousands(uint64(w.Published)) + " · " + Thousands(uint64(w.Claimed)) + " · " +
				Thousands(uint64(w.WaitIO)+uint64(w.Yield)+uint64(w.Requeue)) + " · " + Thousands(uint64(w.Done)) + " · " + Thousands(uint64(w.Fault)),
			ProgressTitle: Thousands(d) + " of " + Thousands(t) + " slots terminal (" + Percent(d, t) + ")",
		}
		if t > 0 {
			r.Progress = int(d * 10000 / t)
		}
		switch {
		case w.Fault > 0:
			r.Class = "row-fault"
		case !w.Active():
			r.Class = "row-done"
		}
		rows[k] = r
	}
	return rows
}
