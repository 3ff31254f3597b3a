package decode

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// encodeSummary builds, from a full decode, the summary and status map the
// reduce pass writes for the same buffers (docs/SUMMARY.md): the host's
// view in the GPU's layout. Window entries go to the first entries in
// ticket order (the GPU's placement differs; the decoded windows do not).
func encodeSummary(t testing.TB, tel *RingTelemetry, depth, width, capacity uint32, ops []uint32) (summary, statusMap []byte) {
	t.Helper()
	var sk SketchTelemetry
	require.NoError(t, tel.SketchInto(&sk, int(depth), int(width)))
	sum := make([]uint32, abi.SummaryWords(depth, width, capacity))
	var sc DecodeScratch
	sc.setWindowOpcodes(ops)
	sum[abi.SumMagic], sum[abi.SumSlots] = abi.SummaryMagic, uint32(len(tel.Slots))
	sum[abi.SumDepth], sum[abi.SumWidth] = depth, width
	sum[abi.SumWindowCapacity], sum[abi.SumWindowOpcodes] = capacity, uint32(len(sc.ops))
	sum[abi.SumSketched], sum[abi.SumActive] = sk.SketchedSlots, sk.ActiveSlots
	copy(sum[abi.SumOccupancy:], tel.Occupancy[:])
	a := tel.Active
	copy(sum[abi.SumActiveTenant:], append(a.Tenant[:], a.TenantOther))
	copy(sum[abi.SumActivePriority:], append(a.Priority[:], a.PriorityOther))
	copy(sum[abi.SumActiveOpcode:], append(a.Opcode[:], a.OpcodeOther))
	all := sk.all()
	for k, s := range all[:abi.SummarySketches] {
		base := abi.SummarySketchWord(k, depth, width)
		for i, c := range s.counters {
			require.LessOrEqual(t, c, uint64(^uint32(0)))
			sum[base+uint64(i)] = uint32(c)
		}
	}
	base := abi.SummarySketchWord(abi.SummarySketches, depth, width)
	for i, c := range sk.DispatchMetrics.counters {
		sum[base+2*uint64(i)], sum[base+2*uint64(i)+1] = uint32(c), uint32(c>>32)
	}
	win := abi.SummaryWindowWord(depth, width)
	for i, w := range tel.Windows {
		if uint32(i) >= capacity {
			var dropped uint32
			for _, x := range tel.Windows[i:] {
				dropped += windowSlots(tel, x)
			}
			sum[abi.SumWindowDropped] = dropped
			break
		}
		first := firstSlot(tel, w)
		e := win + uint64(i)*abi.WindowEntryWords
		sum[e+abi.WinOwner], sum[e+abi.WinFirstInv] = first+1, ^first
		sum[e+abi.WinTicket], sum[e+abi.WinOpcode], sum[e+abi.WinTenant] = w.Ticket, w.Opcode, w.Tenant
		sum[e+abi.WinRequired], sum[e+abi.WinLookahead] = w.Required, w.Lookahead
		copy(sum[e+abi.WinStatus:], []uint32{w.Published, w.Claimed, w.Done, w.WaitIO, w.Yield, w.Requeue, w.Fault})
		sum[abi.SumWindowEntries]++
	}
	var m StatusMap
	m.SetSlots(tel.Slots)
	return wordBytes(sum...), m.AppendBytes(nil)
}

func firstSlot(tel *RingTelemetry, w WindowTelemetry) uint32 {
	for _, s := range tel.Slots {
		if s.Opcode == w.Opcode && s.Args[0] == w.Ticket {
			return s.Index
		}
	}
	panic("window without a slot")
}

func windowSlots(tel *RingTelemetry, w WindowTelemetry) uint32 {
	var n uint32
	for _, s := range tel.Slots {
		if s.Opcode == w.Opcode && s.Args[0] == w.Ticket {
			n++
		}
	}
	return n
}

// randomRing is a ring of random statuses (unknown ones included),
// opcodes, tenants, priorities and window tickets.
func randomRing(rng *rand.Rand, slots int, ops []uint32) []byte {
	ss := make([]slot, slots)
	for i := range ss {
		st := rng.Uint32N(abi.StatusCount + 2)
		if st > abi.StatusCount {
			st = rng.Uint32()
		}
		op := []uint32{abi.OpNop, abi.OpSpin, rng.Uint32N(40), rng.Uint32()}[rng.IntN(4)]
		if len(ops) > 0 && rng.IntN(3) == 0 {
			op = ops[rng.IntN(len(ops))]
		}
		ss[i] = slot{status: st, op: op, tenant: rng.Uint32N(36), prio: rng.Uint32N(abi.PriorityLevels + 1),
			args: []uint32{rng.Uint32N(8), rng.Uint32N(3)}}
	}
	return ringBytes(ss...)
}

func TestSummaryRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	ops := []uint32{0x4000, 9}
	for i := 0; i < 50; i++ {
		slots := 1 + rng.IntN(300)
		ctl := newControl(2, uint32(slots))
		for k := 0; k < abi.MetricOpcodes; k++ {
			if rng.IntN(3) == 0 {
				ctl[abi.CtrlOpcodeMetrics+k] = rng.Uint32()
			}
		}
		ring := randomRing(rng, slots, ops)
		full := telemetryOf(ctl, ring, ops...)
		sum, smap := encodeSummary(t, &full, 3, 64, 64, ops)

		var got RingTelemetry
		require.NoError(t, DecodeSummaryInto(&got, nil, ctl.bytes(), sum, smap, []uint32{9, 0x4000, 9}))
		assert.Equal(t, full.Control, got.Control)
		assert.Equal(t, full.Occupancy, got.Occupancy)
		assert.Equal(t, full.Active, got.Active)
		assert.Equal(t, full.Windows, got.Windows)
		assert.Zero(t, got.WindowsDropped)
		assert.Empty(t, got.Slots)
		require.Equal(t, slots, got.SlotCount())
		for s := 0; s < slots; s++ {
			st, ok := got.SlotStatus(s)
			require.True(t, ok)
			assert.Equal(t, min(full.Slots[s].Status, abi.StatusMapUnknown), st, "slot %d", s)
		}
		var want, gotSk SketchTelemetry
		require.NoError(t, full.SketchInto(&want, 3, 64))
		require.NoError(t, gotSk.FromSummary(sum))
		assert.Equal(t, want, gotSk)
	}
}

func TestActiveAccessors(t *testing.T) {
	tel := telemetryOf(newControl(0, 4), ringBytes(
		slot{status: abi.StatusPublished, op: 3, tenant: 2, prio: 1},
		slot{status: abi.StatusYield, op: 0x100, tenant: 40, prio: 7},
		slot{status: abi.StatusDone, op: 3, tenant: 2, prio: 1},
		slot{status: abi.StatusRequeue, op: 3, tenant: 2, prio: 1},
	))
	for _, tc := range []struct {
		name  string
		fn    func(uint32) (uint32, bool)
		id    uint32
		n     uint32
		exact bool
	}{
		{"tenant 2", tel.ActiveForTenant, 2, 2, true},
		{"tenant 40", tel.ActiveForTenant, 40, 1, false},
		{"priority 1", tel.ActiveForPriority, 1, 2, true},
		{"priority 7", tel.ActiveForPriority, 7, 1, false},
		{"opcode 3", tel.ActiveForOpcode, 3, 2, true},
		{"opcode 0x100", tel.ActiveForOpcode, 0x100, 1, false},
		{"opcode 4", tel.ActiveForOpcode, 4, 0, true},
	} {
		n, exact := tc.fn(tc.id)
		assert.Equal(t, tc.n, n, tc.name)
		assert.Equal(t, tc.exact, exact, tc.name)
	}
}

func TestWindowsDropped(t *testing.T) {
	ring := ringBytes(window(1, 9, 1, 1, 0), window(1, 9, 1, 2, 0), window(3, 9, 1, 3, 1), window(3, 9, 1, 3, 0))
	ctl := newControl(0, 4)
	full := telemetryOf(ctl, ring, 9)
	sum, smap := encodeSummary(t, &full, 1, 8, 2, []uint32{9})
	var got RingTelemetry
	require.NoError(t, DecodeSummaryInto(&got, nil, ctl.bytes(), sum, smap, []uint32{9}))
	assert.Equal(t, uint32(2), got.WindowsDropped, "ticket 3's two slots found no entry")
	assert.Equal(t, full.Windows[:2], got.Windows)
}

// summaryCase is a valid summary to break.
func summaryCase(t testing.TB) (ctl, sum, smap []byte) {
	ring := ringBytes(window(1, 9, 1, 1, 0), window(3, 9, 2, 1, 1), slot{status: 0x77}, slot{status: abi.StatusFault})
	c := newControl(0, 4)
	full := telemetryOf(c, ring, 9)
	sum, smap = encodeSummary(t, &full, 2, 16, 4, []uint32{9})
	return c.bytes(), sum, smap
}

func setWord(b []byte, w uint64, v uint32) []byte {
	b = slices.Clone(b)
	binary.LittleEndian.PutUint32(b[w*abi.WordBytes:], v)
	return b
}

