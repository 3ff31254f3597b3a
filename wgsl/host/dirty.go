package host

import (
	"cmp"

	"github.com/ringscope/ringscope/internal/runsort"
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
// ClearDirty. It appends, merging with one of the last mergeWindow ranges
// when they touch, and sorts and coalesces lazily in ranges. The window is
// what keeps a publish cheap: items go to their priority's partition, so a
// batch of mixed priorities writes up to PriorityLevels interleaved runs of
// consecutive slots, and merging only with the last range would leave one
// range per item to sort, every frame.
// Its slice is reused, so the hot path does not allocate once it has grown.
type dirtySet struct {
	r       []ByteRange
	sortBuf []ByteRange // runsort's buffer for r
	clean   bool        // r is sorted and coalesced
}

func compareStarts(a, b ByteRange) int { return cmp.Compare(a.Start, b.Start) }

// mergeWindow is how many of the latest ranges markWords tries to merge
// with: more than the priority partitions, so each partition's run stays
// in it.
const mergeWindow = 2 * abi.PriorityLevels

// markWords records words [w, w+n).
func (d *dirtySet) markWords(w, n int) {
	start, end := w*abi.WordBytes, (w+n)*abi.WordBytes
	last := len(d.r) - 1
	for i := last; i >= 0 && i > last-mergeWindow; i-- {
		r := &d.r[i]
		if start > r.End || end < r.Start {
			continue
		}
		// Grown, r may now touch or overlap its neighbours: unless it is the
		// last range and grew only at its end, ranges sorts again.
		if i != last || start < r.Start {
			d.clean = false
		}
		r.Start, r.End = min(r.Start, start), max(r.End, end)
		return
	}
	d.clean = len(d.r) == 0 || (d.clean && start > d.r[last].End)
	d.r = append(d.r, ByteRange{start, end})
}

func (d *dirtySet) ranges() []ByteRange {
	if d.clean || len(d.r) < 2 {
		d.clean = true
		return d.r
	}
	// runsort: ranges arrive in publish order, a few interleaved runs.
	d.sortBuf = runsort.Func(d.r, d.sortBuf, compareStarts)
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
