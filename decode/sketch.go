package decode

import (
	"fmt"
	"math"
	"math/bits"
)

// CountMinSketch is a depth × width table of u64 counters (Cormode and
// Muthukrishnan) with vyre's unseeded splitmix64 row hash, so estimates
// replay bit for bit (reference §5.7). An estimate never under-counts and
// over-counts by at most Epsilon() × total with probability 1 − Delta().
// The zero value has no shape; use NewCountMinSketch.
type CountMinSketch struct {
	depth, width int
	counters     []uint64 // row-major
}

// maxSketchCounters bounds depth × width; a larger table is surely a
// caller's mistake, and the bound keeps the product clear of overflow.
const maxSketchCounters = 1 << 28

// NewCountMinSketch returns an all-zero sketch of depth rows and width
// counters per row. Both must be positive.
func NewCountMinSketch(depth, width int) (*CountMinSketch, error) {
	var s CountMinSketch
	if err := s.reshape(depth, width); err != nil {
		return nil, err
	}
	return &s, nil
}

// checkSketchShape reports why depth × width is not a usable shape.
func checkSketchShape(depth, width int) error {
	if depth <= 0 || width <= 0 {
		return fmt.Errorf("decode: telemetry sketch depth %d and width %d must be non-zero and positive", depth, width)
	}
	if hi, lo := bits.Mul64(uint64(depth), uint64(width)); hi != 0 || lo > maxSketchCounters {
		return fmt.Errorf("decode: telemetry sketch of %d × %d counters overflows the %d-counter limit", depth, width, maxSketchCounters)
	}
	return nil
}

// reshape gives s the shape depth × width, zeroed, keeping its storage
// when it is large enough.
func (s *CountMinSketch) reshape(depth, width int) error {
	if err := checkSketchShape(depth, width); err != nil {
		return err
	}
	n := depth * width
	if cap(s.counters) >= n {
		s.counters = s.counters[:n]
		clear(s.counters)
	} else {
		s.counters = make([]uint64, n)
	}
	s.depth, s.width = depth, width
	return nil
}

// Depth is the number of rows.
func (s *CountMinSketch) Depth() int { return s.depth }

// Width is the number of counters per row.
func (s *CountMinSketch) Width() int { return s.width }

// Counters returns the counter table, row-major. It aliases the sketch.
func (s *CountMinSketch) Counters() []uint64 { return s.counters }

// Reset zeroes every counter, keeping the shape and the storage.
func (s *CountMinSketch) Reset() { clear(s.counters) }

// Epsilon is the additive error bound per unit of total count: e / width.
func (s *CountMinSketch) Epsilon() float64 {
	if s.width == 0 {
		return math.Inf(1)
	}
	return math.E / float64(s.width)
}

// Delta is the probability that an estimate exceeds the Epsilon bound: e^−depth.
func (s *CountMinSketch) Delta() float64 {
	if s.depth == 0 {
		return 1
	}
	return math.Exp(-float64(s.depth))
}

// goldenGamma is splitmix64's increment, 2^64 / φ; vyre also uses it to
// decorrelate the rows.
const goldenGamma = 0x9E3779B97F4A7C15

// splitmix64 is the finalizer of Steele et al.'s SplitMix64 generator.
func splitmix64(v uint64) uint64 {
	v += goldenGamma
	v = (v ^ (v >> 30)) * 0xBF58476D1CE4E5B9
	v = (v ^ (v >> 27)) * 0x94D049BB133111EB
	return v ^ (v >> 31)
}

// Index is the absolute counter index of key in row row:
// row × width + splitmix64(key XOR row × 0x9E3779B97F4A7C15) mod width.
// row must be in [0, Depth()).
func (s *CountMinSketch) Index(row int, key uint32) int {
	h := splitmix64(uint64(key) ^ uint64(row)*goldenGamma)
	return row*s.width + int(h%uint64(s.width))
}

// Add counts key n more times, saturating at the u64 maximum; n = 0 does
// nothing.
func (s *CountMinSketch) Add(key uint32, n uint64) {
	if n == 0 {
		return
	}
	for row := 0; row < s.depth; row++ {
		c := &s.counters[s.Index(row, key)]
		sum, carry := bits.Add64(*c, n, 0)
		if carry != 0 {
			sum = math.MaxUint64
		}
		*c = sum
	}
}

// Estimate is the least counter of key over the rows: never below the true
// count. A sketch with no shape estimates 0.
func (s *CountMinSketch) Estimate(key uint32) uint64 {
	if s.depth == 0 {
		return 0
	}
	est := uint64(math.MaxUint64)
	for row := 0; row < s.depth; row++ {
		est = min(est, s.counters[s.Index(row, key)])
	}
	return est
}

// Merge adds other's counters into s. The shapes must be identical, and no
// counter may overflow; on error s is unchanged.
func (s *CountMinSketch) Merge(other *CountMinSketch) error {
	if s.depth != other.depth || s.width != other.width {
		return fmt.Errorf("decode: cannot merge a %d × %d telemetry sketch into a %d × %d one: shapes differ",
			other.depth, other.width, s.depth, s.width)
	}
	for i, c := range other.counters {
		if _, carry := bits.Add64(s.counters[i], c, 0); carry != 0 {
			return fmt.Errorf("decode: merging telemetry sketches overflows counter %d (%d + %d exceeds u64)", i, s.counters[i], c)
		}
	}
	for i, c := range other.counters {
		s.counters[i] += c
	}
	return nil
}

