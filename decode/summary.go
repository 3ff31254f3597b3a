package decode

import (
	"bytes"
	"fmt"
	"math/bits"
	"slices"

	"github.com/ringscope/ringscope/internal/runsort"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// Buffer names of the GPU summary (docs/SUMMARY.md) in DecodeError.Buffer.
const (
	BufferSummary   = "summary"
	BufferStatusMap = "status map"
)

// ActiveCounts counts the slots in an active status (Status.Active) by
// tenant, priority and opcode. Each table is exact for the ids it names;
// the Other counters hold the active slots whose id is past the table, so
// every table sums to the active slots. The zero value is an empty ring.
type ActiveCounts struct {
	// Tenant[t] counts active slots whose TENANT word is t (< 32).
	Tenant      [abi.TenantSlots]uint32
	TenantOther uint32
	// Priority[p] counts active slots whose PRIORITY word is p (< 5).
	Priority      [abi.PriorityLevels]uint32
	PriorityOther uint32
	// Opcode[op] counts active slots of opcode op (< 32).
	Opcode      [abi.MetricOpcodes]uint32
	OpcodeOther uint32
}

// countActive tallies the active slots of slots.
func countActive(slots []RingSlotSnapshot) ActiveCounts {
	var a ActiveCounts
	for i := range slots {
		s := &slots[i]
		if !s.Status.Active() {
			continue
		}
		if s.Tenant < abi.TenantSlots {
			a.Tenant[s.Tenant]++
		} else {
			a.TenantOther++
		}
		if s.Priority < abi.PriorityLevels {
			a.Priority[s.Priority]++
		} else {
			a.PriorityOther++
		}
		if s.Opcode < abi.MetricOpcodes {
			a.Opcode[s.Opcode]++
		} else {
			a.OpcodeOther++
		}
	}
	return a
}

// ActiveForTenant is the number of active slots of tenant; for a tenant id
// ≥ 32 it returns every such slot's count (ActiveCounts.TenantOther) and
// exact = false.
func (t *RingTelemetry) ActiveForTenant(tenant uint32) (n uint32, exact bool) {
	if tenant < abi.TenantSlots {
		return t.Active.Tenant[tenant], true
	}
	return t.Active.TenantOther, false
}

// ActiveForPriority is the number of active slots whose PRIORITY word is
// priority; past the levels, the count of all such slots and exact = false.
func (t *RingTelemetry) ActiveForPriority(priority uint32) (n uint32, exact bool) {
	if priority < abi.PriorityLevels {
		return t.Active.Priority[priority], true
	}
	return t.Active.PriorityOther, false
}

// ActiveForOpcode is the number of active slots of opcode op; for op ≥ 32,
// the count of every such slot and exact = false (ActiveSlotsForOpcode
// gives the exact slots after a full decode).
func (t *RingTelemetry) ActiveForOpcode(op uint32) (n uint32, exact bool) {
	if op < abi.MetricOpcodes {
		return t.Active.Opcode[op], true
	}
	return t.Active.OpcodeOther, false
}

// StatusMap is the packed status view of a ring (docs/SUMMARY.md §4): 4
// bits per slot, 8 slots per little-endian word. A status the protocol
// does not name is stored as abi.StatusMapUnknown whatever its raw value.
// The zero value is an empty map.
type StatusMap struct {
	slots uint32
	words []uint32
}

// Len is the number of slots in the map.
func (m *StatusMap) Len() int { return int(m.slots) }

// At returns the status of slot i: one of the named statuses, or
// Status(abi.StatusMapUnknown) for any other raw value; ok is false when i
// is out of range.
func (m *StatusMap) At(i int) (s Status, ok bool) {
	if i < 0 || i >= int(m.slots) {
		return 0, false
	}
	return Status(m.words[i/abi.StatusMapPerWord] >> (abi.StatusMapBits * (i % abi.StatusMapPerWord)) & nibbleMask), true
}

// Words returns the packed words; it aliases the map.
func (m *StatusMap) Words() []uint32 { return m.words }

// AppendBytes appends the packed map, as the GPU writes it, to dst.
func (m *StatusMap) AppendBytes(dst []byte) []byte {
	for _, w := range m.words {
		dst = abi.AppendWord(dst, w)
	}
	return dst
}

// SetSlots packs the statuses of slots into m, reusing its storage: the
// host's view of what the GPU's status map holds for the same ring, and
// what the slot map paints from under full readback (ui.SlotPainter).
func (m *StatusMap) SetSlots(slots []RingSlotSnapshot) {
	n := int(abi.StatusMapWords(uint32(len(slots))))
	m.words = slices.Grow(m.words[:0], n)[:n]
	// A word at a time, built in a register: the slot map packs a
	// 1,048,576-slot ring this way every frame.
	const u, b = abi.StatusMapUnknown, abi.StatusMapBits
	for w := range m.words {
		g := slots[w*abi.StatusMapPerWord : min((w+1)*abi.StatusMapPerWord, len(slots))]
		var v uint32
		if len(g) == 8 { // unrolled (8 = abi.StatusMapPerWord): every word but the last
			v = uint32(min(g[0].Status, u)) | uint32(min(g[1].Status, u))<<b |
				uint32(min(g[2].Status, u))<<(2*b) | uint32(min(g[3].Status, u))<<(3*b) |
				uint32(min(g[4].Status, u))<<(4*b) | uint32(min(g[5].Status, u))<<(5*b) |
				uint32(min(g[6].Status, u))<<(6*b) | uint32(min(g[7].Status, u))<<(7*b)
		} else {
			for k := len(g) - 1; k >= 0; k-- {
				v = v<<abi.StatusMapBits | uint32(min(g[k].Status, u))
			}
		}
		m.words[w] = v
	}
	m.slots = uint32(len(slots))
}

const nibbleMask = 1<<abi.StatusMapBits - 1

// SlotCount is the number of ring slots t describes: len(Slots) after a
// full decode, the status map's length after a summary decode.
func (t *RingTelemetry) SlotCount() int {
	if len(t.Slots) > 0 {
		return len(t.Slots)
	}
	return t.StatusMap.Len()
}

// SlotStatus is the status of slot i from whichever view t holds: the
// slot's raw status after a full decode, the status map's (unknown values
// collapsed to abi.StatusMapUnknown) after a summary decode.
func (t *RingTelemetry) SlotStatus(i int) (Status, bool) {
	if len(t.Slots) > 0 {
		if i < 0 || i >= len(t.Slots) {
			return 0, false
		}
		return t.Slots[i].Status, true
	}
	return t.StatusMap.At(i)
}

// summaryHeader is the validated header of a summary buffer.
type summaryHeader struct {
	w                       []byte // the summary
	slots, depth, width     uint32
	capacity, opcodes       uint32
	dropped, entries        uint32
	sketched, active        uint32
	cells, windows, wantLen uint64
}

func (h *summaryHeader) word(i uint64) uint32 {
	return abi.Word(h.w, int(i))
}

func summaryErr(off uint64, format string, args ...any) error {
	return &DecodeError{Buffer: BufferSummary, Offset: int(off), Msg: "summary: " + fmt.Sprintf(format, args...)}
}

// readSummaryHeader checks the summary's length, magic and shape.
func readSummaryHeader(summary []byte) (summaryHeader, error) {
	h := summaryHeader{w: summary}
	n := uint64(len(summary))
	if n%abi.WordBytes != 0 {
		return h, summaryErr(n-n%abi.WordBytes, "length %d bytes is not a whole number of %d-byte words", n, abi.WordBytes)
	}
	if n < abi.SummaryHeaderWords*abi.WordBytes {
		return h, summaryErr(n, "%d bytes is shorter than the %d-byte header", n, abi.SummaryHeaderWords*abi.WordBytes)
	}
	if m := h.word(abi.SumMagic); m != abi.SummaryMagic {
		return h, summaryErr(abi.SumMagic*abi.WordBytes, "magic %#x, want %#x: the reduce pass did not run, or rejected its params", m, abi.SummaryMagic)
	}
	h.slots, h.depth, h.width = h.word(abi.SumSlots), h.word(abi.SumDepth), h.word(abi.SumWidth)
	h.capacity, h.opcodes = h.word(abi.SumWindowCapacity), h.word(abi.SumWindowOpcodes)
	h.dropped, h.entries = h.word(abi.SumWindowDropped), h.word(abi.SumWindowEntries)
	h.sketched, h.active = h.word(abi.SumSketched), h.word(abi.SumActive)
	switch {
	case h.depth == 0 || h.depth > abi.SketchMaxDepth:
		return h, summaryErr(abi.SumDepth*abi.WordBytes, "sketch depth %d is outside 1 … %d", h.depth, abi.SketchMaxDepth)
	case h.width == 0 || h.width > abi.SketchMaxWidth:
		return h, summaryErr(abi.SumWidth*abi.WordBytes, "sketch width %d is outside 1 … %d", h.width, abi.SketchMaxWidth)
	case h.capacity > abi.WindowMaxCapacity || h.capacity&(h.capacity-1) != 0:
		return h, summaryErr(abi.SumWindowCapacity*abi.WordBytes, "window capacity %d is not 0 or a power of two ≤ %d", h.capacity, abi.WindowMaxCapacity)
	case h.opcodes > abi.SummaryMaxWindowOpcodes:
		return h, summaryErr(abi.SumWindowOpcodes*abi.WordBytes, "%d window opcodes, at most %d", h.opcodes, abi.SummaryMaxWindowOpcodes)
	case h.slots == 0:
		return h, summaryErr(abi.SumSlots*abi.WordBytes, "a ring of 0 slots")
	}
	h.cells = uint64(h.depth) * uint64(h.width)
	h.windows = abi.SummaryWindowWord(h.depth, h.width)
	h.wantLen = abi.SummaryWords(h.depth, h.width, h.capacity) * abi.WordBytes
	if n != h.wantLen {
		return h, summaryErr(min(n, h.wantLen), "%d bytes, but sketches of %d × %d and %d window entries take %d bytes",
			n, h.depth, h.width, h.capacity, h.wantLen)
	}
	return h, nil
}

// DecodeSummaryInto decodes a GPU summary (docs/SUMMARY.md) with its
// control buffer and status map into dst: Control, Occupancy, Active,
// Windows, WindowsDropped and StatusMap are filled exactly as DecodeInto
// fills them from the full ring (Windows exactly when WindowsDropped is 0),
// and Slots is emptied: a summary carries no slot words; SlotStatus and
// SlotCount read the status map instead. windowOpcodes must be the list
// the reduce pass was given (order and repeats do not matter); the summary
// records only its length, which must match. scratch may be nil.
//
// The summary is checked whole before anything is written: length, magic,
// shape, the counters' sums against each other and against the status map,
// and every window entry. On error dst is unchanged and the error is a
// *DecodeError naming the buffer and byte offset.
func DecodeSummaryInto(dst *RingTelemetry, scratch *DecodeScratch, control, summary, statusMap []byte, windowOpcodes []uint32) error {
	if scratch == nil {
		scratch = new(DecodeScratch)
	}
	if err := checkControl(control); err != nil {
		return err
	}
	h, err := readSummaryHeader(summary)
	if err != nil {
		return err
	}
	scratch.setWindowOpcodes(windowOpcodes)
	if uint32(len(scratch.ops)) != h.opcodes {
		return summaryErr(abi.SumWindowOpcodes*abi.WordBytes, "reduced with %d window opcodes, decoded with %d distinct ones", h.opcodes, len(scratch.ops))
	}

	// Occupancy and the sums it fixes.
	var occ [abi.StatusCount + 1]uint32
	var total uint64
	for i := range occ {
		occ[i] = h.word(abi.SumOccupancy + uint64(i))
		total += uint64(occ[i])
	}
	o := RingOccupancy(occ)
	active := o.sum(Status.Active)
	switch {
	case total != uint64(h.slots):
		return summaryErr(abi.SumOccupancy*abi.WordBytes, "occupancy counts %d slots, the header %d", total, h.slots)
	case uint64(h.sketched) != uint64(h.slots)-uint64(o[StatusEmpty]):
		return summaryErr(abi.SumSketched*abi.WordBytes, "%d sketched slots, but %d are not EMPTY", h.sketched, uint64(h.slots)-uint64(o[StatusEmpty]))
	case uint64(h.active) != active:
		return summaryErr(abi.SumActive*abi.WordBytes, "%d active slots, but occupancy says %d", h.active, active)
	}
	var a ActiveCounts
	if err := readActive(&h, abi.SumActiveTenant, "tenant", a.Tenant[:], &a.TenantOther, active); err != nil {
		return err
	}
	if err := readActive(&h, abi.SumActivePriority, "priority", a.Priority[:], &a.PriorityOther, active); err != nil {
		return err
	}
	if err := readActive(&h, abi.SumActiveOpcode, "opcode", a.Opcode[:], &a.OpcodeOther, active); err != nil {
		return err
	}

	// The status map must hold exactly the occupancy.
	if want := abi.StatusMapWords(h.slots) * abi.WordBytes; uint64(len(statusMap)) != want {
		return &DecodeError{Buffer: BufferStatusMap, Offset: min(len(statusMap), int(want)), Msg: fmt.Sprintf(
			"status map of %d bytes, want %d for %d slots (%d per word)", len(statusMap), want, h.slots, abi.StatusMapPerWord)}
	}
	if err := checkStatusMap(statusMap, h.slots, &occ); err != nil {
		return err
	}

	// Window entries: validated into scratch, copied out on success.
	wins := scratch.summaryWins[:0]
	var used uint32
	for e := uint64(0); e < uint64(h.capacity); e++ {
		at := h.windows + e*abi.WindowEntryWords
		owner := h.word(at + abi.WinOwner)
		if owner == 0 {
			continue
		}
		used++
		first := ^h.word(at + abi.WinFirstInv)
		w := WindowTelemetry{
			Ticket: h.word(at + abi.WinTicket), Opcode: h.word(at + abi.WinOpcode), Tenant: h.word(at + abi.WinTenant),
			Required: h.word(at + abi.WinRequired), Lookahead: h.word(at + abi.WinLookahead),
		}
		st := [abi.WindowStatusWords]*uint32{&w.Published, &w.Claimed, &w.Done, &w.WaitIO, &w.Yield, &w.Requeue, &w.Fault}
		for i, p := range st {
			*p = h.word(at + abi.WinStatus + uint64(i))
		}
		switch {
		case owner == abi.WinOwnerSealed:
			return summaryErr(at*abi.WordBytes, "window entry %d is sealed (its claim word is WIN_OWNER_SEALED): the window_tenants pass did not run", e)
		case owner-1 >= h.slots:
			return summaryErr(at*abi.WordBytes, "window entry %d: owner slot %d is past the %d slots", e, owner-1, h.slots)
		case first > owner-1:
			return summaryErr((at+abi.WinFirstInv)*abi.WordBytes, "window entry %d: lowest slot %d is above its owner slot %d", e, first, owner-1)
		case !scratch.match(w.Opcode):
			return summaryErr((at+abi.WinOpcode)*abi.WordBytes, "window entry %d: opcode %#x is not a window opcode", e, w.Opcode)
		}
		wins = append(wins, w)
	}
	scratch.summaryWins = wins
	if used != h.entries {
		return summaryErr(abi.SumWindowEntries*abi.WordBytes, "%d window entries in use, the header says %d", used, h.entries)
	}
	scratch.sortBuf = runsort.Func(wins, scratch.sortBuf, compareWindows)
	for i := 1; i < len(wins); i++ {
		if compareWindows(wins[i-1], wins[i]) == 0 {
			return summaryErr(h.windows*abi.WordBytes, "two window entries for ticket %d, opcode %#x", wins[i].Ticket, wins[i].Opcode)
		}
	}

	// Checked: write.
	decodeControl(&dst.Control, control)
	dst.Occupancy = o
	dst.Active = a
	dst.Slots = dst.Slots[:0]
	dst.Windows = append(dst.Windows[:0], wins...)
	dst.WindowsDropped = h.dropped
	m := &dst.StatusMap
	nw := len(statusMap) / abi.WordBytes
	m.words = slices.Grow(m.words[:0], nw)[:nw]
	for i := 0; i < nw; {
		if i%blockWords == 0 && i+blockWords <= nw {
			if c, ok := uniformBlock(statusMap[i*abi.WordBytes:]); ok {
				w := uint32(c) * (nibbleBit0 & (1<<32 - 1))
				for k := range m.words[i : i+blockWords] {
					m.words[i+k] = w
				}
				i += blockWords
				continue
			}
		}
		m.words[i] = abi.Word(statusMap, i)
		i++
	}
	m.slots = h.slots
	return nil
}

// blockWords is the status-map stretch (16 words, 128 slots) that
// uniformBlock compares whole: an idle or finished stretch of a large ring
// costs one memory compare instead of a word-by-word read (Go's wasm port
// assembles a word from single byte loads; its bytes.Equal compares 8 bytes
// at a time).
const blockWords = 16

// uniformBlocks[c] is a block of slots of code c, as the status map holds
// them.
var uniformBlocks = func() (b [abi.StatusMapUnknown + 1][blockWords * abi.WordBytes]byte) {
	for c := range b {
		for i := range b[c] {
			b[c][i] = byte(c * 0x11)
		}
	}
	return b
}()

// uniformBlock reports whether the blockWords words at the start of b hold
// one code ≤ abi.StatusMapUnknown in every slot, and which.
func uniformBlock(b []byte) (code int, ok bool) {
	c := int(b[0] & nibbleMask)
	if b[0] != byte(c*0x11) || c > abi.StatusMapUnknown {
		return 0, false
	}
	return c, bytes.Equal(b[:blockWords*abi.WordBytes], uniformBlocks[c][:])
}

// nibbleBit0 is bit 0 of every nibble of a 64-bit chunk of the status map
// (16 slots); a code times nibbleBit0 is 16 slots of that code.
const nibbleBit0 = 0x1111111111111111

// checkStatusMap checks the status map against the summary's occupancy
// occ (codes 0–8, no code 9–15, the nibbles past slots 0). It reads the
// map 16 slots at a time: a chunk of one code (an idle stretch of the
// ring) costs a compare, any other a few dozen word operations (the
// nibbles' bit planes, a popcount per code), so the check is O(words) with
// a small constant rather than a per-slot unpacking (a cost per slot that
// dominated a 1,048,576-slot frame in wasm: bench/results.md, row 3). On a
// mismatch it reruns
// the slot-by-slot check for the precise error.
func checkStatusMap(statusMap []byte, slots uint32, occ *[abi.StatusCount + 1]uint32) error {
	want := abi.StatusMapWords(slots) * abi.WordBytes
	if uint64(len(statusMap)) != want {
		return &DecodeError{Buffer: BufferStatusMap, Offset: min(len(statusMap), int(want)), Msg: fmt.Sprintf(
			"status map of %d bytes, want %d for %d slots (%d per word)", len(statusMap), want, slots, abi.StatusMapPerWord)}
	}
	nw := len(statusMap) / abi.WordBytes
	var counts [abi.StatusMapUnknown + 1]uint64
	var bad uint64 // nibbles of code 9–15
	i := 0
	for ; i+1 < nw; i += 2 {
		if i%blockWords == 0 && i+blockWords <= nw {
			if c, ok := uniformBlock(statusMap[i*abi.WordBytes:]); ok {
				counts[c] += blockWords * abi.StatusMapPerWord
				i += blockWords - 2
				continue
			}
		}
		x := uint64(abi.Word(statusMap, i)) | uint64(abi.Word(statusMap, i+1))<<32
		if c := x & nibbleMask; x == c*nibbleBit0 {
			if c <= abi.StatusMapUnknown {
				counts[c] += 2 * abi.StatusMapPerWord
			} else {
				bad |= x
			}
			continue
		}
		countNibbles(x, &counts, &bad)
	}
	if i < nw { // an odd last word: its high half reads as EMPTY nibbles
		countNibbles(uint64(abi.Word(statusMap, i)), &counts, &bad)
		counts[abi.StatusEmpty] -= abi.StatusMapPerWord
	}
	// The last word's padding nibbles, when 0, were counted as EMPTY.
	pad := uint32(nw)*abi.StatusMapPerWord - slots
	last := abi.Word(statusMap, nw-1)
	ok := bad == 0 && (pad == 0 || last>>(abi.StatusMapBits*(abi.StatusMapPerWord-pad)) == 0)
	counts[abi.StatusEmpty] -= uint64(pad)
	for code := range counts {
		ok = ok && counts[code] == uint64(occ[code])
	}
	if ok {
		return nil
	}
	if err := checkStatusMapSlots(statusMap, slots, occ); err != nil {
		return err
	}
	// Unreachable while the two checks agree (TestCheckStatusMap); never
	// accept a map the fast check refused.
	return &DecodeError{Buffer: BufferStatusMap, Offset: 0, Msg: "status map: inconsistent with the summary's occupancy"}
}

// countNibbles adds the nibbles of x per code 0–StatusMapUnknown to
// counts and ORs the nibbles of larger codes into bad.
func countNibbles(x uint64, counts *[abi.StatusMapUnknown + 1]uint64, bad *uint64) {
	if abi.StatusMapUnknown != 8 {
		// The bit arithmetic below counts codes 0–8 (9–15: bit 3 set with
		// any other); another ABI's statuses are counted nibble by nibble.
		countEachNibble(x, counts, bad)
		return
	}
	b0, b1, b2, b3 := x&nibbleBit0, x>>1&nibbleBit0, x>>2&nibbleBit0, x>>3&nibbleBit0
	n0, n1, n2, n3 := b0^nibbleBit0, b1^nibbleBit0, b2^nibbleBit0, b3^nibbleBit0
	lo := [4]uint64{n0 & n1, b0 & n1, n0 & b1, b0 & b1} // bits 1:0 = index
	h0, h1 := n2&n3, b2&n3                              // bits 3:2 = 00, 01
	counts[0] += uint64(bits.OnesCount64(lo[0] & h0))
	counts[1] += uint64(bits.OnesCount64(lo[1] & h0))
	counts[2] += uint64(bits.OnesCount64(lo[2] & h0))
	counts[3] += uint64(bits.OnesCount64(lo[3] & h0))
	counts[4] += uint64(bits.OnesCount64(lo[0] & h1))
	counts[5] += uint64(bits.OnesCount64(lo[1] & h1))
	counts[6] += uint64(bits.OnesCount64(lo[2] & h1))
	counts[7] += uint64(bits.OnesCount64(lo[3] & h1))
	counts[8] += uint64(bits.OnesCount64(lo[0] & n2 & b3))
	*bad |= b3 & (b0 | b1 | b2)
}

// countEachNibble is countNibbles one nibble at a time, for any
// StatusMapUnknown.
func countEachNibble(x uint64, counts *[abi.StatusMapUnknown + 1]uint64, bad *uint64) {
	for k := 0; k < 64; k += abi.StatusMapBits {
		if c := x >> k & nibbleMask; c <= abi.StatusMapUnknown {
			counts[c]++
		} else {
			*bad |= c << k
		}
	}
}

// checkStatusMapSlots is checkStatusMap slot by slot (its length already
// checked), for the precise error: the first nonzero padding nibble, else
// the first code whose count differs from the occupancy.
func checkStatusMapSlots(statusMap []byte, slots uint32, occ *[abi.StatusCount + 1]uint32) error {
	var mapOcc [nibbleMask + 1]uint32
	for i := 0; i < len(statusMap); i += abi.WordBytes {
		w := abi.Word(statusMap[i:], 0)
		first := uint32(i/abi.WordBytes) * abi.StatusMapPerWord
		for k := uint32(0); k < abi.StatusMapPerWord; k++ {
			code := w >> (abi.StatusMapBits * k) & nibbleMask
			if first+k >= slots {
				if code != 0 {
					return &DecodeError{Buffer: BufferStatusMap, Offset: i, Msg: fmt.Sprintf(
						"status map: nibble of slot %d past the %d slots is %d, want 0", first+k, slots, code)}
				}
				continue
			}
			mapOcc[code]++
		}
	}
	for code, n := range mapOcc {
		want := uint32(0)
		if code <= abi.StatusMapUnknown {
			want = occ[code]
		}
		if n != want {
			return &DecodeError{Buffer: BufferStatusMap, Offset: 0, Msg: fmt.Sprintf(
				"status map holds %d slots of code %d, the summary's occupancy %d", n, code, want)}
		}
	}
	return nil
}

// readActive reads one active table (len(dst) words, then the other
// counter) at word at, and checks that it sums to active.
func readActive(h *summaryHeader, at uint64, name string, dst []uint32, other *uint32, active uint64) error {
	var sum uint64
	for i := range dst {
		dst[i] = h.word(at + uint64(i))
		sum += uint64(dst[i])
	}
	*other = h.word(at + uint64(len(dst)))
	if sum += uint64(*other); sum != active {
		return summaryErr(at*abi.WordBytes, "active slots per %s sum to %d, not the %d active slots", name, sum, active)
	}
	return nil
}

// FromSummary fills dst with the five sketches a GPU summary holds
// (docs/SUMMARY.md §2), reusing dst's storage: the same counters, bit for
// bit, as RingTelemetry.SketchInto of the full decode of the same ring and
// control, with the summary's depth and width. On error dst is unchanged.
func (dst *SketchTelemetry) FromSummary(summary []byte) error {
	h, err := readSummaryHeader(summary)
	if err != nil {
		return err
	}
	d, w := int(h.depth), int(h.width)
	for _, s := range dst.all() {
		if err := s.reshape(d, w); err != nil {
			return err // unreachable: the header's shape is bounded
		}
	}
	all := dst.all()
	for k, s := range all[:abi.SummarySketches] {
		base := abi.SummarySketchWord(k, h.depth, h.width)
		for i := range s.counters {
			s.counters[i] = uint64(h.word(base + uint64(i)))
		}
	}
	base := abi.SummarySketchWord(abi.SummarySketches, h.depth, h.width)
	for i := range dst.DispatchMetrics.counters {
		at := base + 2*uint64(i)
		dst.DispatchMetrics.counters[i] = uint64(h.word(at)) | uint64(h.word(at+1))<<32
	}
	dst.TotalSlots, dst.SketchedSlots, dst.ActiveSlots = h.slots, h.sketched, h.active
	return nil
}
