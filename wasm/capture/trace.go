package capture

import (
	"fmt"
	"math"
	"strconv"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// Trace thread ids: one timeline row each (pid TracePID).
const (
	TracePID         = 1
	TraceTIDEpochs   = 1
	TraceTIDDispatch = 2
	TraceTIDFaults   = 3
	TraceTIDCounters = 4
	// MaxTraceFaults bounds the fault instants of one trace; the rest are
	// summarised by one "faults truncated" instant.
	MaxTraceFaults = 10000
	// TraceLeadMS is how far before the first event the trace's origin
	// (otherData.startMillis) lies, so that every ts is at least 1 µs:
	// DevTools' trace engine ignores ts 0 when it computes the visible
	// window, which left frame 1 of a live trace, and every event of a
	// dump's trace (whose frame is at 0 with no dispatch), outside it.
	TraceLeadMS = 0.001
)

// TraceEvent is one event of the Chrome trace-event format (the JSON that
// chrome://tracing and ui.perfetto.dev open). Ts and Dur are microseconds.
type TraceEvent struct {
	Name string   `json:"name"`
	Cat  string   `json:"cat,omitempty"`
	Ph   string   `json:"ph"`
	Ts   float64  `json:"ts"`
	Dur  *float64 `json:"dur,omitempty"`
	Pid  int      `json:"pid"`
	Tid  int      `json:"tid"`
	S    string   `json:"s,omitempty"`
	// ID and BP tie a flow's start ("s") to its end ("f", BP "e": the
	// enclosing slice).
	ID   string         `json:"id,omitempty"`
	BP   string         `json:"bp,omitempty"`
	Args map[string]any `json:"args,omitempty"`
}

// TraceFile is the trace's top level (the JSON Object Format).
type TraceFile struct {
	TraceEvents     []TraceEvent   `json:"traceEvents"`
	DisplayTimeUnit string         `json:"displayTimeUnit"`
	OtherData       map[string]any `json:"otherData"`
}

var priorityNames = [5]string{"critical", "high", "normal", "low", "idle"}

// Trace renders c as a Chrome trace / Perfetto JSON timeline:
//
//   - "M" metadata naming the process and its threads;
//   - "X" complete slices: one per epoch (a run of frames with the same
//     GENERATION and EPOCH words) on thread "epochs", one per dispatch
//     (its submit → readback round trip, ending at the frame's readback) on
//     thread "dispatches";
//   - "C" counters: claims per tenant (tenants that ever claimed), claims
//     per priority, slots per status, DONE_COUNT and FAULTS;
//   - "i" instants (thread scope) for every fault record of the log, at
//     most MaxTraceFaults.
//
// Times are microseconds from otherData.startMillis, TraceLeadMS before
// the capture's first event (the metadata events' ts is that first
// event's).
func Trace(c *Capture) ([]byte, error) {
	r, err := NewReplay(c)
	if err != nil {
		return nil, err
	}
	t := traceOf(r)
	return encodeTrace(&t)
}

func dur(d float64) *float64 { return &d }

// metaCat is the category of metadata events, as Chrome writes them: a
// parser that reads every event's category (DevTools' TracingModel)
// refuses an event without one.
const metaCat = "__metadata"

func traceOf(r *Replay) TraceFile {
	c := r.c
	n := r.Len()
	// t0: the earliest dispatch start; the origin lies TraceLeadMS before.
	t0 := math.Inf(1)
	for i := range n {
		s := r.Summary(i)
		t0 = math.Min(t0, s.AtMillis-roundTrip(s))
	}
	if math.IsInf(t0, 0) || math.IsNaN(t0) {
		t0 = 0 // no frames
	}
	origin := t0 - TraceLeadMS
	us := func(ms float64) float64 { return math.Round((ms-origin)*1000*1000) / 1000 }
	meta := func(name string, tid int, value string) TraceEvent {
		return TraceEvent{Name: name, Cat: metaCat, Ph: "M", Ts: us(t0), Pid: TracePID, Tid: tid, Args: map[string]any{"name": value}}
	}
	ev := []TraceEvent{
		meta("process_name", 0, "ringscope"),
		meta("thread_name", TraceTIDEpochs, "epochs"),
		meta("thread_name", TraceTIDDispatch, "dispatches"),
		meta("thread_name", TraceTIDFaults, "faults"),
		meta("thread_name", TraceTIDCounters, "counters"),
	}
	var tenantsUsed uint32
	for i := range n {
		for t, v := range r.Summary(i).TenantClaims {
			if v != 0 {
				tenantsUsed |= 1 << t
			}
		}
	}
	// Epochs: runs of frames sharing (generation, EPOCH).
	for i := 0; i < n; {
		s := r.Summary(i)
		j := i
		for j+1 < n && r.Summary(j+1).Generation == s.Generation && r.Summary(j+1).Epoch == s.Epoch {
			j++
		}
		e := r.Summary(j)
		start, end := us(s.AtMillis-roundTrip(s)), us(e.AtMillis)
		ev = append(ev, TraceEvent{Name: fmt.Sprintf("epoch %d", s.Epoch), Cat: "epoch", Ph: "X", Ts: start,
			Dur: dur(math.Max(end-start, 1)), Pid: TracePID, Tid: TraceTIDEpochs,
			Args: args("generation", s.Generation, "epoch", s.Epoch, "frames", j-i+1, "firstSeq", s.Seq,
				"lastSeq", e.Seq, "doneCount", e.DoneCount, "legacy", s.Legacy)})
		i = j + 1
	}
	var log decode.Log
	faults := 0
	for i := range n {
		s := r.Summary(i)
		at := us(s.AtMillis)
		if s.Dispatch != nil {
			rt := roundTrip(s)
			d := s.Dispatch
			ev = append(ev, TraceEvent{Name: "dispatch", Cat: "dispatch", Ph: "X", Ts: us(s.AtMillis - rt),
				Dur: dur(math.Max(rt*1000, 1)), Pid: TracePID, Tid: TraceTIDDispatch,
				Args: args("seq", s.Seq, "generation", s.Generation, "bytesUploaded", d.BytesUploaded,
					"bytesReadBack", d.BytesReadBack, "kernelLaunches", d.KernelLaunches,
					"syncPoints", d.SyncPoints, "occupancyProxyBps", d.OccupancyProxyBps,
					"frontierDensityBps", d.FrontierDensityBps, "topology", d.Topology.String(),
					"pressure", d.Pressure.String(), "executionMode", d.ExecutionMode.String(),
					"publishMs", s.Timings.PublishMS, "readbackMs", s.Timings.ReadbackMS,
					"decodeMs", s.Timings.DecodeMS, "gpuMs", s.Timings.GPUMS)})
		}
		counter := func(name string, args map[string]any) {
			ev = append(ev, TraceEvent{Name: name, Cat: "counter", Ph: "C", Ts: at, Pid: TracePID, Tid: TraceTIDCounters, Args: args})
		}
		if tenantsUsed != 0 {
			a := map[string]any{}
			for t, v := range s.TenantClaims {
				if tenantsUsed&(1<<t) != 0 {
					a["tenant "+strconv.Itoa(t)] = v
				}
			}
			counter("claims by tenant", a)
		}
		a := map[string]any{}
		for p, v := range s.PriorityClaims {
			a[priorityNames[p]] = v
		}
		counter("claims by priority", a)
		o := s.Occupancy
		byStatus := make(map[string]any, len(o))
		for s, v := range o {
			byStatus[decode.Status(s).Label(decode.StatusSnake)] = v
		}
		counter("slots by status", byStatus)
		counter("done count", map[string]any{"done": s.DoneCount})
		counter("faults", map[string]any{"faults": s.Faults})

		f := &c.Frames[i]
		if len(f.Log) == 0 {
			continue
		}
		if err := decode.DecodeLogInto(&log, f.Log); err != nil {
			continue // validated by Decode; a hand-built capture may not be
		}
		for _, rec := range log.Records {
			if !rec.IsFault() {
				continue
			}
			faults++
			if faults > MaxTraceFaults {
				continue
			}
			code := rec.FaultCode()
			a := args("slot", rec.Slot, "opcode", rec.A, "epoch", rec.B, "reason", code.Reason(), "seq", s.Seq)
			if name := c.Header.UserOpcodeName(rec.A); name != "" {
				a["opcodeName"] = name
			}
			ev = append(ev, TraceEvent{Name: code.String(), Cat: "fault", Ph: "i", Ts: at, Pid: TracePID,
				Tid: TraceTIDFaults, S: "t", Args: a})
		}
	}
	ev = appendVerdicts(ev, c.Verdicts, us)
	if c.Tasks != nil {
		ev = appendTasks(ev, c.Tasks, TraceLeadMS*1000)
	}
	if faults > MaxTraceFaults {
		last := 0.0
		if n > 0 {
			last = us(r.Summary(n - 1).AtMillis)
		}
		ev = append(ev, TraceEvent{Name: "faults truncated", Cat: "fault", Ph: "i", Ts: last, Pid: TracePID,
			Tid: TraceTIDFaults, S: "t", Args: map[string]any{"omitted": faults - MaxTraceFaults}})
	}
	abiVersion := c.Header.ABIVersion
	if abiVersion == 0 {
		abiVersion = abi.Version // a capture built in memory; Encode writes the same
	}
	cov := CoverageOf(c.Frames)
	other := args("ringscope", c.Header.Ringscope, "source", c.Header.Source, "frames", n,
		"abiVersion", abiVersion, "startMillis", origin, "firstSeq", cov.FirstSeq, "lastSeq", cov.LastSeq,
		"spanMillis", cov.SpanMillis, "missingFrames", cov.Missing, "compactFrames", cov.Compact(), "coverage", cov.String())
	if t := c.Tasks; t != nil {
		other["taskAxis"], other["taskRecords"], other["taskOverflow"], other["taskEvicted"] = t.Axis(), len(t.Records), t.Overflow, t.Evicted
	}
	return TraceFile{TraceEvents: ev, DisplayTimeUnit: "ms", OtherData: other}
}

// roundTrip is the frame's submit → readback time in ms, or 0.
func roundTrip(s *Summary) float64 {
	rt := s.Timings.RoundTripMS
	if s.Dispatch == nil || math.IsNaN(rt) || math.IsInf(rt, 0) || rt < 0 {
		return 0
	}
	return rt
}

// args builds a trace event's args from key, value pairs: one loop here
// instead of the inline map assignment of every literal entry, which made
// traceOf's code in main.wasm several times larger.
func args(kv ...any) map[string]any {
	m := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}
