package decode

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// sketchVectors are the hash vectors of reference §5.7.
var sketchVectors = []struct {
	key       uint32
	splitmix  uint64
	rows4x128 []int
	rows3x16  []int
}{
	{0, 0xE220A8397B1DCDAF, []int{47, 244, 335, 492}, []int{15, 20, 47}},
	{1, 0x910A2DEC89025CC1, []int{65, 201, 350, 466}, []int{1, 25, 46}},
	{7, 0x63CBE1E459320DD7, []int{87, 129, 257, 450}, []int{7, 17, 33}},
	{99, 0x42F3A9364C476BE3, []int{99, 210, 341, 408}, []int{3, 18, 37}},
}

func TestSketchHashVectors(t *testing.T) {
	s4, err := NewCountMinSketch(4, 128)
	require.NoError(t, err)
	s3, err := NewCountMinSketch(3, 16)
	require.NoError(t, err)
	for _, v := range sketchVectors {
		t.Run(fmt.Sprint("key ", v.key), func(t *testing.T) {
			assert.Equal(t, v.splitmix, splitmix64(uint64(v.key)))
			for row, want := range v.rows4x128 {
				assert.Equal(t, want, s4.Index(row, v.key), "4×128 row %d", row)
			}
			for row, want := range v.rows3x16 {
				assert.Equal(t, want, s3.Index(row, v.key), "3×16 row %d", row)
			}
		})
	}
}

func TestSketchShapes(t *testing.T) {
	for _, tc := range []struct {
		name         string
		depth, width int
		wantErr      string
	}{
		{"4×128", 4, 128, ""},
		{"1×1", 1, 1, ""},
		{"zero depth", 0, 16, "must be non-zero"},
		{"zero width", 4, 0, "must be non-zero"},
		{"negative", -1, 16, "must be non-zero"},
		{"overflowing product", math.MaxInt, math.MaxInt, "overflows"},
		{"too many counters", 1 << 20, 1 << 20, "overflows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewCountMinSketch(tc.depth, tc.width)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				assert.Contains(t, err.Error(), "decode: ")
				assert.Nil(t, s)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.depth, s.Depth())
			assert.Equal(t, tc.width, s.Width())
			assert.Len(t, s.Counters(), tc.depth*tc.width)
		})
	}
}

func TestSketchNeverUnderCounts(t *testing.T) {
	s, err := NewCountMinSketch(3, 16)
	require.NoError(t, err)
	exact := map[uint32]uint64{}
	rng := rand.New(rand.NewPCG(7, 7))
	for range 5000 {
		k, n := rng.Uint32N(200), uint64(rng.IntN(4))
		s.Add(k, n)
		exact[k] += n
	}
	var total uint64
	for _, n := range exact {
		total += n
	}
	over := 0
	for k, n := range exact {
		est := s.Estimate(k)
		assert.GreaterOrEqual(t, est, n, "key %d", k)
		if float64(est-n) > s.Epsilon()*float64(total) {
			over++
		}
	}
	// The bound fails with probability Delta per key; allow twice that.
	assert.LessOrEqual(t, float64(over)/float64(len(exact)), 2*s.Delta()+0.01)
}

func TestSketchAddSaturatesAndZeroIsNoop(t *testing.T) {
	s, err := NewCountMinSketch(2, 8)
	require.NoError(t, err)
	s.Add(5, 0)
	assert.Equal(t, make([]uint64, 16), s.Counters())
	s.Add(5, math.MaxUint64-1)
	s.Add(5, 10)
	assert.Equal(t, uint64(math.MaxUint64), s.Estimate(5))
	s.Reset()
	assert.Zero(t, s.Estimate(5))
	assert.Len(t, s.Counters(), 16, "Reset keeps the shape")
}

func TestSketchMerge(t *testing.T) {
	a, _ := NewCountMinSketch(3, 16)
	b, _ := NewCountMinSketch(3, 16)
	a.Add(1, 4)
	b.Add(1, 5)
	b.Add(7, 2)
	require.NoError(t, a.Merge(b))
	assert.Equal(t, uint64(9), a.Estimate(1))
	assert.GreaterOrEqual(t, a.Estimate(7), uint64(2))

	for _, shape := range [][2]int{{4, 16}, {3, 17}} {
		other, _ := NewCountMinSketch(shape[0], shape[1])
		err := a.Merge(other)
		require.Error(t, err, "shape drift %v", shape)
		assert.Contains(t, err.Error(), "shapes differ")
	}

	full, _ := NewCountMinSketch(3, 16)
	full.Add(7, math.MaxUint64)
	before := append([]uint64(nil), a.Counters()...)
	err := a.Merge(full)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "overflows")
	assert.Equal(t, before, a.Counters(), "a failed merge changes nothing")
}

func TestSketchErrorBounds(t *testing.T) {
	s, _ := NewCountMinSketch(4, 128)
	assert.InDelta(t, math.E/128, s.Epsilon(), 1e-15)
	assert.InDelta(t, math.Exp(-4), s.Delta(), 1e-15)
	var zero CountMinSketch
	assert.True(t, math.IsInf(zero.Epsilon(), 1))
	assert.Equal(t, 1.0, zero.Delta())
	assert.Zero(t, zero.Estimate(3))
}

