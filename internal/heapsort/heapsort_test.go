package heapsort

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOrderedMatchesSlicesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 300 {
		for _, limit := range []uint32{2, 16, 1 << 31} { // many duplicates, some, few
			got := make([]uint32, n)
			for i := range got {
				got[i] = rng.Uint32N(limit)
			}
			want := slices.Clone(got)
			slices.Sort(want)
			Ordered(got)
			require.Equal(t, want, got, "n=%d limit=%d", n, limit)
		}
	}
}

func TestFuncSortsByKeyAndKeepsEveryElement(t *testing.T) {
	type pair struct{ key, id int }
	rng := rand.New(rand.NewPCG(3, 4))
	s := make([]pair, 1000)
	for i := range s {
		s[i] = pair{rng.IntN(50), i}
	}
	Func(s, func(a, b pair) bool { return a.key < b.key })
	assert.True(t, slices.IsSortedFunc(s, func(a, b pair) int { return cmp.Compare(a.key, b.key) }))
	ids := make([]int, len(s))
	for i, p := range s {
		ids[i] = p.id
	}
	slices.Sort(ids)
	for i, id := range ids {
		require.Equal(t, i, id, "an element was lost or duplicated")
	}
}

func TestSortedAndReversedInputs(t *testing.T) {
	up := []float64{-2, -1, 0, 0.5, 1, 3}
	down := slices.Clone(up)
	slices.Reverse(down)
	Ordered(down)
	assert.Equal(t, up, down)
	Ordered(up)
	assert.Equal(t, []float64{-2, -1, 0, 0.5, 1, 3}, up)
}

func TestNoAllocation(t *testing.T) {
	s := make([]uint32, 512)
	rng := rand.New(rand.NewPCG(5, 6))
	allocs := testing.AllocsPerRun(20, func() {
		for i := range s {
			s[i] = rng.Uint32()
		}
		Ordered(s)
	})
	assert.Zero(t, allocs)
}
