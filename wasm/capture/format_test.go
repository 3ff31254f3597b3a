package capture

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
)

func TestRoundTrip(t *testing.T) {
	c := sample()
	b, err := Encode(c)
	require.NoError(t, err)
	require.Equal(t, Magic, string(b[:8]))
	got, err := Decode(b)
	require.NoError(t, err)
	assert.Equal(t, FormatName, got.Header.Format)
	assert.Equal(t, VersionNoPatches, got.Header.Version, "a capture without patches is written as version 1")
	assert.Equal(t, 3, got.Header.FrameCount)
	assert.Equal(t, c.Header.Adapter, got.Header.Adapter)
	assert.Equal(t, c.Header.WindowOpcodes, got.Header.WindowOpcodes)
	require.Len(t, got.Frames, 3)
	for i := range c.Frames {
		assert.Equal(t, c.Frames[i], got.Frames[i], "frame %d", i)
	}
	assert.Nil(t, got.Frames[1].Ring, "a frame without ring stays without")
	again, err := Encode(got)
	require.NoError(t, err)
	assert.Equal(t, b, again, "encoding is deterministic")
}

func TestEncodeRefusesWhatDecodeWould(t *testing.T) {
	c := sample()
	c.Frames[1].Ring = make([]byte, 65)
	_, err := Encode(c)
	var fe *FormatError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, 1, fe.Frame)
	assert.Equal(t, "ring", fe.Field)
}

// corrupt returns the sample's bytes with f applied.
func corrupt(t *testing.T, f func(b []byte) []byte) []byte {
	b, err := Encode(sample())
	require.NoError(t, err)
	return f(append([]byte(nil), b...))
}

// frameOffset is the offset of frame i's length word in the sample.
func frameOffset(b []byte, i int) int {
	off := FilePrefixBytes + int(binary.LittleEndian.Uint32(b[12:]))
	for range i {
		off += 4 + int(binary.LittleEndian.Uint32(b[off:]))
	}
	return off
}

