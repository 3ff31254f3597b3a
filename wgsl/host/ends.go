package host

import "github.com/ringscope/ringscope/wgsl/abi"

// OpcodeCount is how many items of one opcode ended.
type OpcodeCount struct {
	Opcode uint32
	Count  uint64
}

// opcodeEnds counts, per opcode, the items whose slot ended DONE or FAULT
// in this generation: at each absorb, the positions claimed since the last
// one (up to ringHead, where the host copy's statuses are the GPU's) that
// show one of the two. Every opcode counts, the user's and those ≥ 32
// that OPCODE_METRICS (32 words) leaves out, so the counts add up to what
// completed (DONE_COUNT). A slot parked there (YIELD, REQUEUE, WAIT_IO)
// has not ended: Requeue moves it to a later position, counted when it
// ends there. A pass costs the positions claimed, not the ring.
type opcodeEnds struct {
	from   [abi.PriorityLevels]uint32
	counts []OpcodeCount // in the order first seen
}

func (e *opcodeEnds) reset() {
	e.from = [abi.PriorityLevels]uint32{}
	e.counts = e.counts[:0]
}

// count takes the positions claimed since the last call.
func (e *opcodeEnds) count(q *Queue) {
	for p := uint32(0); p < abi.PriorityLevels; p++ {
		c, to := q.capacity(p), q.ringHead[p]
		if c == 0 {
			e.from[p] = to
			continue
		}
		tail := q.tail(p)
		last, i := uint32(0), -1
		// k < to, modulo 2^32.
		for k := max(e.from[p], tail-min(tail, c)); k-to >= 1<<31; k++ {
			slot := q.slotOf(p, k)
			if st := q.status(slot); st != abi.StatusDone && st != abi.StatusFault {
				continue
			}
			op := abi.Word(q.ring, int(slot)*abi.SlotWords+abi.SlotOpcode)
			if i < 0 || op != last {
				last, i = op, e.index(op)
			}
			e.counts[i].Count++
		}
		e.from[p] = to
	}
}

// index is op's entry, added when new. A ring runs a handful of opcodes.
func (e *opcodeEnds) index(op uint32) int {
	for i := range e.counts {
		if e.counts[i].Opcode == op {
			return i
		}
	}
	e.counts = append(e.counts, OpcodeCount{Opcode: op})
	return len(e.counts) - 1
}

// OpcodeEnds appends to dst, per opcode in the order first seen, the
// items whose slot ended DONE or FAULT in this generation, as the absorbs
// showed them.
func (q *Queue) OpcodeEnds(dst []OpcodeCount) []OpcodeCount {
	return append(dst, q.ends.counts...)
}
