package capture

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// diffRuns is the runs of slots where a and b differ: what the page's
// change tracking gives AppendPatch, computed the slow way.
func diffRuns(a, b []byte) []SlotRun {
	var runs []SlotRun
	for s := 0; s < len(b)/SlotBytes; s++ {
		if bytes.Equal(a[s*SlotBytes:(s+1)*SlotBytes], b[s*SlotBytes:(s+1)*SlotBytes]) {
			continue
		}
		if n := len(runs); n > 0 && runs[n-1].First+runs[n-1].Count == uint32(s) {
			runs[n-1].Count++
		} else {
			runs = append(runs, SlotRun{First: uint32(s), Count: 1})
		}
	}
	return runs
}

// evolving returns n frames of a live ring that changes in a few random
// slots a frame, as whole rings, with a new generation (and ring size) at
// frame n/2 and one frame without a ring (at n/3) when gap is set.
func evolving(rng *rand.Rand, n int, gap bool) *Capture {
	c := &Capture{Header: Header{Ringscope: "test", Source: SourceLive, WindowOpcodes: []uint32{0x100}}}
	gen, slots := 2, 24
	cur := ring(slots, abi.StatusEmpty)
	for i := range n {
		if i == n/2 {
			gen, slots = 3, 40
			cur = ring(slots, abi.StatusPublished, abi.StatusEmpty)
		}
		for range rng.IntN(6) {
			s := rng.IntN(slots)
			w := cur[s*SlotBytes:]
			binary.LittleEndian.PutUint32(w[abi.SlotStatus*4:], rng.Uint32N(abi.StatusCount))
			binary.LittleEndian.PutUint32(w[abi.SlotOpcode*4:], rng.Uint32N(4))
			binary.LittleEndian.PutUint32(w[abi.SlotArg0*4:], rng.Uint32())
		}
		f := Frame{Seq: uint64(i + 1), AtMillis: float64(16 * i), Generation: uint32(gen),
			Control: control(gen, uint32(slots), uint32(i), uint32(i)), Ring: append([]byte(nil), cur...)}
		if gap && i == n/3 {
			f.Ring = nil
		}
		c.Frames = append(c.Frames, f)
	}
	return c
}

// patched is c with every frame whose predecessor holds a ring of its
// generation turned into a patch of it.
func patched(c *Capture) *Capture {
	out := &Capture{Header: c.Header, Frames: append([]Frame(nil), c.Frames...)}
	for i := 1; i < len(out.Frames); i++ {
		prev, f := &c.Frames[i-1], &out.Frames[i]
		if f.Ring != nil && prev.Ring != nil && prev.Generation == f.Generation {
			f.Patch = mustPatch(f.Ring, diffRuns(prev.Ring, f.Ring))
			f.Ring = nil
		}
	}
	return out
}

// decodedAll decodes every frame of c's replay in the order given.
func decodedAll(t *testing.T, c *Capture, order []int) []Decoded {
	t.Helper()
	r, err := NewReplay(c)
	require.NoError(t, err)
	out := make([]Decoded, len(c.Frames))
	for _, i := range order {
		require.NoError(t, r.Decode(i, &out[i]), "frame %d", i)
	}
	return out
}

