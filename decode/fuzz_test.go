package decode

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// Fuzz targets check invariants, not only the absence of panics. Seeds are
// added here and committed under testdata/fuzz/<FuzzName>/.

func controlSeeds() [][]byte {
	busy := newControl(3, 10)
	busy[abi.CtrlDoneCount], busy[abi.CtrlOpcodeMetrics+2] = 9, 4
	legacy := newLegacyControl(0, 5)
	legacy[abi.CtrlGeneration] = 0xFFFF // garbage in vyre's gap
	return [][]byte{
		newControl(0, 256).bytes(), busy.bytes(), legacy.bytes(),
		nil, make([]byte, 636), make([]byte, 641), make([]byte, 644),
	}
}

func ringSeeds() [][]byte {
	return [][]byte{
		nil,
		statusRing(0, 1, 2, 3, 4, 5, 6, 7, 8, 0xFFFFFFFF),
		ringBytes(window(1, routeOp, 1, 5, 0), window(3, routeOp, 1, 5, 1), window(6, routeOp, 2, 9, 2)),
		make([]byte, 130), make([]byte, 63),
	}
}

// checkTelemetry asserts what holds for every successful decode.
func checkTelemetry(t *testing.T, tel *RingTelemetry, control, ring []byte, ops []uint32) {
	t.Helper()
	n := len(ring) / abi.SlotBytes
	require.Len(t, tel.Slots, n)
	require.Equal(t, uint32(n), tel.Occupancy.TotalSlots(), "occupancy sums to the slot count")
	assert.LessOrEqual(t, tel.Occupancy.ActiveSlots(), tel.Occupancy.QueueDepth())
	for i, s := range tel.Slots {
		w := ring[i*abi.SlotBytes:]
		if s.Index != uint32(i) || uint32(s.Status) != binary.LittleEndian.Uint32(w) || s.Opcode != binary.LittleEndian.Uint32(w[4:]) ||
			s.Args[2] != binary.LittleEndian.Uint32(w[(abi.SlotArg0+2)*abi.WordBytes:]) {
			t.Fatalf("slot %d decoded as %+v", i, s)
		}
	}
	if words := len(control) / abi.WordBytes; words >= abi.ControlMinWords {
		assert.Len(t, tel.Control.Observable, words-abi.ControlMinWords)
	}
	c := &tel.Control
	assert.Equal(t, c.Magic == 0, c.Legacy)
	if c.Legacy {
		assert.Zero(t, c.Generation|c.Dispatches|c.Claims|c.Faults|c.Denied|c.BudgetExhausted|c.ABIVersion)
		assert.Zero(t, c.Heads)
		assert.Zero(t, c.Tails)
	}
	for i, m := range c.Metrics {
		assert.NotZero(t, m.Count)
		assert.Less(t, m.Opcode, uint32(abi.MetricOpcodes))
		if i > 0 {
			assert.Less(t, c.Metrics[i-1].Opcode, m.Opcode)
		}
	}
	rc, err := tel.RuntimeCounters()
	require.NoError(t, err, "a decoded snapshot always has counters")
	assert.LessOrEqual(t, rc.FrontierDensityBps, uint16(10000))
	assert.LessOrEqual(t, rc.OccupancyProxyBps, uint16(10000))
	assert.LessOrEqual(t, rc.GPUIdlePPM, uint32(1_000_000))
	for _, s := range tel.ActiveSlotsForOpcode(0) {
		assert.True(t, s.Status.Active())
	}
	if len(ops) == 0 {
		assert.Empty(t, tel.Windows)
		return
	}
	want := naiveWindows(tel.Slots, ops)
	if len(want) == 0 {
		assert.Empty(t, tel.Windows)
	} else {
		assert.Equal(t, want, tel.Windows)
	}
}

