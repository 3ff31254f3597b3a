package capture

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// File layout constants (docs/CAPTURE.md). Every integer is little-endian.
const (
	// Magic opens every capture file: 0x89 then "RSCAP\r\n". The high byte
	// and the line ending catch a file that went through a text-mode
	// transfer, as in PNG.
	Magic = "\x89RSCAP\r\n"
	// Version is the newest container version this package writes and
	// reads: version 2 adds ring patches (FlagRingPatch). Encode writes
	// VersionNoPatches when no frame holds one, so that a reader of version
	// 1 still reads such files.
	Version = 2
	// VersionNoPatches is the container version without ring patches.
	VersionNoPatches = 1
	// FormatName is Header.Format.
	FormatName = "ringscope-capture"
	// FilePrefixBytes is magic (8) + version (4) + header length (4).
	FilePrefixBytes = 16
	// FrameFixedBytes is the fixed part of a frame record, after its
	// length word.
	FrameFixedBytes = 40
	// MaxHeaderBytes bounds the JSON header.
	MaxHeaderBytes = 1 << 20
	// MaxMetaBytes bounds a frame's JSON metadata.
	MaxMetaBytes = 1 << 16
	// MaxFileBytes bounds what an import reads: a page that is handed a
	// file larger than this refuses it before reading it (the recorder
	// itself holds at most 96 MiB).
	MaxFileBytes = 512 << 20
	// MaxWindowOpcodes bounds Header.WindowOpcodes.
	MaxWindowOpcodes = 64
	// MinControlBytes is the smallest control buffer: 160 words.
	MinControlBytes = abi.CtrlObservable * abi.WordBytes
	// SlotBytes is one ring slot.
	SlotBytes = abi.SlotWords * abi.WordBytes
)

// Frame record flags.
const (
	// FlagRing is set when the frame holds the whole ring.
	FlagRing uint32 = 1 << 0
	// FlagRingPatch is set when the frame holds a ring patch (patch.go):
	// the slots that changed since the frame before it, which holds a ring
	// or a patch of the same generation. Version 2 only.
	FlagRingPatch uint32 = 1 << 1
	flagsKnown           = FlagRing | FlagRingPatch
)

// Sources of a capture (Header.Source).
const (
	SourceLive = "live" // recorded by the page's live loop
	SourceDump = "dump" // a bare control + ring dump pair
)

// Header is the capture file's JSON header. The zero value, filled in by
// Encode, is a valid header of a capture with no adapter.
type Header struct {
	// Format is FormatName; Version the container version (Version).
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Ringscope is the version of the ringscope build that wrote the file,
	// free text ("(devel)", a tag, a VCS revision).
	Ringscope string `json:"ringscope"`
	// ABIVersion is the megakernel ABI of the frames (abi.Version).
	ABIVersion uint32 `json:"abiVersion"`
	// Source says where the frames came from: SourceLive or SourceDump.
	Source string `json:"source"`
	// CreatedAt is when the file was written, RFC 3339, or "".
	CreatedAt string `json:"createdAt,omitempty"`
	// WindowOpcodes are the opcodes decoded as ticketed windows.
	WindowOpcodes []uint32 `json:"windowOpcodes"`
	// Adapter describes the WebGPU adapter of a live capture; nil for a dump.
	Adapter *Adapter `json:"adapter,omitempty"`
	// FrameCount is the number of frame records that follow the header.
	FrameCount int `json:"frameCount"`
	// DroppedFrames is how many older frames the recorder evicted before
	// the export (its memory bound).
	DroppedFrames uint64 `json:"droppedFrames"`
	// UserOpcodes name the user opcodes of the kernel that ran
	// (docs/OPCODES.md), so the exports and a replay elsewhere name them.
	UserOpcodes []NamedOpcode `json:"userOpcodes,omitempty"`
}

// NamedOpcode is a user opcode's number and name.
type NamedOpcode struct {
	Opcode uint32 `json:"opcode"`
	Name   string `json:"name"`
}

