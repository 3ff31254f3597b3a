package ref

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// nativeIndex is decode's CountMinSketch.Index written with Go's uint64.
func nativeIndex(row, width, key uint32) uint32 {
	v := uint64(key) ^ uint64(row)*0x9E3779B97F4A7C15
	v += 0x9E3779B97F4A7C15
	v = (v ^ v>>30) * 0xBF58476D1CE4E5B9
	v = (v ^ v>>27) * 0x94D049BB133111EB
	v ^= v >> 31
	return row*width + uint32(v%uint64(width))
}

// The vectors of reference §5.7 (absolute counter indices).
func TestSketchIndexVectors(t *testing.T) {
	for _, v := range []struct {
		key      uint32
		splitmix uint64
		d4w128   [4]uint32
		d3w16    [3]uint32
	}{
		{0, 0xE220A8397B1DCDAF, [4]uint32{47, 244, 335, 492}, [3]uint32{15, 20, 47}},
		{1, 0x910A2DEC89025CC1, [4]uint32{65, 201, 350, 466}, [3]uint32{1, 25, 46}},
		{7, 0x63CBE1E459320DD7, [4]uint32{87, 129, 257, 450}, [3]uint32{7, 17, 33}},
		{99, 0x42F3A9364C476BE3, [4]uint32{99, 210, 341, 408}, [3]uint32{3, 18, 37}},
	} {
		h := splitmix64(u64{v.key, 0})
		assert.Equal(t, v.splitmix, uint64(h.hi)<<32|uint64(h.lo), "splitmix64(%d)", v.key)
		for row, want := range v.d4w128 {
			assert.Equal(t, want, SketchIndex(uint32(row), 128, v.key), "key %d row %d 4×128", v.key, row)
		}
		for row, want := range v.d3w16 {
			assert.Equal(t, want, SketchIndex(uint32(row), 16, v.key), "key %d row %d 3×16", v.key, row)
		}
	}
}

func TestSketchIndexMatchesUint64(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	keys := []uint32{0, 1, 0xFFFFFFFF, 0x80000000, 0xFFFF, 0x10000}
	for i := 0; i < 20000; i++ {
		keys = append(keys, rng.Uint32())
	}
	for i, key := range keys {
		width := []uint32{1, 2, 3, 16, 128, 1000, 4095, abi.SketchMaxWidth}[i%8]
		if i%3 == 0 {
			width = 1 + rng.Uint32N(abi.SketchMaxWidth)
		}
		for row := uint32(0); row < abi.SketchMaxDepth; row++ {
			require.Equal(t, nativeIndex(row, width, key), SketchIndex(row, width, key), "row %d width %d key %#x", row, width, key)
		}
	}
}

func TestMulHi(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 100000; i++ {
		a, b := rng.Uint32(), rng.Uint32()
		if i < 4 {
			a, b = ^uint32(0)>>(i%2), ^uint32(0)
		}
		require.Equal(t, uint32(uint64(a)*uint64(b)>>32), mulHi(a, b), "%#x × %#x", a, b)
	}
}