func FuzzDecodeControl(f *testing.F) {
	for _, s := range controlSeeds() {
		f.Add(s)
	}
	ring := statusRing(1, 3)
	f.Fuzz(func(t *testing.T, control []byte) {
		lenient := decodeLenient(control, ring)
		tel, err := tryDecode(control, ring)
		bad := len(control)%abi.WordBytes != 0 || len(control) < abi.ControlMinWords*abi.WordBytes
		require.Equal(t, bad, err != nil, "error iff the size is wrong: %v", err)
		if err != nil {
			var de *DecodeError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, BufferControl, de.Buffer)
			assert.Contains(t, err.Error(), "control snapshot")
			return
		}
		checkTelemetry(t, &tel, control, ring, nil)
		assert.Equal(t, tel, lenient, "lenient and strict agree on a good buffer")
		_ = tel.Control.CheckABI()

		// Reuse of a dirty destination gives the same answer.
		dirty := telemetryOf(newControl(7, 3), statusRing(2, 2, 2), routeOp)
		var scratch DecodeScratch
		require.NoError(t, DecodeInto(&dirty, &scratch, control, ring, nil))
		assert.Equal(t, canon(tel), canon(dirty))
	})
}

// canon returns t with empty slices as nil: a reused destination keeps
// empty non-nil slices where a fresh one has nil.
func canon(t RingTelemetry) RingTelemetry {
	if len(t.Slots) == 0 {
		t.Slots = nil
	}
	if len(t.Windows) == 0 {
		t.Windows = nil
	}
	if len(t.Control.Metrics) == 0 {
		t.Control.Metrics = nil
	}
	if len(t.Control.Observable) == 0 {
		t.Control.Observable = nil
	}
	return t
}

// wordsOf reads up to 16 little-endian words from b, as window opcodes.
func wordsOf(b []byte) []uint32 {
	var ops []uint32
	for len(b) >= 4 && len(ops) < 16 {
		ops = append(ops, binary.LittleEndian.Uint32(b))
		b = b[4:]
	}
	return ops
}

func FuzzDecodeRing(f *testing.F) {
	for _, s := range ringSeeds() {
		f.Add(s, uint32(routeOp))
	}
	control := newControl(0, 8).bytes()
	f.Fuzz(func(t *testing.T, ring []byte, windowOp uint32) {
		ops := []uint32{windowOp}
		lenient := decodeLenientWindows(control, ring, ops)
		whole := len(ring) / abi.SlotBytes * abi.SlotBytes
		checkTelemetry(t, &lenient, control, ring[:whole], ops)

		tel, err := tryDecodeWindows(control, ring, ops)
		require.Equal(t, len(ring)%abi.SlotBytes != 0, err != nil, "error iff the ring is not whole slots: %v", err)
		if err != nil {
			assert.Contains(t, err.Error(), "whole ring slots")
			return
		}
		checkTelemetry(t, &tel, control, ring, ops)
		assert.Equal(t, tel, lenient)
		for _, w := range tel.Windows {
			counted := w.Published + w.Claimed + w.Done + w.WaitIO + w.Yield + w.Requeue + w.Fault
			assert.LessOrEqual(t, w.Required+w.Lookahead, uint32(len(tel.Slots)))
			assert.LessOrEqual(t, counted, uint32(len(tel.Slots)))
		}
	})
}