// UserOpcodeName is the name h gives op, or "".
func (h *Header) UserOpcodeName(op uint32) string {
	for _, n := range h.UserOpcodes {
		if n.Opcode == op {
			return n.Name
		}
	}
	return ""
}

// Adapter is the WebGPU adapter a live capture ran on.
type Adapter struct {
	Vendor       string `json:"vendor"`
	Architecture string `json:"architecture"`
	Device       string `json:"device"`
	Description  string `json:"description"`
	IsFallback   bool   `json:"isFallback"`
	IsCPU        bool   `json:"isCPU"`
}

// Frame is one recorded readback. Control is the whole control buffer
// (≥ 640 bytes, whole words), Ring the ring (whole 64-byte slots) or nil
// when the ring was not read back, Log the log buffer or nil. The zero
// value is not a valid frame (it has no control buffer).
type Frame struct {
	// Seq numbers the page's frames from 1, strictly increasing in a file.
	Seq uint64
	// AtMillis is the page time (performance.now(), ms) of the readback;
	// finite and non-decreasing in a file.
	AtMillis float64
	// Generation is the control buffer's GENERATION word (0 in a legacy
	// dump); Decode checks that they agree.
	Generation uint32
	Control    []byte
	// Ring is the whole ring (FlagRing); Patch, when Ring is nil, the ring
	// as a patch of the frame before it (FlagRingPatch, patch.go). Both nil:
	// the frame carries no ring.
	Ring  []byte
	Patch []byte
	Log   []byte
	Meta  Meta
}

// Meta is a frame's JSON metadata: what the buffers do not hold.
type Meta struct {
	// Dispatch is the per-dispatch telemetry of the submission this frame
	// read back; nil when the frame was not produced by a dispatch.
	Dispatch *Dispatch `json:"dispatch,omitempty"`
	// Timings are the host-side costs of the frame, in milliseconds.
	Timings frame.Timings `json:"timings"`
	// Published counts items published in this generation so far.
	Published uint64 `json:"published"`
}

// Capture is a decoded or assembled capture file.
type Capture struct {
	Header Header
	Frames []Frame
}

// FormatError reports the first problem of a capture file or dump: the byte
// offset in the file (or in the named dump buffer), the frame (-1 for the
// file prefix and header), the field, and why.
type FormatError struct {
	Offset int64
	Frame  int
	Field  string
	Msg    string
}

func (e *FormatError) Error() string {
	where := "header"
	if e.Frame >= 0 {
		where = fmt.Sprintf("frame %d", e.Frame)
	}
	return fmt.Sprintf("capture: byte %d: %s: %s: %s", e.Offset, where, e.Field, e.Msg)
}

