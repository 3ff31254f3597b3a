package megakernel

import (
	"errors"
	"fmt"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/host"
)

// Copies are the host copies a HostView shows: control, the ring and the log
// as bytes, and the ring's changed byte ranges. A Runner's are its
// host.Queue (the last readback plus the host's changes since); an
// Attachment's are its last frame (frameCopies).
type Copies interface {
	Control() []byte
	Ring() []byte
	Log() []byte
	// RingChanges are the byte ranges of Ring, in whole slots, sorted,
	// that changed since ClearRingChanges.
	RingChanges() []host.ByteRange
	ClearRingChanges()
}

// HostView is what a frame is read from, the part a Runner and an Attachment
// share (each embeds one): the decoder of the last readback (Telemetry,
// Log, the window opcodes), the host copies and their change ranges, the
// GPU summary's bytes and sketches, and the request for a ring read. The
// page's session reads every frame through it, whichever of the two
// steps (wasm/session.Source). Slices alias storage the next step reuses.
// The zero value shows nothing; SetCopies points it at copies.
type HostView struct {
	dec    decode.Decoder
	copies Copies
	// sumBytes and mapBytes are the last readback's GPU summary and
	// status map: nil outside summary readback.
	sumBytes, mapBytes []byte
	// stale marks the decoded slots as older than the host copy: the
	// last step decoded control alone, so Telemetry decodes the copy's
	// slots on its first call rather than every step.
	stale bool
	// wantRing asks the next step to read the ring back.
	wantRing bool
}

// View returns v, so a type that embeds a HostView hands it out
// (wasm/session.Source).
func (v *HostView) View() *HostView { return v }

// SetCopies points v at c and forgets what it decoded and the summary:
// the state before a first readback, with windowOpcodes decoded as
// ticketed windows.
func (v *HostView) SetCopies(c Copies, windowOpcodes []uint32) {
	v.dec.Reset()
	v.dec.SetWindowOpcodes(windowOpcodes)
	v.copies, v.sumBytes, v.mapBytes, v.stale = c, nil, nil, false
}

// Decode decodes b into Telemetry and Log (decode.Decoder.Decode).
func (v *HostView) Decode(b decode.Buffers) error {
	_, _, err := v.dec.Decode(b)
	return err
}

// decodeCopies decodes the host copies of control and the ring: every
// slot as the host copy has it.
func (v *HostView) decodeCopies() error {
	v.stale = false
	return v.Decode(decode.Buffers{Control: v.Control(), Ring: v.Ring()})
}

// Telemetry is the decoded readback of the last step. It aliases the
// view's storage, reused by the next step. After a step that read
// control alone, its slots are the host copy's, decoded on this call.
func (v *HostView) Telemetry() *decode.RingTelemetry {
	if v.stale {
		_ = v.decodeCopies()
	}
	return v.dec.Telemetry()
}

// Log is the decoded log of the last step; it aliases the view's storage.
func (v *HostView) Log() *decode.Log { return v.dec.Log() }

// WindowOpcodes are the opcodes decoded as ticketed windows (do not
// modify).
func (v *HostView) WindowOpcodes() []uint32 { return v.dec.WindowOpcodes() }

// Control, Ring and LogBytes are the host copies (Copies); nil before
// there is one (an attachment before its first frame, or without a log).
// Do not modify them.
func (v *HostView) Control() []byte {
	if v.copies == nil {
		return nil
	}
	return v.copies.Control()
}

func (v *HostView) Ring() []byte {
	if v.copies == nil {
		return nil
	}
	return v.copies.Ring()
}

func (v *HostView) LogBytes() []byte {
	if v.copies == nil {
		return nil
	}
	return v.copies.Log()
}

// RingChanges is the byte ranges of Ring, in whole slots, that changed
// since ClearRingChanges: what the host and the readbacks changed, a
// recorder's patch of the frame before.
func (v *HostView) RingChanges() []host.ByteRange {
	if v.copies == nil {
		return nil
	}
	return v.copies.RingChanges()
}

// ClearRingChanges forgets them.
func (v *HostView) ClearRingChanges() {
	if v.copies != nil {
		v.copies.ClearRingChanges()
	}
}

// RequestRing makes the next step read the ring back, in summary
// readback too.
func (v *HostView) RequestRing() { v.wantRing = true }

// TakeRingRequest reports whether RequestRing asked for a ring read since
// the last call, and forgets the request: for a source whose step reads
// the ring itself.
func (v *HostView) TakeRingRequest() bool {
	asked := v.wantRing
	v.wantRing = false
	return asked
}

// SummaryBytes and StatusMapBytes are the GPU summary and packed status
// map the last step read back under summary readback (nil otherwise).
func (v *HostView) SummaryBytes() []byte   { return v.sumBytes }
func (v *HostView) StatusMapBytes() []byte { return v.mapBytes }

// Sketches fills dst with the five Count-Min sketches of the last step's
// GPU summary (decode.SketchTelemetry.FromSummary), reusing dst's storage; it fails
// outside summary readback and before the first step.
func (v *HostView) Sketches(dst *decode.SketchTelemetry) error {
	if v.sumBytes == nil {
		return errors.New("megakernel: sketches: no GPU summary (not summary readback, or no step yet)")
	}
	if err := dst.FromSummary(v.sumBytes); err != nil {
		return fmt.Errorf("megakernel: sketches: %w", err)
	}
	return nil
}

// DecodeHostRing decodes the host copies of control and the ring into
// dst (every slot): under summary readback, where Telemetry holds the
// summary's fields, the slots a ring read would show, without one (the
// host copy follows the status map).
func (v *HostView) DecodeHostRing(dst *decode.RingTelemetry, scratch *decode.DecodeScratch) error {
	ring := v.Ring()
	if ring == nil {
		return errors.New("megakernel: decode the host copy: no ring read yet")
	}
	if err := v.dec.DecodeRing(dst, scratch, v.Control(), ring); err != nil {
		return fmt.Errorf("megakernel: decode the host copy: %w", err)
	}
	return nil
}
