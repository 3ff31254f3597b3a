package capture

import (
	"fmt"
	"math"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/tasktrace"
)

// TaskTrace is a traced drain's window (docs/TRACE.md) as the trace export
// carries it: the passes, their records, and what the window lost.
type TaskTrace struct {
	Capacity uint32
	// Overflow counts records the device dropped (a pass outgrew the
	// buffer), Evicted those the window let go.
	Overflow, Evicted uint64
	Passes            []tasktrace.Pass
	Budget            []bool // per pass: BUDGET_EXHAUSTED grew in it
	Records           []tasktrace.Record
	// Name names an opcode (the page's names, the user's included); nil
	// names it by number.
	Name func(op uint32) string
	// Hang is what the hang hunter kept with this window, or nil.
	Hang *Hang
	// Live marks a window that grows (an attachment's, shown as it
	// reads): the timeline panel keeps a person's zoom across updates.
	Live bool
}

// Axis is "ns" when every pass has timestamps, else "logical" (tickets).
func (t *TaskTrace) Axis() string { return tasktrace.NewAxis(t.Passes).Name() }

// OpcodeName is op's name by t.Name, or its number.
func (t *TaskTrace) OpcodeName(op uint32) string {
	if t.Name != nil {
		return t.Name(op)
	}
	return fmt.Sprintf("0x%X", op)
}

// Trace ids of the task timeline: the passes' track in process
// TaskPIDPasses, and workgroup w's tracks in process TaskPIDFirst + w,
// one thread per lane (tid lane + 1).
const (
	TaskPIDPasses = 2
	TaskPIDFirst  = 16
	// TaskCat is the category of a task's slice; TaskFlowCat of the flow
	// arrows from a spawning slot to its child.
	TaskCat     = "task"
	TaskFlowCat = "spawn"
)

// appendTasks appends t's timeline: per workgroup a process (a track
// group) with a thread per lane holding a slice per task, named by opcode;
// a counter per workgroup that is 1 during its bubbles (tasktrace.Bubbles,
// spanned as the panel spans them) and 0 otherwise; flow arrows from parent to child; a slice per pass.
// Times are microseconds from the first pass's beginning, lead µs later
// (the logical axis: one ticket a microsecond).
func appendTasks(ev []TraceEvent, t *TaskTrace, lead float64) []TraceEvent {
	if len(t.Passes) == 0 {
		return ev
	}
	ax := tasktrace.NewAxis(t.Passes)
	timed := ax.Timed
	scale := 1.0 // logical: a ticket a microsecond
	if timed {
		scale = 1e-3
	}
	round := func(v float64) float64 { return math.Round((v*scale+lead)*1000) / 1000 }
	us := func(p *tasktrace.Pass, ticket uint32) float64 { return round(ax.At(p, ticket)) }
	ev = append(ev, TraceEvent{Name: "process_name", Cat: metaCat, Ph: "M", Pid: TaskPIDPasses, Args: map[string]any{"name": "ringscope passes (" + t.Axis() + ")"}})
	for i := range t.Passes {
		p := &t.Passes[i]
		start, end := round(ax.Begin(p)), round(ax.End(p))
		ev = append(ev, TraceEvent{Name: fmt.Sprintf("pass %d", i), Cat: "pass", Ph: "X", Ts: start, Dur: dur(math.Max(end-start, 0.001)),
			Pid: TaskPIDPasses, Tid: 1, Args: args("tickets", p.Tickets(), "firstTicket", p.First, "timed", p.Timed,
				"budgetSpent", i < len(t.Budget) && t.Budget[i])})
	}
	named := map[uint64]bool{}
	bySlot := map[uint32]int{} // the last record of each slot, for flows
	for i := range t.Records {
		r := &t.Records[i]
		pi := tasktrace.Find(t.Passes, r.Start)
		if pi < 0 {
			continue
		}
		p := &t.Passes[pi]
		pid, tid := TaskPIDFirst+int(r.Workgroup), int(r.Lane)+1
		if key := uint64(r.Workgroup)<<32 | uint64(r.Lane); !named[key] {
			if !named[uint64(r.Workgroup)<<32|math.MaxUint32] {
				named[uint64(r.Workgroup)<<32|math.MaxUint32] = true
				ev = append(ev, TraceEvent{Name: "process_name", Cat: metaCat, Ph: "M", Pid: pid, Args: map[string]any{"name": fmt.Sprintf("workgroup %d", r.Workgroup)}})
			}
			named[key] = true
			ev = append(ev, TraceEvent{Name: "thread_name", Cat: metaCat, Ph: "M", Pid: pid, Tid: tid, Args: map[string]any{"name": fmt.Sprintf("lane %d", r.Lane)}})
		}
		start, end := us(p, r.Start), us(p, r.End)
		a := args("slot", r.Slot, "opcode", r.Opcode, "tenant", r.Tenant, "workgroup", r.Workgroup, "lane", r.Lane,
			"startTicket", r.Start, "endTicket", r.End, "status", r.Status.String(), "pass", pi)
		if r.Status == decode.StatusFault {
			a["fault"] = r.Fault.String()
		}
		if r.HasParent() {
			a["parent"] = r.Parent
		}
		ev = append(ev, TraceEvent{Name: t.OpcodeName(r.Opcode), Cat: TaskCat, Ph: "X", Ts: start, Dur: dur(math.Max(end-start, 0.001)),
			Pid: pid, Tid: tid, Args: a})
		if r.HasParent() {
			if j, ok := bySlot[r.Parent]; ok {
				pr := &t.Records[j]
				pp := &t.Passes[tasktrace.Find(t.Passes, pr.Start)]
				id := fmt.Sprintf("%d", i)
				ev = append(ev,
					TraceEvent{Name: "spawn", Cat: TaskFlowCat, Ph: "s", Ts: us(pp, pr.Start), Pid: TaskPIDFirst + int(pr.Workgroup), Tid: int(pr.Lane) + 1, ID: id,
						Args: args("child", r.Slot)},
					TraceEvent{Name: "spawn", Cat: TaskFlowCat, Ph: "f", BP: "e", Ts: start, Pid: pid, Tid: tid, ID: id, Args: args("parent", r.Parent)})
			}
		}
		bySlot[r.Slot] = i
	}
	// A bubble's counter is 1 while it lasts, one series per reason, over
	// the span the timeline panel sums (tasktrace.Axis.GapSpan): from the
	// task before's end to the task after's start.
	gaps := tasktrace.Bubbles(nil, t.Records, t.Passes, t.Budget)
	for i := range gaps {
		g := &gaps[i]
		from, to := ax.GapSpan(&t.Passes[g.Pass], g)
		pid := TaskPIDFirst + int(g.Workgroup)
		ev = append(ev,
			TraceEvent{Name: "bubble", Cat: "bubble", Ph: "C", Ts: round(from), Pid: pid, Args: map[string]any{g.Reason: 1}},
			TraceEvent{Name: "bubble", Cat: "bubble", Ph: "C", Ts: round(to), Pid: pid, Args: map[string]any{g.Reason: 0}})
	}
	return ev
}
