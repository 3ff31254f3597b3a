package decode

import (
	"cmp"
	"slices"

	"github.com/ringscope/ringscope/internal/heapsort"
	"github.com/ringscope/ringscope/internal/runsort"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// Window classes carried in ARG1 of a ticketed window slot (reference §3.5).
const (
	WindowClassRequired  = 0
	WindowClassLookahead = 1
)

// matcherKind picks how a slot's opcode is tested against the window
// opcodes, by the shape of the list (reference §5.3).
type matcherKind uint8

const (
	matchNone   matcherKind = iota // no window opcodes: no window decoding
	matchSingle                    // one opcode: one comparison
	matchBitmap                    // all opcodes < 128: one bit test
	matchLinear                    // at most 8 opcodes: a short scan
	matchBinary                    // otherwise: binary search
)

const (
	bitmapOpcodes = 128
	linearOpcodes = 8
)

type windowMatcher struct {
	kind   matcherKind
	single uint32
	bitmap [bitmapOpcodes / 64]uint64
}

// setWindowOpcodes normalises ops (sorted, unique, copied so the caller may
// reuse its slice) and picks the matcher.
func (s *DecodeScratch) setWindowOpcodes(ops []uint32) {
	s.ops = append(s.ops[:0], ops...)
	if !slices.IsSorted(s.ops) {
		heapsort.Ordered(s.ops)
	}
	s.ops = slices.Compact(s.ops)
	m := &s.matcher
	*m = windowMatcher{}
	switch {
	case len(s.ops) == 0:
		m.kind = matchNone
	case len(s.ops) == 1:
		m.kind, m.single = matchSingle, s.ops[0]
	case s.ops[len(s.ops)-1] < bitmapOpcodes:
		m.kind = matchBitmap
		for _, op := range s.ops {
			m.bitmap[op/64] |= 1 << (op % 64)
		}
	case len(s.ops) <= linearOpcodes:
		m.kind = matchLinear
	default:
		m.kind = matchBinary
	}
}

func (s *DecodeScratch) match(op uint32) bool {
	switch s.matcher.kind {
	case matchSingle:
		return op == s.matcher.single
	case matchBitmap:
		return op < bitmapOpcodes && s.matcher.bitmap[op/64]&(1<<(op%64)) != 0
	case matchLinear:
		for _, o := range s.ops {
			if o == op {
				return true
			}
		}
		return false
	case matchBinary:
		_, found := slices.BinarySearch(s.ops, op)
		return found
	}
	return false
}

// windows appends to dst one WindowTelemetry per (ticket, opcode) of the
// window-opcode slots, sorted by ticket then opcode. A window's tenant is
// that of its lowest-indexed slot, as vyre takes it "on first sight".
func (s *DecodeScratch) windows(dst []WindowTelemetry, slots []RingSlotSnapshot) []WindowTelemetry {
	if s.matcher.kind == matchNone {
		return dst
	}
	clear(s.table)
	last := -1 // the window of the previous match: a window's slots are usually published together
	kind, single, bitmap := s.matcher.kind, s.matcher.single, s.matcher.bitmap
	for i := range slots {
		sl := &slots[i]
		// The common matchers are tested here rather than in a call:
		// this loop visits every slot.
		switch op := sl.Opcode; kind {
		case matchSingle:
			if op != single {
				continue
			}
		case matchBitmap:
			if op >= bitmapOpcodes || bitmap[op/64]&(1<<(op%64)) == 0 {
				continue
			}
		default:
			if !s.match(op) {
				continue
			}
		}
		var w *WindowTelemetry
		if last >= 0 && dst[last].Ticket == sl.Args[0] && dst[last].Opcode == sl.Opcode {
			w = &dst[last]
		} else {
			dst, last = s.window(dst, sl.Args[0], sl.Opcode, sl.Tenant)
			w = &dst[last]
		}
		switch sl.Args[1] {
		case WindowClassRequired:
			w.Required++
		case WindowClassLookahead:
			w.Lookahead++
		}
		switch sl.Status {
		case abi.StatusPublished:
			w.Published++
		case abi.StatusClaimed:
			w.Claimed++
		case abi.StatusDone:
			w.Done++
		case abi.StatusWaitIO:
			w.WaitIO++
		case abi.StatusYield:
			w.Yield++
		case abi.StatusRequeue:
			w.Requeue++
		case abi.StatusFault:
			w.Fault++
		}
	}
	// runsort, not heapsort: the windows come out nearly in ticket order
	// (slot order, with one wrap), which a run merge sorts in two passes;
	// heapsort took 1.5x the whole decode (BenchmarkDecodeInto/windows).
	s.sortBuf = runsort.Func(dst, s.sortBuf, compareWindows)
	return dst
}

func compareWindows(a, b WindowTelemetry) int {
	if c := cmp.Compare(a.Ticket, b.Ticket); c != 0 {
		return c
	}
	return cmp.Compare(a.Opcode, b.Opcode)
}

// window finds or appends the accumulator of (ticket, op) and returns its index.
func (s *DecodeScratch) window(dst []WindowTelemetry, ticket, op, tenant uint32) ([]WindowTelemetry, int) {
	if 2*(len(dst)+1) > len(s.table) {
		s.growTable(dst)
	}
	mask := uint64(len(s.table) - 1)
	for h := windowHash(ticket, op) & mask; ; h = (h + 1) & mask {
		e := s.table[h]
		if e == 0 {
			dst = append(dst, WindowTelemetry{Ticket: ticket, Opcode: op, Tenant: tenant})
			s.table[h] = int32(len(dst))
			return dst, len(dst) - 1
		}
		if w := &dst[e-1]; w.Ticket == ticket && w.Opcode == op {
			return dst, int(e - 1)
		}
	}
}

// growTable doubles the index and re-inserts the windows found so far. The
// table stays in the scratch, so a later decode of the same ring reuses it.
func (s *DecodeScratch) growTable(dst []WindowTelemetry) {
	size := max(2*len(s.table), 64)
	for size < 2*(len(dst)+1) {
		size *= 2
	}
	s.table = make([]int32, size)
	mask := uint64(size - 1)
	for i, w := range dst {
		h := windowHash(w.Ticket, w.Opcode) & mask
		for s.table[h] != 0 {
			h = (h + 1) & mask
		}
		s.table[h] = int32(i + 1)
	}
}

func windowHash(ticket, op uint32) uint64 {
	return splitmix64(uint64(ticket)<<32 | uint64(op))
}

// ActiveWindows returns copies of the windows that still have pending slots.
func (t *RingTelemetry) ActiveWindows() []WindowTelemetry {
	return t.AppendActiveWindows(nil)
}

// AppendActiveWindows appends the active windows to dst and returns it.
func (t *RingTelemetry) AppendActiveWindows(dst []WindowTelemetry) []WindowTelemetry {
	for _, w := range t.Windows {
		if w.Active() {
			dst = append(dst, w)
		}
	}
	return dst
}