func fail(off int64, frame int, field, format string, args ...any) error {
	return &FormatError{Offset: off, Frame: frame, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Encode writes c as a capture file. It fills in Format, Version and
// FrameCount, and refuses (with a *FormatError whose offset is where the
// bad frame would have started) any frame Decode would refuse, so what
// Encode writes always decodes.
func Encode(c *Capture) ([]byte, error) {
	h := c.Header
	h.Format, h.Version, h.FrameCount = FormatName, VersionNoPatches, len(c.Frames)
	for i := range c.Frames {
		if c.Frames[i].Patch != nil {
			h.Version = Version
		}
	}
	if h.ABIVersion == 0 {
		h.ABIVersion = abi.Version
	}
	if h.WindowOpcodes == nil {
		h.WindowOpcodes = []uint32{}
	}
	if err := checkHeader(&h, 0); err != nil {
		return nil, err
	}
	hj, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("capture: header: %w", err)
	}
	if len(hj) > MaxHeaderBytes {
		return nil, fail(12, -1, "header length", "%d bytes exceeds %d", len(hj), MaxHeaderBytes)
	}
	size := FilePrefixBytes + len(hj)
	for i := range c.Frames {
		f := &c.Frames[i]
		size += 4 + FrameFixedBytes + len(f.Control) + len(f.Ring) + len(f.Patch) + len(f.Log) + 512
	}
	out := make([]byte, 0, size)
	out = append(out, Magic...)
	out = binary.LittleEndian.AppendUint32(out, uint32(h.Version))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(hj)))
	out = append(out, hj...)
	var v validator
	v.windows = h.WindowOpcodes
	for i := range c.Frames {
		f := &c.Frames[i]
		start := int64(len(out))
		meta, err := json.Marshal(f.Meta)
		if err != nil {
			return nil, fail(start, i, "meta", "%v", err)
		}
		if len(meta) > MaxMetaBytes {
			return nil, fail(start, i, "meta", "%d bytes exceeds %d", len(meta), MaxMetaBytes)
		}
		flags := uint32(0)
		if f.Ring != nil {
			flags |= FlagRing
		}
		if f.Patch != nil {
			flags |= FlagRingPatch
		}
		if err := v.frame(f, flags, i, start+4, start+4+FrameFixedBytes+int64(len(meta))); err != nil {
			return nil, err
		}
		rec := FrameFixedBytes + len(meta) + len(f.Control) + len(f.Ring) + len(f.Patch) + len(f.Log)
		if uint64(rec) > math.MaxUint32 {
			return nil, fail(start, i, "record length", "%d bytes does not fit 32 bits", rec)
		}
		le := binary.LittleEndian
		out = le.AppendUint32(out, uint32(rec))
		out = le.AppendUint64(out, f.Seq)
		out = le.AppendUint64(out, math.Float64bits(f.AtMillis))
		out = le.AppendUint32(out, f.Generation)
		out = le.AppendUint32(out, flags)
		out = le.AppendUint32(out, uint32(len(meta)))
		out = le.AppendUint32(out, uint32(len(f.Control)))
		out = le.AppendUint32(out, uint32(len(f.Ring)+len(f.Patch)))
		out = le.AppendUint32(out, uint32(len(f.Log)))
		out = append(out, meta...)
		out = append(out, f.Control...)
		out = append(out, f.Ring...)
		out = append(out, f.Patch...)
		out = append(out, f.Log...)
	}
	return out, nil
}

