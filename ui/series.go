package ui

import "math"

// Series is a fixed-capacity ring buffer of float64 samples: the history
// behind a time-series plot. Push never allocates once the series exists.
// The zero value has capacity 0 and ignores pushes; use NewSeries.
type Series struct {
	buf  []float64
	head int // index of the oldest sample
	n    int
}

// NewSeries returns an empty series that keeps the last capacity samples.
func NewSeries(capacity int) *Series {
	return &Series{buf: make([]float64, capacity)}
}

// Push appends v, dropping the oldest sample when full.
func (s *Series) Push(v float64) {
	if len(s.buf) == 0 {
		return
	}
	if s.n < len(s.buf) {
		s.buf[(s.head+s.n)%len(s.buf)] = v
		s.n++
		return
	}
	s.buf[s.head] = v
	s.head = (s.head + 1) % len(s.buf)
}

// Len is the number of samples held.
func (s *Series) Len() int { return s.n }

// At returns sample i, 0 being the oldest held.
func (s *Series) At(i int) float64 { return s.buf[(s.head+i)%len(s.buf)] }

// Last returns the newest sample, or 0 when empty.
func (s *Series) Last() float64 {
	if s.n == 0 {
		return 0
	}
	return s.At(s.n - 1)
}

// Max returns the largest sample, or 0 when empty.
func (s *Series) Max() float64 {
	m := 0.0
	for i := 0; i < s.n; i++ {
		if v := s.At(i); v > m {
			m = v
		}
	}
	return m
}

// Mean returns the average sample, or 0 when empty.
func (s *Series) Mean() float64 {
	if s.n == 0 {
		return 0
	}
	t := 0.0
	for i := 0; i < s.n; i++ {
		t += s.At(i)
	}
	return t / float64(s.n)
}

// Reset empties the series, keeping its storage.
func (s *Series) Reset() { s.head, s.n = 0, 0 }

// LatencyHistogram counts round-trip times in log-scale buckets: bucket 0
// holds everything below Min ms, then PerDecade buckets per factor of ten up
// to Max ms, and a last bucket for everything above. Quantiles come from the
// window of the most recent samples, which Add keeps sorted too: one sample
// in and one out is a binary search and a copy per frame, where sorting the
// window on each frame was 2,048 log 2,048 comparisons. The zero value is
// unusable; use NewLatencyHistogram.
type LatencyHistogram struct {
	Min, Max  float64 // ms
	PerDecade int
	Counts    []uint64
	Total     uint64
	recent    *Series
	sorted    []float64 // recent's samples in floatLess order
}

// NewLatencyHistogram covers [minMS, maxMS) with perDecade buckets per
// decade and keeps the last window samples for quantiles.
func NewLatencyHistogram(minMS, maxMS float64, perDecade, window int) *LatencyHistogram {
	decades := math.Log10(maxMS / minMS)
	n := int(math.Ceil(decades*float64(perDecade))) + 2
	return &LatencyHistogram{
		Min: minMS, Max: maxMS, PerDecade: perDecade,
		Counts: make([]uint64, n),
		recent: NewSeries(window),
		sorted: make([]float64, 0, window),
	}
}

// Bucket returns the bucket index of a latency of ms milliseconds.
func (h *LatencyHistogram) Bucket(ms float64) int {
	if !(ms >= h.Min) { // NaN and small values
		return 0
	}
	if ms >= h.Max {
		return len(h.Counts) - 1
	}
	b := 1 + int(math.Log10(ms/h.Min)*float64(h.PerDecade))
	if b > len(h.Counts)-2 {
		b = len(h.Counts) - 2
	}
	return b
}

// BucketBounds returns the [lo, hi) range in ms of bucket b; the first
// starts at 0 and the last ends at +Inf.
func (h *LatencyHistogram) BucketBounds(b int) (lo, hi float64) {
	edge := func(i int) float64 { return h.Min * math.Pow(10, float64(i)/float64(h.PerDecade)) }
	switch {
	case b <= 0:
		return 0, h.Min
	case b >= len(h.Counts)-1:
		return edge(b - 1), math.Inf(1)
	}
	return edge(b - 1), edge(b)
}

// Add records one sample.
func (h *LatencyHistogram) Add(ms float64) {
	h.Counts[h.Bucket(ms)]++
	h.Total++
	if cap(h.sorted) == 0 { // a window of 0 keeps no samples
		return
	}
	if len(h.sorted) == cap(h.sorted) { // full: the oldest sample leaves
		i := searchFloats(h.sorted, h.recent.At(0))
		h.sorted = append(h.sorted[:i], h.sorted[i+1:]...)
	}
	h.recent.Push(ms)
	i := searchFloats(h.sorted, ms)
	h.sorted = append(h.sorted, 0)
	copy(h.sorted[i+1:], h.sorted[i:])
	h.sorted[i] = ms
}

// floatLess orders NaN before every number, as sort.Float64s does, so a
// NaN sample has a place in the sorted window.
func floatLess(a, b float64) bool { return a < b || (a != a && b == b) }

// searchFloats returns the first index of s (sorted by floatLess) whose
// value is not below v.
func searchFloats(s []float64, v float64) int {
	lo, hi := 0, len(s)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if floatLess(s[mid], v) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// Reset forgets every sample.
func (h *LatencyHistogram) Reset() {
	for i := range h.Counts {
		h.Counts[i] = 0
	}
	h.Total = 0
	h.recent.Reset()
	h.sorted = h.sorted[:0]
}

// Quantiles returns the q-quantiles (0 ≤ q ≤ 1, nearest rank) of the
// recent window, in the order asked, into dst (reused). With no samples
// every value is NaN.
func (h *LatencyHistogram) Quantiles(dst []float64, qs ...float64) []float64 {
	dst = dst[:0]
	for _, q := range qs {
		if len(h.sorted) == 0 {
			dst = append(dst, math.NaN())
			continue
		}
		i := int(math.Ceil(q*float64(len(h.sorted)))) - 1
		dst = append(dst, h.sorted[clampInt(i, 0, len(h.sorted)-1)])
	}
	return dst
}

// MaxCount is the largest bucket count.
func (h *LatencyHistogram) MaxCount() uint64 {
	var m uint64
	for _, c := range h.Counts {
		m = max(m, c)
	}
	return m
}
