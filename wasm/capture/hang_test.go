package capture

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/diagnose"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// stalledFrame is a frame the diagnosis calls stalled, whose ring holds a
// CLAIMED SPIN at slot 2 and a PUBLISHED NOP at slot 5.
func stalledFrame() *frame.Frame {
	r := ring(8, abi.StatusDone, abi.StatusDone, abi.StatusClaimed, abi.StatusEmpty, abi.StatusEmpty, abi.StatusPublished)
	binary.LittleEndian.PutUint32(r[2*SlotBytes+abi.SlotOpcode*abi.WordBytes:], abi.OpSpin)
	return &frame.Frame{Seq: 7, AtMillis: 120.5,
		Diagnosis: &diagnose.Diagnosis{Health: diagnose.Stalled, Causes: []diagnose.Cause{{Kind: diagnose.MaskedTenant}}},
		Raw:       frame.Raw{Control: control(3, 8, 2, 1), Ring: r, Published: 3}}
}

func TestHunterEntersOncePerEpisode(t *testing.T) {
	var h Hunter
	at := func(health diagnose.Health) *frame.Frame {
		return &frame.Frame{Diagnosis: &diagnose.Diagnosis{Health: health}}
	}
	var got []bool
	for _, health := range []diagnose.Health{diagnose.Progressing, diagnose.Stalled, diagnose.Stalled, diagnose.Lost, diagnose.Idle, diagnose.Lost} {
		got = append(got, h.Enter(at(health)))
	}
	assert.Equal(t, []bool{false, true, false, false, false, true}, got)
	assert.False(t, h.Enter(nil))
}

func TestNewHangReportsEachWorkgroupsLastTaskAndTheRunning(t *testing.T) {
	tt := taskSample()
	h := NewHang(stalledFrame(), tt)
	assert.Equal(t, diagnose.Stalled, h.Health)
	assert.Equal(t, []diagnose.Kind{diagnose.MaskedTenant}, h.Causes)
	// Workgroup 0 last claimed slot 2 (start 1), workgroup 1 slot 4 (start 9).
	assert.Equal(t, []HangWorkgroup{
		{Workgroup: 0, Last: HangTask{Slot: 2, Opcode: abi.OpSpin, Name: "SPIN", Status: decode.StatusDone, Lane: 1, StartTicket: 1}},
		{Workgroup: 1, Last: HangTask{Slot: 4, Opcode: abi.OpNop, Name: "NOP", Status: decode.StatusDone, Lane: 3, StartTicket: 9}},
	}, h.Workgroups)
	assert.Equal(t, []HangTask{{Slot: 2, Opcode: abi.OpSpin, Name: "SPIN", Status: decode.StatusClaimed}}, h.Running)
	assert.EqualValues(t, 3, h.Dump.Generation)
	assert.Len(t, h.Dump.Ring, 8*SlotBytes)
}