// Decode reads and validates a capture file: the prefix, the header, every
// frame record and every buffer in it (control, ring and log must decode,
// the ABI must be v1 or legacy, GENERATION must match, sequence numbers
// must increase and times must not go back). The first problem is returned
// as a *FormatError. The frames' byte slices alias data.
func Decode(data []byte) (*Capture, error) {
	n := int64(len(data))
	if n > MaxFileBytes {
		return nil, fail(0, -1, "size", "%d bytes exceeds the %d-byte import limit", n, int64(MaxFileBytes))
	}
	if n < int64(len(Magic)) || string(data[:len(Magic)]) != Magic {
		if looksLikeJSON(data) {
			return nil, fail(0, -1, "magic", "not a capture file: it starts like JSON; a capture file starts with the bytes 89 52 53 43 41 50 0D 0A (\\x89RSCAP\\r\\n)")
		}
		return nil, fail(0, -1, "magic", "not a capture file: expected the bytes 89 52 53 43 41 50 0D 0A (\\x89RSCAP\\r\\n) at the start")
	}
	if n < FilePrefixBytes {
		return nil, fail(n, -1, "version", "file ends after %d bytes, inside the 16-byte prefix", n)
	}
	le := binary.LittleEndian
	version := le.Uint32(data[8:])
	if version != VersionNoPatches && version != Version {
		return nil, fail(8, -1, "version", "container version %d is not supported (this build reads %d and %d)", version, VersionNoPatches, Version)
	}
	hlen := int64(le.Uint32(data[12:]))
	if hlen > MaxHeaderBytes {
		return nil, fail(12, -1, "header length", "%d bytes exceeds %d", hlen, MaxHeaderBytes)
	}
	if FilePrefixBytes+hlen > n {
		return nil, fail(12, -1, "header length", "%d bytes runs past the end of the file (%d bytes left)", hlen, n-FilePrefixBytes)
	}
	c := &Capture{}
	if err := strictJSON(data[FilePrefixBytes:FilePrefixBytes+hlen], &c.Header); err != nil {
		return nil, fail(FilePrefixBytes, -1, "header", "invalid JSON: %v", err)
	}
	if err := checkHeader(&c.Header, FilePrefixBytes); err != nil {
		return nil, err
	}
	if c.Header.Version != int(version) {
		return nil, fail(FilePrefixBytes, -1, "version", "header version %d, but the container's is %d", c.Header.Version, version)
	}
	off := FilePrefixBytes + hlen
	remaining := n - off
	// Every frame takes at least 4 + 40 + 640 bytes: bound the allocation
	// by what the file can hold, not by what the header claims.
	if int64(c.Header.FrameCount) > remaining/(4+FrameFixedBytes+MinControlBytes) {
		return nil, fail(off, -1, "frameCount", "header says %d frames, the %d bytes that follow hold at most %d", c.Header.FrameCount, remaining, remaining/(4+FrameFixedBytes+MinControlBytes))
	}
	c.Frames = make([]Frame, c.Header.FrameCount)
	var v validator
	v.windows = c.Header.WindowOpcodes
	for i := range c.Frames {
		if n-off < 4 {
			return nil, fail(off, i, "record length", "file ends after %d of %d frames", i, c.Header.FrameCount)
		}
		rec := int64(le.Uint32(data[off:]))
		if rec < FrameFixedBytes {
			return nil, fail(off, i, "record length", "%d bytes is shorter than the %d-byte fixed part", rec, FrameFixedBytes)
		}
		if rec > n-off-4 {
			return nil, fail(off, i, "record length", "%d bytes runs past the end of the file (%d bytes left)", rec, n-off-4)
		}
		p := off + 4
		b := data[p : p+rec]
		f := &c.Frames[i]
		f.Seq = le.Uint64(b[0:])
		f.AtMillis = math.Float64frombits(le.Uint64(b[8:]))
		f.Generation = le.Uint32(b[16:])
		flags := le.Uint32(b[20:])
		lens := [4]int64{int64(le.Uint32(b[24:])), int64(le.Uint32(b[28:])), int64(le.Uint32(b[32:])), int64(le.Uint32(b[36:]))}
		names := [4]string{"meta length", "control length", "ring length", "log length"}
		sum := int64(FrameFixedBytes)
		for k, l := range lens {
			sum += l
			if sum > rec {
				return nil, fail(p+24+4*int64(k), i, names[k], "%d bytes runs past the %d-byte record", l, rec)
			}
		}
		if sum != rec {
			return nil, fail(off, i, "record length", "%d bytes, but the fixed part and the four lengths add up to %d", rec, sum)
		}
		switch {
		case flags&^flagsKnown != 0:
			return nil, fail(p+20, i, "flags", "unknown flag bits %#x", flags&^flagsKnown)
		case flags == FlagRing|FlagRingPatch:
			return nil, fail(p+20, i, "flags", "both the ring and the ring patch flag are set")
		case flags&FlagRingPatch != 0 && version == VersionNoPatches:
			return nil, fail(p+20, i, "flags", "a ring patch in a version %d file (patches are version %d)", VersionNoPatches, Version)
		}
		q := p + FrameFixedBytes
		metaAt := q
		if lens[0] > MaxMetaBytes {
			return nil, fail(p+24, i, "meta length", "%d bytes exceeds %d", lens[0], MaxMetaBytes)
		}
		if err := strictJSON(data[q:q+lens[0]], &f.Meta); err != nil {
			return nil, fail(metaAt, i, "meta", "invalid JSON: %v", err)
		}
		q += lens[0]
		f.Control = data[q : q+lens[1] : q+lens[1]]
		q += lens[1]
		switch {
		case flags&FlagRing != 0:
			f.Ring = data[q : q+lens[2] : q+lens[2]]
		case flags&FlagRingPatch != 0:
			f.Patch = data[q : q+lens[2] : q+lens[2]]
		case lens[2] != 0:
			return nil, fail(p+32, i, "ring length", "%d bytes, but the ring flags are clear (the frame carries no ring)", lens[2])
		}
		q += lens[2]
		if lens[3] > 0 {
			f.Log = data[q : q+lens[3] : q+lens[3]]
		}
		if err := v.frame(f, flags, i, p, metaAt+lens[0]); err != nil {
			return nil, err
		}
		off = p + rec
	}
	if off != n {
		return nil, fail(off, -1, "frameCount", "%d bytes follow the last of the %d frames the header declares", n-off, c.Header.FrameCount)
	}
	return c, nil
}

