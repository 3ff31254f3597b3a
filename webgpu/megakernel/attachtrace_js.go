//go:build js && wasm

package megakernel

import (
	"context"
	"time"

	"github.com/ringscope/ringscope/decode/tasktrace"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// hostTrace reads the host's trace buffer (AttachOptions.Trace) into a
// TraceWindow, the one a traced Runner keeps, so the page shows either
// the same way (docs/TRACE.md §8). The host's kernel appends records in
// the documented layout across its submissions, without rewriting the
// header between them; a frame reads the records appended since the
// last. Each frame is a pass: the tickets [clock then, clock now),
// untimed (the host's passes have no timestamps ringscope could see), so
// the window's axis is logical.
//
// A frame copies the header with control (layout.trace, Attachment.encode), and the records
// from the last one read to the capacity into the staging after the ring,
// each at its own offset; once the header says how many landed, a second
// map reads only those. The last record read is read again: a host that
// starts its trace over rewrites it (or moves the clock or the cursor
// back), and then the window starts over, with nothing of the old run.
type hostTrace struct {
	buf  *webgpu.Buffer
	recs uint64 // record 0's offset in the staging, 8-aligned

	// seen records of the host's run were read; cursor and clock are its
	// header's words then, last the record seen−1 as read.
	seen, cursor, clock uint32
	last                [tasktrace.RecordBytes]byte

	rb  []byte // the host buffer's image: header slot, then the records
	dec tasktrace.Buffer
	win TraceWindow // its Capacity is the records read at most
}

// read takes the frame's header h (its copy in the frame's first map),
// maps the records it needs from stage and adds them to the window as a
// pass. It returns the time spent waiting for the map.
func (t *hostTrace) read(ctx context.Context, stage *webgpu.Buffer, h []byte) (wait time.Duration, err error) {
	cursor, clock := abi.Word(h, abi.TraceCursor), abi.Word(h, abi.TraceClock)
	capacity := min(abi.Word(h, abi.TraceCapacity), t.win.Capacity)
	n := min(cursor, capacity)
	if cursor == t.cursor && clock == t.clock {
		return 0, nil // nothing new
	}
	// The records to map: the last one read again, then the new ones.
	at := tasktrace.HeaderBytes + uint64(max(t.seen, 1)-1)*tasktrace.RecordBytes
	back := cursor < t.cursor || clock < t.clock || n < t.seen
	if !back {
		wait, err = stage.MapReadIntoTimed(ctx, t.rb[at:tasktrace.Bytes(max(n, t.seen))], t.recs+at-tasktrace.HeaderBytes)
		if err != nil {
			return wait, err
		}
	}
	if back || t.seen > 0 && string(t.rb[at:at+tasktrace.RecordBytes]) != string(t.last[:]) {
		// The host started over (and may have written past where it
		// was): the window starts over, and the next frame reads the new
		// run from its first record and ticket 0.
		t.win.Clear()
		t.seen, t.cursor, t.clock = 0, 0, 0
		return wait, nil
	}
	if n > 0 {
		copy(t.last[:], t.rb[tasktrace.Bytes(n-1):])
	}
	// The new records as a trace buffer of their own: a header (cursor
	// and capacity n − seen) in the 16 bytes before record seen (the last
	// record read's second half, compared already), then DecodeInto.
	b := t.rb[uint64(t.seen)*tasktrace.RecordBytes : tasktrace.Bytes(n)]
	abi.PutWord(b, abi.TraceCursor, n-t.seen)
	abi.PutWord(b, abi.TraceCapacity, n-t.seen)
	if err := tasktrace.DecodeInto(&t.dec, b); err != nil {
		return wait, err
	}
	var over uint32
	if cursor > capacity {
		over = cursor - max(t.cursor, capacity)
	}
	// The host's kernel has no claim budget ringscope knows of: no
	// bubble is "budget spent".
	t.win.add(tasktrace.Pass{First: t.clock, End: clock}, false, t.dec.Records, over, maxWindowRecords(t.win.Capacity))
	t.seen, t.cursor, t.clock = n, cursor, clock
	return wait, nil
}

// Trace is the window of the host's trace records (docs/TRACE.md §8), nil
// when the attachment reads no trace. It aliases the attachment's
// storage: the next Step appends to it.
func (a *Attachment) Trace() *TraceWindow {
	if a.tr == nil {
		return nil
	}
	return &a.tr.win
}
