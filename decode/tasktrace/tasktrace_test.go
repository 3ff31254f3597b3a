package tasktrace

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// buffer lays out a trace buffer of capacity records holding recs, its
// cursor at cursor.
func buffer(capacity, cursor, clock uint32, recs ...[abi.TraceRecordWords]uint32) []byte {
	b := Header(nil, capacity, clock, false)
	binary.LittleEndian.PutUint32(b[abi.TraceCursor*abi.WordBytes:], cursor)
	for i := range int(capacity) {
		var r [abi.TraceRecordWords]uint32
		if i < len(recs) {
			r = recs[i]
		}
		for _, w := range r {
			b = binary.LittleEndian.AppendUint32(b, w)
		}
	}
	return b
}

func rec(slot, op, tenant, wg, lane, start, end, status, fault, parent uint32) [abi.TraceRecordWords]uint32 {
	var r [abi.TraceRecordWords]uint32
	r[abi.TraceRecSlot] = slot
	r[abi.TraceRecOpTenant] = op | tenant<<abi.TraceTenantShift
	r[abi.TraceRecGroup] = wg
	r[abi.TraceRecLane] = lane
	r[abi.TraceRecStart] = start
	r[abi.TraceRecEnd] = end
	r[abi.TraceRecOutcome] = status | fault<<abi.TraceFaultShift
	r[abi.TraceRecParent] = parent
	return r
}

func TestDecode(t *testing.T) {
	b := buffer(3, 2, 40,
		rec(7, abi.OpSpin, 3, 2, 63, 10, 12, abi.StatusDone, 0, abi.TraceNoParent),
		rec(9, 0x1F, 28, 0, 0, 11, 30, abi.StatusFault, abi.FaultUserFirst+0xFEFF, 7),
		rec(1, 1, 1, 1, 1, 1, 2, 1, 0, 0)) // past the cursor: not a record
	got, err := Decode(b)
	require.NoError(t, err)
	assert.Equal(t, Buffer{Cursor: 2, Capacity: 3, Clock: 40, Records: []Record{
		{Slot: 7, Opcode: abi.OpSpin, Tenant: 3, Workgroup: 2, Lane: 63, Start: 10, End: 12, Status: decode.StatusDone, Parent: abi.TraceNoParent},
		{Slot: 9, Opcode: 0x1F, Tenant: 28, Workgroup: 0, Lane: 0, Start: 11, End: 30, Status: decode.StatusFault,
			Fault: decode.FaultCode(abi.FaultUserFirst + 0xFEFF), Parent: 7},
	}}, got)
	assert.False(t, got.Records[0].HasParent())
	assert.True(t, got.Records[1].HasParent())
}

func TestDecodeOverflow(t *testing.T) {
	got, err := Decode(buffer(2, 5, 10, rec(1, 0, 0, 0, 0, 1, 2, abi.StatusDone, 0, abi.TraceNoParent)))
	require.NoError(t, err)
	assert.Equal(t, uint32(3), got.Overflow)
	assert.Len(t, got.Records, 2)
}

func TestDecodeReusesRecords(t *testing.T) {
	var dst Buffer
	require.NoError(t, DecodeInto(&dst, buffer(4, 4, 0)))
	before := &dst.Records[0]
	require.NoError(t, DecodeInto(&dst, buffer(4, 1, 0)))
	assert.Same(t, before, &dst.Records[0])
	assert.Len(t, dst.Records, 1)
}

func TestDecodeErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		b    []byte
		want string
		off  int
	}{
		"partial word":   {make([]byte, HeaderBytes+3), "trace length 19 bytes is not a whole number of 4-byte words", 16},
		"short header":   {make([]byte, 8), "trace of 8 bytes is shorter than its 16-byte header", 8},
		"partial record": {make([]byte, HeaderBytes+RecordBytes+4), "trace length 52 bytes is not a 16-byte header and whole 32-byte records", 48},
		"capacity":       {buffer(2, 0, 0)[:HeaderBytes+RecordBytes], "trace header claims a capacity of 2 records but the buffer holds 1", 48},
	} {
		t.Run(name, func(t *testing.T) {
			dst := Buffer{Cursor: 9}
			err := DecodeInto(&dst, tc.b)
			var de *decode.DecodeError
			require.True(t, errors.As(err, &de), "%v", err)
			assert.Equal(t, "decode: "+tc.want, err.Error())
			assert.Equal(t, BufferName, de.Buffer)
			assert.Equal(t, tc.off, de.Offset)
			assert.Equal(t, uint32(9), dst.Cursor, "left untouched")
		})
	}
}

