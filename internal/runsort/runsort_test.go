package runsort

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// item's id tells equal keys apart, so the tests see whether the sort is
// stable.
type item struct{ key, id int }

func byKey(a, b item) int { return cmp.Compare(a.key, b.key) }

// shapes are the inputs the callers see (sorted, one wrap, interleaved
// runs) and the ones they must survive (random, reversed, all equal).
var shapes = map[string]func(rng *rand.Rand, n int) []int{
	"random": func(rng *rand.Rand, n int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = rng.IntN(n/4 + 1)
		}
		return s
	},
	"sorted": func(_ *rand.Rand, n int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = i
		}
		return s
	},
	"one wrap": func(rng *rand.Rand, n int) []int {
		s := make([]int, n)
		k := rng.IntN(n + 1)
		for i := range s {
			s[i] = (i + k) % max(n, 1)
		}
		return s
	},
	"interleaved runs": func(rng *rand.Rand, n int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = (i%4)*n + i + rng.IntN(3)
		}
		return s
	},
	"reversed": func(_ *rand.Rand, n int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = n - i
		}
		return s
	},
	"all equal": func(_ *rand.Rand, n int) []int { return make([]int, n) },
}

func TestFuncMatchesAStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var buf []item
	for name, shape := range shapes {
		for _, n := range []int{0, 1, 2, 3, 7, 64, 65, 1000, 4099} {
			got := make([]item, n)
			for i, k := range shape(rng, n) {
				got[i] = item{k, i}
			}
			want := slices.Clone(got)
			slices.SortStableFunc(want, byKey)
			buf = Func(got, buf, byKey)
			require.Equal(t, want, got, "%s, n=%d", name, n)
		}
	}
}

func TestABufferKeptAcrossCallsAllocatesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	base := make([]item, 4096)
	for i := range base {
		base[i] = item{(i + 1000) % len(base), i} // one wrap
	}
	s := slices.Clone(base)
	buf := Func(s, nil, byKey)
	allocs := testing.AllocsPerRun(20, func() {
		copy(s, base)
		s[rng.IntN(len(s))].key = -1 // a third run
		buf = Func(s, buf, byKey)
	})
	assert.Zero(t, allocs)
	assert.True(t, slices.IsSortedFunc(s, byKey))
}

func TestSortedInputTakesOnePassOfComparisons(t *testing.T) {
	s := make([]item, 1000)
	for i := range s {
		s[i] = item{i, i}
	}
	calls := 0
	Func(s, nil, func(a, b item) int { calls++; return byKey(a, b) })
	assert.Equal(t, len(s)-1, calls)
}
