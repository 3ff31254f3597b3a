package capture

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/tasktrace"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// taskSample: two timed passes, two workgroups, a spawned child.
func taskSample() *TaskTrace {
	none := uint32(abi.TraceNoParent)
	return &TaskTrace{
		Capacity: 16,
		Passes: []tasktrace.Pass{
			{First: 0, End: 8, BeginNS: 1_000_000, EndNS: 1_008_000, Timed: true},
			{First: 8, End: 12, BeginNS: 2_000_000, EndNS: 2_004_000, Timed: true},
		},
		Budget: []bool{false, true},
		Records: []tasktrace.Record{
			{Slot: 1, Opcode: abi.OpNop, Workgroup: 0, Lane: 0, Start: 0, End: 2, Status: decode.StatusDone, Parent: none},
			{Slot: 2, Opcode: abi.OpSpin, Workgroup: 0, Lane: 1, Start: 1, End: 5, Status: decode.StatusDone, Parent: none},
			{Slot: 3, Opcode: 0x10, Workgroup: 1, Lane: 0, Start: 3, End: 4, Status: decode.StatusFault, Fault: decode.FaultOutOfBounds, Parent: none},
			{Slot: 4, Opcode: abi.OpNop, Workgroup: 1, Lane: 3, Start: 9, End: 10, Status: decode.StatusDone, Parent: 2},
		},
		Name: func(op uint32) string {
			if op == 0x10 {
				return "square"
			}
			return map[uint32]string{abi.OpNop: "NOP", abi.OpSpin: "SPIN"}[op]
		},
	}
}

func TestTraceExportsTasks(t *testing.T) {
	c := sample()
	c.Tasks = taskSample()
	b, err := Trace(c)
	require.NoError(t, err)
	var tf TraceFile
	require.NoError(t, json.Unmarshal(b, &tf))
	assert.Equal(t, "ns", tf.OtherData["taskAxis"])
	assert.EqualValues(t, 4, tf.OtherData["taskRecords"])

	procs := map[int]string{}
	threads := map[[2]int]string{}
	var tasks []TraceEvent
	var flows []TraceEvent
	bubbles := map[int][]map[string]any{}
	for _, e := range tf.TraceEvents {
		switch {
		case e.Ph == "M" && e.Name == "process_name":
			procs[e.Pid] = e.Args["name"].(string)
		case e.Ph == "M" && e.Name == "thread_name":
			threads[[2]int{e.Pid, e.Tid}] = e.Args["name"].(string)
		case e.Cat == TaskCat:
			tasks = append(tasks, e)
		case e.Cat == TaskFlowCat:
			flows = append(flows, e)
		case e.Cat == "bubble":
			bubbles[e.Pid] = append(bubbles[e.Pid], e.Args)
		}
		assert.NotEmpty(t, e.Cat, "every event has a category (DevTools' parser needs one)")
	}
	assert.Equal(t, "workgroup 0", procs[TaskPIDFirst])
	assert.Equal(t, "workgroup 1", procs[TaskPIDFirst+1])
	assert.Equal(t, "lane 3", threads[[2]int{TaskPIDFirst + 1, 4}])
	require.Len(t, tasks, 4, "a slice per record")
	assert.Equal(t, []string{"NOP", "SPIN", "square", "NOP"}, []string{tasks[0].Name, tasks[1].Name, tasks[2].Name, tasks[3].Name})
	assert.Equal(t, "OUT_OF_BOUNDS", tasks[2].Args["fault"])
	// Ticket 1 of pass 0 (8 tickets over 8 µs) sits at 1.5 µs from the
	// pass's beginning; ticket 5 at 5.5 µs.
	lead := TraceLeadMS * 1000
	assert.InDelta(t, 1.5+lead, tasks[1].Ts, 1e-9)
	assert.InDelta(t, 4.0, *tasks[1].Dur, 1e-9)
	// Pass 1 began 1 ms after pass 0: ticket 9 (second of 4 over 4 µs).
	assert.InDelta(t, 1000+1.5+lead, tasks[3].Ts, 1e-9)
	require.Len(t, flows, 2, "an arrow from slot 2 to its child")
	assert.Equal(t, "s", flows[0].Ph)
	assert.Equal(t, TaskPIDFirst, flows[0].Pid)
	assert.Equal(t, 2, flows[0].Tid)
	assert.Equal(t, "f", flows[1].Ph)
	assert.Equal(t, "e", flows[1].BP)
	assert.Equal(t, flows[0].ID, flows[1].ID)
	assert.Equal(t, tasks[3].Ts, flows[1].Ts)
	// Workgroup 1: not started (0…3), between (5…… end of pass 0), then
	// pass 1's bubbles, the last one with spent budgets.
	reasons := map[string]bool{}
	for _, a := range bubbles[TaskPIDFirst+1] {
		for k := range a {
			reasons[k] = true
		}
	}
	assert.Equal(t, map[string]bool{tasktrace.ReasonStart: true, tasktrace.ReasonDrained: true, tasktrace.ReasonBudget: true}, reasons)

	// The bytes are json.Marshal's.
	r, err := NewReplay(c)
	require.NoError(t, err)
	want, err := json.Marshal(traceWith(r, c.Tasks))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(b))
}