func TestDecodeMalformed(t *testing.T) {
	put := func(b []byte, off int, v uint32) []byte { binary.LittleEndian.PutUint32(b[off:], v); return b }
	tests := []struct {
		name   string
		data   func(b []byte) []byte
		frame  int
		field  string
		offset func(b []byte) int
		msg    string
	}{
		{"empty", func([]byte) []byte { return nil }, -1, "magic", nil, "not a capture file"},
		{"json", func([]byte) []byte { return []byte(`{"traceEvents":[]}`) }, -1, "magic", nil, "starts like JSON"},
		{"short prefix", func(b []byte) []byte { return b[:10] }, -1, "version", nil, "inside the 16-byte prefix"},
		{"version", func(b []byte) []byte { return put(b, 8, 4) }, -1, "version", func([]byte) int { return 8 }, "not supported"},
		{"versions disagree", func(b []byte) []byte { return put(b, 8, 2) }, -1, "version", func([]byte) int { return 16 }, "header version 1, but the container's is 2"},
		{"header past end", func(b []byte) []byte { return put(b, 12, uint32(len(b))) }, -1, "header length", func([]byte) int { return 12 }, "runs past the end"},
		{"header not json", func(b []byte) []byte { b[16] = 'x'; return b }, -1, "header", func([]byte) int { return 16 }, "invalid JSON"},
		{"truncated", func(b []byte) []byte { return b[:len(b)-1] }, 2, "record length", nil, "runs past the end"},
		{"frame missing", func(b []byte) []byte { return b[:frameOffset(b, 2)] }, 2, "record length", func(b []byte) int { return len(b) }, "file ends after 2 of 3 frames"},
		{"trailing", func(b []byte) []byte { return append(b, 0, 0, 0, 0) }, -1, "frameCount", nil, "follow the last"},
		{"seq zero", func(b []byte) []byte { o := frameOffset(b, 0); return put(put(b, o+4, 0), o+8, 0) }, 0, "seq", nil, "start at 1"},
		{"seq order", func(b []byte) []byte { o := frameOffset(b, 1); return put(b, o+4, 1) }, 1, "seq", nil, "does not follow 1"},
		{"flags", func(b []byte) []byte { o := frameOffset(b, 0); return put(b, o+24, 5) }, 0, "flags", func(b []byte) int { return frameOffset(b, 0) + 24 }, "unknown flag bits 0x4"},
		{"both ring flags", func(b []byte) []byte { o := frameOffset(b, 0); return put(b, o+24, 3) }, 0, "flags", nil, "both the ring and the ring patch flag"},
		{"patch in version 1", func(b []byte) []byte { o := frameOffset(b, 0); return put(b, o+24, FlagRingPatch) }, 0, "flags", nil, "a ring patch in a version 1 file"},
		{"generation", func(b []byte) []byte { o := frameOffset(b, 2); return put(b, o+20, 7) }, 2, "generation", func(b []byte) int { return frameOffset(b, 2) + 20 }, "GENERATION word is 2"},
		{"ring flag clear", func(b []byte) []byte { o := frameOffset(b, 0); return put(b, o+24, 0) }, 0, "ring length", nil, "ring flags are clear"},
		{"control magic", func(b []byte) []byte {
			o := frameOffset(b, 1)
			meta := int(binary.LittleEndian.Uint32(b[o+28:]))
			return put(b, o+4+FrameFixedBytes+meta+abi.CtrlMagic*4, 0x1234)
		}, 1, "control", func(b []byte) int {
			o := frameOffset(b, 1)
			return o + 4 + FrameFixedBytes + int(binary.LittleEndian.Uint32(b[o+28:])) + abi.CtrlMagic*4
		}, "MAGIC"},
		{"lengths disagree", func(b []byte) []byte {
			o := frameOffset(b, 0)
			return put(b, o, binary.LittleEndian.Uint32(b[o:])-1)
		}, 0, "log length", nil, "runs past"},
		{"meta not json", func(b []byte) []byte { o := frameOffset(b, 0); b[o+4+FrameFixedBytes] = '['; return b }, 0, "meta", nil, "invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b []byte
			b = corrupt(t, func(x []byte) []byte { b = tt.data(x); return b })
			_, err := Decode(b)
			var fe *FormatError
			require.True(t, errors.As(err, &fe), "error %v", err)
			assert.Equal(t, tt.frame, fe.Frame, err.Error())
			assert.Equal(t, tt.field, fe.Field, err.Error())
			assert.Contains(t, err.Error(), tt.msg)
			assert.Contains(t, err.Error(), "capture: byte ")
			if tt.offset != nil {
				assert.EqualValues(t, tt.offset(b), fe.Offset, err.Error())
			}
		})
	}
}

func TestDecodeLogProblemNamesLogOffset(t *testing.T) {
	c := sample()
	c.Frames[0].Log = c.Frames[0].Log[:20] // header + part of a record
	_, err := Encode(c)
	var fe *FormatError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "log", fe.Field)
	assert.Equal(t, 0, fe.Frame)
}

func TestDecodeHeaderLies(t *testing.T) {
	// A header claiming a billion frames is refused before anything is
	// allocated for them.
	h := []byte(`{"format":"ringscope-capture","version":1,"abiVersion":1,"source":"live","frameCount":1073741824}`)
	b := append([]byte(Magic), le32(VersionNoPatches, uint32(len(h)))...)
	b = append(b, h...)
	b = append(b, make([]byte, 700)...)
	_, err := Decode(b)
	var fe *FormatError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "frameCount", fe.Field)
	assert.Contains(t, err.Error(), "hold at most 1")
	assert.Equal(t, int64(16+len(h)), fe.Offset)
}

// An import larger than MaxFileBytes is refused before anything is parsed.
// The slice is never written, so the OS hands out zero pages lazily.
func TestDecodeOversized(t *testing.T) {
	_, err := Decode(make([]byte, MaxFileBytes+1))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "exceeds the 536870912-byte import limit")
}