func TestHeaderParents(t *testing.T) {
	h := Header(nil, 10, 7, true)
	assert.Equal(t, uint32(4+80), binary.LittleEndian.Uint32(h[abi.TraceParents*abi.WordBytes:]))
	assert.Equal(t, uint32(7), binary.LittleEndian.Uint32(h[abi.TraceClock*abi.WordBytes:]))
	assert.Zero(t, binary.LittleEndian.Uint32(Header(nil, 10, 7, false)[abi.TraceParents*abi.WordBytes:]))
}

func TestBytes(t *testing.T) {
	assert.Equal(t, uint64(16+32*1000), Bytes(1000))
	b, err := Decode(buffer(1000, 0, 0))
	require.NoError(t, err)
	assert.Equal(t, uint32(1000), b.Capacity)
}

func FuzzDecode(f *testing.F) {
	f.Add(buffer(2, 1, 5, rec(1, 2, 3, 4, 5, 6, 7, abi.StatusDone, 0, abi.TraceNoParent)))
	f.Add(buffer(1, 9, 0))
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := Decode(b)
		if err != nil {
			return
		}
		assert.Equal(t, int(min(got.Cursor, got.Capacity)), len(got.Records))
		assert.LessOrEqual(t, uint64(got.Capacity)*RecordBytes+HeaderBytes, uint64(len(b)))
		assert.Equal(t, got.Cursor-min(got.Cursor, got.Capacity), got.Overflow)
		for _, r := range got.Records {
			assert.Less(t, uint32(r.Status), uint32(1)<<abi.TraceFaultShift)
			assert.LessOrEqual(t, r.Opcode, uint32(abi.TraceOpMask))
		}
	})
}

// packed lays out a trace buffer in the drain's packed layout: capacity
// places, cursor at cursor, records tasks; task i of run offset 0 writes
// heads[i] as its run's head.
func packed(capacity, cursor, clock uint32, tasks [][4]uint32, heads map[int][4]uint32) []byte {
	b := Header(nil, capacity, clock, false)
	binary.LittleEndian.PutUint32(b[abi.TraceCursor*abi.WordBytes:], cursor)
	body := make([][4]uint32, 2*capacity)
	copy(body, tasks)
	for i, h := range heads {
		body[int(capacity)+i] = h
	}
	for _, v := range body {
		for _, w := range v {
			b = binary.LittleEndian.AppendUint32(b, w)
		}
	}
	return b
}

func task(slot, op, tenant, status, fault, offset, parent uint32) [4]uint32 {
	var v [4]uint32
	v[abi.TraceTaskSlot] = slot
	v[abi.TraceTaskOpTenant] = op | tenant<<abi.TraceTenantShift
	v[abi.TraceTaskOutcome] = status | fault<<abi.TraceFaultShift | offset<<abi.TraceOffsetShift
	v[abi.TraceTaskParent] = parent
	return v
}

func head(group, start, end, lane uint32) [4]uint32 {
	var v [4]uint32
	v[abi.TraceHeadGroup], v[abi.TraceHeadStart], v[abi.TraceHeadEnd], v[abi.TraceHeadLane] = group, start, end, lane
	return v
}

func TestDecodeDrain(t *testing.T) {
	// A run of three lanes (10, 11, 12 of workgroup 5), a run of one, and
	// a record past the cursor.
	b := packed(5, 4, 300, [][4]uint32{
		task(7, abi.OpSpin, 3, abi.StatusDone, 0, 0, abi.TraceNoParent),
		task(8, abi.OpNop, 3, abi.StatusFault, abi.FaultUserFirst+0xFEFF, 1, 7),
		task(9, abi.OpNop, 28, abi.StatusYield, 0, 2, abi.TraceNoParent),
		task(2, 0x1F, 1, abi.StatusDone, 0, 0, abi.TraceNoParent),
		task(1, 1, 1, 1, 0, 0, 0),
	}, map[int][4]uint32{0: head(5, 100, 200, 10), 3: head(2, 7, 9, 0), 4: head(9, 9, 9, 9)})
	var got Buffer
	require.NoError(t, DecodeDrainInto(&got, b))
	assert.Equal(t, Buffer{Cursor: 4, Capacity: 5, Clock: 300, Records: []Record{
		{Slot: 7, Opcode: abi.OpSpin, Tenant: 3, Workgroup: 5, Lane: 10, Start: 100, End: 200, Status: decode.StatusDone, Parent: abi.TraceNoParent},
		{Slot: 8, Opcode: abi.OpNop, Tenant: 3, Workgroup: 5, Lane: 11, Start: 101, End: 201, Status: decode.StatusFault,
			Fault: decode.FaultCode(abi.FaultUserFirst + 0xFEFF), Parent: 7},
		{Slot: 9, Opcode: abi.OpNop, Tenant: 28, Workgroup: 5, Lane: 12, Start: 102, End: 202, Status: decode.StatusYield, Parent: abi.TraceNoParent},
		{Slot: 2, Opcode: 0x1F, Tenant: 1, Workgroup: 2, Lane: 0, Start: 7, End: 9, Status: decode.StatusDone, Parent: abi.TraceNoParent},
	}}, got)
}

