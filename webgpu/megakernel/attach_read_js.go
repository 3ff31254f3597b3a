//go:build js && wasm

package megakernel

import (
	"errors"
	"fmt"

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

// Readback is the mode the attachment runs in (AttachFull or
// AttachSummary); ReadbackNote says why (a summary asked for on a ring
// without STORAGE usage falls back to full, and the note says so).
func (a *Attachment) Readback() AttachReadback { return a.mode }
func (a *Attachment) ReadbackNote() string     { return a.note }

// Slots is the watched ring's slot count; Observable its OBSERVABLE words;
// LogCapacity its log records (0 without a log).
func (a *Attachment) Slots() uint32       { return a.geo.slots }
func (a *Attachment) Observable() uint32  { return a.geo.observable }
func (a *Attachment) LogCapacity() uint32 { return a.geo.logCapacity }

// HasLog says the attachment watches a log buffer.
func (a *Attachment) HasLog() bool { return a.geo.hasLog }

// WindowOpcodes are the opcodes decoded as windows (do not modify).
func (a *Attachment) WindowOpcodes() []uint32 { return a.opts.WindowOpcodes }

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

// RequestRing makes the next Step read the ring in summary mode too.
func (a *Attachment) RequestRing() { a.wantRing = true }

// Telemetry is the last frame decoded; Log its log.
func (a *Attachment) Telemetry() *decode.RingTelemetry { return a.dec.Telemetry() }
func (a *Attachment) Log() *decode.Log                 { return a.dec.Log() }

// Control and LogBytes are the last frame's control and log bytes (empty
// before the first frame; LogBytes empty without a log).
func (a *Attachment) Control() []byte {
	if a.frames == 0 {
		return nil
	}
	return a.rb[a.lay.controlOffset() : a.lay.controlOffset()+a.lay.control]
}

func (a *Attachment) LogBytes() []byte {
	if a.frames == 0 || a.lay.log == 0 {
		return nil
	}
	return a.rb[a.lay.logOffset() : a.lay.logOffset()+a.lay.log]
}

// Ring is the ring as the last frame knows it: in full mode the bytes it
// read; in summary mode the last ring read with every status the status
// maps since brought (the other words are the last ring read's).
func (a *Attachment) Ring() []byte {
	switch {
	case !a.haveRing:
		return nil
	case a.mode == AttachSummary:
		return a.ring
	}
	return a.rb[a.lay.ringOffset() : a.lay.ringOffset()+a.lay.ring]
}

// SummaryBytes and StatusMapBytes are the last frame's GPU summary and
// status map (nil outside summary mode).
func (a *Attachment) SummaryBytes() []byte {
	if a.mode != AttachSummary || a.frames == 0 {
		return nil
	}
	return a.rb[a.lay.summaryOffset():a.lay.statusMapOffset()]
}

func (a *Attachment) StatusMapBytes() []byte {
	if a.mode != AttachSummary || a.frames == 0 {
		return nil
	}
	return a.rb[a.lay.statusMapOffset():a.lay.ringOffset()]
}

// Sketches fills dst with the GPU summary's five sketches (summary mode).
func (a *Attachment) Sketches(dst *decode.SketchTelemetry) error {
	sb := a.SummaryBytes()
	if sb == nil {
		return errors.New("megakernel: attach: sketches: no GPU summary (not summary readback, or no frame yet)")
	}
	if err := decode.SummarySketchInto(dst, sb); err != nil {
		return fmt.Errorf("megakernel: attach: sketches: %w", err)
	}
	return nil
}

// DecodeHostRing decodes control and Ring into dst: every slot, where the
// last frame's telemetry is a summary's.
func (a *Attachment) DecodeHostRing(dst *decode.RingTelemetry, scratch *decode.DecodeScratch) error {
	if !a.haveRing {
		return errors.New("megakernel: attach: no ring read yet")
	}
	if err := a.dec.DecodeRing(dst, scratch, a.Control(), a.Ring()); err != nil {
		return fmt.Errorf("megakernel: attach: decode the ring copy: %w", err)
	}
	return nil
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
		n += uint64(ctrlWord(c, abi.CtrlTail+p))
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
		n += ctrlWord(c, abi.CtrlTail+p) - ctrlWord(c, abi.CtrlHead+p)
	}
	return n
}

func ctrlWord(b []byte, w int) uint32 {
	o := w * abi.WordBytes
	return uint32(b[o]) | uint32(b[o+1])<<8 | uint32(b[o+2])<<16 | uint32(b[o+3])<<24
}

// Accounting is the zero value: requeue accounting is the publisher's,
// and the host page is its own publisher.
func (a *Attachment) Accounting() decode.PriorityRequeueAccounting {
	return decode.PriorityRequeueAccounting{}
}

// RingChanges is the byte ranges of Ring, in whole slots, that changed
// since ClearRingChanges: in summary mode the slots whose status the
// status maps changed (the whole ring after a ring read); nil in full mode,
// where every frame reads the ring whole.
func (a *Attachment) RingChanges() []host.ByteRange {
	if a.mode != AttachSummary {
		return nil
	}
	return a.changed
}

// ClearRingChanges forgets them.
func (a *Attachment) ClearRingChanges() { a.changed = a.changed[:0] }
