package capture

import (
	"bufio"
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/diagnose"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wgsl/abi"
)

func TestFromDumpLegacy(t *testing.T) {
	ctl := control(-1, 4, 2, 0) // MAGIC = 0
	require.Len(t, ctl, 656)
	c, err := FromDump(ctl, ring(4, 1, 3, 0, 7), nil)
	require.NoError(t, err)
	require.Len(t, c.Frames, 1)
	assert.Equal(t, SourceDump, c.Header.Source)
	r, err := NewReplay(c)
	require.NoError(t, err)
	var d Decoded
	require.NoError(t, r.Decode(0, &d))
	assert.True(t, d.Ring.Control.Legacy)
	assert.EqualValues(t, 2, d.Ring.Control.DoneCount)
	assert.Equal(t, decode.RingOccupancy{decode.StatusPublished: 1, decode.StatusDone: 1, decode.StatusEmpty: 1, decode.StatusFault: 1}, d.Ring.Occupancy)
	// A dump capture exports and imports like any other.
	b, err := Encode(c)
	require.NoError(t, err)
	got, err := Decode(b)
	require.NoError(t, err)
	assert.Equal(t, c.Frames, got.Frames)
}

func TestFromDumpErrors(t *testing.T) {
	tests := []struct {
		name          string
		control, ring []byte
		field, msg    string
	}{
		{"short control", make([]byte, 636), ring(1), "control", "shorter than the 640-byte"},
		{"ragged control", make([]byte, 642), ring(1), "control", "whole number of 4-byte words"},
		{"swapped files", ring(2), control(-1, 4, 0, 0), "control", "is this the ring file?"},
		{"ragged ring", control(-1, 4, 0, 0), make([]byte, 130), "ring", "130 bytes is not a whole number of 64-byte slots (2 bytes left over)"},
		{"empty ring", control(-1, 4, 0, 0), nil, "ring", "empty"},
		{"foreign magic", func() []byte { b := control(3, 4, 0, 0); b[abi.CtrlMagic*4] = 9; return b }(), ring(1), "control", "MAGIC"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromDump(tt.control, tt.ring, nil)
			var fe *FormatError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, tt.field, fe.Field)
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
}

func TestDecodeBuffersV1(t *testing.T) {
	var d Decoded
	require.NoError(t, DecodeBuffers(&d, control(5, 8, 4, 2), ring(8, 3), logBuf(2, faultRec(1, 0)), nil))
	assert.False(t, d.Ring.Control.Legacy)
	assert.EqualValues(t, 5, d.Ring.Control.Generation)
	assert.EqualValues(t, 8, d.Counters.TotalSlots)
	assert.True(t, d.HasLog)
	require.Len(t, d.Log.Records, 1)
	err := DecodeBuffers(&d, control(5, 8, 4, 2)[:600], ring(8), nil, nil)
	assert.ErrorContains(t, err, "decode: ")
}

func TestRecorderBounds(t *testing.T) {
	f := sample().Frames[0]
	size := len(f.Control) + len(f.Ring) + len(f.Log)
	t.Run("frames", func(t *testing.T) {
		r := NewRecorder(2, 1<<20)
		for i := 1; i <= 5; i++ {
			f.Seq = uint64(i)
			require.True(t, r.Record(&f))
		}
		assert.Equal(t, 2, r.Len())
		assert.EqualValues(t, 3, r.Dropped())
		assert.EqualValues(t, 4, r.At(0).Seq)
		assert.EqualValues(t, 5, r.At(1).Seq)
		assert.Nil(t, r.At(2))
		assert.Equal(t, 2*size, r.Bytes())
	})
	t.Run("bytes", func(t *testing.T) {
		r := NewRecorder(100, 3*size+10)
		for i := 1; i <= 10; i++ {
			f.Seq = uint64(i)
			require.True(t, r.Record(&f))
			assert.LessOrEqual(t, r.Bytes(), r.MaxBytes())
		}
		assert.Equal(t, 3, r.Len())
		assert.EqualValues(t, 8, r.At(0).Seq)
		fs := r.Frames()
		assert.EqualValues(t, []uint64{8, 9, 10}, []uint64{fs[0].Seq, fs[1].Seq, fs[2].Seq})
	})
	t.Run("too big", func(t *testing.T) {
		r := NewRecorder(10, size-1)
		assert.False(t, r.Record(&f))
		assert.EqualValues(t, 1, r.Skipped())
		assert.Equal(t, 0, r.Len())
	})
	t.Run("copies", func(t *testing.T) {
		r := NewRecorder(4, 1<<20)
		g := f
		g.Control = append([]byte(nil), f.Control...)
		r.Record(&g)
		g.Control[0] = 0xff
		assert.NotEqual(t, byte(0xff), r.At(0).Control[0])
	})
	// A full recorder reuses the storage it evicts, whichever bound evicts
	// (the page's is the byte bound).
	for _, b := range []struct {
		name              string
		maxFrames, nBytes int
		held              int
	}{{"frame bound", 4, 1 << 20, 4}, {"byte bound", 100, 3*size + 10, 3}} {
		t.Run("steady state allocates nothing, "+b.name, func(t *testing.T) {
			r := NewRecorder(b.maxFrames, b.nBytes)
			g := f
			g.Meta.Dispatch = nil
			seq := uint64(0)
			for range 8 {
				seq++
				g.Seq = seq
				r.Record(&g)
			}
			allocs := testing.AllocsPerRun(50, func() { seq++; g.Seq = seq; r.Record(&g) })
			assert.Zero(t, allocs)
			require.Equal(t, b.held, r.Len())
			assert.LessOrEqual(t, r.Bytes(), r.MaxBytes())
			assert.EqualValues(t, seq, r.At(b.held-1).Seq)
		})
	}
	t.Run("export", func(t *testing.T) {
		r := NewRecorder(2, 1<<20)
		for _, g := range sample().Frames {
			r.Record(&g)
		}
		b, err := Encode(&Capture{Header: Header{Source: SourceLive, DroppedFrames: r.Dropped()}, Frames: r.Frames()})
		require.NoError(t, err)
		c, err := Decode(b)
		require.NoError(t, err)
		assert.EqualValues(t, 1, c.Header.DroppedFrames)
		assert.EqualValues(t, 2, c.Frames[0].Seq)
	})
}

func TestReplay(t *testing.T) {
	c := sample()
	r, err := NewReplay(c)
	require.NoError(t, err)
	require.Equal(t, 3, r.Len())
	assert.Equal(t, 0, r.Summary(1).RingFrom, "frame 1 has no ring: it shows frame 0's")
	var d Decoded
	require.NoError(t, r.Decode(2, &d))
	assert.Equal(t, 2, d.RingFrom)
	assert.EqualValues(t, 8, d.Ring.Control.DoneCount)
	assert.EqualValues(t, 3, d.Report.DispatchCount)
	assert.True(t, d.HasDispatch)
	assert.Equal(t, decode.TopologyDenseFrontier, d.Dispatch.Topology)
	assert.EqualValues(t, 3, d.Watchdog.Health.DoneDelta, "8 − 5 since the previous frame")
	require.Len(t, d.Log.Records, 2)
	assert.Error(t, r.Decode(3, &d))

	// A ring-less frame of a new generation shows no slots.
	c.Frames[1].Generation = 3
	c.Frames[1].Control = control(3, 8, 5, 1)
	r, err = NewReplay(c)
	require.NoError(t, err)
	assert.Equal(t, -1, r.Summary(1).RingFrom)
	require.NoError(t, r.Decode(1, &d))
	assert.Empty(t, d.Ring.Slots)
	assert.True(t, r.Summary(1).Watchdog.Health.Reset)
}

// A replay of the recording shows the verdict the live page gave each
// frame: the last change at or before it; a file's replay, none.
func TestReplayShowsTheRecordedVerdicts(t *testing.T) {
	c := sample()
	degraded := []diagnose.Cause{{Kind: diagnose.FaultStorm, Subject: diagnose.NoSubject, Fix: "fix the faults"}}
	c.Verdicts = []Verdict{
		{Seq: c.Frames[0].Seq, Health: diagnose.Progressing},
		{Seq: c.Frames[2].Seq, Health: diagnose.Degraded, Causes: degraded},
	}
	r, err := NewReplay(c)
	require.NoError(t, err)
	var d Decoded
	var store frame.Store
	for i, want := range []diagnose.Health{diagnose.Progressing, diagnose.Progressing, diagnose.Degraded} {
		f, err := r.Frame(i, &d, &store, 4, 128)
		require.NoError(t, err)
		require.NotNil(t, f.Diagnosis, "frame %d", i)
		assert.Equal(t, want, f.Diagnosis.Health, "frame %d", i)
	}
	f, err := r.Frame(2, &d, &store, 4, 128)
	require.NoError(t, err)
	assert.Equal(t, "fix the faults", f.Diagnosis.First().Fix)

	c.Verdicts = nil
	r, err = NewReplay(c)
	require.NoError(t, err)
	f, err = r.Frame(1, &d, &store, 4, 128)
	require.NoError(t, err)
	assert.Nil(t, f.Diagnosis, "no verdict kept: none shown")
}

func TestTraceRequiredFields(t *testing.T) {
	b, err := Trace(sample())
	require.NoError(t, err)
	var tf struct {
		TraceEvents []map[string]any `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal(b, &tf))
	phases := map[string]int{}
	names := map[string]bool{}
	for i, e := range tf.TraceEvents {
		for _, k := range []string{"name", "ph", "ts", "pid", "tid"} {
			require.Contains(t, e, k, "event %d %v", i, e)
		}
		ph := e["ph"].(string)
		phases[ph]++
		names[e["name"].(string)] = true
		assert.GreaterOrEqual(t, e["ts"].(float64), 1.0, "event %d: DevTools ignores ts 0", i)
		switch ph {
		case "X":
			require.Contains(t, e, "dur", "X event %d", i)
			assert.Greater(t, e["dur"].(float64), 0.0)
		case "i":
			assert.Equal(t, "t", e["s"])
		case "C":
			assert.NotEmpty(t, e["args"])
		case "M":
			assert.Contains(t, e["args"], "name")
		default:
			t.Errorf("unexpected phase %q", ph)
		}
	}
	assert.Equal(t, 3, phases["X"]-2, "3 dispatches + 2 epochs (EPOCH 0, then 1)")
	assert.Equal(t, 1, phases["i"], "one fault record")
	assert.True(t, names["BAD_TENANT"])
	assert.True(t, names["claims by tenant"])
	assert.True(t, names["claims by priority"])
	assert.True(t, names["process_name"])
	assert.True(t, names["thread_name"])

	// The dispatch of frame 0 ends at its readback: ts + dur = 2.5 ms later.
	for _, e := range tf.TraceEvents {
		if e["name"] == "dispatch" && e["args"].(map[string]any)["seq"] == 1.0 {
			assert.InDelta(t, 1, e["ts"], 1e-9, "the first dispatch starts 1 µs after the origin")
			assert.InDelta(t, 2500, e["dur"], 1e-9)
		}
	}
}

func TestTraceEmpty(t *testing.T) {
	b, err := Trace(&Capture{Header: Header{Source: SourceLive}})
	require.NoError(t, err)
	assert.True(t, json.Valid(b))
}

// checkOpenMetrics is a strict reader of the OpenMetrics text subset we
// write: families declared once by TYPE (and HELP, optional UNIT) before
// their samples, counter samples ending in _total, label syntax, numeric
// values, no blank lines, and "# EOF" last.
func checkOpenMetrics(t *testing.T, text string) map[string]float64 {
	t.Helper()
	require.True(t, strings.HasSuffix(text, "# EOF\n"), "ends with # EOF")
	meta := regexp.MustCompile(`^# (TYPE|HELP|UNIT) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.+)$`)
	sampleRe := regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-zA-Z_][a-zA-Z0-9_]*="[^"\\\n]*"(,[a-zA-Z_][a-zA-Z0-9_]*="[^"\\\n]*")*\})? (-?[0-9.eE+-]+|NaN|\+Inf|-Inf)$`)
	types := map[string]string{}
	seen := map[string]bool{}
	current := ""
	values := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(text))
	lines := 0
	for sc.Scan() {
		line := sc.Text()
		lines++
		require.NotEmpty(t, line, "line %d is blank", lines)
		if line == "# EOF" {
			require.False(t, sc.Scan(), "nothing after # EOF")
			break
		}
		if m := meta.FindStringSubmatch(line); m != nil {
			if m[1] == "TYPE" {
				require.False(t, seen[m[2]], "family %s declared twice", m[2])
				require.Contains(t, []string{"counter", "gauge", "stateset", "summary"}, m[3])
				seen[m[2]], types[m[2]], current = true, m[3], m[2]
			} else {
				require.Equal(t, current, m[2], "line %d: %s of a family that is not the current one", lines, m[1])
			}
			if m[1] == "UNIT" {
				require.True(t, strings.HasSuffix(m[2], "_"+m[3]), "line %d: a family with UNIT %s must end in _%s", lines, m[3], m[3])
			}
			continue
		}
		require.False(t, strings.HasPrefix(line, "#"), "line %d: unknown comment %q", lines, line)
		m := sampleRe.FindStringSubmatch(line)
		require.NotNil(t, m, "line %d: not a sample: %q", lines, line)
		name := m[1]
		family := name
		if types[current] == "counter" {
			require.Equal(t, current+"_total", name, "line %d: counter sample", lines)
			family = current
		}
		if types[current] == "summary" && (name == current+"_sum" || name == current+"_count") {
			family = current
		}
		require.Equal(t, current, family, "line %d: sample outside its family", lines)
		var v float64
		require.NoError(t, json.Unmarshal([]byte(m[len(m)-1]), &v), "line %d value", lines)
		values[name+m[2]] = v
	}
	return values
}

func TestOpenMetrics(t *testing.T) {
	b, err := OpenMetrics(sample())
	require.NoError(t, err)
	v := checkOpenMetrics(t, string(b))
	assert.EqualValues(t, 8, v["ringscope_done_total"])
	assert.EqualValues(t, 3, v["ringscope_capture_frames"])
	assert.EqualValues(t, 3*4096, v["ringscope_bytes_read_back_total"])
	assert.EqualValues(t, 6, v[`ringscope_slots{status="done"}`])
	assert.EqualValues(t, 2, v[`ringscope_slots{status="fault"}`])
	assert.EqualValues(t, 8, v[`ringscope_tenant_claims_total{tenant="1"}`])
	assert.EqualValues(t, 8, v[`ringscope_priority_claims_total{priority="normal"}`])
	assert.InDelta(t, 0.0075, v["ringscope_round_trip_seconds_total"], 1e-12)
	assert.True(t, bytes.Contains(b, []byte("# HELP ringscope_done ")))

	assert.Contains(t, string(b), "\nringscope_bytes_read_back_total 12288\n")
	assert.Equal(t, "1120832", formatValue(1120832))
	assert.Equal(t, "0.0075", formatValue(0.0075))

	empty, err := OpenMetrics(&Capture{Header: Header{Source: SourceLive}})
	require.NoError(t, err)
	checkOpenMetrics(t, string(empty))

	legacy, err := FromDump(control(-1, 4, 2, 0), ring(4, 3), nil)
	require.NoError(t, err)
	lb, err := OpenMetrics(legacy)
	require.NoError(t, err)
	lv := checkOpenMetrics(t, string(lb))
	assert.EqualValues(t, 1, lv["ringscope_legacy_dump"])
}

// A trace says the ABI of its frames and starts after ts 0, for a live
// capture built in memory (the page's, whose header had no abiVersion) and
// for a dump, whose one frame is at atMillis 0 with no dispatch.
func TestTraceOriginAndABI(t *testing.T) {
	dump, err := FromDump(control(-1, 4, 2, 0), ring(4, 3), nil)
	require.NoError(t, err)
	live := sample()
	live.Header.ABIVersion = 0
	for name, c := range map[string]*Capture{"live": live, "dump": dump} {
		b, err := Trace(c)
		require.NoError(t, err)
		var tf TraceFile
		require.NoError(t, json.Unmarshal(b, &tf))
		assert.EqualValues(t, 1, tf.OtherData["abiVersion"], name)
		require.NotEmpty(t, tf.TraceEvents, name)
		for i, e := range tf.TraceEvents {
			assert.GreaterOrEqual(t, e.Ts, 1.0, "%s: event %d %s", name, i, e.Name)
		}
		assert.Equal(t, 1.0, tf.TraceEvents[0].Ts, name)
	}
}