func TestDecodeDrainRefusesABrokenRun(t *testing.T) {
	for name, tc := range map[string]struct {
		tasks [][4]uint32
		want  string
	}{
		"before the first": {[][4]uint32{task(1, 0, 0, abi.StatusDone, 0, 1, 0)}, "record 0 is 1 records into a run"},
		"not a run's first": {[][4]uint32{task(1, 0, 0, abi.StatusDone, 0, 0, 0), task(2, 0, 0, abi.StatusDone, 0, 1, 0),
			task(3, 0, 0, abi.StatusDone, 0, 1, 0)}, "record 2 is 1 records into a run"},
	} {
		t.Run(name, func(t *testing.T) {
			dst := Buffer{Cursor: 9}
			err := DecodeDrainInto(&dst, packed(4, uint32(len(tc.tasks)), 0, tc.tasks, nil))
			var de *decode.DecodeError
			require.True(t, errors.As(err, &de), "%v", err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Equal(t, uint32(9), dst.Cursor, "left untouched")
		})
	}
}

func FuzzDecodeDrain(f *testing.F) {
	f.Add(packed(2, 2, 5, [][4]uint32{task(1, 2, 3, abi.StatusDone, 0, 0, 9), task(2, 2, 3, abi.StatusDone, 0, 1, 9)},
		map[int][4]uint32{0: head(1, 2, 3, 4)}))
	f.Add(packed(1, 9, 0, nil, nil))
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		var got Buffer
		if err := DecodeDrainInto(&got, b); err != nil {
			return
		}
		assert.Equal(t, int(min(got.Cursor, got.Capacity)), len(got.Records))
		assert.Equal(t, got.Cursor-min(got.Cursor, got.Capacity), got.Overflow)
		for _, r := range got.Records {
			assert.Less(t, uint32(r.Status), uint32(1)<<abi.TraceFaultShift)
			assert.LessOrEqual(t, uint32(r.Fault), uint32(abi.TraceFaultMask))
		}
	})
}

func TestPassAt(t *testing.T) {
	p := Pass{First: 100, End: 104, BeginNS: 1000, EndNS: 1400, Timed: true}
	assert.Equal(t, uint32(4), p.Tickets())
	assert.Equal(t, []float64{1050, 1150, 1250, 1350}, []float64{p.At(100), p.At(101), p.At(102), p.At(103)})
	assert.True(t, p.Holds(103))
	assert.False(t, p.Holds(104))
	assert.False(t, p.Holds(99))
	logical := Pass{First: 100, End: 104}
	assert.Equal(t, 102.0, logical.At(102), "the logical axis is the ticket")
	wrap := Pass{First: 0xFFFFFFFE, End: 2, BeginNS: 0, EndNS: 400, Timed: true}
	assert.True(t, wrap.Holds(1))
	assert.Equal(t, 350.0, wrap.At(1), "a clock that wraps maps on")
	assert.Equal(t, 1, Find([]Pass{{First: 0, End: 10}, wrap}, 0xFFFFFFFF))
	assert.Equal(t, -1, Find([]Pass{{First: 0, End: 10}}, 10))
	empty := Pass{First: 5, End: 5, BeginNS: 7, EndNS: 9, Timed: true}
	assert.Equal(t, 7.0, empty.At(5))
}

// TestPassAtErrorBound: for tickets taken at a steady rate the map's
// error stays within one ticket interval; the order is exact whatever the
// rate.
func TestPassAtErrorBound(t *testing.T) {
	const n = 1000
	p := Pass{First: 0, End: n, BeginNS: 0, EndNS: 1_000_000, Timed: true}
	d := float64(p.EndNS - p.BeginNS)
	for k := range uint32(n) {
		real := (float64(k) + 0.3) * d / n // steady, off-centre
		assert.InDelta(t, real, p.At(k), d/n)
		if k > 0 {
			assert.Greater(t, p.At(k), p.At(k-1))
		}
	}
}

func TestBubbles(t *testing.T) {
	passes := []Pass{{First: 0, End: 20}, {First: 20, End: 30}}
	recs := []Record{
		{Workgroup: 0, Start: 2, End: 5},
		{Workgroup: 0, Start: 3, End: 8}, // overlaps: one busy run 2…8
		{Workgroup: 0, Start: 12, End: 19},
		{Workgroup: 1, Start: 0, End: 4},
		{Workgroup: 1, Start: 21, End: 23},
		{Workgroup: 2, Start: 19, End: 21}, // spans two passes: skipped
	}
	got := Bubbles(nil, recs, passes, []bool{false, true})
	assert.Equal(t, []Gap{
		{Workgroup: 0, Pass: 0, From: 0, To: 2, Reason: ReasonStart},
		{Workgroup: 0, Pass: 0, From: 9, To: 12, Reason: ReasonBetween},
		{Workgroup: 1, Pass: 0, From: 5, To: 20, Reason: ReasonDrained},
		{Workgroup: 1, Pass: 1, From: 20, To: 21, Reason: ReasonStart},
		{Workgroup: 1, Pass: 1, From: 24, To: 30, Reason: ReasonBudget},
	}, got)
}

