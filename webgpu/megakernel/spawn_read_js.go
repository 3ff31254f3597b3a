//go:build js && wasm

package megakernel

import (
	"context"

	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// spawnRead is how a spawning runner's host copy learns the slots the GPU
// made without a ring read (docs/PROTOCOL-SPAWN.md §3): the positions a
// submission spawned are TAIL before it … TAIL after it in each
// partition, so after the step's readback one more command buffer copies
// those slots alone (host.Queue.TicketRanges, coalesced) into the step's
// staging, back to back from offset 0, and one map brings them into the
// host copy (host.Queue.AbsorbRingRanges). The claims' statuses come from
// the status map, as for published items. The bytes read are the spawned
// slots' (a whole partition at most, when it lapped within the
// submission); a submission that spawned nothing reads nothing more.
type spawnRead struct {
	tails  [abi.PriorityLevels]uint32 // TAIL as the submission was encoded
	ranges []host.ByteRange
	buf    []byte // the ranges' bytes, reused
}

// mark records TAIL before the submission (encode time).
func (sr *spawnRead) mark(control []byte) {
	for p := range sr.tails {
		sr.tails[p] = abi.Word(control, abi.CtrlTail+p)
	}
}

// read copies the slots spawned since mark from r's ring into stage,
// maps them and absorbs them into the host copy. control is the step's
// readback of control (TAIL after the submission), not yet absorbed: the
// absorbs that count ended items come after (host.Queue.AbsorbRingRanges).
func (sr *spawnRead) read(ctx context.Context, r *Runner, stage *webgpu.Buffer, control []byte) error {
	var to [abi.PriorityLevels]uint32
	for p := range to {
		to[p] = abi.Word(control, abi.CtrlTail+p)
	}
	sr.ranges = r.q.TicketRanges(sr.ranges[:0], sr.tails, to)
	n := 0
	for _, g := range sr.ranges {
		n += g.Len()
	}
	if n == 0 {
		return nil
	}
	enc, err := r.dev.CreateCommandEncoder("ringscope spawned slots")
	if err != nil {
		return failOn(r.dev, "read spawned slots", err)
	}
	at := uint64(0)
	for _, g := range sr.ranges {
		enc.CopyBufferToBuffer(r.res.bufs[bufRing], uint64(g.Start), stage, at, uint64(g.Len()))
		at += uint64(g.Len())
	}
	cmd, err := enc.Finish()
	if err == nil {
		err = r.dev.Queue().Submit(cmd)
	}
	if err != nil {
		return failOn(r.dev, "read spawned slots", err)
	}
	if cap(sr.buf) < n {
		sr.buf = make([]byte, n)
	}
	sr.buf = sr.buf[:n]
	if err := stage.MapReadInto(ctx, sr.buf, 0); err != nil {
		return failOn(r.dev, "read spawned slots", err)
	}
	if err := r.q.AbsorbRingRanges(sr.ranges, sr.buf); err != nil {
		return failOn(r.dev, "absorb spawned slots", err)
	}
	return nil
}
