package capture

import (
	"math/bits"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// compactFrame is frame seq as the whole tier evicts it: a control buffer
// whose DONE_COUNT is seq, a ring, a log with records when faults, and a
// dispatch whose KernelLaunches is seq.
func compactFrame(seq uint64, slots int, faults bool) Frame {
	f := Frame{Seq: seq, AtMillis: float64(seq) * 16, Generation: 1, Control: control(1, uint32(slots), uint32(seq), 0),
		Ring: ring(slots, abi.StatusDone, abi.StatusPublished, abi.StatusFault), Log: logBuf(16),
		Meta: Meta{Dispatch: &Dispatch{KernelLaunches: uint32(seq)}, Published: seq}}
	if faults {
		f.Log = logBuf(16, faultRec(abi.FaultBadTenant, 1))
	}
	return f
}

// strides checks the invariants of a thinned history and returns its seq
// steps, oldest first.
func strides(t *testing.T, h *history) []uint64 {
	t.Helper()
	var steps []uint64
	for i := 1; i < h.len(); i++ {
		a, b := h.frames[i-1].Seq, h.frames[i].Seq
		require.Greater(t, b, a, "seqs ascend")
		steps = append(steps, b-a)
	}
	for i := range h.frames {
		f := &h.frames[i]
		require.NotNil(t, f.Meta.Dispatch)
		assert.EqualValues(t, f.Seq, f.Meta.Dispatch.KernelLaunches, "frame %d keeps its own dispatch", f.Seq)
		assert.Same(t, &h.disp[i], f.Meta.Dispatch)
		assert.EqualValues(t, f.Seq, abi.Word(f.Control, abi.CtrlDoneCount), "frame %d keeps its own control", f.Seq)
	}
	return steps
}

func TestStride(t *testing.T) {
	for _, c := range []struct {
		age, band float64
		want      uint64
	}{{0, 100, 1}, {99.9, 100, 1}, {100, 100, 2}, {199, 100, 2}, {200, 100, 4}, {399, 100, 4}, {400, 100, 8},
		{100 << 20, 100, 1 << 21}, {1e300, 1, 1 << 62}, {5, 0, 1}, {-5, 100, 1}} {
		assert.Equal(t, c.want, stride(c.age, c.band), "age %v band %v", c.age, c.band)
	}
}

func TestHistoryKeepsCompactFrames(t *testing.T) {
	h := history{maxFrames: 8, maxBytes: 1 << 20}
	quiet, faulty := compactFrame(1, 8, false), compactFrame(2, 8, true)
	require.True(t, h.add(&quiet, nil))
	require.True(t, h.add(&faulty, nil))
	a, b := &h.frames[0], &h.frames[1]
	assert.Nil(t, a.Ring)
	assert.Nil(t, a.Patch)
	assert.Equal(t, quiet.Control, a.Control)
	assert.Nil(t, a.Log, "an empty log is not kept")
	assert.Equal(t, faulty.Log[:4], b.Log[:4], "a log with records is kept, its cursor as it was")
	var logA, logB decode.Log
	err := decode.DecodeLogInto(&logA, faulty.Log)
	require.NoError(t, err)
	err = decode.DecodeLogInto(&logB, b.Log)
	require.NoError(t, err)
	assert.Len(t, b.Log, 32, "its header and its one record")
	assert.Equal(t, logA.Records, logB.Records)
	assert.Zero(t, logB.Dropped)
	assert.EqualValues(t, 1, logB.Capacity, "its capacity is the records it holds")
	require.NotNil(t, a.Meta.Occupancy, "counted from the ring it had")
	assert.Equal(t, decode.RingOccupancy{decode.StatusDone: 3, decode.StatusPublished: 3, decode.StatusFault: 2}, a.Meta.Occupancy.Ring())
	assert.Equal(t, quiet.Meta.Published, a.Meta.Published)
	assert.Equal(t, 2*compactOverhead+len(quiet.Control)*2+32, h.bytes)

	// The compact frame owns its bytes.
	quiet.Control[0] ^= 0xff
	assert.NotEqual(t, quiet.Control[0], a.Control[0])

	// A frame that carries no ring and no occupancy has none.
	bare := compactFrame(3, 8, false)
	bare.Ring = nil
	require.True(t, h.add(&bare, nil))
	assert.Nil(t, h.frames[2].Meta.Occupancy)

	h.reset()
	assert.Zero(t, h.len())
	assert.Zero(t, h.bytes)
	assert.Equal(t, 8, h.maxFrames, "reset keeps the bounds")
	var none history
	assert.False(t, none.add(&quiet, nil), "the zero history keeps nothing")
}

func TestCompactLogBytes(t *testing.T) {
	full := logBuf(2, faultRec(1, 1), faultRec(1, 2))
	over := logBuf(2, faultRec(1, 1), faultRec(1, 2))
	abi.PutWord(over, abi.LogCursor, 9)
	for _, c := range []struct {
		name string
		log  []byte
		want int
	}{
		{"none", nil, 0}, {"short", make([]byte, 15), 0}, {"empty", logBuf(16), 0},
		{"some", logBuf(16, faultRec(1, 1), faultRec(1, 2)), 16 + 2*16}, {"full", full, len(full)},
		{"overflowed", over, len(over)},
		{"printf", logBuf(8, decode.LogRecord{Format: 3}, faultRec(1, 1), decode.LogRecord{Format: 4}), 16 + 16},
		{"printf only", logBuf(8, decode.LogRecord{Format: 3}), 16},
	} {
		assert.Equal(t, c.want, compactLogBytes(c.log), c.name)
		if c.want > 0 {
			assert.Len(t, appendCompactLog(nil, c.log), c.want, c.name)
		}
	}
}

// A compact log holds the fault records, and says the records it does not.
func TestCompactLogKeepsTheFaults(t *testing.T) {
	printf := decode.LogRecord{Format: 3, Slot: 9, A: 1, B: 2}
	log := logBuf(8, printf, faultRec(abi.FaultBadTenant, 1), printf, faultRec(abi.FaultUserFault, 2), printf)
	var got decode.Log
	err := decode.DecodeLogInto(&got, appendCompactLog([]byte{0xee}, log)[1:])
	require.NoError(t, err)
	assert.Equal(t, []decode.LogRecord{faultRec(abi.FaultBadTenant, 1), faultRec(abi.FaultUserFault, 2)}, got.Records)
	assert.EqualValues(t, 5, got.Cursor, "the log's cursor")
	assert.EqualValues(t, 2, got.Capacity, "the records it holds")
	assert.EqualValues(t, 3, got.Dropped, "the records it does not")
}

func TestHistoryThinsOlderFramesByStride(t *testing.T) {
	h := history{maxFrames: 1 << 20, maxBytes: 1 << 30, band: 1600} // 100 frames of 16 ms
	const n = 20_000
	for seq := uint64(1); seq <= n; seq++ {
		f := compactFrame(seq, 8, false)
		require.True(t, h.add(&f, nil))
	}
	h.thin(float64(n) * 16)
	steps := strides(t, &h)
	now := h.frames[h.len()-1].AtMillis
	for i := range h.frames {
		f := &h.frames[i]
		assert.Zero(t, f.Seq%stride(now-f.AtMillis, h.bandMS), "frame %d at age %v", f.Seq, now-f.AtMillis)
	}
	// Strides are powers of two that never grow toward the newest frame,
	// and the newest band is every frame.
	for i, s := range steps {
		assert.Equal(t, 1, bits.OnesCount64(s), "step %d is %d", i, s)
		if i > 0 {
			assert.LessOrEqual(t, s, steps[i-1], "step %d: older frames are no denser", i)
		}
	}
	for _, s := range steps[len(steps)-99:] {
		assert.EqualValues(t, 1, s)
	}
	assert.EqualValues(t, n, h.frames[h.len()-1].Seq)
	// The frames grow with the log of the span: 100 a band, 50 for each
	// band before.
	assert.Less(t, h.len(), 100+50*9)
	assert.Greater(t, h.len(), 100+50*6)
	// The span is the run's, less the few frames of the oldest stride.
	assert.LessOrEqual(t, h.frames[0].Seq, stride(float64(n)*16, h.bandMS))
	assert.EqualValues(t, n-h.len(), h.gone, "every frame not held was thinned")
	assert.EqualValues(t, 1600, h.bandMS, "within its bounds the band stays")
}

func TestHistoryThinsToItsByteBound(t *testing.T) {
	one := compactBytes(&Frame{Control: make([]byte, len(control(1, 8, 0, 0))), Log: make([]byte, 32)}) // one record
	h := history{maxFrames: 1 << 20, maxBytes: 40 * one}
	for seq := uint64(1); seq <= 2000; seq++ {
		f := compactFrame(seq, 8, true) // every log kept: the byte bound binds
		require.True(t, h.add(&f, nil))
		require.LessOrEqual(t, h.held(), h.maxBytes)
	}
	assert.LessOrEqual(t, h.len(), 40)
	assert.Greater(t, h.len(), 20, "thinning frees a quarter at a time, not everything")
	strides(t, &h)
	assert.Less(t, h.frames[0].Seq, uint64(2000/4), "the span is most of the run's")
	assert.Less(t, h.bandMS, float64(DefaultHistoryBandMillis), "the bound narrowed the band")

	// A frame larger than the bound is refused, the history untouched.
	big := compactFrame(3000, 8, true)
	big.Control = make([]byte, h.maxBytes)
	n := h.len()
	assert.False(t, h.add(&big, nil))
	assert.Equal(t, n, h.len())
}

// Seqs all multiples of a large power of two leave thinning nothing off
// its stride: it forgets the oldest instead of looping.
func TestHistoryThinTerminatesOnAlignedSeqs(t *testing.T) {
	h := history{maxFrames: 4, maxBytes: 1 << 20}
	for k := uint64(1); k <= 10; k++ {
		f := compactFrame(k<<40, 8, false)
		require.True(t, h.add(&f, nil))
		require.LessOrEqual(t, h.len(), 4)
	}
	assert.EqualValues(t, 10<<40, h.frames[h.len()-1].Seq)
}

// A full history reuses the storage of the frames it thins.
func TestHistorySteadyStateReusesStorage(t *testing.T) {
	h := history{maxFrames: 32, maxBytes: 1 << 20}
	seq := uint64(0)
	f := compactFrame(1, 8, true)
	f.Ring = nil
	f.Meta.Occupancy = &Occupancy{1, 2, 3}
	for range 200 {
		seq++
		f.Seq = seq
		h.add(&f, nil)
	}
	allocs := testing.AllocsPerRun(200, func() { seq++; f.Seq = seq; h.add(&f, nil) })
	assert.Zero(t, allocs)
}

// So does one that thins as it ages, many frames at a pass.
func TestHistoryThinningReusesStorage(t *testing.T) {
	h := history{maxFrames: 1 << 20, maxBytes: 1 << 30, band: 3200} // 200 frames of 16 ms
	f := compactFrame(1, 8, true)
	seq := uint64(0)
	add := func() {
		seq++
		f.Seq, f.AtMillis = seq, float64(seq)*16
		h.add(&f, nil)
	}
	for range 20_000 {
		add()
	}
	// A pass every len/8 frames drops about as many: more than 64.
	assert.Greater(t, h.len()/8, 64)
	assert.Zero(t, testing.AllocsPerRun(2000, add))
	assert.Less(t, h.len(), 1200, "thinned")
}

func TestRecorderKeepsHistory(t *testing.T) {
	const slots = 64
	one := len(compactFrame(1, slots, false).Ring) + len(control(1, slots, 0, 0)) + len(logBuf(16))
	r := NewRecorder(100, 3*one+10) // three whole frames
	r.KeepHistory(1000, 1<<20)
	for seq := uint64(1); seq <= 10; seq++ {
		f := compactFrame(seq, slots, seq == 4)
		require.True(t, r.Record(&f))
		require.LessOrEqual(t, r.Bytes(), r.MaxBytes())
	}
	require.Equal(t, 10, r.Len())
	assert.Equal(t, 7, r.Compact())
	assert.Zero(t, r.Dropped())
	assert.Equal(t, 1100, r.MaxFrames())
	assert.Equal(t, 3*one+10+1<<20, r.MaxBytes())
	for i := range 10 {
		f := r.At(i)
		assert.EqualValues(t, i+1, f.Seq)
		assert.Equal(t, i >= 7, f.Ring != nil, "frame %d: the newest three are whole", i)
	}
	assert.Nil(t, r.At(10))
	assert.Nil(t, r.At(-1))

	// The capture of it round-trips, and a compact frame replays its own
	// occupancy and counters without slots.
	c := &Capture{Header: Header{Source: SourceLive}, Frames: r.Frames()}
	b, err := Encode(c)
	require.NoError(t, err)
	back, err := Decode(b)
	require.NoError(t, err)
	require.Len(t, back.Frames, 10)
	assert.Equal(t, c.Frames[3].Log, back.Frames[3].Log)
	assert.Equal(t, *c.Frames[2].Meta.Occupancy, *back.Frames[2].Meta.Occupancy)
	assert.Equal(t, []CoverageRun{{FirstSeq: 1, LastSeq: 7, Frames: 7, Every: 1}, {FirstSeq: 8, LastSeq: 10, Frames: 3, Every: 1, Slots: true}},
		CoverageOf(back.Frames).Runs)
	rep, err := NewReplay(back)
	require.NoError(t, err)
	var d Decoded
	require.NoError(t, rep.Decode(2, &d))
	assert.Equal(t, decode.RingOccupancy{decode.StatusDone: 22, decode.StatusPublished: 21, decode.StatusFault: 21}, d.Ring.Occupancy)
	assert.Equal(t, decode.RingOccupancy{decode.StatusDone: 22, decode.StatusPublished: 21, decode.StatusFault: 21}, rep.Summary(2).Occupancy)
	assert.EqualValues(t, 3, d.Ring.Control.DoneCount)
	assert.Empty(t, d.Ring.Slots)
	assert.Equal(t, -1, rep.Summary(2).RingFrom)
	assert.True(t, rep.Summary(2).Compact)
	assert.False(t, rep.Summary(7).Compact, "a whole frame")

	r.Reset()
	assert.Zero(t, r.Len())
	assert.Equal(t, 1100, r.MaxFrames(), "reset keeps the history's bounds")
}

// Frames' meta point at their own dispatch and occupancy while the
// history grows, before any thinning pass (which repoints them too).
func TestHistoryMetaFollowsGrowth(t *testing.T) {
	h := history{maxFrames: 1000, maxBytes: 1 << 30}
	for seq := uint64(1); seq <= 60; seq++ {
		f := compactFrame(seq, 8, false)
		require.True(t, h.add(&f, nil))
	}
	for i := range h.frames {
		assert.Same(t, &h.disp[i], h.frames[i].Meta.Dispatch, "frame %d", i)
		assert.Same(t, &h.occ[i], h.frames[i].Meta.Occupancy, "frame %d", i)
		assert.EqualValues(t, i+1, h.frames[i].Meta.Dispatch.KernelLaunches)
	}
}

// A bound narrows the band; once the history is well within its bounds
// again, the band widens back to its own.
func TestHistoryBandNarrowsAndWidens(t *testing.T) {
	h := history{maxFrames: 1 << 20, maxBytes: 8 << 20, band: 1600}
	seq := uint64(0)
	add := func(n int, log []byte) {
		for range n {
			seq++
			f := compactFrame(seq, 8, false)
			f.Log = log
			require.True(t, h.add(&f, nil))
			require.LessOrEqual(t, h.held(), h.maxBytes)
		}
	}
	recs := make([]decode.LogRecord, 4096)
	for i := range recs {
		recs[i] = faultRec(abi.FaultBadTenant, uint32(i))
	}
	storm := logBuf(4096, recs...) // every record a fault: kept whole, 64 KiB
	add(200, storm)
	assert.Less(t, h.bandMS, 1600.0, "the byte bound narrowed the band")
	add(2000, nil)
	assert.EqualValues(t, 1600, h.bandMS, "quiet frames widen it back")
}