func TestDecodeSummaryErrors(t *testing.T) {
	ctl, sum, smap := summaryCase(t)
	win := abi.SummaryWindowWord(2, 16)
	for _, tc := range []struct {
		name           string
		ctl, sum, smap []byte
		ops            []uint32
		buffer, want   string
	}{
		{"short control", ctl[:100], sum, smap, []uint32{9}, BufferControl, "control snapshot"},
		{"ragged summary", ctl, sum[:len(sum)-1], smap, []uint32{9}, BufferSummary, "whole number"},
		{"short header", ctl, sum[:40], smap, []uint32{9}, BufferSummary, "header"},
		{"no magic", ctl, setWord(sum, abi.SumMagic, 0), smap, []uint32{9}, BufferSummary, "did not run"},
		{"depth", ctl, setWord(sum, abi.SumDepth, abi.SketchMaxDepth+1), smap, []uint32{9}, BufferSummary, "sketch depth 9"},
		{"width", ctl, setWord(sum, abi.SumWidth, 0), smap, []uint32{9}, BufferSummary, "sketch width 0"},
		{"capacity", ctl, setWord(sum, abi.SumWindowCapacity, 3), smap, []uint32{9}, BufferSummary, "power of two"},
		{"length", ctl, append(slices.Clone(sum), 0, 0, 0, 0), smap, []uint32{9}, BufferSummary, "take"},
		{"zero slots", ctl, setWord(sum, abi.SumSlots, 0), smap, []uint32{9}, BufferSummary, "0 slots"},
		{"opcode count", ctl, sum, smap, []uint32{9, 10}, BufferSummary, "window opcodes"},
		{"occupancy sum", ctl, setWord(sum, abi.SumOccupancy, 5), smap, []uint32{9}, BufferSummary, "occupancy counts"},
		{"sketched", ctl, setWord(sum, abi.SumSketched, 1), smap, []uint32{9}, BufferSummary, "sketched"},
		{"active", ctl, setWord(sum, abi.SumActive, 0), smap, []uint32{9}, BufferSummary, "active slots"},
		{"active tenant", ctl, setWord(sum, abi.SumActiveTenant+5, 9), smap, []uint32{9}, BufferSummary, "per tenant"},
		{"map length", ctl, sum, append(slices.Clone(smap), 0, 0, 0, 0), []uint32{9}, BufferStatusMap, "status map of 8 bytes"},
		{"map padding", ctl, sum, setWord(smap, 0, binary.LittleEndian.Uint32(smap)|0x1<<20), []uint32{9}, BufferStatusMap, "past the 4 slots"},
		{"map counts", ctl, sum, setWord(smap, 0, binary.LittleEndian.Uint32(smap)^0x2), []uint32{9}, BufferStatusMap, "status map holds"},
		{"owner", ctl, setWord(sum, win+abi.WinOwner, 99), smap, []uint32{9}, BufferSummary, "owner slot 98"},
		{"sealed", ctl, setWord(sum, win+abi.WinOwner, abi.WinOwnerSealed), smap, []uint32{9}, BufferSummary, "window_tenants pass did not run"},
		{"first", ctl, setWord(sum, win+abi.WinFirstInv, ^uint32(3)), smap, []uint32{9}, BufferSummary, "lowest slot 3"},
		{"entries", ctl, setWord(sum, abi.SumWindowEntries, 3), smap, []uint32{9}, BufferSummary, "entries in use"},
		{"window opcode", ctl, setWord(sum, win+abi.WinOpcode, 10), smap, []uint32{9}, BufferSummary, "not a window opcode"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := RingTelemetry{WindowsDropped: 77}
			err := DecodeSummaryInto(&dst, nil, tc.ctl, tc.sum, tc.smap, tc.ops)
			var de *DecodeError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, tc.buffer, de.Buffer)
			assert.Contains(t, err.Error(), tc.want)
			assert.Regexp(t, "^decode: ", err.Error())
			assert.Equal(t, RingTelemetry{WindowsDropped: 77}, dst, "nothing written on error")
		})
	}
	// A duplicated window entry.
	dup := slices.Clone(sum)
	copy(dup[(win+abi.WindowEntryWords)*abi.WordBytes:], dup[win*abi.WordBytes:(win+abi.WindowEntryWords)*abi.WordBytes])
	dup = setWord(dup, abi.SumWindowEntries, 2)
	assert.ErrorContains(t, DecodeSummaryInto(&RingTelemetry{}, nil, ctl, dup, smap, []uint32{9}), "two window entries")
	assert.ErrorContains(t, (&SketchTelemetry{}).FromSummary(sum[:8]), "header")
}

