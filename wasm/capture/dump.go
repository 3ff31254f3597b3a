package capture

import (
	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// FromDump makes a one-frame capture of a bare control + ring dump pair, as
// vyre writes them (control.bin ≥ 640 bytes of whole words, ring.bin whole
// 64-byte slots). A control buffer whose MAGIC word is 0 decodes as a
// legacy vyre dump (PROTOCOL §2); an ABI v1 buffer is accepted too. Errors
// are *FormatErrors whose Field names the buffer ("control", "ring") and
// whose Offset is the byte offset in that buffer.
func FromDump(control, ring []byte, windowOpcodes []uint32) (*Capture, error) {
	if len(control) < MinControlBytes {
		return nil, fail(int64(len(control)), 0, "control", "%d bytes is shorter than the %d-byte control buffer (160 words); is this the ring file?", len(control), MinControlBytes)
	}
	if len(control)%abi.WordBytes != 0 {
		return nil, fail(int64(len(control)), 0, "control", "%d bytes is not a whole number of 4-byte words", len(control))
	}
	if len(ring) == 0 {
		return nil, fail(0, 0, "ring", "empty; a ring holds at least one 64-byte slot")
	}
	if len(ring)%SlotBytes != 0 {
		return nil, fail(int64(len(ring)-len(ring)%SlotBytes), 0, "ring", "%d bytes is not a whole number of 64-byte slots (%d bytes left over)", len(ring), len(ring)%SlotBytes)
	}
	if len(windowOpcodes) > MaxWindowOpcodes {
		return nil, fail(0, -1, "windowOpcodes", "%d opcodes, at most %d", len(windowOpcodes), MaxWindowOpcodes)
	}
	t, _, err := decode.NewDecoder(windowOpcodes).Decode(decode.Buffers{Control: control, Ring: wholeRing(ring)})
	if err != nil {
		return nil, translate(err, 0, 0, 0, 0)
	}
	if err := t.Control.CheckABI(); err != nil {
		return nil, fail(abi.CtrlMagic*abi.WordBytes, 0, "control", "%v", err)
	}
	w := windowOpcodes
	if w == nil {
		w = []uint32{}
	}
	return &Capture{
		Header: Header{Format: FormatName, Version: Version, ABIVersion: abi.Version, Source: SourceDump,
			WindowOpcodes: w, FrameCount: 1},
		Frames: []Frame{{Seq: 1, Generation: t.Control.Generation, Control: control, Ring: ring}},
	}, nil
}

// Decoded is one frame decoded for display: what the dashboard's panels
// read. The zero value is ready for DecodeBuffers and Replay.Decode, which
// reuse its storage.
type Decoded struct {
	Ring     decode.RingTelemetry
	Counters decode.RuntimeCounters
	// HasLog reports a log buffer; Log is empty otherwise.
	HasLog bool
	Log    decode.Log
	// HasDispatch reports Dispatch; Report sums the capture's dispatches up
	// to and including this frame.
	HasDispatch bool
	Dispatch    decode.MegakernelTelemetry
	Report      decode.MegakernelReport
	// Watchdog is the verdict of a decode.Watchdog run over the capture's
	// frames in order, up to this one.
	Watchdog decode.WatchdogState
	Priority decode.PriorityRequeueAccounting
	// RingFrom is the index of the frame whose ring was decoded: this one,
	// an earlier one of the same generation when this frame has no ring,
	// or -1 (no ring: zero slots).
	RingFrom int
	Timings  frame.Timings
	// Spawn is the frame's spawn telemetry (Meta.Spawn), nil when none.
	Spawn *decode.SpawnTelemetry
	dec   decode.Decoder
}

// DecodeBuffers strictly decodes one control + ring pair (and a log, when
// non-empty) into dst, the way ringscope.decode does in the page: no GPU,
// no capture. ring may be empty (no slots).
func DecodeBuffers(dst *Decoded, control, ring, log []byte, windowOpcodes []uint32) error {
	dst.dec.SetWindowOpcodes(windowOpcodes)
	tel, _, err := dst.dec.Decode(decode.Buffers{Control: control, Ring: wholeRing(ring)})
	if err != nil {
		return err
	}
	dst.Ring = *tel // its slices are dst.dec's, reused by the next decode
	dst.Counters, _ = dst.Ring.RuntimeCounters()
	dst.Priority = dst.Ring.PriorityAccounting()
	dst.HasLog = len(log) > 0
	dst.Log.Records = dst.Log.Records[:0]
	dst.Log.Cursor, dst.Log.Capacity, dst.Log.Dropped = 0, 0, 0
	if dst.HasLog {
		if err := decode.DecodeLogInto(&dst.Log, log); err != nil {
			return err
		}
	}
	dst.RingFrom = 0
	return nil
}

// wholeRing is ring as a decode.Buffers ring: never nil, so an empty ring
// decodes as no slots rather than as control alone.
func wholeRing(ring []byte) []byte {
	if ring == nil {
		return []byte{}
	}
	return ring
}
