package ref

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// u64 is a 64-bit value as the WGSL kernel holds it: two u32 words.
type u64 struct{ lo, hi uint32 }

// splitmix64's constants as word pairs, as in reduce_shared.wgsl.
var (
	goldenGamma = u64{0x7F4A7C15, 0x9E3779B9}
	mixMulA     = u64{0x1CE4E5B9, 0xBF58476D}
	mixMulB     = u64{0x133111EB, 0x94D049BB}
)

// mulHi is the high word of a × b from 16-bit halves, as reduce_shared.wgsl does
// (WGSL has no widening multiply).
func mulHi(a, b uint32) uint32 {
	const half, mask = 16, 1<<16 - 1
	a0, a1, b0, b1 := a&mask, a>>half, b&mask, b>>half
	p00, p01, p10 := a0*b0, a0*b1, a1*b0
	mid := p00>>half + p01&mask + p10&mask
	return a1*b1 + p01>>half + p10>>half + mid>>half
}

func mul64(a, b u64) u64 { return u64{a.lo * b.lo, mulHi(a.lo, b.lo) + a.lo*b.hi + a.hi*b.lo} }

func add64(a, b u64) u64 {
	lo := a.lo + b.lo
	var c uint32
	if lo < a.lo {
		c = 1
	}
	return u64{lo, a.hi + b.hi + c}
}

func xorShr64(v u64, n uint32) u64 {
	return u64{v.lo ^ (v.lo>>n | v.hi<<(32-n)), v.hi ^ v.hi>>n}
}

func splitmix64(x u64) u64 {
	v := add64(x, goldenGamma)
	v = mul64(xorShr64(v, 30), mixMulA)
	v = mul64(xorShr64(v, 27), mixMulB)
	return xorShr64(v, 31)
}

// mod64 is v mod w for 0 < w ≤ abi.SketchMaxWidth, without 64-bit division.
func mod64(v u64, w uint32) uint32 {
	r := (^uint32(0)%w + 1) % w
	return ((v.hi%w)*r + v.lo%w) % w
}

// SketchIndex is the absolute counter index of key in row row of a sketch
// width counters wide, computed in u32 pairs exactly as
// reduce_shared.wgsl does: it equals decode's CountMinSketch.Index (row × width + splitmix64(key XOR
// row × 0x9E3779B97F4A7C15) mod width) for width ≤ abi.SketchMaxWidth.
func SketchIndex(row, width, key uint32) uint32 {
	salt := mul64(u64{row, 0}, goldenGamma)
	return row*width + mod64(splitmix64(u64{key ^ salt.lo, salt.hi}), width)
}