func looksLikeJSON(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && (b[0] == '{' || b[0] == '[')
}

// strictJSON decodes one JSON object into v; unknown fields are allowed
// (later versions may add some), trailing data is not. It uses
// json.Unmarshal, which the page links anyway (Vugu's DOM events), rather
// than a json.Decoder, whose streaming code would be linked for this alone.
func strictJSON(b []byte, v any) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return errors.New("not a JSON object")
	}
	err := json.Unmarshal(b, v)
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		switch {
		case strings.HasSuffix(syn.Error(), " after top-level value"):
			return errors.New("data after the object")
		case syn.Error() == "unexpected end of JSON input":
			return io.ErrUnexpectedEOF // what a json.Decoder says
		}
	}
	return err
}

func checkHeader(h *Header, off int64) error {
	switch {
	case h.Format != FormatName:
		return fail(off, -1, "format", "%q, expected %q", h.Format, FormatName)
	case h.Version != VersionNoPatches && h.Version != Version:
		return fail(off, -1, "version", "header version %d, expected %d or %d", h.Version, VersionNoPatches, Version)
	case h.ABIVersion != abi.Version:
		return fail(off, -1, "abiVersion", "ABI %d is not supported (this build decodes ABI %d)", h.ABIVersion, abi.Version)
	case h.Source != SourceLive && h.Source != SourceDump:
		return fail(off, -1, "source", "%q, expected %q or %q", h.Source, SourceLive, SourceDump)
	case h.FrameCount < 0:
		return fail(off, -1, "frameCount", "%d is negative", h.FrameCount)
	case len(h.WindowOpcodes) > MaxWindowOpcodes:
		return fail(off, -1, "windowOpcodes", "%d opcodes, at most %d", len(h.WindowOpcodes), MaxWindowOpcodes)
	}
	return nil
}

// validator checks frames in order: their own buffers and their order.
// cur is the ring the last frame showed, when it carried one (chain): a
// frame's whole ring, aliased, or patched into own.
type validator struct {
	windows []uint32
	seq     uint64
	at      float64
	gen     uint32
	n       int
	chain   bool
	cur     []byte
	own     []byte
	scratch decode.DecodeScratch
	ring    decode.RingTelemetry
	log     decode.Log
}