// TestBubblesOverflowedPass: a pass that dropped records ran tasks after
// its last kept one, so the time past a workgroup's last record is no
// bubble (nor "budget spent"); the gaps between kept records still are.
func TestBubblesOverflowedPass(t *testing.T) {
	passes := []Pass{{First: 0, End: 40, Dropped: 15}, {First: 40, End: 50}}
	recs := []Record{
		{Workgroup: 1, Start: 2, End: 4},
		{Workgroup: 1, Start: 7, End: 9},
		{Workgroup: 1, Start: 41, End: 43},
	}
	got := Bubbles(nil, recs, passes, []bool{true, true})
	assert.Equal(t, []Gap{
		{Workgroup: 1, Pass: 0, From: 0, To: 2, Reason: ReasonStart},
		{Workgroup: 1, Pass: 0, From: 5, To: 7, Reason: ReasonBetween},
		{Workgroup: 1, Pass: 1, From: 40, To: 41, Reason: ReasonStart},
		{Workgroup: 1, Pass: 1, From: 44, To: 50, Reason: ReasonBudget},
	}, got)
}

// TestGapSpan: a bubble runs from the end ticket of the task before it
// (or the pass's beginning) to the start ticket of the task after it (or
// the pass's end), on either axis; a gap of one ticket is not empty.
func TestGapSpan(t *testing.T) {
	timed := []Pass{{First: 100, End: 110, BeginNS: 1000, EndNS: 2000, Timed: true}}
	ax := NewAxis(timed)
	p := &timed[0]
	for _, c := range []struct {
		name     string
		g        Gap
		from, to float64
	}{
		{"at the beginning", Gap{From: 100, To: 102}, 0, 250}, // to: ticket 102's middle
		{"between", Gap{From: 104, To: 105}, 350, 550},        // one ticket: 103 to 105
		{"at the end", Gap{From: 108, To: 110}, 750, 1000},    // from: ticket 107's middle
		{"the whole pass", Gap{From: 100, To: 110}, 0, 1000},
	} {
		from, to := ax.GapSpan(p, &c.g)
		assert.InDelta(t, c.from, from, 1e-9, c.name)
		assert.InDelta(t, c.to, to, 1e-9, c.name)
	}
	logical := []Pass{{First: 100, End: 110}}
	ax = NewAxis(logical)
	from, to := ax.GapSpan(&logical[0], &Gap{From: 104, To: 105})
	assert.Equal(t, [2]float64{3, 5}, [2]float64{from, to}, "tickets since the window's first")
}

func TestAppendBufferDecodesBack(t *testing.T) {
	recs := []Record{
		{Slot: 3, Opcode: 0x101, Tenant: 2, Workgroup: 1, Lane: 5, Start: 10, End: 12, Status: decode.StatusDone, Parent: abi.TraceNoParent},
		{Slot: 9, Opcode: 3, Tenant: 0, Workgroup: 0, Lane: 0, Start: 11, End: 15, Status: decode.StatusFault, Fault: decode.FaultOutOfBounds, Parent: 3},
	}
	b := AppendBuffer([]byte{0xAA}, 16, recs)
	assert.Len(t, b, 1+HeaderBytes+2*RecordBytes)
	got, err := Decode(b[1:])
	require.NoError(t, err)
	assert.Equal(t, recs, got.Records)
	assert.EqualValues(t, 16, got.Clock)
	assert.Zero(t, got.Overflow)
}

// BenchmarkDecodeInto decodes a full trace of 65,536 records (the page
// does this for every traced submission): bench/results-size.md weighs
// the package's inlining against the page's size with it.
func BenchmarkDecodeInto(b *testing.B) {
	const n = 1 << 16
	recs := make([][abi.TraceRecordWords]uint32, n)
	for i := range recs {
		recs[i] = rec(uint32(i), abi.OpSpin, uint32(i%29), uint32(i/64), uint32(i%64), uint32(2*i), uint32(2*i+1), abi.StatusDone, 0, abi.TraceNoParent)
	}
	buf := buffer(n, n, 2*n, recs...)
	var dst Buffer
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		if err := DecodeInto(&dst, buf); err != nil {
			b.Fatal(err)
		}
	}
}
