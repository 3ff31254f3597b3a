package host

import (
	"slices"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// pendingOps counts the opcodes of the items published and not yet
// claimed, per partition, kept at publish time (Publish, Requeue's
// republishes) and claim time (Absorb of a control readback), so that a
// submission learns the JIT program's opcode set without scanning the
// pending slots: a partition the GPU drained to its TAIL is forgotten in
// one step, and a partly drained one costs what it claimed.
type pendingOps struct {
	parts [abi.PriorityLevels][]opCount
	// settled is each partition's position up to which claims have been
	// taken off its counts.
	settled [abi.PriorityLevels]uint32
}

// opCount is one opcode's pending items in a partition.
type opCount struct{ op, n uint32 }

func (s *pendingOps) reset() {
	for p := range s.parts {
		s.parts[p] = s.parts[p][:0]
	}
	s.settled = [abi.PriorityLevels]uint32{}
}

// add counts n more items of op in partition p. Partitions hold a handful
// of distinct opcodes, so a linear search is the cheap one.
func (s *pendingOps) add(p, op, n uint32) {
	c := s.parts[p]
	for i := range c {
		if c[i].op == op {
			c[i].n += n
			return
		}
	}
	s.parts[p] = append(c, opCount{op, n})
}

// save copies s into dst, reusing dst's storage; restore copies it back.
func (s *pendingOps) save(dst *pendingOps) {
	for p := range s.parts {
		dst.parts[p] = append(dst.parts[p][:0], s.parts[p]...)
	}
	dst.settled = s.settled
}

func (s *pendingOps) restore(src *pendingOps) {
	for p := range s.parts {
		s.parts[p] = append(s.parts[p][:0], src.parts[p]...)
	}
	s.settled = src.settled
}

// remove takes one item of op off partition p; an opcode whose count
// reaches 0 leaves the set.
func (s *pendingOps) remove(p, op uint32) {
	c := s.parts[p]
	for i := range c {
		if c[i].op == op {
			if c[i].n--; c[i].n == 0 {
				s.parts[p] = slices.Delete(c, i, i+1)
			}
			return
		}
	}
}

// settle takes the claims up to each partition's HEAD (clamped to TAIL)
// off the counts: all of a partition at once when HEAD reached TAIL, else
// one opcode read per position claimed since the last settle.
func (q *Queue) settleClaims() {
	s := &q.pending
	for p := uint32(0); p < abi.PriorityLevels; p++ {
		t := q.tail(p)
		h := min(q.head(p), t)
		if h == t {
			s.parts[p] = s.parts[p][:0]
			s.settled[p] = h
			continue
		}
		// HEAD behind the last settle (never, from a GPU of this
		// generation) or further ahead than the partition holds: nothing
		// pending can be told apart, so only the position moves.
		if d := h - s.settled[p]; d >= 1<<31 || d > q.capacity(p) {
			s.settled[p] = h
			continue
		}
		for k := s.settled[p]; k != h; k++ {
			s.remove(p, abi.Word(q.ring, int(q.slotOf(p, k))*abi.SlotWords+abi.SlotOpcode))
		}
		s.settled[p] = h
	}
}

// PendingOpcodes appends to dst, sorted and distinct, the opcodes of the
// items published and not yet claimed as of the last Absorb of control:
// the opcode set of a JIT program for the next submission. It reads no
// slot.
func (q *Queue) PendingOpcodes(dst []uint32) []uint32 {
	dst = dst[:0]
	for p := range q.pending.parts {
		for _, c := range q.pending.parts[p] {
			i, found := slices.BinarySearch(dst, c.op)
			if !found {
				dst = slices.Insert(dst, i, c.op)
			}
		}
	}
	return dst
}
