package wasmdata

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
)

// Segment is one active data segment: Data is written at Offset of
// memory 0 when the module is instantiated.
type Segment struct {
	Offset uint32
	Data   []byte
}

const (
	sectionData      = 11
	sectionDataCount = 12
	opI32Const       = 0x41
	opEnd            = 0x0b
)

var magic = []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}

// Merge returns module with its data section's segments sorted by offset
// and every two neighbours at most maxGap bytes apart joined into one.
func Merge(module []byte, maxGap uint32) ([]byte, error) {
	head, start, end, err := dataSection(module)
	if err != nil {
		return nil, err
	}
	segs, err := Segments(module[start:end])
	if err != nil {
		return nil, err
	}
	body := Encode(join(segs, maxGap))
	out := make([]byte, 0, len(module)+len(body)-(end-start)+5)
	out = append(out, module[:head]...)
	out = append(out, sectionData)
	out = appendU32(out, uint32(len(body)))
	out = append(out, body...)
	return append(out, module[end:]...), nil
}

// Image returns the memory the segments of module initialize, from the
// lowest offset any segment writes: two modules with the same Image and
// the same first offset start with the same memory.
func Image(module []byte) (first uint32, image []byte, err error) {
	_, start, end, err := dataSection(module)
	if err != nil {
		return 0, nil, err
	}
	segs, err := Segments(module[start:end])
	if err != nil {
		return 0, nil, err
	}
	segs = sorted(segs)
	if len(segs) == 0 {
		return 0, nil, nil
	}
	first = segs[0].Offset
	last := segs[len(segs)-1]
	image = make([]byte, uint64(last.Offset)+uint64(len(last.Data))-uint64(first))
	for _, s := range segs {
		copy(image[s.Offset-first:], s.Data)
	}
	return first, image, nil
}

// dataSection finds the data section: its id byte at module[head], its
// body module[start:end]. It walks every section, so a truncated module is
// refused wherever it is cut.
func dataSection(module []byte) (head, start, end int, err error) {
	if !bytes.HasPrefix(module, magic) {
		return 0, 0, 0, errors.New("wasmdata: not a WebAssembly 1.0 module (bad magic or version)")
	}
	head, start, end = -1, -1, -1
	for at := len(magic); at < len(module); {
		id := module[at]
		size, n, err := readU32(module, at+1)
		if err != nil {
			return 0, 0, 0, fmt.Errorf("wasmdata: section %d at byte %d: %w", id, at, err)
		}
		body := at + 1 + n
		if uint64(body)+uint64(size) > uint64(len(module)) {
			return 0, 0, 0, fmt.Errorf("wasmdata: section %d at byte %d runs past the end", id, at)
		}
		switch id {
		case sectionDataCount:
			return 0, 0, 0, errors.New("wasmdata: the module has a data count section; only Go linker output is supported")
		case sectionData:
			if start >= 0 {
				return 0, 0, 0, errors.New("wasmdata: two data sections")
			}
			head, start, end = at, body, body+int(size)
		}
		at = body + int(size)
	}
	if start < 0 {
		return 0, 0, 0, errors.New("wasmdata: the module has no data section")
	}
	return head, start, end, nil
}

// Segments decodes a data section's body.
func Segments(body []byte) ([]Segment, error) {
	count, at, err := readU32(body, 0)
	if err != nil {
		return nil, fmt.Errorf("wasmdata: segment count: %w", err)
	}
	if uint64(count) > uint64(len(body)) {
		return nil, fmt.Errorf("wasmdata: %d segments cannot fit in %d bytes", count, len(body))
	}
	segs := make([]Segment, 0, count)
	for i := uint32(0); i < count; i++ {
		if at+2 > len(body) || body[at] != 0 || body[at+1] != opI32Const {
			return nil, fmt.Errorf("wasmdata: segment %d is not an active segment of memory 0 at an i32.const offset", i)
		}
		offset, n, err := readS32(body, at+2)
		if err != nil {
			return nil, fmt.Errorf("wasmdata: segment %d offset: %w", i, err)
		}
		at += 2 + n
		if at >= len(body) || body[at] != opEnd {
			return nil, fmt.Errorf("wasmdata: segment %d: offset expression is not one i32.const", i)
		}
		size, n, err := readU32(body, at+1)
		if err != nil {
			return nil, fmt.Errorf("wasmdata: segment %d size: %w", i, err)
		}
		at += 1 + n
		if uint64(at)+uint64(size) > uint64(len(body)) {
			return nil, fmt.Errorf("wasmdata: segment %d runs past the section", i)
		}
		if offset < 0 || uint64(offset)+uint64(size) > 1<<32 {
			return nil, fmt.Errorf("wasmdata: segment %d lies outside 32-bit memory", i)
		}
		segs = append(segs, Segment{Offset: uint32(offset), Data: body[at : at+int(size)]})
		at += int(size)
	}
	if at != len(body) {
		return nil, fmt.Errorf("wasmdata: %d bytes after the last segment", len(body)-at)
	}
	segs = sorted(segs)
	for i := 1; i < len(segs); i++ {
		if prev := segs[i-1]; uint64(prev.Offset)+uint64(len(prev.Data)) > uint64(segs[i].Offset) {
			return nil, fmt.Errorf("wasmdata: segments at %d and %d overlap", prev.Offset, segs[i].Offset)
		}
	}
	return segs, nil
}

func sorted(segs []Segment) []Segment {
	return slices.SortedStableFunc(slices.Values(segs), func(a, b Segment) int {
		return int(int64(a.Offset) - int64(b.Offset))
	})
}

// join merges sorted, non-overlapping segments whose gap is at most maxGap.
// A segment's Data first aliases the module; the first join copies it into
// a buffer of join's own, which later joins append to in place, so that
// joining n pieces copies each byte about once, not n times (a Go module
// joins tens of thousands).
func join(segs []Segment, maxGap uint32) []Segment {
	var out []Segment
	owned := false // out's last Data is join's own buffer, not the module's bytes
	for _, s := range segs {
		if n := len(out); n > 0 {
			last := &out[n-1]
			gap := uint64(s.Offset) - uint64(last.Offset) - uint64(len(last.Data))
			if gap <= uint64(maxGap) {
				if !owned {
					last.Data, owned = slices.Clone(last.Data), true
				}
				last.Data = append(append(last.Data, make([]byte, gap)...), s.Data...)
				continue
			}
		}
		out, owned = append(out, s), false
	}
	return out
}

// Encode writes segments as a data section's body.
func Encode(segs []Segment) []byte {
	out := appendU32(nil, uint32(len(segs)))
	for _, s := range segs {
		out = append(out, 0, opI32Const)
		out = appendS32(out, int32(s.Offset))
		out = append(out, opEnd)
		out = appendU32(out, uint32(len(s.Data)))
		out = append(out, s.Data...)
	}
	return out
}