func TestDecodeSummaryReuses(t *testing.T) {
	ctl, sum, smap := summaryCase(t)
	var tel RingTelemetry
	var sc DecodeScratch
	var sk SketchTelemetry
	require.NoError(t, DecodeSummaryInto(&tel, &sc, ctl, sum, smap, []uint32{9}))
	require.NoError(t, sk.FromSummary(sum))
	allocs := testing.AllocsPerRun(20, func() {
		if err := DecodeSummaryInto(&tel, &sc, ctl, sum, smap, []uint32{9}); err != nil {
			panic(err)
		}
		if err := sk.FromSummary(sum); err != nil {
			panic(err)
		}
	})
	assert.Zero(t, allocs)
	// A full decode afterwards empties the summary-only fields.
	require.NoError(t, DecodeInto(&tel, &sc, ctl, ringBytes(slot{status: abi.StatusPublished}), nil))
	assert.Zero(t, tel.StatusMap.Len())
	assert.Zero(t, tel.WindowsDropped)
	assert.Equal(t, 1, tel.SlotCount())
}

func summarySeeds(t testing.TB) [][4][]byte {
	ctl, sum, smap := summaryCase(t)
	ops := wordBytes(9)
	return [][4][]byte{
		{ctl, sum, smap, ops},
		{ctl, setWord(sum, abi.SumMagic, 0), smap, ops},
		{ctl, sum, smap[:2], ops},
		{nil, nil, nil, nil},
	}
}

func FuzzDecodeSummary(f *testing.F) {
	for _, s := range summarySeeds(f) {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, control, summary, statusMap, opBytes []byte) {
		var ops []uint32
		for i := 0; i+abi.WordBytes <= len(opBytes) && len(ops) < abi.SummaryMaxWindowOpcodes+1; i += abi.WordBytes {
			ops = append(ops, binary.LittleEndian.Uint32(opBytes[i:]))
		}
		var tel RingTelemetry
		err := DecodeSummaryInto(&tel, nil, control, summary, statusMap, ops)
		var sk SketchTelemetry
		skErr := sk.FromSummary(summary)
		if err != nil {
			var de *DecodeError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, RingTelemetry{}, tel)
			return
		}
		require.NoError(t, skErr, "a summary DecodeSummaryInto accepts has readable sketches")
		n := tel.SlotCount()
		require.Equal(t, uint32(n), tel.Occupancy.TotalSlots())
		assert.Equal(t, tel.Occupancy.ActiveSlots(), sk.ActiveSlots)
		assert.True(t, slices.IsSortedFunc(tel.Windows, compareWindows))
		var counts [abi.StatusMapUnknown + 1]uint32
		for i := 0; i < n; i++ {
			st, ok := tel.SlotStatus(i)
			require.True(t, ok)
			counts[min(st, abi.StatusMapUnknown)]++
		}
		assert.Equal(t, tel.Occupancy[StatusUnknown], counts[abi.StatusMapUnknown])
		assert.Equal(t, tel.Occupancy[StatusDone], counts[abi.StatusDone])
	})
}

