//go:build js && wasm

package megakernel

import (
	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// What an Attachment's last frame read, with the names a Runner uses for
// the same things, so the page feeds its panels, watchdog, recorder and
// exports from either. Slices alias the attachment's storage, reused by
// the next Step.

// Device returns the host's device the attachment reads from.
func (a *Attachment) Device() *webgpu.Device { return a.dev }

// Readback is the mode the attachment runs in (decode.ReadbackFull or
// decode.ReadbackSummary); ReadbackNote says why (a summary asked for on a ring
// without STORAGE usage falls back to full, and the note says so).
func (a *Attachment) Readback() decode.Readback { return a.mode }
func (a *Attachment) ReadbackNote() string      { return a.note }

// Slots is the watched ring's slot count; Observable its OBSERVABLE words;
// LogCapacity its log records (0 without a log).
func (a *Attachment) Slots() uint32       { return a.geo.slots }
func (a *Attachment) Observable() uint32  { return a.geo.observable }
func (a *Attachment) LogCapacity() uint32 { return a.geo.logCapacity }

// HasLog says the attachment watches a log buffer.
func (a *Attachment) HasLog() bool { return a.geo.hasLog }

// Frames counts the frames read so far; RingRead says whether the last one
// read the ring; Timings are its host times.
func (a *Attachment) Frames() uint64         { return a.frames }
func (a *Attachment) RingRead() bool         { return a.ringRead }
func (a *Attachment) Timings() AttachTimings { return a.timings }

// BytesPerFrame is what the last frame copied back: control, log, the
// summary and status map in summary mode, and the ring when it was read.
func (a *Attachment) BytesPerFrame() uint64 {
	n := a.lay.control + a.lay.log + a.lay.summary + a.lay.statusMap
	if a.ringRead {
		n += a.lay.ring
	}
	return n
}

// Published is the items the host published, as its control says: Σ
// TAIL[p] of an ABI v1 ring; a legacy ring has no TAIL words, so there it
// is DONE_COUNT plus the active slots.
// (vyre's queue depth, decode.RingOccupancy.QueueDepth, counts FAULT
// slots too, and those are in DONE_COUNT already.)
func (a *Attachment) Published() uint64 {
	c := a.Control()
	if c == nil {
		return 0
	}
	if a.dec.Telemetry().Control.Legacy {
		return uint64(a.dec.Telemetry().Control.DoneCount) + uint64(a.dec.Telemetry().Occupancy.ActiveSlots())
	}
	var n uint64
	for p := range abi.PriorityLevels {
		n += uint64(abi.Word(c, abi.CtrlTail+p))
	}
	return n
}

// Pending is the items published and not yet claimed: Σ TAIL − HEAD of an
// ABI v1 ring, the active slots of a legacy one.
func (a *Attachment) Pending() uint32 {
	c := a.Control()
	switch {
	case c == nil:
		return 0
	case a.dec.Telemetry().Control.Legacy:
		return a.dec.Telemetry().Occupancy.ActiveSlots()
	}
	var n uint32
	for p := range abi.PriorityLevels {
		n += abi.Word(c, abi.CtrlTail+p) - abi.Word(c, abi.CtrlHead+p)
	}
	return n
}

// Accounting is the zero value: requeue accounting is the publisher's,
// and the host page is its own publisher.
func (a *Attachment) Accounting() decode.PriorityRequeueAccounting {
	return decode.PriorityRequeueAccounting{}
}

// frameCopies are an attachment's copies of the host's buffers, a View's
// Copies: control and the log as its last frame read them (nil before the
// first, the log nil without one), and the ring, nil until a frame reads
// it: in full mode the bytes the last frame read; in summary mode the last
// ring read with every status the status maps since brought (the other
// words are the last ring read's, since the host may have rewritten them
// since), whose changed slots are changed (nil in full mode, where every
// frame reads the ring whole).
type frameCopies struct {
	control, ring, log []byte
	changed            []host.ByteRange
}

func (c *frameCopies) Control() []byte               { return c.control }
func (c *frameCopies) Ring() []byte                  { return c.ring }
func (c *frameCopies) Log() []byte                   { return c.log }
func (c *frameCopies) RingChanges() []host.ByteRange { return c.changed }
func (c *frameCopies) ClearRingChanges()             { c.changed = c.changed[:0] }