// traceWith is traceOf with tasks, as Trace builds it.
func traceWith(r *Replay, tasks *TaskTrace) TraceFile {
	r.c.Tasks = tasks
	return traceOf(r)
}

func TestTraceTasksLogicalAxis(t *testing.T) {
	tt := taskSample()
	tt.Passes[1].Timed = false
	c := sample()
	c.Tasks = tt
	b, err := Trace(c)
	require.NoError(t, err)
	var tf TraceFile
	require.NoError(t, json.Unmarshal(b, &tf))
	assert.Equal(t, "logical", tf.OtherData["taskAxis"])
	for _, e := range tf.TraceEvents {
		if e.Cat == TaskCat && e.Args["slot"] == float64(2) {
			assert.InDelta(t, 1+TraceLeadMS*1000, e.Ts, 1e-9, "a ticket a microsecond")
		}
	}
}

// bubbleAgreementSample is ui's sample of the same name: a timed pass of
// 20 tickets over 2 µs, two workgroups, a one-ticket bubble.
func bubbleAgreementSample() *TaskTrace {
	none := uint32(abi.TraceNoParent)
	return &TaskTrace{
		Capacity: 16,
		Passes:   []tasktrace.Pass{{First: 0, End: 20, BeginNS: 5000, EndNS: 7000, Timed: true}},
		Budget:   []bool{false},
		Records: []tasktrace.Record{
			{Slot: 1, Workgroup: 0, Start: 2, End: 9, Status: decode.StatusDone, Parent: none},
			{Slot: 2, Workgroup: 0, Start: 10, End: 15, Status: decode.StatusDone, Parent: none},
			{Slot: 3, Workgroup: 1, Start: 0, End: 4, Status: decode.StatusDone, Parent: none},
			{Slot: 4, Workgroup: 1, Start: 6, End: 12, Status: decode.StatusDone, Parent: none},
		},
	}
}

// bubbleCounters runs the trace export of tt and returns, per workgroup,
// its bubble counter's spans: [on, off] µs pairs in order.
func bubbleCounters(t *testing.T, tt *TaskTrace) map[int][][2]float64 {
	t.Helper()
	c := sample()
	c.Tasks = tt
	b, err := Trace(c)
	require.NoError(t, err)
	var tf TraceFile
	require.NoError(t, json.Unmarshal(b, &tf))
	spans := map[int][][2]float64{}
	for _, e := range tf.TraceEvents {
		if e.Cat != "bubble" {
			continue
		}
		w := e.Pid - TaskPIDFirst
		for _, v := range e.Args {
			if v == float64(1) {
				spans[w] = append(spans[w], [2]float64{e.Ts, 0})
			} else {
				require.NotEmpty(t, spans[w], "a counter goes 0 after it went 1")
				spans[w][len(spans[w])-1][1] = e.Ts
			}
		}
	}
	return spans
}

// TestTaskBubbleCountersMatchThePanel: the export's bubble counters span
// each bubble as the timeline panel does (tasktrace.Axis.GapSpan: from the
// task before's end ticket to the task after's start ticket), so a
// workgroup's counter time is the panel's bubble sum for it: 0.7 and
// 0.95 µs here, ui's TestTimelineBubblesAreGapSpans's numbers. The
// one-ticket bubble of workgroup 1 (ticket 5) lasts 0.2 µs, not 0.
func TestTaskBubbleCountersMatchThePanel(t *testing.T) {
	tt := bubbleAgreementSample()
	spans := bubbleCounters(t, tt)
	ax := tasktrace.NewAxis(tt.Passes)
	want := map[int]float64{}
	gaps := tasktrace.Bubbles(nil, tt.Records, tt.Passes, tt.Budget)
	for i := range gaps {
		from, to := ax.GapSpan(&tt.Passes[gaps[i].Pass], &gaps[i])
		want[int(gaps[i].Workgroup)] += (to - from) / 1000
	}
	got := map[int]float64{}
	for w, ss := range spans {
		for _, s := range ss {
			got[w] += s[1] - s[0]
		}
	}
	for w := range want {
		assert.InDelta(t, want[w], got[w], 1e-9, "workgroup %d", w)
	}
	assert.InDelta(t, 0.7, got[0], 1e-9, "the panel's sum for workgroup 0")
	assert.InDelta(t, 0.95, got[1], 1e-9, "the panel's sum for workgroup 1")
	require.Len(t, spans[1], 2)
	assert.InDelta(t, 0.2, spans[1][0][1]-spans[1][0][0], 1e-9, "a one-ticket bubble is not empty")
}

// TestTaskBubbleCountersSkipOverflow: in a pass whose records overflowed
// the buffer, the export counts no bubble after a workgroup's last kept
// record, as the panel does: the dropped tasks ran then.
func TestTaskBubbleCountersSkipOverflow(t *testing.T) {
	tt := bubbleAgreementSample()
	tt.Passes[0].Dropped = 1900
	tt.Budget[0] = true
	spans := bubbleCounters(t, tt)
	require.Len(t, spans[0], 1, "workgroup 0: only its not-started bubble")
	assert.InDelta(t, 0.25, spans[0][0][1]-spans[0][0][0], 1e-9)
	require.Len(t, spans[1], 1, "workgroup 1: only the one between its tasks")
	assert.InDelta(t, 0.2, spans[1][0][1]-spans[1][0][0], 1e-9)
}
