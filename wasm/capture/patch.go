package capture

import (
	"encoding/binary"
	"fmt"

	"github.com/ringscope/ringscope/decode/frame"
)

// A ring patch (docs/CAPTURE.md §1.2.1) is a frame's ring as the slots that
// changed since the previous frame: the page's host copy of the ring under
// summary readback changes in a few thousand slots a frame (the items
// published, the statuses the GPU wrote, the slots requeued or reclaimed),
// so a recording of patches holds every frame's slots exactly for a small
// part of a whole ring per frame. Its bytes are
//
//	u32 runCount
//	runCount × (u32 firstSlot, u32 slotCount)   ascending, not overlapping, slotCount ≥ 1
//	Σ slotCount × 64 bytes                      the runs' slots, in run order
//
// and it applies to the ring of the frame before it.

// SlotRun is the slots [First, First+Count) of a ring: a frame's
// Raw.ChangedSlots names the slots a patch holds.
type SlotRun = frame.SlotRun

// PatchBytes is the size of the patch of runs.
func PatchBytes(runs []SlotRun) int {
	n := 4 + 8*len(runs)
	for _, r := range runs {
		n += int(r.Count) * SlotBytes
	}
	return n
}

// AppendPatch appends the patch of ring's slots runs to dst and returns it.
// runs must be ascending, not overlapping and inside ring (the caller's
// change tracking gives them so); otherwise it returns dst unchanged and an
// error, since a wrong patch would replay a ring that never was.
func AppendPatch(dst, ring []byte, runs []SlotRun) ([]byte, error) {
	end := uint32(0)
	for _, r := range runs {
		if r.Count == 0 || r.First < end || uint64(r.First)+uint64(r.Count) > uint64(len(ring)/SlotBytes) {
			return dst, fmt.Errorf("capture: patch: run of slots %d+%d after slot %d of a %d-slot ring", r.First, r.Count, end, len(ring)/SlotBytes)
		}
		end = r.First + r.Count
	}
	le := binary.LittleEndian
	dst = le.AppendUint32(dst, uint32(len(runs)))
	for _, r := range runs {
		dst = le.AppendUint32(dst, r.First)
		dst = le.AppendUint32(dst, r.Count)
	}
	for _, r := range runs {
		dst = append(dst, ring[int(r.First)*SlotBytes:int(r.First+r.Count)*SlotBytes]...)
	}
	return dst, nil
}

// patchError is a malformed patch: at is the byte offset in the patch.
type patchError struct {
	at  int
	msg string
}

func (e *patchError) Error() string { return e.msg }

// checkPatch validates patch against a base ring of slots slots, without
// applying it.
func checkPatch(patch []byte, slots int) error {
	le := binary.LittleEndian
	if len(patch) < 4 {
		return &patchError{0, fmt.Sprintf("%d bytes is shorter than the 4-byte run count", len(patch))}
	}
	n := int64(le.Uint32(patch))
	if n > int64(len(patch)-4)/8 {
		return &patchError{0, fmt.Sprintf("%d runs do not fit the %d bytes that follow", n, len(patch)-4)}
	}
	data := int64(4 + 8*n)
	end := int64(0)
	for k := range n {
		at := 4 + 8*k
		first, count := int64(le.Uint32(patch[at:])), int64(le.Uint32(patch[at+4:]))
		switch {
		case count == 0:
			return &patchError{int(at + 4), fmt.Sprintf("run %d is empty (slot count 0)", k)}
		case first < end:
			return &patchError{int(at), fmt.Sprintf("run %d starts at slot %d, inside or before the previous run (runs ascend without overlapping)", k, first)}
		case first+count > int64(slots):
			return &patchError{int(at), fmt.Sprintf("run %d (slots %d…%d) runs past the %d-slot ring of the frame before", k, first, first+count-1, slots)}
		}
		end = first + count
		data += count * SlotBytes
	}
	if data != int64(len(patch)) {
		return &patchError{int(min(data, int64(len(patch)))), fmt.Sprintf("%d bytes, but %d runs of slots make %d", len(patch), n, data)}
	}
	return nil
}

// applyPatch writes a patch that checkPatch accepted into ring.
func applyPatch(ring, patch []byte) {
	le := binary.LittleEndian
	n := int(le.Uint32(patch))
	src := patch[4+8*n:]
	for k := range n {
		first, count := int(le.Uint32(patch[4+8*k:])), int(le.Uint32(patch[8+8*k:]))
		src = src[copy(ring[first*SlotBytes:(first+count)*SlotBytes], src):]
	}
}