// frame checks frame i; rec is the file offset of its record (after the
// length word), bufs where its control buffer starts.
func (v *validator) frame(f *Frame, flags uint32, i int, rec, bufs int64) error {
	if f.Seq == 0 {
		return fail(rec, i, "seq", "0; sequence numbers start at 1")
	}
	if v.n > 0 && f.Seq <= v.seq {
		return fail(rec, i, "seq", "%d does not follow %d (sequence numbers increase)", f.Seq, v.seq)
	}
	if math.IsNaN(f.AtMillis) || math.IsInf(f.AtMillis, 0) {
		return fail(rec+8, i, "atMillis", "%v is not a finite time", f.AtMillis)
	}
	if v.n > 0 && f.AtMillis < v.at {
		return fail(rec+8, i, "atMillis", "%v ms is before the previous frame's %v ms", f.AtMillis, v.at)
	}
	ringAt := bufs + int64(len(f.Control))
	logAt := ringAt + int64(len(f.Ring)) + int64(len(f.Patch))
	if len(f.Control) < MinControlBytes {
		return fail(bufs, i, "control", "%d bytes is shorter than the %d-byte control buffer (160 words)", len(f.Control), MinControlBytes)
	}
	if len(f.Control)%abi.WordBytes != 0 {
		return fail(bufs, i, "control", "%d bytes is not a whole number of 4-byte words", len(f.Control))
	}
	if flags&FlagRing != 0 && len(f.Ring) < SlotBytes {
		return fail(ringAt, i, "ring", "%d bytes with the ring flag set; a ring holds at least one 64-byte slot", len(f.Ring))
	}
	if len(f.Ring)%SlotBytes != 0 {
		return fail(ringAt, i, "ring", "%d bytes is not a whole number of 64-byte slots", len(f.Ring))
	}
	ring := f.Ring
	switch {
	case f.Ring != nil && f.Patch != nil:
		return fail(rec+20, i, "flags", "both the ring and the ring patch flag are set")
	case f.Ring != nil:
		v.cur, v.chain = f.Ring, true
	case f.Patch != nil:
		if !v.chain || f.Generation != v.gen {
			return fail(ringAt, i, "ring patch", "the frame before it carries no ring of generation %d to patch", f.Generation)
		}
		var pe *patchError
		if err := checkPatch(f.Patch, len(v.cur)/SlotBytes); errors.As(err, &pe) {
			return fail(ringAt+int64(pe.at), i, "ring patch", "%s", pe.msg)
		}
		if len(v.own) == 0 || &v.own[0] != &v.cur[0] {
			v.own = append(v.own[:0], v.cur...) // frames' bytes stay as they are
			v.cur = v.own
		}
		applyPatch(v.cur, f.Patch)
		ring = v.cur
	default:
		v.chain = false
	}
	if err := decode.DecodeInto(&v.ring, &v.scratch, f.Control, ring, v.windows); err != nil {
		var de *decode.DecodeError
		if f.Patch != nil && errors.As(err, &de) && de.Buffer == decode.BufferRing {
			// An offset in the patched ring is not one in the file.
			return fail(ringAt, i, "ring patch", "the patched ring: %s", de.Msg)
		}
		return translate(err, i, bufs, ringAt, logAt)
	}
	if err := v.ring.Control.CheckABI(); err != nil {
		return fail(bufs+abi.CtrlMagic*abi.WordBytes, i, "control", "%v", err)
	}
	if gen := v.ring.Control.Generation; gen != f.Generation {
		return fail(rec+16, i, "generation", "%d, but the control buffer's GENERATION word is %d", f.Generation, gen)
	}
	if len(f.Log) > 0 {
		if err := decode.DecodeLogInto(&v.log, f.Log); err != nil {
			return translate(err, i, bufs, ringAt, logAt)
		}
	}
	if d := f.Meta.Dispatch; d != nil {
		if _, err := d.Topology.MarshalText(); err != nil {
			return fail(rec, i, "meta.dispatch.topology", "%v", err)
		}
		if _, err := d.Pressure.MarshalText(); err != nil {
			return fail(rec, i, "meta.dispatch.pressure", "%v", err)
		}
		if _, err := d.ExecutionMode.MarshalText(); err != nil {
			return fail(rec, i, "meta.dispatch.executionMode", "%v", err)
		}
	}
	v.seq, v.at, v.gen, v.n = f.Seq, f.AtMillis, f.Generation, v.n+1
	return nil
}

// translate turns a decode error into a FormatError at its file offset.
func translate(err error, frame int, control, ring, log int64) error {
	var de *decode.DecodeError
	if !errors.As(err, &de) {
		return fail(control, frame, "buffers", "%v", err)
	}
	base := control
	switch de.Buffer {
	case decode.BufferRing:
		base = ring
	case decode.BufferLog:
		base = log
	}
	return fail(base+int64(de.Offset), frame, de.Buffer, "%s", de.Msg)
}
