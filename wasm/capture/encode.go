package capture

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// Encode writes c as a capture file. It fills in Format, Version,
// FrameCount and Coverage, and refuses (with a *FormatError whose offset is where the
// bad frame would have started) any frame Decode would refuse, so what
// Encode writes always decodes.
func Encode(c *Capture) ([]byte, error) {
	h := c.Header
	h.Format, h.Version, h.FrameCount = FormatName, VersionNoPatches, len(c.Frames)
	cov := CoverageOf(c.Frames)
	h.Coverage = &cov
	for i := range c.Frames {
		if c.Frames[i].Patch != nil {
			h.Version = Version
		}
	}
	if c.Tasks != nil {
		h.Version = VersionTasks
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
	hj, err := encodeHeader(&h)
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
	v.dec.SetWindowOpcodes(h.WindowOpcodes)
	for i := range c.Frames {
		f := &c.Frames[i]
		start := int64(len(out))
		meta, err := encodeMeta(&f.Meta)
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
	if c.Tasks != nil {
		out = appendTaskSection(out, c.Tasks)
	}
	return out, nil
}
