package tasktrace

import (
	"encoding/binary"
	"fmt"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// BufferName is the trace buffer's name in a *decode.DecodeError.
const BufferName = "trace"

// Sizes of the trace buffer in bytes.
const (
	HeaderBytes = abi.TraceHeaderWords * abi.WordBytes
	RecordBytes = abi.TraceRecordWords * abi.WordBytes
)

// Bytes is the size of a trace buffer of capacity records.
func Bytes(capacity uint32) uint64 { return HeaderBytes + uint64(capacity)*RecordBytes }

// Record is one traced slot: where it ran, its start and end tickets and
// how it ended. Parent is the slot that spawned it on the GPU, or
// abi.TraceNoParent.
type Record struct {
	Slot      uint32
	Opcode    uint32
	Tenant    uint32
	Workgroup uint32
	Lane      uint32
	Start     uint32
	End       uint32
	Status    decode.Status
	Fault     decode.FaultCode
	Parent    uint32
}

// HasParent reports whether the GPU spawned the slot.
func (r *Record) HasParent() bool { return r.Parent != abi.TraceNoParent }

// Buffer is a decoded trace buffer. Cursor counts the records the drain
// tried to append, Capacity those the buffer holds, Clock the next ticket;
// Records are the min(Cursor, Capacity) that landed, in append order, and
// Overflow = Cursor − Capacity those dropped. The zero value is empty.
type Buffer struct {
	Cursor   uint32
	Capacity uint32
	Clock    uint32
	Overflow uint32
	Records  []Record
}

// Decode decodes a trace buffer in the record layout; see DecodeInto.
func Decode(b []byte) (Buffer, error) {
	var t Buffer
	err := DecodeInto(&t, b)
	return t, err
}

// DecodeInto decodes trace buffer b, in the record layout that attach
// hosts (docs/TRACE.md §8) and capture files write (§1.1: a record of
// abi.TraceRecordWords each), into dst, reusing dst.Records. b must be
// whole words: the header, then whole records, at least Capacity of them
// (a longer buffer is fine). On error dst is left untouched.
func DecodeInto(dst *Buffer, b []byte) error { return decodeInto(dst, b, false) }

// DecodeDrainInto decodes trace buffer b as DecodeInto does, in the packed
// layout ringscope's traced drain writes (docs/TRACE.md §1, abi.TraceTask…
// and abi.TraceHead…): records in the first half of the body, the heads of
// their runs in the second. A record whose run would start before the
// first record, or at a record that does not start one, is an error.
func DecodeDrainInto(dst *Buffer, b []byte) error { return decodeInto(dst, b, true) }

// A layout places a record's words: record i's own at words
// TraceHeaderWords + i·stride + its field's index, its run's head's at
// heads + (i − its offset in the run)·stride + the field's index. In the
// record layout a record is its own head (heads = TraceHeaderWords, no
// offsets).
type layout struct {
	stride                          int
	slot, opTenant, outcome, parent int
	group, lane, start, end         int
}

var (
	recordLayout = layout{abi.TraceRecordWords, abi.TraceRecSlot, abi.TraceRecOpTenant, abi.TraceRecOutcome,
		abi.TraceRecParent, abi.TraceRecGroup, abi.TraceRecLane, abi.TraceRecStart, abi.TraceRecEnd}
	packedLayout = layout{abi.TraceVecWords, abi.TraceTaskSlot, abi.TraceTaskOpTenant, abi.TraceTaskOutcome,
		abi.TraceTaskParent, abi.TraceHeadGroup, abi.TraceHeadLane, abi.TraceHeadStart, abi.TraceHeadEnd}
)

func decodeInto(dst *Buffer, b []byte, packed bool) error {
	n := len(b)
	switch {
	case n%abi.WordBytes != 0:
		return &decode.DecodeError{Buffer: BufferName, Offset: n - n%abi.WordBytes, Msg: fmt.Sprintf(
			"trace length %d bytes is not a whole number of %d-byte words", n, abi.WordBytes)}
	case n < HeaderBytes:
		return &decode.DecodeError{Buffer: BufferName, Offset: n, Msg: fmt.Sprintf(
			"trace of %d bytes is shorter than its %d-byte header", n, HeaderBytes)}
	case (n-HeaderBytes)%RecordBytes != 0:
		return &decode.DecodeError{Buffer: BufferName, Offset: n - (n-HeaderBytes)%RecordBytes, Msg: fmt.Sprintf(
			"trace length %d bytes is not a %d-byte header and whole %d-byte records", n, HeaderBytes, RecordBytes)}
	}
	word := func(i int) uint32 { return abi.Word(b, i) }
	cursor, capacity, clock := word(abi.TraceCursor), word(abi.TraceCapacity), word(abi.TraceClock)
	held := (n - HeaderBytes) / RecordBytes
	if uint64(capacity) > uint64(held) {
		return &decode.DecodeError{Buffer: BufferName, Offset: n, Msg: fmt.Sprintf(
			"trace header claims a capacity of %d records but the buffer holds %d", capacity, held)}
	}
	records := int(min(cursor, capacity))
	l, heads := recordLayout, abi.TraceHeaderWords
	// offset is packed record i's offset in its run.
	offset := func(i int) int {
		return int(word(abi.TraceHeaderWords+i*abi.TraceVecWords+abi.TraceTaskOutcome) >> abi.TraceOffsetShift)
	}
	if packed {
		l, heads = packedLayout, abi.TraceHeaderWords+int(capacity)*abi.TraceVecWords
		for i := range records {
			if o := offset(i); o > i || offset(i-o) != 0 {
				return &decode.DecodeError{Buffer: BufferName, Offset: (abi.TraceHeaderWords + i*l.stride) * abi.WordBytes,
					Msg: fmt.Sprintf("record %d is %d records into a run that does not start at a record", i, o)}
			}
		}
	}
	dst.Cursor, dst.Capacity, dst.Clock, dst.Overflow = cursor, capacity, clock, 0
	if cursor > capacity {
		dst.Overflow = cursor - capacity
	}
	if cap(dst.Records) >= records {
		dst.Records = dst.Records[:records]
	} else {
		dst.Records = make([]Record, records)
	}
	for i := range dst.Records {
		o := 0
		if packed {
			o = offset(i)
		}
		w, h, u := abi.TraceHeaderWords+i*l.stride, heads+(i-o)*l.stride, uint32(o)
		opTenant, outcome := word(w+l.opTenant), word(w+l.outcome)&(1<<abi.TraceOffsetShift-1)
		dst.Records[i] = Record{
			Slot:      word(w + l.slot),
			Opcode:    opTenant & abi.TraceOpMask,
			Tenant:    opTenant >> abi.TraceTenantShift,
			Workgroup: word(h + l.group),
			Lane:      word(h+l.lane) + u,
			Start:     word(h+l.start) + u,
			End:       word(h+l.end) + u,
			Status:    decode.Status(outcome & (1<<abi.TraceFaultShift - 1)),
			Fault:     decode.FaultCode(outcome >> abi.TraceFaultShift),
			Parent:    word(w + l.parent),
		}
	}
	return nil
}

// ParentTable is the word offset of the parent table of a buffer of
// capacity records (abi.TraceParents): right after the records.
func ParentTable(capacity uint32) uint32 {
	return abi.TraceHeaderWords + capacity*abi.TraceRecordWords
}

// Header is the trace buffer header a host writes before a submission:
// cursor 0 (an empty buffer), capacity records, the clock at clock, so
// that tickets keep counting from one submission to the next, and the
// parent table's offset when the kernel spawns (parents; else none).
func Header(dst []byte, capacity, clock uint32, parents bool) []byte {
	var h [abi.TraceHeaderWords]uint32
	h[abi.TraceCapacity], h[abi.TraceClock] = capacity, clock
	if parents {
		h[abi.TraceParents] = ParentTable(capacity)
	}
	for _, w := range h {
		dst = binary.LittleEndian.AppendUint32(dst, w)
	}
	return dst
}

// AppendBuffer appends a trace buffer in the record layout (docs/TRACE.md
// §1.1) holding recs: cursor and capacity len(recs), the clock at clock,
// no parent table. DecodeInto reads it back as recs; a capture file
// carries a trace window this way, and a host kernel in attach mode writes
// the same layout.
func AppendBuffer(dst []byte, clock uint32, recs []Record) []byte {
	n := uint32(len(recs))
	var h [abi.TraceHeaderWords]uint32
	h[abi.TraceCursor], h[abi.TraceCapacity], h[abi.TraceClock] = n, n, clock
	for _, w := range h {
		dst = abi.AppendWord(dst, w)
	}
	for i := range recs {
		r := &recs[i]
		var w [abi.TraceRecordWords]uint32
		w[abi.TraceRecSlot] = r.Slot
		w[abi.TraceRecOpTenant] = r.Opcode&abi.TraceOpMask | r.Tenant<<abi.TraceTenantShift
		w[abi.TraceRecGroup], w[abi.TraceRecLane] = r.Workgroup, r.Lane
		w[abi.TraceRecStart], w[abi.TraceRecEnd] = r.Start, r.End
		w[abi.TraceRecOutcome] = uint32(r.Status) | uint32(r.Fault)<<abi.TraceFaultShift
		w[abi.TraceRecParent] = r.Parent
		for _, x := range w {
			dst = abi.AppendWord(dst, x)
		}
	}
	return dst
}