func TestPatchesReplayTheWholeRings(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for round := range 20 {
		whole := evolving(rng, 24, round%2 == 1)
		p := patched(whole)
		patches := 0
		for _, f := range p.Frames {
			if f.Patch != nil {
				patches++
			}
		}
		require.Positive(t, patches)

		b, err := Encode(p)
		require.NoError(t, err)
		require.EqualValues(t, Version, binary.LittleEndian.Uint32(b[8:]), "patches are version 2")
		back, err := Decode(b)
		require.NoError(t, err)
		assert.Equal(t, p.Frames, back.Frames, "round %d: the patches round-trip", round)
		wb, err := Encode(whole)
		require.NoError(t, err)
		assert.Less(t, len(b), len(wb), "patches are smaller than whole rings")

		forward := make([]int, len(whole.Frames))
		for i := range forward {
			forward[i] = i
		}
		want := decodedAll(t, whole, forward)
		shuffled := append([]int(nil), forward...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		for _, order := range [][]int{forward, shuffled} {
			got := decodedAll(t, back, order)
			for i := range want {
				require.Equal(t, want[i].Ring, got[i].Ring, "round %d frame %d", round, i)
				require.Equal(t, want[i].RingFrom, got[i].RingFrom, "round %d frame %d", round, i)
			}
		}
		rw, err := NewReplay(whole)
		require.NoError(t, err)
		rp, err := NewReplay(back)
		require.NoError(t, err)
		for i := range whole.Frames {
			assert.Equal(t, *rw.Summary(i), *rp.Summary(i), "round %d frame %d summary", round, i)
		}
	}
}

func TestDecodePatchMalformed(t *testing.T) {
	base := patched(evolving(rand.New(rand.NewPCG(1, 2)), 6, false))
	le := binary.LittleEndian
	tests := []struct {
		name  string
		edit  func(c *Capture)
		frame int
		msg   string
	}{
		{"no frame before", func(c *Capture) { c.Frames = c.Frames[1:] }, 0, "carries no ring of generation 2 to patch"},
		{"after a ringless frame", func(c *Capture) { c.Frames[1].Patch, c.Frames[1].Ring = nil, nil }, 2, "carries no ring"},
		{"short", func(c *Capture) { c.Frames[1].Patch = []byte{1} }, 1, "shorter than the 4-byte run count"},
		{"too many runs", func(c *Capture) { c.Frames[1].Patch = le.AppendUint32(nil, 1000) }, 1, "1000 runs do not fit"},
		{"empty run", func(c *Capture) { c.Frames[1].Patch = le.AppendUint32(le.AppendUint32(le.AppendUint32(nil, 1), 3), 0) }, 1, "run 0 is empty"},
		{"past the ring", func(c *Capture) {
			c.Frames[1].Patch = append(le.AppendUint32(le.AppendUint32(le.AppendUint32(nil, 1), 23), 2), make([]byte, 128)...)
		}, 1, "runs past the 24-slot ring"},
		{"overlapping", func(c *Capture) {
			p := le.AppendUint32(nil, 2)
			p = le.AppendUint32(le.AppendUint32(p, 3), 2)
			p = le.AppendUint32(le.AppendUint32(p, 4), 1)
			c.Frames[1].Patch = append(p, make([]byte, 3*SlotBytes)...)
		}, 1, "inside or before the previous run"},
		{"data short", func(c *Capture) {
			c.Frames[1].Patch = append(le.AppendUint32(le.AppendUint32(le.AppendUint32(nil, 1), 0), 2), make([]byte, 100)...)
		}, 1, "but 1 runs of slots make 140"},
	}
	both := &Capture{Header: base.Header, Frames: append([]Frame(nil), base.Frames...)}
	both.Frames[1].Ring = both.Frames[0].Ring
	_, err := Encode(both)
	assert.ErrorContains(t, err, "frame 1: flags: both the ring and the ring patch flag are set")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Capture{Header: base.Header, Frames: append([]Frame(nil), base.Frames...)}
			tt.edit(c)
			_, err := Encode(c)
			var fe *FormatError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, tt.frame, fe.Frame, err.Error())
			assert.Equal(t, "ring patch", fe.Field, err.Error())
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
	// Decode names the same problem at its offset in the file.
	good, err := Encode(base)
	require.NoError(t, err)
	o := frameOffset(good, 1)
	rec := good[o+4:]
	patchAt := o + 4 + FrameFixedBytes + int(le.Uint32(rec[24:])) + int(le.Uint32(rec[28:]))
	bad := append([]byte(nil), good...)
	le.PutUint32(bad[patchAt:], 1000)
	_, err = Decode(bad)
	var fe *FormatError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "ring patch", fe.Field)
	assert.EqualValues(t, patchAt, fe.Offset, err.Error())
}

func TestAppendPatchRefusesBadRuns(t *testing.T) {
	r := ring(4)
	for _, runs := range [][]SlotRun{{{First: 3, Count: 2}}, {{First: 2, Count: 1}, {First: 1, Count: 1}}, {{First: 0, Count: 0}}} {
		p, err := AppendPatch([]byte{7}, r, runs)
		assert.Error(t, err, "%v", runs)
		assert.Equal(t, []byte{7}, p, "refused: dst unchanged")
	}
	runs := []SlotRun{{First: 0, Count: 1}, {First: 2, Count: 2}}
	p := mustPatch(r, runs)
	assert.Len(t, p, PatchBytes(runs))
	assert.NoError(t, checkPatch(p, 4))
}