func TestReduceSmall(t *testing.T) {
	control := make([]byte, abi.ControlMinWords*abi.WordBytes)
	binary.LittleEndian.PutUint32(control[(abi.CtrlOpcodeMetrics+3)*abi.WordBytes:], 0xFFFFFFFF)
	ring := make([]byte, 10*abi.SlotBytes)
	put := func(slot, w int, v uint32) {
		binary.LittleEndian.PutUint32(ring[(slot*abi.SlotWords+w)*abi.WordBytes:], v)
	}
	put(0, abi.SlotStatus, abi.StatusPublished)
	put(0, abi.SlotOpcode, 9)
	put(0, abi.SlotTenant, 40)
	put(1, abi.SlotStatus, 0x1234) // unknown
	put(2, abi.SlotStatus, abi.StatusDone)
	put(2, abi.SlotOpcode, 9)
	put(2, abi.SlotTenant, 4)
	put(3, abi.SlotStatus, abi.StatusEmpty)
	put(3, abi.SlotOpcode, 9)
	put(3, abi.SlotTenant, 5)
	put(3, abi.SlotArg0+1, abi.WindowClassLookahead)
	p := wgsl.SummaryParams{Depth: 2, Width: 16, WindowCapacity: 4, WindowOpcodes: []uint32{9}}
	sum, smap, err := Reduce(control, ring, p)
	require.NoError(t, err)
	require.Len(t, sum, int(abi.SummaryWords(2, 16, 4))*abi.WordBytes)
	require.Len(t, smap, 2*abi.WordBytes)
	w := func(i uint64) uint32 { return binary.LittleEndian.Uint32(sum[i*abi.WordBytes:]) }
	assert.Equal(t, abi.SummaryMagic, w(abi.SumMagic))
	assert.Equal(t, uint32(10), w(abi.SumSlots))
	assert.Equal(t, uint32(7), w(abi.SumOccupancy+abi.StatusEmpty))
	assert.Equal(t, uint32(1), w(abi.SumOccupancy+abi.StatusCount))
	assert.Equal(t, uint32(3), w(abi.SumSketched))
	assert.Equal(t, uint32(1), w(abi.SumActive))
	assert.Equal(t, uint32(1), w(abi.SumActiveTenant+abi.TenantSlots), "tenant 40 counts as other")
	assert.Equal(t, uint32(1), w(abi.SumWindowEntries))
	assert.Equal(t, uint32(abi.StatusPublished|abi.StatusMapUnknown<<abi.StatusMapBits|abi.StatusDone<<(2*abi.StatusMapBits)),
		binary.LittleEndian.Uint32(smap), "slots 0..7: PUBLISHED, unknown (StatusMapUnknown), DONE, EMPTY…")
	// The window: slots 0, 2, 3 (EMPTY counts toward the classes, not the statuses).
	win := abi.SummaryWindowWord(2, 16)
	var e uint64
	for i := uint64(0); i < 4; i++ {
		if w(win+i*abi.WindowEntryWords+abi.WinOwner) != 0 {
			e = win + i*abi.WindowEntryWords
		}
	}
	require.NotZero(t, e)
	assert.Equal(t, uint32(40), w(e+abi.WinTenant), "tenant of slot 0, the lowest")
	assert.Equal(t, uint32(2), w(e+abi.WinRequired))
	assert.Equal(t, uint32(1), w(e+abi.WinLookahead))
	assert.Equal(t, uint32(1), w(e+abi.WinStatus+abi.StatusPublished-abi.StatusPublished))
	assert.Equal(t, uint32(1), w(e+abi.WinStatus+abi.StatusDone-abi.StatusPublished))
	// The dispatch-metrics sketch keeps u64 counters: one count of 2^32 − 1.
	dm := abi.SummarySketchWord(abi.SummarySketches, 2, 16)
	assert.Equal(t, uint32(0xFFFFFFFF), w(dm+2*uint64(SketchIndex(0, 16, 3))))
	assert.Equal(t, uint32(0), w(dm+2*uint64(SketchIndex(0, 16, 3))+1))

	_, _, err = Reduce(control, ring, wgsl.SummaryParams{Depth: 9, Width: 16})
	assert.ErrorContains(t, err, "depth 9")
	_, _, err = Reduce(control, ring, wgsl.SummaryParams{Depth: 1, Width: 16, WindowCapacity: 3})
	assert.ErrorContains(t, err, "power of two")
	_, _, err = Reduce(control[:4], ring, wgsl.SummaryParams{Depth: 1, Width: 16})
	assert.Error(t, err)
}

