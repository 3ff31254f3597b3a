package decode

import (
	"fmt"
	"math"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// maxSlots is the largest ring the 32-bit slot indices of the ABI can name.
const maxSlots = math.MaxUint32

// DecodeScratch is the reusable working storage of DecodeInto (the sorted
// window-opcode list and the window index). The zero value is ready to use;
// a scratch must not be shared by concurrent decodes.
type DecodeScratch struct {
	ops     []uint32 // window opcodes, sorted and unique
	matcher windowMatcher
	table   []int32 // open-addressed window index: 1 + index into Windows, 0 = free
	// summaryWins holds a summary's windows while DecodeSummaryInto checks them.
	summaryWins []WindowTelemetry
	sortBuf     []WindowTelemetry // runsort's buffer for the windows
}

// DecodeInto strictly decodes control and ring into dst, reusing dst's
// slices and scratch so that decoding the same shape again allocates
// nothing. windowOpcodes may be nil; so may scratch, at the price of a
// fresh one per call. On error dst is left untouched. The slices of dst
// are overwritten by the next DecodeInto into it.
func DecodeInto(dst *RingTelemetry, scratch *DecodeScratch, control, ring []byte, windowOpcodes []uint32) error {
	if scratch == nil {
		scratch = new(DecodeScratch)
	}
	if err := checkControl(control); err != nil {
		return err
	}
	if err := checkRing(ring); err != nil {
		return err
	}
	decodeChecked(dst, scratch, control, ring, windowOpcodes)
	return nil
}

// decodeControlInto strictly decodes control into dst.Control alone and
// leaves every field that dst's slots give (Slots, Occupancy, Active,
// Windows, StatusMap) as it is: for a caller whose ring was not read back,
// so that a submission's counters cost O(control), not O(ring). On error
// dst is left untouched.
func decodeControlInto(dst *RingTelemetry, control []byte) error {
	if err := checkControl(control); err != nil {
		return err
	}
	decodeControl(&dst.Control, control)
	return nil
}

// checkRing reports why ring cannot be decoded strictly, or nil.
func checkRing(ring []byte) error {
	n := len(ring)
	if rem := n % abi.SlotBytes; rem != 0 {
		return &DecodeError{Buffer: BufferRing, Offset: n - rem, Msg: fmt.Sprintf(
			"ring length %d bytes is not a whole number of %d-byte slots (%d whole ring slots, then %d stray bytes)",
			n, abi.SlotBytes, n/abi.SlotBytes, rem)}
	}
	if uint64(n/abi.SlotBytes) > maxSlots {
		return &DecodeError{Buffer: BufferRing, Offset: n, Msg: fmt.Sprintf(
			"ring of %d slots exceeds the 32-bit telemetry ABI (at most %d whole ring slots)",
			n/abi.SlotBytes, uint64(maxSlots))}
	}
	return nil
}

// decodeChecked decodes buffers already known to be whole slots; control
// may be short (lenient callers) and is zero-padded.
func decodeChecked(dst *RingTelemetry, scratch *DecodeScratch, control, ring []byte, windowOpcodes []uint32) {
	decodeControl(&dst.Control, control)
	n := len(ring) / abi.SlotBytes
	if cap(dst.Slots) >= n {
		dst.Slots = dst.Slots[:n]
	} else {
		dst.Slots = make([]RingSlotSnapshot, n)
	}
	dst.Occupancy = decodeSlots(dst.Slots, ring)
	dst.Active = countActive(dst.Slots)
	dst.StatusMap = StatusMap{words: dst.StatusMap.words[:0]}
	dst.WindowsDropped = 0
	scratch.setWindowOpcodes(windowOpcodes)
	dst.Windows = scratch.windows(dst.Windows[:0], dst.Slots)
}

// decodeSlots fills slots from ring (len(slots) whole slots) and counts them.
func decodeSlots(slots []RingSlotSnapshot, ring []byte) RingOccupancy {
	// Two count tables, alternated by slot parity, keep consecutive slots
	// of the same status from serialising on one counter.
	var counts [2][abi.StatusCount + 1]uint32
	for i := range slots {
		s := ring[i*abi.SlotBytes:][:abi.SlotBytes]
		st := abi.Word(s, abi.SlotStatus)
		// Field stores straight into the slice: a composite literal is
		// built on the stack and copied with wide loads, which stall on
		// store forwarding and double the cost of the loop.
		d := &slots[i]
		d.Index = uint32(i)
		d.Status = Status(st)
		d.Opcode = abi.Word(s, abi.SlotOpcode)
		d.Tenant = abi.Word(s, abi.SlotTenant)
		d.Priority = abi.Word(s, abi.SlotPriority)
		d.Args[0] = abi.Word(s, abi.SlotArg0+0)
		d.Args[1] = abi.Word(s, abi.SlotArg0+1)
		d.Args[2] = abi.Word(s, abi.SlotArg0+2)
		counts[i&1][min(st, abi.StatusCount)]++
	}
	return occupancyOf(&counts)
}

// CountOccupancy counts ring's slots by status, the Occupancy DecodeInto
// gives, reading only the STATUS words: what a replay's time series needs
// of every frame, at a fraction of a whole decode. It fails as DecodeInto
// does on a ring that is not whole slots.
func CountOccupancy(ring []byte) (RingOccupancy, error) {
	if err := checkRing(ring); err != nil {
		return RingOccupancy{}, err
	}
	var counts [2][abi.StatusCount + 1]uint32
	for i, at := 0, abi.SlotStatus*abi.WordBytes; at < len(ring); i, at = i+1, at+abi.SlotBytes {
		counts[i&1][min(abi.Word(ring[at:], 0), abi.StatusCount)]++
	}
	return occupancyOf(&counts), nil
}

// occupancyOf sums decodeSlots' two count tables (the last entry counts the
// unknown statuses).
func occupancyOf(counts *[2][abi.StatusCount + 1]uint32) RingOccupancy {
	var o RingOccupancy
	for s := range o {
		o[s] = counts[0][s] + counts[1][s]
	}
	return o
}

// DecodeSlot decodes slot i of ring (whole 64-byte slots), as DecodeInto
// would: false when ring has no slot i.
func DecodeSlot(ring []byte, i int) (RingSlotSnapshot, bool) {
	if i < 0 || i >= len(ring)/abi.SlotBytes || i > maxSlots-1 {
		return RingSlotSnapshot{}, false
	}
	var s [1]RingSlotSnapshot
	decodeSlots(s[:], ring[i*abi.SlotBytes:][:abi.SlotBytes])
	s[0].Index = uint32(i)
	return s[0], true
}

// ActiveSlotsForOpcode returns copies of the slots running opcode op in an
// active status, in slot order.
func (t *RingTelemetry) ActiveSlotsForOpcode(op uint32) []RingSlotSnapshot {
	return t.AppendActiveSlotsForOpcode(nil, op)
}

// AppendActiveSlotsForOpcode appends the active slots of opcode op to dst
// and returns it; with a large enough dst it allocates nothing.
func (t *RingTelemetry) AppendActiveSlotsForOpcode(dst []RingSlotSnapshot, op uint32) []RingSlotSnapshot {
	for i := range t.Slots {
		if s := &t.Slots[i]; s.Opcode == op && s.Status.Active() {
			dst = append(dst, *s)
		}
	}
	return dst
}