// Reduce is the Go twin of reduce.wgsl and reduce_windows.wgsl followed by
// window_tenants.wgsl: it returns the summary and the status map the three
// dispatches write for control and ring (both after the drain) under p. It
// is deterministic: window entries are created in slot order, the open
// windows' first; the GPU's placement differs, the decoded windows do not
// (when none was dropped).
func Reduce(control, ring []byte, p wgsl.SummaryParams) (summary, statusMap []byte, err error) {
	if err := p.Check(); err != nil {
		return nil, nil, err
	}
	if len(control) < abi.ControlMinWords*abi.WordBytes || len(control)%abi.WordBytes != 0 {
		return nil, nil, fmt.Errorf("ref: control of %d bytes: want whole words, at least %d", len(control), abi.ControlMinWords*abi.WordBytes)
	}
	if len(ring) == 0 || len(ring)%abi.SlotBytes != 0 {
		return nil, nil, fmt.Errorf("ref: ring of %d bytes: want whole %d-byte slots, at least one", len(ring), abi.SlotBytes)
	}
	slots := uint32(len(ring) / abi.SlotBytes)
	sum := make([]uint32, abi.SummaryWords(p.Depth, p.Width, p.WindowCapacity))
	smap := make([]uint32, abi.StatusMapWords(slots))
	cells := p.Depth * p.Width
	win := uint32(abi.SummaryWindowWord(p.Depth, p.Width))
	rd := func(b []byte, w uint32) uint32 { return binary.LittleEndian.Uint32(b[w*abi.WordBytes:]) }
	sketch := func(s, key uint32, n uint32) {
		for row := uint32(0); row < p.Depth; row++ {
			sum[abi.SummaryHeaderWords+s*cells+SketchIndex(row, p.Width, key)] += n
		}
	}

	sum[abi.SumMagic], sum[abi.SumSlots] = abi.SummaryMagic, slots
	sum[abi.SumDepth], sum[abi.SumWidth] = p.Depth, p.Width
	sum[abi.SumWindowCapacity], sum[abi.SumWindowOpcodes] = p.WindowCapacity, uint32(len(p.WindowOpcodes))
	dm := abi.SummaryHeaderWords + abi.SummarySketches*cells
	for op := uint32(0); op < abi.MetricOpcodes; op++ {
		n := rd(control, abi.CtrlOpcodeMetrics+op)
		if n == 0 {
			continue
		}
		for row := uint32(0); row < p.Depth; row++ {
			w := dm + 2*SketchIndex(row, p.Width, op)
			old := sum[w]
			sum[w] += n
			if sum[w] < old {
				sum[w+1]++
			}
		}
	}

	for slot := uint32(0); slot < slots; slot++ {
		base := slot * abi.SlotWords
		st, op, tenant := rd(ring, base+abi.SlotStatus), rd(ring, base+abi.SlotOpcode), rd(ring, base+abi.SlotTenant)
		code := min(st, abi.StatusCount)
		sum[abi.SumOccupancy+code]++
		smap[slot/abi.StatusMapPerWord] |= code << (abi.StatusMapBits * (slot % abi.StatusMapPerWord))
		if st != abi.StatusEmpty {
			sum[abi.SumSketched]++
			sketch(0, op, 1)
			sketch(1, tenant, 1)
			sketch(2, st, 1)
		}
		if active(st) {
			sum[abi.SumActive]++
			sum[abi.SumActiveTenant+min(tenant, abi.TenantSlots)]++
			sum[abi.SumActivePriority+min(rd(ring, base+abi.SlotPriority), abi.PriorityLevels)]++
			sum[abi.SumActiveOpcode+min(op, abi.MetricOpcodes)]++
			sketch(3, op, 1)
		}
		switch {
		case !contains(p.WindowOpcodes, op):
		case p.WindowCapacity == 0:
			sum[abi.SumWindowDropped]++
		case windowOpen(st): // reduce places the open windows first
			windowEntry(sum, win, p.WindowCapacity, ring, slot, rd(ring, base+abi.SlotArg0), op, math.MaxUint32)
		}
	}

	// reduce_windows counts every window slot; the other windows get
	// entries while the table is below WindowClosedLimit.
	for slot := uint32(0); slot < slots && p.WindowCapacity > 0; slot++ {
		base := slot * abi.SlotWords
		op := rd(ring, base+abi.SlotOpcode)
		if !contains(p.WindowOpcodes, op) {
			continue
		}
		st, ticket, kind := rd(ring, base+abi.SlotStatus), rd(ring, base+abi.SlotArg0), rd(ring, base+abi.SlotArg0+1)
		e, ok := windowEntry(sum, win, p.WindowCapacity, ring, slot, ticket, op, abi.WindowClosedLimit(p.WindowCapacity))
		if !ok {
			sum[abi.SumWindowDropped]++
			continue
		}
		sum[e+abi.WinFirstInv] = max(sum[e+abi.WinFirstInv], ^slot)
		switch kind {
		case abi.WindowClassRequired:
			sum[e+abi.WinRequired]++
		case abi.WindowClassLookahead:
			sum[e+abi.WinLookahead]++
		}
		if st >= abi.StatusPublished && st <= abi.StatusFault {
			sum[e+abi.WinStatus+st-abi.StatusPublished]++
		}
	}
	// window_tenants: each entry's tenant is its lowest slot's; sealed
	// entries are free again.
	for e := win; e < win+uint32(p.WindowCapacity)*abi.WindowEntryWords; e += abi.WindowEntryWords {
		switch sum[e+abi.WinOwner] {
		case 0:
		case abi.WinOwnerSealed:
			sum[e+abi.WinOwner] = 0
		default:
			sum[e+abi.WinTenant] = rd(ring, ^sum[e+abi.WinFirstInv]*abi.SlotWords+abi.SlotTenant)
		}
	}

	summary = make([]byte, 0, len(sum)*abi.WordBytes)
	for _, v := range sum {
		summary = binary.LittleEndian.AppendUint32(summary, v)
	}
	statusMap = make([]byte, 0, len(smap)*abi.WordBytes)
	for _, v := range smap {
		statusMap = binary.LittleEndian.AppendUint32(statusMap, v)
	}
	return summary, statusMap, nil
}

// windowEntry finds the entry of (ticket, op), probing linearly from the
// kernel's hash, or creates it for slot at the first free entry while the
// table holds fewer than limit entries; past the limit it seals that free
// entry instead. ok is false when the key gets no entry.
func windowEntry(sum []uint32, win, capacity uint32, ring []byte, slot, ticket, op, limit uint32) (uint32, bool) {
	if capacity == 0 {
		return 0, false
	}
	h := (ticket*0x9E3779B1 ^ op*0x85EBCA6B) & (capacity - 1)
	for probe := uint32(0); probe < capacity; probe++ {
		e := win + h*abi.WindowEntryWords
		switch owner := sum[e+abi.WinOwner]; owner {
		case 0:
			if sum[abi.SumWindowEntries] >= limit {
				sum[e+abi.WinOwner] = abi.WinOwnerSealed
				return 0, false
			}
			sum[e+abi.WinOwner], sum[e+abi.WinTicket], sum[e+abi.WinOpcode] = slot+1, ticket, op
			sum[abi.SumWindowEntries]++
			return e, true
		case abi.WinOwnerSealed:
			return 0, false
		default:
			o := (owner - 1) * abi.SlotWords
			if binary.LittleEndian.Uint32(ring[(o+abi.SlotOpcode)*abi.WordBytes:]) == op &&
				binary.LittleEndian.Uint32(ring[(o+abi.SlotArg0)*abi.WordBytes:]) == ticket {
				return e, true
			}
		}
		h = (h + 1) & (capacity - 1)
	}
	return 0, false
}

// windowOpen says whether a window slot in status st makes its window
// open: every status but EMPTY and DONE.
func windowOpen(st uint32) bool { return st != abi.StatusEmpty && st != abi.StatusDone }

// active says whether st is one of abi.StatusActiveMask's statuses, as
// reduce_shared.wgsl's is_active does.
func active(st uint32) bool { return st < abi.StatusCount && abi.StatusActiveMask>>st&1 != 0 }

func contains(s []uint32, v uint32) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