// mustPatch is AppendPatch for runs that are right.
func mustPatch(ring []byte, runs []SlotRun) []byte {
	p, err := AppendPatch(nil, ring, runs)
	if err != nil {
		panic(err)
	}
	return p
}

// TestRecorderRebasesPatches records whole rings as patches under tight
// bounds: whatever it holds replays the rings recorded, the oldest frame
// held always has a whole ring, and the storage stays within its bound.
func TestRecorderRebasesPatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	whole := evolving(rng, 60, true)
	for _, bound := range []struct{ frames, bytes int }{{7, 1 << 20}, {600, 24 * 1024}} {
		rec := NewRecorder(bound.frames, bound.bytes)
		var recorded []Frame // the whole-ring frames the recorder took
		for i := range whole.Frames {
			f := whole.Frames[i]
			if n := rec.Len(); i > 0 && f.Ring != nil && n > 0 && rec.At(n-1).Seq == whole.Frames[i-1].Seq &&
				whole.Frames[i-1].Ring != nil && whole.Frames[i-1].Generation == f.Generation {
				f.Patch, f.Ring = mustPatch(f.Ring, diffRuns(whole.Frames[i-1].Ring, f.Ring)), nil
			}
			if rec.Record(&f) {
				recorded = append(recorded, whole.Frames[i])
			}
			held := rec.Frames()
			require.NotEmpty(t, held)
			require.True(t, held[0].Patch == nil, "frame %d: the oldest held has no patch", i)
			total := 0
			for k := range held {
				total += frameBytes(&held[k])
			}
			require.Equal(t, total, rec.Bytes(), "frame %d: bytes accounted", i)
			require.LessOrEqual(t, rec.Bytes(), bound.bytes)

			c := &Capture{Header: whole.Header, Frames: held}
			want := &Capture{Header: whole.Header, Frames: recorded[len(recorded)-len(held):]}
			order := make([]int, len(held))
			for k := range order {
				order[k] = k
			}
			got, exp := decodedAll(t, c, order), decodedAll(t, want, order)
			for k := range got {
				require.Equal(t, exp[k].Ring, got[k].Ring, "bound %v, after frame %d: held frame %d", bound, i, k)
			}
		}
		assert.Positive(t, rec.Dropped(), "bound %v evicted frames", bound)
	}

	// A patch that does not apply to the newest frame is refused.
	rec := NewRecorder(10, 1<<20)
	f0 := whole.Frames[0]
	require.True(t, rec.Record(&f0))
	p := Frame{Seq: 2, AtMillis: 20, Generation: 9, Control: f0.Control, Patch: mustPatch(f0.Ring, nil)}
	assert.False(t, rec.Record(&p), "another generation")
	p.Generation = f0.Generation
	p.Patch = le32(1, 30, 1)
	assert.False(t, rec.Record(&p), "past the ring")
	assert.Equal(t, uint64(2), rec.Skipped())
	assert.Equal(t, 1, rec.Len())
}

// BenchmarkNewReplay opens the replay of a summary recording: one whole
// 65,536-slot ring, then 99 patches of 8,192 changed slots (what the page
// records at 4,096 items a frame).
func BenchmarkNewReplay(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	const slots = 65536
	cur := ring(slots, abi.StatusEmpty)
	c := &Capture{Header: Header{Ringscope: "bench", Source: SourceLive, WindowOpcodes: []uint32{0x100}}}
	for i := range 100 {
		var runs []SlotRun
		if i > 0 {
			first := rng.Uint32N(slots - 8192)
			runs = []SlotRun{{First: first, Count: 8192}}
			for s := first; s < first+8192; s++ {
				binary.LittleEndian.PutUint32(cur[int(s)*SlotBytes:], rng.Uint32N(abi.StatusCount))
			}
		}
		f := Frame{Seq: uint64(i + 1), AtMillis: float64(i), Generation: 2, Control: control(2, slots, uint32(i), uint32(i))}
		if i == 0 {
			f.Ring = append([]byte(nil), cur...)
		} else {
			f.Patch = mustPatch(cur, runs)
		}
		c.Frames = append(c.Frames, f)
	}
	for b.Loop() {
		if _, err := NewReplay(c); err != nil {
			b.Fatal(err)
		}
	}
}
