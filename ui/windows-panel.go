package ui

import (
	"github.com/ringscope/ringscope/internal/nocompare"
	"strconv"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
)

// WindowsPanel lists ticketed windows, active ones first, capped at
// maxRows, with a progress bar each.
type WindowsPanel struct {
	// Names name the kernel's user opcodes.
	Names Names
	Frame *frame.Frame
}

// WindowRow is one window of the table; Progress is in bps.
type WindowRow struct {
	_ nocompare.T

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
	sub := Thousands(uint64(active)) + " active of " + Thousands(uint64(len(ws)))
	if c.Frame != nil && c.Frame.Ring != nil && c.Frame.Ring.WindowsDropped > 0 {
		// A GPU summary's window table was full: the windows shown are
		// exact, but not all of them; it keeps the open ones first
		// (docs/SUMMARY.md §3).
		sub += " · " + Thousands(uint64(c.Frame.Ring.WindowsDropped)) + " window slots not in the GPU table, which keeps open windows first"
	}
	return sub
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
// then finished ones in ticket order. It selects them in one pass (a ring
// can hold thousands of windows; only maxRows reach the DOM).
func (c *WindowsPanel) Rows() []WindowRow {
	ws := c.windows()
	if len(ws) == 0 {
		return nil
	}
	idx := TopWindows(ws, maxRows)
	rows := make([]WindowRow, len(idx))
	for k, i := range idx {
		w := &ws[i]
		d, t := WindowProgress(w)
		r := WindowRow{
			Key:    strconv.FormatUint(uint64(w.Ticket), 10) + "/" + strconv.FormatUint(uint64(w.Opcode), 10),
			Ticket: Thousands(uint64(w.Ticket)), Opcode: c.Names.Opcode(w.Opcode), Tenant: strconv.FormatUint(uint64(w.Tenant), 10),
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

// windowBefore orders windows for the table: active before finished,
// active ones by ascending progress, ties (and finished ones) by position.
func windowBefore(ws []decode.WindowTelemetry, a, b int) bool {
	wa, wb := ws[a].Active(), ws[b].Active()
	if wa != wb {
		return wa
	}
	if wa {
		da, ta := WindowProgress(&ws[a])
		db, tb := WindowProgress(&ws[b])
		// da/ta < db/tb without division
		if l, r := da*max(tb, 1), db*max(ta, 1); l != r {
			return l < r
		}
	}
	return a < b
}

// TopWindows returns the indices of the first k windows in table order,
// by insertion into a k-long sorted list (O(n·k), no allocation per window).
func TopWindows(ws []decode.WindowTelemetry, k int) []int {
	top := make([]int, 0, k+1)
	for i := range ws {
		if len(top) == k && !windowBefore(ws, i, top[k-1]) {
			continue
		}
		j := len(top)
		top = append(top, i)
		for j > 0 && windowBefore(ws, i, top[j-1]) {
			top[j] = top[j-1]
			j--
		}
		top[j] = i
		if len(top) > k {
			top = top[:k]
		}
	}
	return top
}