// TestTelemetrySketch is vyre's example workload with the v1 change: EMPTY
// slots are not sketched.
func TestTelemetrySketch(t *testing.T) {
	c := newControl(0, 8)
	c[abi.CtrlOpcodeMetrics+0] = 3
	c[abi.CtrlOpcodeMetrics+7] = 11
	ring := ringBytes(
		slot{status: abi.StatusPublished, op: 0x1000, tenant: 1},
		slot{status: abi.StatusClaimed, op: 0x1000, tenant: 1},
		slot{status: abi.StatusDone, op: 0x1000, tenant: 2},
		slot{status: abi.StatusYield, op: abi.OpNop, tenant: 2},
		slot{status: 42, op: abi.OpHash, tenant: 3},
		slot{}, slot{}, slot{}, // fresh EMPTY slots: opcode 0, tenant 0
	)
	tel := telemetryOf(c, ring)
	for _, shape := range [][2]int{{4, 128}, {3, 16}} {
		t.Run(fmt.Sprintf("%d×%d", shape[0], shape[1]), func(t *testing.T) {
			st, err := tel.Sketch(shape[0], shape[1])
			require.NoError(t, err)
			assert.Equal(t, uint32(8), st.TotalSlots)
			assert.Equal(t, uint32(5), st.SketchedSlots)
			assert.Equal(t, uint32(3), st.ActiveSlots)
			// Estimates may over-count but never under-count; with
			// these few keys and 4×128 they are exact.
			checks := []struct {
				name string
				s    *CountMinSketch
				key  uint32
				want uint64
			}{
				{"ring opcode 0x1000", &st.RingOpcode, 0x1000, 3},
				{"ring opcode NOP: EMPTY slots not counted", &st.RingOpcode, abi.OpNop, 1},
				{"tenant 0: EMPTY slots not counted", &st.Tenant, 0, 0},
				{"tenant 2", &st.Tenant, 2, 2},
				{"status unknown kept", &st.Status, 42, 1},
				{"status EMPTY not sketched", &st.Status, abi.StatusEmpty, 0},
				{"active opcode 0x1000", &st.ActiveOpcode, 0x1000, 2},
				{"active opcode HASH (unknown status is not active)", &st.ActiveOpcode, abi.OpHash, 0},
				{"dispatch metric 7", &st.DispatchMetrics, 7, 11},
			}
			for _, c := range checks {
				if shape[1] >= 128 {
					assert.Equal(t, c.want, c.s.Estimate(c.key), c.name)
				} else {
					assert.GreaterOrEqual(t, c.s.Estimate(c.key), c.want, c.name)
				}
			}
		})
	}
	_, err := tel.Sketch(0, 16)
	assert.Error(t, err)
}

// TestSketchIntoMatchesNaive checks the batched adds of SketchInto against
// one Add per slot, on keys that collide in the pending cache.
func TestSketchIntoMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	slots := make([]slot, 4000)
	for i := range slots {
		slots[i] = slot{status: rng.Uint32N(10), op: rng.Uint32N(300) * 64, tenant: rng.Uint32N(40)}
	}
	tel := telemetryOf(newControl(0, 4000), ringBytes(slots...))
	got, err := tel.Sketch(4, 64)
	require.NoError(t, err)

	want := map[string]*CountMinSketch{}
	for _, name := range []string{"op", "tenant", "status", "active"} {
		want[name], _ = NewCountMinSketch(4, 64)
	}
	for _, s := range tel.Slots {
		if s.Status == StatusEmpty {
			continue
		}
		want["op"].Add(s.Opcode, 1)
		want["tenant"].Add(s.Tenant, 1)
		want["status"].Add(uint32(s.Status), 1)
		if s.Status.Active() {
			want["active"].Add(s.Opcode, 1)
		}
	}
	assert.Equal(t, want["op"].Counters(), got.RingOpcode.Counters())
	assert.Equal(t, want["tenant"].Counters(), got.Tenant.Counters())
	assert.Equal(t, want["status"].Counters(), got.Status.Counters())
	assert.Equal(t, want["active"].Counters(), got.ActiveOpcode.Counters())
}

func TestSketchIntoReusesStorage(t *testing.T) {
	tel := telemetryOf(newControl(0, 3), statusRing(1, 2, 3))
	var st SketchTelemetry
	require.NoError(t, tel.SketchInto(&st, 4, 128))
	ptr := &st.Tenant.Counters()[0]
	assert.Zero(t, testing.AllocsPerRun(10, func() {
		if err := tel.SketchInto(&st, 4, 128); err != nil {
			panic(err)
		}
	}))
	assert.Same(t, ptr, &st.Tenant.Counters()[0])
	require.NoError(t, tel.SketchInto(&st, 3, 16), "a smaller shape reuses the storage")
	assert.Same(t, ptr, &st.Tenant.Counters()[0])
	assert.Equal(t, uint64(3), st.Tenant.Estimate(0))

	before := st
	require.Error(t, tel.SketchInto(&st, 0, 16))
	assert.Equal(t, before, st, "a bad shape leaves dst unchanged")
}