func FuzzDecodeLog(f *testing.F) {
	f.Add(logBytes(0, 0))
	f.Add(logBytes(2, 4, LogRecord{Format: 1, Slot: 2, A: 3, B: 4}, faultRecord(FaultBadTenant, 1, 0x100, 2)))
	f.Add(logBytes(65, 2, LogRecord{Format: 5}))
	f.Add(logBytes(1, 3)[:20])
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, log []byte) {
		l, err := decodeLog(log)
		n := len(log)
		misaligned := n%4 != 0 || n < 16 || (n-16)%16 != 0
		if misaligned {
			require.Error(t, err)
			return
		}
		capacity := binary.LittleEndian.Uint32(log[4:])
		cursor := binary.LittleEndian.Uint32(log[0:])
		if uint64(capacity) > uint64((n-16)/16) {
			require.Error(t, err, "capacity past the buffer")
			return
		}
		require.NoError(t, err)
		assert.Equal(t, cursor, l.Cursor)
		assert.Equal(t, capacity, l.Capacity)
		assert.Len(t, l.Records, int(min(cursor, capacity)))
		if cursor > capacity {
			assert.Equal(t, cursor-capacity, l.Dropped)
		} else {
			assert.Zero(t, l.Dropped)
		}
		for i, r := range l.Records {
			assert.Equal(t, binary.LittleEndian.Uint32(log[16+16*i:]), r.Format)
			assert.Equal(t, r.IsFault(), r.FaultCode() != 0 || r.Format == abi.LogFaultTag)
			_ = r.FaultCode().String() + r.FaultCode().Reason()
		}
		dirty := Log{Cursor: 9, Dropped: 9, Records: make([]LogRecord, 40)}
		require.NoError(t, DecodeLogInto(&dirty, log))
		assert.True(t, slices.Equal(l.Records, dirty.Records), "a reused Log decodes like a fresh one")
		assert.Equal(t, l.Dropped, dirty.Dropped)
	})
}

func FuzzDecodeDump(f *testing.F) {
	for i, c := range controlSeeds() {
		r := ringSeeds()[i%len(ringSeeds())]
		f.Add(c, r, wordBytes(routeOp, 1, 2))
	}
	f.Add(newControl(0, 3).bytes(), ringBytes(window(1, 3, 0, 1, 0), window(2, 200, 0, 1, 1), window(5, 9, 1, 2, 0)), wordBytes(9, 200, 3, 1, 2, 4, 5, 6, 7, 8))
	f.Fuzz(func(t *testing.T, control, ring, opBytes []byte) {
		ops := wordsOf(opBytes)
		prev := decodeLenient(control, ring) // lenient never panics
		assert.Equal(t, uint32(len(prev.Slots)), prev.Occupancy.TotalSlots())

		tel, err := tryDecodeWindows(control, ring, ops)
		bad := len(control)%4 != 0 || len(control) < abi.ControlMinWords*abi.WordBytes || len(ring)%abi.SlotBytes != 0
		require.Equal(t, bad, err != nil, "error iff a size is wrong: %v", err)

		// A failed DecodeInto leaves a previous result untouched.
		var dst RingTelemetry
		var scratch DecodeScratch
		require.NoError(t, DecodeInto(&dst, &scratch, newControl(1, 2).bytes(), statusRing(1, 6), []uint32{0}))
		before := dst
		before.Slots, before.Windows = slices.Clone(dst.Slots), slices.Clone(dst.Windows)
		before.Control.Metrics, before.Control.Observable = slices.Clone(dst.Control.Metrics), slices.Clone(dst.Control.Observable)
		errInto := DecodeInto(&dst, &scratch, control, ring, ops)
		require.Equal(t, err != nil, errInto != nil)
		if err != nil {
			assert.Equal(t, before, dst)
			return
		}
		checkTelemetry(t, &tel, control, ring, ops)
		assert.Equal(t, canon(tel), canon(dst), "a reused destination decodes like a fresh one")

		h := tel.HealthSince(&prev)
		assert.False(t, h.SuspectedStall && h.Reset)
		if len(tel.Slots) <= 1<<12 {
			st, err := tel.Sketch(2, 32)
			require.NoError(t, err)
			assert.Equal(t, tel.Occupancy.TotalSlots()-tel.Occupancy[StatusEmpty], st.SketchedSlots)
			assert.Equal(t, tel.Occupancy.ActiveSlots(), st.ActiveSlots)
		}
		_ = tel.PriorityAccounting().DrainRecommendation()
	})
}

