package capture

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/diagnose"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// liveFrames are n frames as the session hands them to its observers:
// each a fresh ring state with DONE_COUNT = 10·seq, slot seq % 8 changed
// (the only slot in ChangedSlots), patchable but the first.
func liveFrames(t *testing.T, n int) []*frame.Frame {
	t.Helper()
	var out []*frame.Frame
	ring := ring(8)
	for seq := 1; seq <= n; seq++ {
		control := control(1, 8, uint32(10*seq), uint32(seq))
		slot := seq % 8
		abi.PutWord(ring[slot*abi.SlotBytes:], abi.SlotStatus, abi.StatusDone)
		abi.PutWord(ring[slot*abi.SlotBytes:], abi.SlotOpcode, uint32(seq))
		var tel decode.RingTelemetry
		var scratch decode.DecodeScratch
		require.NoError(t, decode.DecodeInto(&tel, &scratch, control, ring, nil))
		disp := decode.MegakernelTelemetry{KernelLaunches: 2, BytesReadBack: 64}
		var store frame.Store // each frame its own storage, as if copied
		f := store.Assemble(&frame.Parts{Seq: uint64(seq), AtMillis: float64(16 * seq), Ring: &tel, Dispatch: &disp,
			SketchDepth: 2, SketchWidth: 16, Timings: frame.Timings{RoundTripMS: 1.5},
			Raw: frame.Raw{Control: clone(control), Ring: clone(ring), Patchable: seq > 1,
				ChangedSlots: []frame.SlotRun{{First: uint32(slot), Count: 1}}, Published: uint64(seq)}})
		out = append(out, f)
	}
	return out
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }

func TestStudioRecordsLiveFramesAsPatchesAndReplaysThem(t *testing.T) {
	s := NewStudio("test", 2, 16)
	frames := liveFrames(t, 6)
	for _, f := range frames {
		assert.False(t, s.Observe(f))
	}
	info := s.Info()
	assert.Equal(t, 6, info.Frames)
	assert.False(t, info.Replaying)
	rec := s.rec.Frames()
	assert.NotNil(t, rec[0].Ring, "the first frame is whole")
	for i := 1; i < 6; i++ {
		assert.Nil(t, rec[i].Ring, "frame %d is a patch", i)
		assert.NotNil(t, rec[i].Patch)
	}

	// Each replayed frame is the live one: its ring, its counters.
	require.NoError(t, s.ReplayRecording(true))
	for i, live := range frames {
		f, hist, err := s.Show(i, 4)
		require.NoError(t, err)
		assert.Equal(t, live.Seq, f.Seq)
		assert.Equal(t, live.Ring.Control.DoneCount, f.Ring.Control.DoneCount)
		assert.Equal(t, live.Ring.Slots, f.Ring.Slots, "frame %d's slots, patched from frame 0", i)
		assert.Len(t, hist, min(i, 4))
		if i > 0 {
			assert.Equal(t, frames[i-1].Seq, hist[len(hist)-1].Seq, "the history ends just before the frame")
		}
		assert.True(t, s.Showing(i))
	}
	// A live frame during a replay is counted, not recorded.
	assert.True(t, s.Observe(liveFrames(t, 7)[6]))
	assert.Equal(t, 6, s.Info().Frames)
	last, was, left := s.BackToLive()
	assert.True(t, left)
	assert.True(t, was, "the live loop ran before the replay")
	assert.Equal(t, uint64(6), last.Seq, "the last frame recorded before the replay")
	_, _, left = s.BackToLive()
	assert.False(t, left)
}

func TestStudioRecordsNothingWhenOff(t *testing.T) {
	s := NewStudio("test", 2, 16)
	s.SetRecording(false)
	for _, f := range liveFrames(t, 3) {
		s.Observe(f)
	}
	assert.Zero(t, s.Info().Frames)
	assert.ErrorIs(t, s.ReplayRecording(false), errNothingRecorded)
	// The run's totals still count every frame: the metrics do not shrink.
	b, _, err := s.Export(ExportPrometheus, time.Unix(0, 0))
	require.NoError(t, err)
	assert.Contains(t, string(b), "dispatches_total 3")
}

