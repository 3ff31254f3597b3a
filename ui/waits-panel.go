package ui

import (
	"github.com/ringscope/ringscope/internal/nocompare"
	"strconv"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
)

// WaitsPanel shows the queue waits the host measured (frame.Frame.Waits):
// per priority and per tenant that published, the items waiting, the
// oldest one's age and the ended waits' p50, p99 and maximum.
type WaitsPanel struct {
	Frame *frame.Frame
}

// WaitRow is one priority's or tenant's row.
type WaitRow struct {
	_ nocompare.T

	Key, Name, Waiting, Oldest, P50, P99, Max, Ended, Class, TestID string
}

// OldWaitMS is the age from which a waiting item may mark its row: a
// second is some sixty frames of a live loop that drains every frame.
const OldWaitMS = 1000

// Ageing reports whether st's oldest waiting item looks stuck rather than
// queued: a second old or more, and none of its group's items ended, or
// older than twice the p99 of those that did. A busy queue whose items
// all wait seconds (a slow adapter, a deep backlog) is not marked; work
// that stopped moving is.
func Ageing(st *decode.WaitStats) bool {
	return st.Waiting > 0 && st.OldestAge >= OldWaitMS && (st.Count == 0 || st.OldestAge > 2*st.P99)
}

func (c *WaitsPanel) waits() *decode.WaitTimes {
	if c.Frame == nil {
		return nil
	}
	return c.Frame.Waits
}

// Measured reports whether the frame carries waits.
func (c *WaitsPanel) Measured() bool { return c.waits() != nil }

// Empty says why no waits are shown.
func (c *WaitsPanel) Empty() string {
	if c.Frame == nil {
		return "no frame yet"
	}
	return "no waits measured: the ring is a host's (attached) or a replay; only ringscope's own publishes are timed"
}

// Sub sums the waiting items and the oldest age.
func (c *WaitsPanel) Sub() string {
	w := c.waits()
	if w == nil {
		return ""
	}
	var waiting uint32
	oldest := 0.0
	for i := range w.Priority {
		waiting += w.Priority[i].Waiting
		oldest = max(oldest, w.Priority[i].OldestAge)
	}
	sub := Thousands(uint64(waiting)) + " waiting"
	if waiting > 0 {
		sub += ", oldest " + MS(oldest)
	}
	return sub + " · since the ring opened"
}

// PriorityRows is one row per priority level.
func (c *WaitsPanel) PriorityRows() []WaitRow {
	w := c.waits()
	if w == nil {
		return nil
	}
	rows := make([]WaitRow, len(w.Priority))
	for p := range w.Priority {
		rows[p] = waitRow(&w.Priority[p], strconv.Itoa(p)+" "+PriorityName(uint32(p)), "waits-priority-"+strconv.Itoa(p))
	}
	return rows
}

// TenantRows is one row per tenant that published (an item ended or
// waits).
func (c *WaitsPanel) TenantRows() []WaitRow {
	w := c.waits()
	if w == nil {
		return nil
	}
	var rows []WaitRow
	for t := range w.Tenant {
		if st := &w.Tenant[t]; st.Count != 0 || st.Waiting != 0 {
			rows = append(rows, waitRow(st, strconv.Itoa(t), "waits-tenant-"+strconv.Itoa(t)))
		}
	}
	return rows
}

func waitRow(st *decode.WaitStats, name, id string) WaitRow {
	r := WaitRow{Key: id, Name: name, TestID: id, Waiting: Thousands(uint64(st.Waiting)), Oldest: "–",
		P50: "–", P99: "–", Max: "–", Ended: Thousands(st.Count)}
	if st.Waiting > 0 {
		r.Oldest = MS(st.OldestAge)
	}
	if Ageing(st) {
		r.Class = "row-fault"
	}
	if st.Count > 0 {
		r.P50, r.P99, r.Max = MS(st.P50), MS(st.P99), MS(st.Max)
	}
	return r
}