// SketchTelemetry holds the five sketches of a snapshot (reference §5.7),
// all of one shape. As ABI v1 requires, EMPTY slots are left out of the
// slot sketches: a fresh ring no longer inflates opcode 0 and tenant 0.
// The zero value is ready for SketchInto.
type SketchTelemetry struct {
	// RingOpcode counts every non-EMPTY slot by opcode.
	RingOpcode CountMinSketch
	// Tenant counts every non-EMPTY slot by tenant id.
	Tenant CountMinSketch
	// Status counts every non-EMPTY slot by raw status (EMPTY is exact in
	// RingOccupancy).
	Status CountMinSketch
	// ActiveOpcode counts the slots in an active status by opcode.
	ActiveOpcode CountMinSketch
	// DispatchMetrics adds each non-zero OPCODE_METRICS count under its opcode.
	DispatchMetrics CountMinSketch
	// TotalSlots is the number of slots in the snapshot, EMPTY included;
	// SketchedSlots those sketched (non-EMPTY); ActiveSlots the active ones.
	TotalSlots    uint32
	SketchedSlots uint32
	ActiveSlots   uint32
}

// Sketch builds the five sketches of t with depth × width counters each.
func (t *RingTelemetry) Sketch(depth, width int) (SketchTelemetry, error) {
	var st SketchTelemetry
	err := t.SketchInto(&st, depth, width)
	return st, err
}

// SketchInto builds the sketches into dst, reusing its counter storage, so
// that a repeated call of the same shape allocates nothing. On error dst is
// unchanged.
func (t *RingTelemetry) SketchInto(dst *SketchTelemetry, depth, width int) error {
	if err := checkSketchShape(depth, width); err != nil {
		return err
	}
	for _, s := range dst.all() {
		if err := s.reshape(depth, width); err != nil {
			return err // unreachable: the shape was checked above
		}
	}
	// Keys repeat heavily (a ring holds few opcodes, tenants and statuses),
	// so counts are gathered in small exact caches and hashed once per
	// distinct key; addition commutes, so the counters are identical.
	var opc, ten, sta, act pendingAdds
	var sketched, active uint32
	for i := range t.Slots {
		sl := &t.Slots[i]
		if sl.Status == StatusEmpty {
			continue
		}
		sketched++
		if e := &opc[pendingIndex(sl.Opcode)]; e.key == sl.Opcode && e.n != math.MaxUint32 {
			e.n++
		} else {
			e.evict(&dst.RingOpcode, sl.Opcode)
		}
		if e := &ten[pendingIndex(sl.Tenant)]; e.key == sl.Tenant && e.n != math.MaxUint32 {
			e.n++
		} else {
			e.evict(&dst.Tenant, sl.Tenant)
		}
		if e := &sta[pendingIndex(uint32(sl.Status))]; e.key == uint32(sl.Status) && e.n != math.MaxUint32 {
			e.n++
		} else {
			e.evict(&dst.Status, uint32(sl.Status))
		}
		if sl.Status.Active() {
			active++
			if e := &act[pendingIndex(sl.Opcode)]; e.key == sl.Opcode && e.n != math.MaxUint32 {
				e.n++
			} else {
				e.evict(&dst.ActiveOpcode, sl.Opcode)
			}
		}
	}
	opc.flush(&dst.RingOpcode)
	ten.flush(&dst.Tenant)
	sta.flush(&dst.Status)
	act.flush(&dst.ActiveOpcode)
	for _, m := range t.Control.Metrics {
		dst.DispatchMetrics.Add(m.Opcode, uint64(m.Count))
	}
	dst.TotalSlots = uint32(min(uint64(len(t.Slots)), maxSlots))
	dst.SketchedSlots, dst.ActiveSlots = sketched, active
	return nil
}

func (st *SketchTelemetry) all() [5]*CountMinSketch {
	return [5]*CountMinSketch{&st.RingOpcode, &st.Tenant, &st.Status, &st.ActiveOpcode, &st.DispatchMetrics}
}

// pendingAdds is a small direct-mapped cache of counts not yet added to a
// sketch. It lives on the stack.
type pendingAdds [pendingSize]pendingEntry

type pendingEntry struct{ key, n uint32 }

const (
	pendingBits = 6
	pendingSize = 1 << pendingBits
)

// pendingIndex is the cache entry of key. Fibonacci hashing spreads
// opcodes that share their low bits (0x100, 0x4000, …) over the cache.
func pendingIndex(key uint32) uint32 { return key * 0x9E3779B1 >> (32 - pendingBits) }

// evict adds the pending count of e to s and gives e to key, counted once.
// It is the miss path; the hit path (same key, no overflow: e.n++) is
// written out in SketchInto's loop because a call there costs more than
// the whole hit.
func (e *pendingEntry) evict(s *CountMinSketch, key uint32) {
	if e.n != 0 {
		s.Add(e.key, uint64(e.n))
	}
	e.key, e.n = key, 1
}

func (p *pendingAdds) flush(s *CountMinSketch) {
	for _, e := range p {
		if e.n != 0 {
			s.Add(e.key, uint64(e.n))
		}
	}
}
