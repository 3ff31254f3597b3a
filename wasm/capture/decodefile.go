package capture

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

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
	if version != VersionNoPatches && version != Version && version != VersionTasks {
		return nil, fail(8, -1, "version", "container version %d is not supported (this build reads %d to %d)", version, VersionNoPatches, VersionTasks)
	}
	hlen := int64(le.Uint32(data[12:]))
	if hlen > MaxHeaderBytes {
		return nil, fail(12, -1, "header length", "%d bytes exceeds %d", hlen, MaxHeaderBytes)
	}
	if FilePrefixBytes+hlen > n {
		return nil, fail(12, -1, "header length", "%d bytes runs past the end of the file (%d bytes left)", hlen, n-FilePrefixBytes)
	}
	c := &Capture{}
	if err := decodeHeader(data[FilePrefixBytes:FilePrefixBytes+hlen], &c.Header); err != nil {
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
	v.dec.SetWindowOpcodes(c.Header.WindowOpcodes)
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
		if err := decodeMeta(data[q:q+lens[0]], &f.Meta); err != nil {
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
	if version == VersionTasks {
		if n-off < 4 {
			return nil, fail(off, -1, "task section", "a version %d file ends without its task section", VersionTasks)
		}
		t := int64(le.Uint32(data[off:]))
		if t > n-off-4 {
			return nil, fail(off, -1, "task section", "%d bytes runs past the end of the file (%d bytes left)", t, n-off-4)
		}
		if err := decodeTaskSection(c, data[off+4:off+4+t], off+4); err != nil {
			return nil, err
		}
		off += 4 + t
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

func checkHeader(h *Header, off int64) error {
	switch {
	case h.Format != FormatName:
		return fail(off, -1, "format", "%q, expected %q", h.Format, FormatName)
	case h.Version < VersionNoPatches || h.Version > VersionTasks:
		return fail(off, -1, "version", "header version %d, expected %d to %d", h.Version, VersionNoPatches, VersionTasks)
	case h.ABIVersion != abi.Version:
		return fail(off, -1, "abiVersion", "ABI %d is not supported (this build decodes ABI %d)", h.ABIVersion, abi.Version)
	case h.Source != SourceLive && h.Source != SourceDump && h.Source != SourceHang:
		return fail(off, -1, "source", "%q, expected %q, %q or %q", h.Source, SourceLive, SourceDump, SourceHang)
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
	dec   decode.Decoder // the frames' rings, in the header's window opcodes
	seq   uint64
	at    float64
	gen   uint32
	n     int
	chain bool
	cur   []byte
	own   []byte
	log   decode.Log
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
	tel, _, err := v.dec.Decode(decode.Buffers{Control: f.Control, Ring: wholeRing(ring)})
	if err != nil {
		var de *decode.DecodeError
		if f.Patch != nil && errors.As(err, &de) && de.Buffer == decode.BufferRing {
			// An offset in the patched ring is not one in the file.
			return fail(ringAt, i, "ring patch", "the patched ring: %s", de.Msg)
		}
		return translate(err, i, bufs, ringAt, logAt)
	}
	if err := tel.Control.CheckABI(); err != nil {
		return fail(bufs+abi.CtrlMagic*abi.WordBytes, i, "control", "%v", err)
	}
	if gen := tel.Control.Generation; gen != f.Generation {
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
