package loghist

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBucketsTileTheRange(t *testing.T) {
	prevHi := 0.0
	for b := range Buckets {
		lo, hi := Bounds(b)
		assert.Equal(t, prevHi, lo, "bucket %d starts where %d ended", b, b-1)
		assert.Less(t, lo, hi)
		if b > 0 && b < Buckets-1 {
			assert.LessOrEqual(t, (hi-lo)/lo, 1.0/SubBuckets+1e-12, "bucket %d is at most 1/%d of its bound wide", b, SubBuckets)
			assert.Equal(t, b, Bucket(lo), "lo of %d", b)
			assert.Equal(t, b, Bucket(math.Nextafter(hi, 0)), "just below hi of %d", b)
		}
		prevHi = hi
	}
	assert.True(t, math.IsInf(prevHi, 1))
	for v, want := range map[float64]int{-1: 0, 0: 0, math.NaN(): 0, 0.06: 0, 0.0625: 1, 1: 1 + 4*SubBuckets,
		1.5: 1 + 4*SubBuckets + SubBuckets/2, 1 << 30: Buckets - 1, math.Inf(1): Buckets - 1} {
		assert.Equal(t, want, Bucket(v), "Bucket(%v)", v)
	}
}

func TestQuantilesWithinTheErrorBound(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var h Hist
	vals := make([]float64, 20000)
	for i := range vals {
		// Log-uniform over 0.1 ms … 100 s, the range of queue waits.
		vals[i] = math.Exp(math.Log(0.1) + r.Float64()*math.Log(1e6))
		h.Add(vals[i])
	}
	slices.Sort(vals)
	require.Equal(t, uint64(len(vals)), h.Count())
	assert.Equal(t, vals[len(vals)-1], h.Max())
	assert.Equal(t, vals[0], h.Min())
	sum := 0.0
	for _, v := range vals {
		sum += v
	}
	assert.InEpsilon(t, sum, h.Sum(), 1e-9)
	for _, q := range []float64{0, 0.01, 0.5, 0.9, 0.99, 0.999, 1} {
		rank := max(int(math.Ceil(q*float64(len(vals)))), 1)
		want := vals[rank-1]
		got := h.Quantile(q)
		assert.InEpsilon(t, want, got, RelError, "q %v: got %v want %v", q, got, want)
	}
}

func TestQuantileClampsToTheValuesSeen(t *testing.T) {
	var h Hist
	assert.Zero(t, h.Quantile(0.5), "empty")
	h.AddN(16.4, 3)
	assert.Equal(t, 16.4, h.Quantile(0.5), "one value: exact, not the bucket's midpoint")
	assert.Equal(t, 16.4, h.Quantile(0.99))
	h.Add(-3) // counts as 0
	assert.Equal(t, 0.0, h.Min())
	assert.InDelta(t, 0, h.Quantile(0.25), 1.0/16, "the underflow bucket: an absolute error below 2^MinExp")
	assert.Equal(t, uint64(4), h.Count())
	h.AddN(5, 0)
	assert.Equal(t, uint64(4), h.Count(), "AddN of 0 values adds nothing")
	h.Add(1 << 30)
	assert.Equal(t, float64(1<<30), h.Quantile(1), "past the range: the exact maximum")
	h.Reset()
	assert.Zero(t, h.Count())
}

func TestAddDoesNotAllocate(t *testing.T) {
	var h Hist
	assert.Zero(t, testing.AllocsPerRun(100, func() { h.Add(12.5) }))
}

func BenchmarkAdd(b *testing.B) {
	var h Hist
	for i := range b.N {
		h.Add(float64(i & 1023))
	}
}
