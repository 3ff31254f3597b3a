package capture

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// The page's recorder (NewPageRecorder) at the page's scale: five
// minutes held, the occupancy of compact frames under patches, and what a
// frame costs it.

// Five minutes of the page's frames stay in the page's recorder: at 60
// frames a second, each with the page's control buffer (256 observable
// words) and log (1,024 records), quiet or with faults in every frame.
func TestPageRecorderHoldsFiveMinutes(t *testing.T) {
	if testing.Short() {
		t.Skip("18,000 frames")
	}
	const slots, fps, seconds = 4096, 60, 310
	for _, faults := range []bool{false, true} {
		r := NewPageRecorder()
		f := Frame{Generation: 1, Control: make([]byte, abi.ControlWords(256)*abi.WordBytes),
			Ring: ring(slots, abi.StatusDone, abi.StatusPublished), Log: logBuf(1024), Meta: Meta{Dispatch: &Dispatch{}}}
		copy(f.Control, control(1, slots, 0, 0))
		if faults {
			f.Log = logBuf(1024, faultRec(abi.FaultBadTenant, 1), faultRec(abi.FaultBadTenant, 2))
		}
		for seq := uint64(1); seq <= fps*seconds; seq++ {
			f.Seq, f.AtMillis = seq, float64(seq)*1000/fps
			abi.PutWord(f.Control, abi.CtrlDoneCount, uint32(seq))
			require.True(t, r.Record(&f))
			require.LessOrEqual(t, r.Bytes(), DefaultMaxBytes)
		}
		cov := CoverageOf(r.Frames())
		assert.GreaterOrEqual(t, cov.SpanMillis, 300_000.0, "faults %v: %+v", faults, cov)
		assert.Greater(t, r.Compact(), 1000, "faults %v", faults)
		assert.Greater(t, r.Len()-r.Compact(), 20, "faults %v: the newest frames are whole", faults)
		newest := cov.Runs[len(cov.Runs)-1]
		assert.True(t, newest.Slots)
		assert.EqualValues(t, 1, newest.Every)
		t.Logf("faults %v: %d frames (%d compact) in %d bytes, span %.0f s, %d runs", faults, r.Len(), r.Compact(),
			r.Bytes(), cov.SpanMillis/1000, len(cov.Runs))
	}
}

// BenchmarkPageRecorder is the page's recorder at its steady state on the
// default 65,536-slot ring under full readback: every frame a whole ring
// copied in, the oldest whole frame compacted into the history.
func BenchmarkPageRecorder(b *testing.B) {
	b.Run("history", func(b *testing.B) { benchRecorder(b, NewPageRecorder()) })
	b.Run("none", func(b *testing.B) {
		benchRecorder(b, NewRecorder(DefaultMaxFrames, DefaultMaxBytes-DefaultHistoryBytes))
	})
}

func benchRecorder(b *testing.B, r *Recorder) {
	const slots = 65536
	f := Frame{Generation: 1, Control: make([]byte, abi.ControlWords(256)*abi.WordBytes),
		Ring: ring(slots, abi.StatusDone, abi.StatusPublished), Log: logBuf(1024, faultRec(abi.FaultBadTenant, 1)),
		Meta: Meta{Dispatch: &Dispatch{}}}
	copy(f.Control, control(1, slots, 0, 0))
	seq := uint64(0)
	record := func() {
		seq++
		f.Seq, f.AtMillis = seq, float64(seq)*30
		r.Record(&f)
	}
	for range 200 {
		record()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		record()
	}
}

// Under summary readback the recorder's frames are patches: each compact
// frame's occupancy, carried from patch to patch as the oldest whole frame
// is evicted, is its ring's, unknown statuses included.
func TestHistoryOccupancyFollowsPatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	whole := evolving(rng, 200, true)
	for i := range whole.Frames {
		if r := whole.Frames[i].Ring; r != nil && i%7 == 0 {
			abi.PutWord(r[(i%24)*SlotBytes:], abi.SlotStatus, 9+uint32(i)) // unknown
		}
	}
	rec := NewRecorder(5, 1<<20)
	rec.KeepHistory(1000, 1<<20)
	for i := range whole.Frames {
		f := whole.Frames[i]
		if prev := whole.Frames[max(i-1, 0)]; i > 0 && f.Ring != nil && prev.Ring != nil && prev.Generation == f.Generation {
			f.Patch, f.Ring = mustPatch(f.Ring, diffRuns(prev.Ring, f.Ring)), nil
		}
		require.True(t, rec.Record(&f), "frame %d", i)
	}
	require.Greater(t, rec.Compact(), 150)
	for i := range rec.Compact() {
		c := rec.At(i)
		truth := whole.Frames[c.Seq-1].Ring
		if truth == nil {
			assert.Nil(t, c.Meta.Occupancy, "seq %d had no ring", c.Seq)
			continue
		}
		want, err := decode.CountOccupancy(truth)
		require.NoError(t, err)
		require.NotNil(t, c.Meta.Occupancy, "seq %d", c.Seq)
		require.Equal(t, want, c.Meta.Occupancy.Ring(), "seq %d", c.Seq)
	}
}

// BenchmarkPageRecorderPatches is the page's recorder under summary
// readback: every frame a patch of 4,096 slots of a 65,536-slot ring.
func BenchmarkPageRecorderPatches(b *testing.B) {
	const slots, changed = 65536, 4096
	r := NewPageRecorder()
	cur := ring(slots, abi.StatusDone, abi.StatusPublished)
	f := Frame{Generation: 1, Control: make([]byte, abi.ControlWords(256)*abi.WordBytes), Meta: Meta{Dispatch: &Dispatch{}}}
	copy(f.Control, control(1, slots, 0, 0))
	seq := uint64(0)
	var patch []byte
	record := func() {
		seq++
		f.Seq, f.AtMillis = seq, float64(seq)*16
		first := uint32(seq*changed) % slots
		for s := first; s < first+changed; s++ {
			abi.PutWord(cur[int(s)*SlotBytes:], abi.SlotStatus, uint32(seq+uint64(s))%abi.StatusCount)
		}
		f.Ring, f.Patch = nil, nil
		if seq == 1 {
			f.Ring = cur
		} else {
			patch = mustAppendPatch(patch[:0], cur, []SlotRun{{First: first, Count: changed}})
			f.Patch = patch
		}
		r.Record(&f)
	}
	for range 600 {
		record()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		record()
	}
}

func mustAppendPatch(dst, ring []byte, runs []SlotRun) []byte {
	p, err := AppendPatch(dst, ring, runs)
	if err != nil {
		panic(err)
	}
	return p
}
