package capture

import (
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// framesAt are frames of the seqs given, at 10 ms a seq; those of seq ≥
// slotsFrom carry a ring.
func framesAt(slotsFrom uint64, seqs ...uint64) []Frame {
	out := make([]Frame, len(seqs))
	for i, s := range seqs {
		out[i] = Frame{Seq: s, AtMillis: float64(s) * 10}
		if s >= slotsFrom {
			out[i].Ring = []byte{}
		}
	}
	return out
}

func TestCoverageOf(t *testing.T) {
	assert.Equal(t, Coverage{Runs: []CoverageRun{}}, CoverageOf(nil))
	c := CoverageOf(framesAt(20, 4, 8, 12, 14, 16, 17, 18, 20, 21, 22))
	assert.Equal(t, Coverage{Frames: 10, FirstSeq: 4, LastSeq: 22, FirstMillis: 40, LastMillis: 220, SpanMillis: 180, Missing: 9,
		Runs: []CoverageRun{
			{FirstSeq: 4, LastSeq: 12, Frames: 3, Every: 4},
			{FirstSeq: 14, LastSeq: 16, Frames: 2, Every: 2},
			{FirstSeq: 17, LastSeq: 18, Frames: 2, Every: 1},
			{FirstSeq: 20, LastSeq: 22, Frames: 3, Every: 1, Slots: true},
		}}, c)
	assert.Equal(t, 7, c.Compact())
	assert.Equal(t, "seq 4…22 over 0.2 s; 4…12 every 4th compact; 14…16 every 2nd compact; 17…18 every frame compact; 20…22 every frame with slots", c.String())
	assert.Equal(t, "seq 5…5 over 0.0 s; 5…5 every uneven step with slots", (&Coverage{Frames: 1, FirstSeq: 5, LastSeq: 5,
		Runs: []CoverageRun{{FirstSeq: 5, LastSeq: 5, Frames: 1, Slots: true}}}).String())
	assert.Equal(t, "no frames", (&Coverage{}).String())

	// Uneven steps past MaxCoverageRuns: the oldest become one run.
	var seqs []uint64
	s := uint64(1)
	for i := range 3 * MaxCoverageRuns {
		seqs = append(seqs, s)
		s += uint64(1 + i%2) // steps 1, 2, 1, 2 …: every pair its own run
	}
	c = CoverageOf(framesAt(1<<60, seqs...))
	require.Len(t, c.Runs, MaxCoverageRuns)
	assert.Zero(t, c.Runs[0].Every)
	assert.Equal(t, seqs[0], c.Runs[0].FirstSeq)
	total := 0
	for i, r := range c.Runs {
		total += r.Frames
		if i > 0 {
			assert.Greater(t, r.FirstSeq, c.Runs[i-1].LastSeq)
		}
	}
	assert.Equal(t, len(seqs), total, "every frame in one run")
	assert.Equal(t, seqs[len(seqs)-1], c.Runs[len(c.Runs)-1].LastSeq)
}

// The exports say which frames they cover.
func TestExportsSayWhatTheyCover(t *testing.T) {
	r := NewRecorder(100, 3*(len(compactFrame(1, 64, false).Ring)+len(control(1, 64, 0, 0))+len(logBuf(16)))+10)
	r.KeepHistory(1000, 1<<20)
	for seq := uint64(1); seq <= 10; seq++ {
		f := compactFrame(seq, 64, false)
		require.True(t, r.Record(&f))
	}
	c := &Capture{Header: Header{Source: SourceLive}, Frames: r.Frames()}

	b, err := Trace(c)
	require.NoError(t, err)
	var tf struct{ OtherData map[string]any }
	require.NoError(t, json.Unmarshal(b, &tf))
	assert.EqualValues(t, 1, tf.OtherData["firstSeq"])
	assert.EqualValues(t, 10, tf.OtherData["lastSeq"])
	assert.EqualValues(t, 144, tf.OtherData["spanMillis"])
	assert.EqualValues(t, 7, tf.OtherData["compactFrames"])
	assert.EqualValues(t, 0, tf.OtherData["missingFrames"])
	assert.Equal(t, "seq 1…10 over 0.1 s; 1…7 every frame compact; 8…10 every frame with slots", tf.OtherData["coverage"])

	m, err := OpenMetrics(c)
	require.NoError(t, err)
	for _, line := range []string{"ringscope_capture_first_seq 1\n", "ringscope_capture_last_seq 10\n",
		"ringscope_capture_span_seconds 0.144\n", "ringscope_capture_missing_frames 0\n", "ringscope_capture_compact_frames 7\n",
		"# UNIT ringscope_capture_span_seconds seconds\n"} {
		assert.Contains(t, string(m), line)
	}

	f, err := Encode(c)
	require.NoError(t, err)
	var h struct{ Coverage Coverage }
	require.NoError(t, json.Unmarshal(f[FilePrefixBytes:FilePrefixBytes+binary.LittleEndian.Uint32(f[12:])], &h))
	assert.Equal(t, CoverageOf(c.Frames), h.Coverage)
	_, err = Decode(f)
	require.NoError(t, err)
}
