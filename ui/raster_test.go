package ui

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRasterFillRectClip(t *testing.T) {
	var r Raster
	r.Resize(10, 5)
	require.Len(t, r.Pix, 10*5*4)
	r.Fill(ColBackground)
	assert.Equal(t, ColBackground, r.At(9, 4))
	r.Rect(8, 3, 20, 20, ColBad) // clipped to the raster
	assert.Equal(t, ColBad, r.At(9, 4))
	assert.Equal(t, ColBad, r.At(8, 3))
	assert.Equal(t, ColBackground, r.At(7, 3))
	assert.Equal(t, RGBA{}, r.At(10, 0), "outside reads zero")
	r.Set(-1, 0, ColOK) // ignored, no panic
	before := &r.Pix[0]
	r.Resize(5, 5)
	assert.Same(t, before, &r.Pix[0], "a smaller size reuses the buffer")
}

func TestRasterLine(t *testing.T) {
	var r Raster
	r.Resize(4, 4)
	r.Fill(ColBackground)
	r.Line(0, 0, 3, 3, ColLine)
	for i := 0; i < 4; i++ {
		assert.Equal(t, ColLine, r.At(i, i))
	}
	assert.Equal(t, ColBackground, r.At(3, 0))
}

func TestStackedColumnFillsHeight(t *testing.T) {
	var r Raster
	r.Resize(1, 10)
	r.Fill(ColBackground)
	r.StackedColumn(0, []uint32{3, 0, 7}, 10, []RGBA{ColOK, ColWarn, ColBad})
	for y := 0; y < 7; y++ {
		assert.Equal(t, ColBad, r.At(0, y), "y=%d", y)
	}
	for y := 7; y < 10; y++ {
		assert.Equal(t, ColOK, r.At(0, y), "y=%d", y)
	}
}

func TestPlotSeriesRightAligned(t *testing.T) {
	var r Raster
	r.Resize(8, 5)
	r.Fill(ColBackground)
	s := NewSeries(4)
	for _, v := range []float64{0, 1, 2, 4, 4} { // 5 pushes into 4: oldest dropped
		s.Push(v)
	}
	require.Equal(t, 4, s.Len())
	assert.Equal(t, 1.0, s.At(0))
	assert.Equal(t, 4.0, s.Last())
	assert.Equal(t, 4.0, s.Max())
	r.PlotSeries(s, 4, ColLine)
	assert.Equal(t, ColLine, r.At(7, 0), "newest sample at the right edge, max at the top")
	assert.Equal(t, ColLine, r.At(4, 3), "oldest (1 of 4) a quarter up")
	assert.Equal(t, ColBackground, r.At(3, 4), "nothing left of the samples")
}

func TestLatencyHistogram(t *testing.T) {
	h := NewLatencyHistogram(0.01, 1000, 4, 100)
	assert.Equal(t, 0, h.Bucket(0.001))
	assert.Equal(t, 0, h.Bucket(math.NaN()))
	assert.Equal(t, 1, h.Bucket(0.01))
	assert.Equal(t, 5, h.Bucket(0.1))
	assert.Equal(t, len(h.Counts)-1, h.Bucket(5000))
	lo, hi := h.BucketBounds(5)
	assert.InDelta(t, 0.1, lo, 1e-12)
	assert.InDelta(t, 0.1778, hi, 1e-3)
	for i := 0; i < 90; i++ { // bimodal: 90 fast, 10 slow
		h.Add(0.2)
	}
	for i := 0; i < 10; i++ {
		h.Add(4)
	}
	assert.EqualValues(t, 100, h.Total)
	q := h.Quantiles(nil, 0.5, 0.9, 0.99)
	assert.Equal(t, []float64{0.2, 0.2, 4}, q)
	assert.EqualValues(t, 90, h.MaxCount())
	h.Reset()
	assert.True(t, math.IsNaN(h.Quantiles(q, 0.5)[0]))
}

// The window Add keeps sorted must equal the recent samples sorted afresh,
// through evictions, duplicates and NaN, and Add must not allocate.
func TestLatencyWindowStaysSorted(t *testing.T) {
	const window = 64
	h := NewLatencyHistogram(0.01, 10000, 5, window)
	rng := rand.New(rand.NewPCG(7, 8))
	for n := range 1000 {
		v := float64(rng.IntN(20)) / 4
		if n%97 == 0 {
			v = math.NaN()
		}
		h.Add(v)
		want := make([]float64, 0, window)
		for i := range h.recent.Len() {
			want = append(want, h.recent.At(i))
		}
		sort.Float64s(want)
		require.Len(t, h.sorted, len(want))
		for i := range want {
			require.True(t, want[i] == h.sorted[i] || (math.IsNaN(want[i]) && math.IsNaN(h.sorted[i])),
				"after %d samples, rank %d: %v, want %v", n+1, i, h.sorted[i], want[i])
		}
	}
	assert.Zero(t, testing.AllocsPerRun(100, func() { h.Add(rng.Float64()) }))
	h.Reset()
	assert.Empty(t, h.sorted)
	h.Add(1)
	assert.Equal(t, []float64{1, 1}, h.Quantiles(nil, 0, 1))
}

func TestLatencyWindowOfZeroKeepsNothing(t *testing.T) {
	h := NewLatencyHistogram(0.01, 10000, 5, 0)
	h.Add(3)
	assert.EqualValues(t, 1, h.Total)
	assert.True(t, math.IsNaN(h.Quantiles(nil, 0.5)[0]))
}
