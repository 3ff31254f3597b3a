package host

import (
	"encoding/binary"
	"unsafe"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// littleEndian reports whether this machine stores a uint32 as the ABI's
// little-endian bytes: only then is a []uint32's memory the wire format,
// and Publish writes words in place (wasm, amd64 and arm64 do).
var littleEndian = binary.NativeEndian.Uint32([]byte{1, 0, 0, 0}) == 1

// itemWords is the words of an Item: Opcode, Tenant, Priority and the
// args, in the order of slot words 1–15 (SlotOpcode … the last arg), which
// lets Publish copy an Item into a slot whole. TestItemLayout pins it.
const itemWords = abi.SlotWords - abi.SlotOpcode

// Item must be exactly itemWords words, its fields in slot order.
var _ = [1]struct{}{}[unsafe.Sizeof(Item{})-itemWords*abi.WordBytes]

// wordBytes is the bytes of w, sharing its storage. On a big-endian
// machine each word's bytes are in native order, so the word view's
// writers (putSlot, slotStatus) check littleEndian.
func wordBytes(w []uint32) []byte {
	if len(w) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), len(w)*abi.WordBytes)
}

// putSlot writes words 1–15 of slot from it (priority p), then STATUS =
// PUBLISHED, as PROTOCOL §3 orders them.
func (q *Queue) putSlot(slot uint32, it *Item, p uint32) {
	base := int(slot) * abi.SlotWords
	if !littleEndian {
		abi.PutWord(q.ring, base+abi.SlotOpcode, it.Opcode)
		abi.PutWord(q.ring, base+abi.SlotTenant, it.Tenant)
		abi.PutWord(q.ring, base+abi.SlotPriority, p)
		for a, v := range it.Args {
			abi.PutWord(q.ring, base+abi.SlotArg0+a, v)
		}
		abi.PutWord(q.ring, base+abi.SlotStatus, abi.StatusPublished)
		return
	}
	w := (*[abi.SlotWords]uint32)(q.ringWords[base : base+abi.SlotWords])
	w[abi.SlotOpcode], w[abi.SlotTenant], w[abi.SlotPriority] = it.Opcode, it.Tenant, p
	*(*[abi.SlotArgs]uint32)(w[abi.SlotArg0:]) = it.Args
	w[abi.SlotStatus] = abi.StatusPublished
}

// slotStatus is slot's STATUS word.
func (q *Queue) slotStatus(slot uint32) uint32 {
	if littleEndian {
		return q.ringWords[int(slot)*abi.SlotWords+abi.SlotStatus]
	}
	return abi.Word(q.ring, int(slot)*abi.SlotWords+abi.SlotStatus)
}
