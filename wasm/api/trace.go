package api

import (
	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/tasktrace"
	"github.com/ringscope/ringscope/internal/nocompare"
	"github.com/ringscope/ringscope/wasm/capture"
)

// Trace is a traced ring's window as drain() and snapshot({trace: true})
// give it (docs/TRACE.md): its passes and records, oldest first, each
// record's place on the window's axis ("ns": nanoseconds from the first
// pass's beginning, from the passes' timestamps; "logical": tickets).
type Trace struct {
	Axis     string
	Capacity uint32
	// Overflow counts the records the device dropped (a pass outgrew the
	// buffer), Evicted those the window let go.
	Overflow, Evicted uint64
	Passes            []TracePass
	Records           []TraceRecord
}

// TracePass is one submission: its tickets [FirstTicket, EndTicket), and
// its place on the axis.
type TracePass struct {
	_ nocompare.T

	FirstTicket, EndTicket uint32
	Begin, End             float64
	Timed                  bool
	BudgetSpent            bool
}

// TraceRecord is one traced slot. Parent is -1 for a slot the host
// published.
type TraceRecord struct {
	_ nocompare.T

	Slot            uint32
	Opcode          uint32
	Name            string
	Tenant          uint32
	Workgroup, Lane uint32
	StartTicket     uint32
	EndTicket       uint32
	Start, End      float64
	Status          string
	Fault           string
	Parent          int64
}

// TraceOf is t as the API gives it, nil for nil.
func TraceOf(t *capture.TaskTrace) *Trace {
	if t == nil {
		return nil
	}
	ax := tasktrace.NewAxis(t.Passes)
	out := &Trace{Axis: ax.Name(), Capacity: t.Capacity, Overflow: t.Overflow, Evicted: t.Evicted,
		Passes: make([]TracePass, len(t.Passes)), Records: make([]TraceRecord, 0, len(t.Records))}
	for i := range t.Passes {
		p := &t.Passes[i]
		out.Passes[i] = TracePass{FirstTicket: p.First, EndTicket: p.End, Timed: p.Timed, BudgetSpent: i < len(t.Budget) && t.Budget[i],
			Begin: ax.Begin(p), End: ax.End(p)}
	}
	for i := range t.Records {
		r := &t.Records[i]
		pi := tasktrace.Find(t.Passes, r.Start)
		if pi < 0 {
			continue
		}
		p := &t.Passes[pi]
		tr := TraceRecord{Slot: r.Slot, Opcode: r.Opcode, Name: t.OpcodeName(r.Opcode), Tenant: r.Tenant, Workgroup: r.Workgroup,
			Lane: r.Lane, StartTicket: r.Start, EndTicket: r.End, Start: ax.At(p, r.Start), End: ax.At(p, r.End),
			Status: r.Status.String(), Parent: -1}
		if r.Status == decode.StatusFault {
			tr.Fault = r.Fault.String()
		}
		if r.HasParent() {
			tr.Parent = int64(r.Parent)
		}
		out.Records = append(out.Records, tr)
	}
	return out
}