func FuzzSketch(f *testing.F) {
	f.Add(uint8(4), uint8(128), []byte{0, 1, 7, 99, 0, 0})
	f.Add(uint8(3), uint8(16), []byte("opcode tenant status"))
	f.Add(uint8(0), uint8(5), []byte{1})
	f.Fuzz(func(t *testing.T, depth, width uint8, keys []byte) {
		s, err := NewCountMinSketch(int(depth%9), int(width))
		if depth%9 == 0 || width == 0 {
			require.Error(t, err)
			return
		}
		require.NoError(t, err)
		exact := map[uint32]uint64{}
		for i := 0; i+2 <= len(keys); i += 2 {
			k, n := uint32(keys[i])*257, uint64(keys[i+1]%4)
			s.Add(k, n)
			exact[k] += n
		}
		// Plain comparisons: testify's reflection would dominate each exec.
		for k, n := range exact {
			if est := s.Estimate(k); est < n {
				t.Fatalf("key %d: estimate %d under-counts %d", k, est, n)
			}
			for row := range s.Depth() {
				if idx := s.Index(row, k); idx < row*s.Width() || idx >= (row+1)*s.Width() {
					t.Fatalf("key %d row %d: index %d outside the row", k, row, idx)
				}
			}
		}
		twice, _ := NewCountMinSketch(s.Depth(), s.Width())
		require.NoError(t, twice.Merge(s))
		require.NoError(t, twice.Merge(s))
		for k := range exact {
			if got, want := twice.Estimate(k), 2*s.Estimate(k); got != want {
				t.Fatalf("key %d: merged twice estimates %d, want %d", k, got, want)
			}
		}

		// Slots made of the key bytes: SketchInto equals one Add per slot.
		slots := make([]slot, 0, len(keys)/3)
		for i := 0; i+3 <= len(keys); i += 3 {
			slots = append(slots, slot{status: uint32(keys[i] % 10), op: uint32(keys[i+1]) << 6, tenant: uint32(keys[i+2])})
		}
		tel := telemetryOf(newControl(0, uint32(len(slots))), ringBytes(slots...))
		var st SketchTelemetry
		require.NoError(t, tel.SketchInto(&st, s.Depth(), s.Width()))
		naive, _ := NewCountMinSketch(s.Depth(), s.Width())
		for _, sl := range tel.Slots {
			if sl.Status != StatusEmpty {
				naive.Add(sl.Opcode, 1)
			}
		}
		assert.Equal(t, naive.Counters(), st.RingOpcode.Counters())
	})
}

func FuzzWatchdog(f *testing.F) {
	f.Add(uint8(3), []byte{10, 0, 0, 1, 10, 0, 0, 1, 10, 0, 0, 1, 10, 0, 0, 1, 10, 1, 0, 1})
	f.Add(uint8(0), []byte{0, 0, 0, 0, 255, 255, 1, 0})
	f.Fuzz(func(t *testing.T, n uint8, steps []byte) {
		w := NewWatchdog(int(n % 6))
		at := 0.0
		done := uint32(0)
		for i := 0; i+4 <= len(steps); i += 4 {
			dt, progress, gen, queued := steps[i], steps[i+1], steps[i+2], steps[i+3]
			at += float64(int8(dt)) // time may go backwards
			done += uint32(progress) * 0x01010101
			statuses := []uint32{abi.StatusDone}
			if queued%2 == 1 {
				statuses = append(statuses, abi.StatusClaimed)
			}
			st := w.Observe(at, snapshot(done, uint32(gen%2), statuses...))
			assert.Equal(t, st.StalledIntervals >= w.StallIntervals(), st.Stalled)
			if !st.Health.SuspectedStall {
				assert.Zero(t, st.StalledIntervals, "progress, a reset or an empty queue clears the stall")
			}
			assert.False(t, math.IsNaN(st.DonePerSecond))
			assert.GreaterOrEqual(t, st.StalledForMillis, 0.0)
		}
	})
}