func TestHangCaptureRoundTrips(t *testing.T) {
	tt := taskSample()
	tt.Overflow, tt.Evicted = 3, 1
	// Each pass handed out the tickets of one record more than it kept:
	// the file marks the pass, the reader counts what it dropped.
	tt.Passes[0].Dropped, tt.Passes[1].Dropped = 1, 1
	tt.Hang = NewHang(stalledFrame(), tt)
	b, err := Encode(HangCapture(Header{Ringscope: "test", UserOpcodes: []NamedOpcode{{Opcode: 0x10, Name: "square"}}}, tt))
	require.NoError(t, err)
	c, err := Decode(b)
	require.NoError(t, err)
	assert.Equal(t, VersionTasks, c.Header.Version)
	assert.Equal(t, SourceHang, c.Header.Source)
	require.Len(t, c.Frames, 1)
	assert.Equal(t, tt.Hang.Dump.Ring, c.Frames[0].Ring)
	got := c.Tasks
	require.NotNil(t, got)
	assert.Equal(t, tt.Passes, got.Passes)
	assert.Equal(t, tt.Budget, got.Budget)
	assert.Equal(t, tt.Records, got.Records)
	assert.Equal(t, []uint64{16, 3, 1}, []uint64{uint64(got.Capacity), got.Overflow, got.Evicted})
	require.NotNil(t, got.Hang)
	assert.Equal(t, tt.Hang.Workgroups, got.Hang.Workgroups, "the report, rebuilt from the records and the dump")
	assert.Equal(t, tt.Hang.Running, got.Hang.Running)
	assert.Equal(t, []any{diagnose.Stalled, []diagnose.Kind{diagnose.MaskedTenant}, uint64(7), 120.5},
		[]any{got.Hang.Health, got.Hang.Causes, got.Hang.Seq, got.Hang.AtMillis})

	// The replay shows the hang's verdict on its frame, and draws the
	// window it carries in its trace export.
	r, err := NewReplay(c)
	require.NoError(t, err)
	var d Decoded
	var store frame.Store
	f, err := r.Frame(0, &d, &store, 4, 128)
	require.NoError(t, err)
	require.NotNil(t, f.Diagnosis, "a hang capture keeps its verdict")
	assert.Equal(t, diagnose.Stalled, f.Diagnosis.Health)
	assert.Equal(t, diagnose.MaskedTenant, f.Diagnosis.First().Kind)
	tr, err := Trace(c)
	require.NoError(t, err)
	assert.Contains(t, string(tr), `"taskRecords":4`)
}

func TestTaskSectionRefusals(t *testing.T) {
	tt := taskSample()
	tt.Hang = NewHang(stalledFrame(), tt)
	b, err := Encode(HangCapture(Header{}, tt))
	require.NoError(t, err)
	for _, tc := range []struct {
		name  string
		edit  func([]byte) []byte
		field string
	}{
		{"cut", func(b []byte) []byte { return b[:len(b)-1] }, "task section"},
		{"missing", func(b []byte) []byte { return b[:len(b)-len(tasksBytes(t, tt))] }, "task section"},
		{"record outside the passes", func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[len(b)-4*abi.TraceRecordWords+abi.TraceRecStart*abi.WordBytes:], 99)
			return b
		}, "task records"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(tc.edit(append([]byte(nil), b...)))
			var fe *FormatError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, tc.field, fe.Field)
		})
	}
}

func tasksBytes(_ *testing.T, tt *TaskTrace) []byte { return appendTaskSection(nil, tt) }