// TestWriteSummarySeeds commits the seeds under testdata/fuzz (with -update).
func TestWriteSummarySeeds(t *testing.T) {
	if !*update {
		t.Skip("rewrites testdata/fuzz/FuzzDecodeSummary only with -update")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzDecodeSummary")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for i, s := range summarySeeds(t) {
		name := []string{"valid_windows_unknown", "no_magic", "short_status_map", "empty"}[i]
		body := "go test fuzz v1\n"
		for _, b := range s {
			body += fmt.Sprintf("[]byte(%q)\n", b)
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
}

// TestCheckStatusMap: the word-parallel status-map check accepts exactly
// the maps the slot-by-slot check accepts, and fails with its error, on
// random maps (uniform runs, mixed chunks, odd word counts, padding) with
// random corruptions.
func TestCheckStatusMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := range 3000 {
		slots := uint32(1 + rng.IntN(300))
		if n%10 < 2 {
			slots = uint32(1 + rng.IntN(5000))
		}
		m := make([]byte, abi.StatusMapWords(slots)*abi.WordBytes)
		var occ [abi.StatusCount + 1]uint32
		code := uint32(0)
		runs := []int{8, 300}[n%2] // short runs, and runs past a 128-slot block
		for i := uint32(0); i < slots; i++ {
			if rng.IntN(runs) == 0 { // runs of one code, as a real ring has
				code = uint32(rng.IntN(abi.StatusMapUnknown + 1))
			}
			w := i / abi.StatusMapPerWord * abi.WordBytes
			binary.LittleEndian.PutUint32(m[w:], binary.LittleEndian.Uint32(m[w:])|code<<(abi.StatusMapBits*(i%abi.StatusMapPerWord)))
			occ[code]++
		}
		switch rng.IntN(6) {
		case 1: // another nibble, any code
			i := rng.IntN(len(m) * 2)
			m[i/2] ^= byte(1+rng.IntN(15)) << (4 * (i % 2))
		case 2: // an occupancy off by one
			occ[rng.IntN(len(occ))]++
		case 3: // a nibble of code 9–15 and a count that would hide it
			i := uint32(rng.IntN(int(slots)))
			w := i / abi.StatusMapPerWord * abi.WordBytes
			sh := abi.StatusMapBits * (i % abi.StatusMapPerWord)
			old := binary.LittleEndian.Uint32(m[w:]) >> sh & nibbleMask
			binary.LittleEndian.PutUint32(m[w:], binary.LittleEndian.Uint32(m[w:])&^(nibbleMask<<sh)|uint32(9+rng.IntN(7))<<sh)
			occ[old]--
			occ[rng.IntN(len(occ))]++
		}
		fast, slow := checkStatusMap(m, slots, &occ), checkStatusMapSlots(m, slots, &occ)
		if slow == nil {
			require.NoError(t, fast, "slots %d", slots)
		} else {
			require.EqualError(t, fast, slow.Error(), "slots %d", slots)
		}
	}
}

// BenchmarkCheckStatusMap: the status-map check of a 1,048,576-slot ring,
// mostly idle (the bench row's 1 M ring) and fully mixed.
func BenchmarkCheckStatusMap(b *testing.B) {
	const slots = 1 << 20
	for _, mixed := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(1, 2))
		m := make([]byte, abi.StatusMapWords(slots)*abi.WordBytes)
		var occ [abi.StatusCount + 1]uint32
		for i := uint32(0); i < slots; i++ {
			code := uint32(abi.StatusEmpty)
			if mixed || i < slots/16 {
				code = uint32(rng.IntN(abi.StatusMapUnknown + 1))
			}
			w := i / abi.StatusMapPerWord * abi.WordBytes
			binary.LittleEndian.PutUint32(m[w:], binary.LittleEndian.Uint32(m[w:])|code<<(abi.StatusMapBits*(i%abi.StatusMapPerWord)))
			occ[code]++
		}
		b.Run(map[bool]string{false: "idle", true: "mixed"}[mixed], func(b *testing.B) {
			b.SetBytes(int64(len(m)))
			for b.Loop() {
				if err := checkStatusMap(m, slots, &occ); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(map[bool]string{false: "idle-slots", true: "mixed-slots"}[mixed], func(b *testing.B) {
			for b.Loop() {
				if err := checkStatusMapSlots(m, slots, &occ); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestStatusMapSetSlots checks the packing slot by slot against At, for
// lengths that end mid-word and raw statuses past the named ones, reusing
// one map so a longer earlier ring leaves nothing behind.
func TestStatusMapSetSlots(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var m StatusMap
	for _, n := range []int{0, 1, 7, 8, 9, 1000, 4096, 13, 64} {
		slots := make([]RingSlotSnapshot, n)
		for i := range slots {
			slots[i].Status = Status(rng.IntN(12)) // 8-11: unknown
		}
		m.SetSlots(slots)
		require.Equal(t, n, m.Len())
		require.Len(t, m.Words(), int(abi.StatusMapWords(uint32(n))))
		for i, sl := range slots {
			got, ok := m.At(i)
			require.True(t, ok)
			require.Equal(t, min(sl.Status, abi.StatusMapUnknown), got, "n %d slot %d", n, i)
		}
		if n%abi.StatusMapPerWord != 0 {
			last := m.Words()[len(m.Words())-1]
			assert.Zero(t, last>>(abi.StatusMapBits*(n%abi.StatusMapPerWord)), "n %d: codes past the last slot", n)
		}
	}
}

// TestCountNibblesEachAgrees: the nibble-by-nibble count, which another
// ABI's statuses would use, agrees with the bit arithmetic on this one's.
func TestCountNibblesEachAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 0))
	for range 2000 {
		x := rng.Uint64()
		if rng.IntN(2) == 0 { // mostly valid codes
			x &^= 0x7777777777777777 & rng.Uint64()
		}
		var c1, c2 [abi.StatusMapUnknown + 1]uint64
		var b1, b2 uint64
		countNibbles(x, &c1, &b1)
		countEachNibble(x, &c2, &b2)
		require.Equalf(t, c1, c2, "%#x", x)
		require.Equalf(t, b1 != 0, b2 != 0, "%#x: a code above StatusMapUnknown", x)
	}
}
