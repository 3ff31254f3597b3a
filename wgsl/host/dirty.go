package host

import (
	"cmp"
	"slices"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// Buffer names one of the buffers a Queue owns.
type Buffer int

const (
	ControlBuffer Buffer = iota // binding 0
	RingBuffer                  // binding 1
	LogBuffer                   // binding 2
	bufferCount
)

// String returns the buffer's name, as in PROTOCOL §1.
func (b Buffer) String() string {
	switch b {
	case ControlBuffer:
		return "control"
	case RingBuffer:
		return "ring"
	case LogBuffer:
		return "log"
	}
	return "Buffer(?)"
}

// ByteRange is the half-open byte range [Start, End) of a buffer. Both ends
// are multiples of 4, so a range is always whole words.
type ByteRange struct {
	Start, End int
}

// Len is the length of r in bytes.
func (r ByteRange) Len() int { return r.End - r.Start }

// dirtySet collects the word ranges a Queue changed since the last
// ClearDirty. It appends, merging with the last range when they touch (the
// common case: consecutive slots of one batch), and sorts and coalesces
// lazily in ranges. Its slice is reused, so the hot path does not allocate
// once it has grown.
type dirtySet struct {
	r     []ByteRange
	clean bool // r is sorted and coalesced
}

// markWords records words [w, w+n).
func (d *dirtySet) markWords(w, n int) {
	start, end := w*abi.WordBytes, (w+n)*abi.WordBytes
	if k := len(d.r); k > 0 {
		last := &d.r[k-1]
		if start >= last.Start && start <= last.End {
			last.End = max(last.End, end)
			return
		}
		if end >= last.Start && end <= last.End {
			last.Start = min(last.Start, start)
			d.clean = false // the grown range may now touch its predecessor
			return
		}
	}
	d.clean = len(d.r) == 0 || (d.clean && start > d.r[len(d.r)-1].End)
	d.r = append(d.r, ByteRange{start, end})
}

func (d *dirtySet) ranges() []ByteRange {
	if d.clean || len(d.r) < 2 {
		d.clean = true
		return d.r
	}
	// pdqsort: ranges arrive in publish order, nearly sorted.
	slices.SortFunc(d.r, func(a, b ByteRange) int { return cmp.Compare(a.Start, b.Start) })
	out := d.r[:1]
	for _, r := range d.r[1:] {
		last := &out[len(out)-1]
		if r.Start <= last.End {
			last.End = max(last.End, r.End)
			continue
		}
		out = append(out, r)
	}
	d.r, d.clean = out, true
	return d.r
}

func (d *dirtySet) clear() { d.r, d.clean = d.r[:0], true }