func TestStudioExportHang(t *testing.T) {
	s := NewStudio("v1", 4, 64)
	_, _, err := s.ExportHang(taskSample(), time.Unix(0, 0))
	assert.EqualError(t, err, "export hang: no hang kept")
	tt := taskSample()
	tt.Hang = NewHang(stalledFrame(), tt)
	b, name, err := s.ExportHang(tt, time.Date(2026, 12, 5, 22, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	assert.Equal(t, "ringscope-hang-20261205-220000.rscap", name)
	c, err := Decode(b)
	require.NoError(t, err)
	assert.Equal(t, "v1", c.Header.Ringscope)
	assert.Len(t, c.Tasks.Records, 4)
}

// runawayFrame is the frame of a device given up as a runaway: the
// verdict names the user opcode in flight (square, 0x10), whose slot 3 the
// dump holds PUBLISHED, as it was read before the submission ran; slot 0
// ended a SPIN (the last record's task, innocent), slot 6 ended a square
// earlier, and slot 4 waits as a NOP.
func runawayFrame() *frame.Frame {
	r := ring(8, abi.StatusDone, abi.StatusEmpty, abi.StatusEmpty, abi.StatusPublished, abi.StatusPublished, abi.StatusEmpty, abi.StatusDone, abi.StatusEmpty)
	for s, op := range map[int]uint32{0: abi.OpSpin, 3: 0x10, 4: abi.OpNop, 6: 0x10} {
		binary.LittleEndian.PutUint32(r[s*SlotBytes+abi.SlotOpcode*abi.WordBytes:], op)
	}
	c := diagnose.Cause{Kind: diagnose.DeviceLost}
	c.Evidence.AddText("reason", "runaway submission")
	c.Evidence.Add("inFlight", 1)
	c.Evidence.AddText("opcode", "square")
	return &frame.Frame{Seq: 9, AtMillis: 2038.5,
		Diagnosis: &diagnose.Diagnosis{Health: diagnose.Lost, Causes: []diagnose.Cause{c}},
		Raw:       frame.Raw{Control: control(3, 8, 2, 1), Ring: r, Published: 4}}
}

// TestNewHangNamesARunawaysSuspects: on a runaway the dump predates the
// submission that ran away, so no record and no CLAIMED slot is the
// culprit; the report names the opcodes in flight and the dump's slots
// that could run them, and a hang capture's replay rebuilds the same.
func TestNewHangNamesARunawaysSuspects(t *testing.T) {
	tt := taskSample()
	h := NewHang(runawayFrame(), tt)
	assert.Empty(t, h.Running, "nothing CLAIMED at the dump")
	assert.Equal(t, []string{"square"}, h.InFlight)
	assert.Equal(t, []HangTask{{Slot: 3, Opcode: 0x10, Name: "square", Status: decode.StatusPublished}}, h.Suspects)
	assert.Equal(t, "in flight: square; suspects, the dump's slots that hold them (1): slot 3 square PUBLISHED", h.SuspectText())

	tt.Hang = h
	b, err := Encode(HangCapture(Header{Ringscope: "test", UserOpcodes: []NamedOpcode{{Opcode: 0x10, Name: "square"}}}, tt))
	require.NoError(t, err)
	c, err := Decode(b)
	require.NoError(t, err)
	require.NotNil(t, c.Tasks.Hang)
	assert.Equal(t, h.InFlight, c.Tasks.Hang.InFlight, "the replay reads them from the dump")
	assert.Equal(t, h.Suspects, c.Tasks.Hang.Suspects)
	assert.Equal(t, h.SuspectText(), c.Tasks.Hang.SuspectText())

	stalled := NewHang(stalledFrame(), taskSample())
	assert.Nil(t, stalled.InFlight, "a stall has no submission in flight")
	assert.Empty(t, stalled.SuspectText())
}

// TestNewHangInFlightNone: a device lost whose dump holds no user opcode
// that could run names none; the opcodes in flight are read from the dump,
// live as in a replay, so both report the same (the verdict's evidence
// lists only the first three).
func TestNewHangInFlightNone(t *testing.T) {
	f := runawayFrame()
	binary.LittleEndian.PutUint32(f.Raw.Ring[3*SlotBytes+abi.SlotStatus*abi.WordBytes:], abi.StatusDone)
	c := diagnose.Cause{Kind: diagnose.DeviceLost}
	c.Evidence.Add("inFlight", 0)
	f.Diagnosis.Causes = []diagnose.Cause{c}
	h := NewHang(f, taskSample())
	assert.Empty(t, h.InFlight)
	assert.Empty(t, h.Suspects)
	assert.Equal(t, "in flight: no user opcode", h.SuspectText())

	// Five user opcodes pending: all five, though evidence names three.
	f = runawayFrame()
	tt := taskSample()
	names := map[uint32]string{0x10: "square", 0x11: "a", 0x12: "b", 0x13: "c", 0x14: "d"}
	tt.Name = func(op uint32) string { return names[op] }
	for s, op := range map[int]uint32{1: 0x11, 2: 0x12, 5: 0x13, 7: 0x14} {
		binary.LittleEndian.PutUint32(f.Raw.Ring[s*SlotBytes+abi.SlotOpcode*abi.WordBytes:], op)
		binary.LittleEndian.PutUint32(f.Raw.Ring[s*SlotBytes+abi.SlotStatus*abi.WordBytes:], abi.StatusPublished)
	}
	h = NewHang(f, tt)
	assert.Len(t, h.InFlight, 5)
	assert.Len(t, h.Suspects, 5)
}