// TestReduceWindowTable checks Reduce's window table against windows
// grouped here from the ring, for random rings of 1 to 130 windows in
// tables of 0 to 64 entries: every entry is exact; with no slot dropped
// every window has an entry; slots drop only past WindowClosedLimit; every
// open window (a slot neither EMPTY nor DONE) keeps its entry when the open
// windows fit; the dropped count is exact; no sealed entry is left.
func TestReduceWindowTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2026))
	control := make([]byte, abi.ControlMinWords*abi.WordBytes)
	const op = 0x77
	type key struct{ ticket, op uint32 }
	var overflowed int
	for i := range 300 {
		slots := 1 + rng.IntN(1200)
		capacity := []uint32{0, 1, 4, 16, 64}[i%5]
		tickets := 1 + rng.Uint32N(2*capacity+2) // about half the rings overflow
		ring := make([]byte, slots*abi.SlotBytes)
		put := func(s, w int, v uint32) { binary.LittleEndian.PutUint32(ring[(s*abi.SlotWords+w)*abi.WordBytes:], v) }
		want := map[key][abi.WindowStatusWords + 2]uint32{} // statuses, then required and lookahead
		open := map[key]bool{}
		var windowSlots uint32
		for s := range slots {
			st := []uint32{abi.StatusEmpty, abi.StatusDone, abi.StatusDone, abi.StatusDone, abi.StatusPublished, abi.StatusFault, 99}[rng.IntN(7)]
			if rng.IntN(8) != 0 {
				st = abi.StatusDone // mostly closed windows
			}
			o := []uint32{op, op, abi.OpNop}[rng.IntN(3)]
			k := key{rng.Uint32N(tickets), o}
			class := rng.Uint32N(3)
			put(s, abi.SlotStatus, st)
			put(s, abi.SlotOpcode, o)
			put(s, abi.SlotArg0, k.ticket)
			put(s, abi.SlotArg0+1, class)
			if o != op {
				continue
			}
			windowSlots++
			c := want[k]
			if st >= abi.StatusPublished && st <= abi.StatusFault {
				c[st-abi.StatusPublished]++
			}
			if class < 2 {
				c[abi.WindowStatusWords+class]++
			}
			want[k] = c
			if st != abi.StatusEmpty && st != abi.StatusDone {
				open[k] = true
			}
		}
		p := wgsl.SummaryParams{Depth: 1, Width: 8, WindowCapacity: capacity, WindowOpcodes: []uint32{op}}
		sum, _, err := Reduce(control, ring, p)
		require.NoError(t, err)
		w := func(i uint64) uint32 { return binary.LittleEndian.Uint32(sum[i*abi.WordBytes:]) }
		kept := map[key]bool{}
		var keptSlots uint32
		for e := abi.SummaryWindowWord(1, 8); e < abi.SummaryWindowWord(1, 8)+uint64(capacity)*abi.WindowEntryWords; e += abi.WindowEntryWords {
			if w(e+abi.WinOwner) == 0 {
				continue
			}
			require.NotEqual(t, uint32(abi.WinOwnerSealed), w(e+abi.WinOwner), "ring %d: a sealed entry left", i)
			k := key{w(e + abi.WinTicket), w(e + abi.WinOpcode)}
			var got [abi.WindowStatusWords + 2]uint32
			for j := range abi.WindowStatusWords {
				got[j] = w(e + abi.WinStatus + uint64(j))
			}
			got[abi.WindowStatusWords], got[abi.WindowStatusWords+1] = w(e+abi.WinRequired), w(e+abi.WinLookahead)
			require.Equal(t, want[k], got, "ring %d: window %v", i, k)
			kept[k] = true
			n := uint32(0)
			for s := range slots {
				if binary.LittleEndian.Uint32(ring[(s*abi.SlotWords+abi.SlotOpcode)*abi.WordBytes:]) == op &&
					binary.LittleEndian.Uint32(ring[(s*abi.SlotWords+abi.SlotArg0)*abi.WordBytes:]) == k.ticket {
					n++
				}
			}
			keptSlots += n
		}
		dropped := w(abi.SumWindowDropped)
		require.Equal(t, windowSlots-keptSlots, dropped, "ring %d: dropped slots", i)
		require.Equal(t, uint32(len(kept)), w(abi.SumWindowEntries), "ring %d: entries", i)
		if dropped == 0 {
			require.Len(t, kept, len(want), "ring %d: every window kept", i)
			continue
		}
		overflowed++
		require.Greater(t, len(want), int(abi.WindowClosedLimit(capacity)), "ring %d: dropped below the limit", i)
		require.GreaterOrEqual(t, len(kept), int(abi.WindowClosedLimit(capacity)), "ring %d", i)
		if len(open) <= int(capacity) {
			for k := range open {
				require.True(t, kept[k], "ring %d: open window %v kept", i, k)
			}
		}
	}
	assert.Greater(t, overflowed, 50, "rings that overflow their table")
	assert.Less(t, overflowed, 250, "rings that fit their table")
}