func TestStudioExportsRoundTrip(t *testing.T) {
	s := NewStudio("v1.2", 2, 16)
	s.SetAdapter(&Adapter{Vendor: "test"})
	s.SetUserOpcodes([]NamedOpcode{{Opcode: 0x40, Name: "square"}})
	frames := liveFrames(t, 4)
	for _, f := range frames {
		s.Observe(f)
	}
	now := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	b, name, err := s.Export(ExportCapture, now)
	require.NoError(t, err)
	assert.Equal(t, "ringscope-20261203-090000.rscap", name)
	c, err := Decode(b)
	require.NoError(t, err)
	assert.Equal(t, "v1.2", c.Header.Ringscope)
	assert.Equal(t, "test", c.Header.Adapter.Vendor)
	assert.Equal(t, []NamedOpcode{{Opcode: 0x40, Name: "square"}}, c.Header.UserOpcodes)
	assert.Len(t, c.Frames, 4)

	// The import replays as the recording did, and its metrics are its own.
	require.NoError(t, s.Import(c, name, false))
	assert.Equal(t, Info{Frames: 4, MaxFrames: s.rec.MaxFrames(), Bytes: s.rec.Bytes(), MaxBytes: s.rec.MaxBytes(),
		Recording: true, Replaying: true, Source: name, Count: 4, FirstSeq: frames[0].Seq, LastSeq: frames[3].Seq,
		SpanMillis: frames[3].AtMillis - frames[0].AtMillis}, s.Info(), "Info is the recording's, whatever is replayed")
	f, _, err := s.Show(3, 8)
	require.NoError(t, err)
	assert.Equal(t, frames[3].Ring.Slots, f.Ring.Slots)
	var d Decoded
	sum, err := s.Decode(2, &d)
	require.NoError(t, err)
	assert.Equal(t, uint64(3), sum.Seq)
	assert.Equal(t, uint32(30), d.Ring.Control.DoneCount)
	_, err = s.Decode(9, &d)
	assert.ErrorContains(t, err, "out of range")
	_, _, err = s.Show(9, 1)
	assert.ErrorContains(t, err, "out of range")
	assert.Contains(t, s.Bar().Notice, "imported "+name+": 4 frames")

	_, _, err = s.Export("nope", now)
	assert.ErrorContains(t, err, `unknown kind "nope"`)
	s.Exported(ExportTrace, "x.json", "1.00 KiB", nil)
	assert.Equal(t, "exported x.json (1.00 KiB)", s.Bar().Notice)
}

// A verdict given in place to the last live frame (a loss: no frame is
// read back) reaches the metrics; one given to an older frame does not.
func TestStudioMetricsFollowAVerdictGivenInPlace(t *testing.T) {
	s := NewStudio("test", 2, 16)
	frames := liveFrames(t, 3)
	for _, f := range frames {
		f.Diagnosis = &diagnose.Diagnosis{Health: diagnose.Progressing}
		s.Observe(f)
	}
	lost := &diagnose.Diagnosis{Health: diagnose.Lost, Causes: []diagnose.Cause{{Kind: diagnose.DeviceLost, Subject: diagnose.NoSubject}}}
	frames[1].Diagnosis = lost
	b, _, err := s.Export(ExportPrometheus, time.Unix(0, 0))
	require.NoError(t, err)
	assert.Contains(t, string(b), `ringscope_cause{kind="device-lost"} 0`, "not the last frame: not the page's verdict")

	lost.CopyInto(frames[2].Diagnosis)
	b, _, err = s.Export(ExportPrometheus, time.Unix(0, 0))
	require.NoError(t, err)
	assert.Contains(t, string(b), `ringscope_health{ringscope_health="lost"} 1`)
	assert.Contains(t, string(b), `ringscope_cause{kind="device-lost"} 1`)
}

// A frame whose control buffer a host overwrote (MAGIC not RSC1) is not
// recorded: the recording around it still exports and decodes.
func TestStudioLeavesAForeignFrameOutOfTheRecording(t *testing.T) {
	s := NewStudio("test", 2, 16)
	frames := liveFrames(t, 6)
	frames[3].Ring.Control.Magic = 0xDEADBEEF
	abi.PutWord(frames[3].Raw.Control, abi.CtrlMagic, 0xDEADBEEF)
	for _, f := range frames {
		s.Observe(f)
	}
	assert.Equal(t, 5, s.Info().Frames)
	b, _, err := s.Export(ExportCapture, time.Unix(0, 0))
	require.NoError(t, err, "one foreign frame must not make the recording unexportable")
	c, err := Decode(b)
	require.NoError(t, err)
	require.Len(t, c.Frames, 5)
	assert.Equal(t, []uint64{1, 2, 3, 5, 6}, []uint64{c.Frames[0].Seq, c.Frames[1].Seq, c.Frames[2].Seq, c.Frames[3].Seq, c.Frames[4].Seq})
}
