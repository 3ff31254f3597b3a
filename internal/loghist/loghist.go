package loghist

import "math"

// The bucket layout (see the package doc).
const (
	// SubBuckets is the number of buckets per octave: the top subBits
	// mantissa bits.
	SubBuckets = 1 << subBits
	subBits    = 4
	// MinExp and MaxExp bound the octaves: values from 2^MinExp (1/16)
	// to 2^MaxExp (16,777,216: 4.7 hours of milliseconds).
	MinExp = -4
	MaxExp = 24
	// Buckets is the number of buckets: an underflow bucket, then
	// SubBuckets per octave (the last one also takes larger values).
	Buckets = 1 + (MaxExp-MinExp)*SubBuckets
	// RelError bounds a quantile's relative error for values in
	// [2^MinExp, 2^MaxExp).
	RelError = 1.0 / (2 * SubBuckets)
)

// Hist counts values in Buckets fixed buckets. The zero value is an empty
// histogram, ready to use. It holds no pointers, so copying one copies it.
type Hist struct {
	counts        [Buckets]uint64
	n             uint64
	min, max, sum float64
}

// Bucket is the bucket of v: 0 for v below 2^MinExp (negative values and
// NaN included), Buckets−1 for v at or above 2^MaxExp.
func Bucket(v float64) int {
	if !(v >= 1.0/(1<<-MinExp)) { // NaN too
		return 0
	}
	bits := math.Float64bits(v)
	exp := int(bits>>52&0x7ff) - 1023
	if exp >= MaxExp {
		return Buckets - 1
	}
	sub := int(bits >> (52 - subBits) & (SubBuckets - 1))
	return 1 + (exp-MinExp)*SubBuckets + sub
}

// Bounds is bucket b's range [lo, hi) (bucket 0 starts at 0; the last
// ends at +Inf).
func Bounds(b int) (lo, hi float64) {
	switch {
	case b <= 0:
		return 0, math.Ldexp(1, MinExp)
	case b >= Buckets-1:
		return math.Ldexp(1+float64(SubBuckets-1)/SubBuckets, MaxExp-1), math.Inf(1)
	}
	exp, sub := (b-1)/SubBuckets+MinExp, (b-1)%SubBuckets
	return math.Ldexp(1+float64(sub)/SubBuckets, exp), math.Ldexp(1+float64(sub+1)/SubBuckets, exp)
}

// Add counts v (a negative or NaN v counts as 0).
func (h *Hist) Add(v float64) { h.AddN(v, 1) }

// AddN counts n values v at once.
func (h *Hist) AddN(v float64, n uint64) {
	if n == 0 {
		return
	}
	if !(v > 0) {
		v = 0
	}
	h.counts[Bucket(v)] += n
	if h.n == 0 || v < h.min {
		h.min = v
	}
	if v > h.max {
		h.max = v
	}
	h.sum += v * float64(n)
	h.n += n
}

// Count is the number of values added.
func (h *Hist) Count() uint64 { return h.n }

// Max is the largest value added, exactly (0 when empty).
func (h *Hist) Max() float64 { return h.max }

// Sum is the sum of the values added (a negative or NaN one as 0).
func (h *Hist) Sum() float64 { return h.sum }

// Min is the smallest value added, exactly (0 when empty).
func (h *Hist) Min() float64 { return h.min }

// Quantile is the q-quantile (0 ≤ q ≤ 1) of the values added: the
// midpoint of the bucket holding the value of rank ⌈q·n⌉ (at least 1),
// clamped to [Min, Max]; 0 when empty. Its error is RelError of that
// value at most (the package doc says where).
func (h *Hist) Quantile(q float64) float64 {
	if h.n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(h.n)))
	rank = min(max(rank, 1), h.n)
	var seen uint64
	for b, c := range h.counts {
		if seen += c; seen >= rank {
			lo, hi := Bounds(b)
			if math.IsInf(hi, 1) {
				return h.max
			}
			return min(max((lo+hi)/2, h.min), h.max)
		}
	}
	return h.max
}

// Reset empties h.
func (h *Hist) Reset() { *h = Hist{} }
