package host

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
)

func TestCounterLimit(t *testing.T) {
	q, err := NewQueue(ControlConfig{Slots: 5}, 0)
	require.NoError(t, err)
	// Pretend 2^31 − 1 items went through NORMAL, all completed.
	abi.PutWord(q.control, abi.CtrlHead+abi.PriorityNormal, MaxCounter-1)
	abi.PutWord(q.control, abi.CtrlTail+abi.PriorityNormal, MaxCounter-1)
	it := Item{Priority: abi.PriorityNormal}
	_, err = q.Publish([]Item{it})
	require.NoError(t, err)
	before := append([]byte(nil), q.control...)
	_, err = q.Publish([]Item{it})
	assert.ErrorIs(t, err, ErrCounterLimit)
	assert.Equal(t, before, q.control)
}

func TestDirtySetOutOfOrder(t *testing.T) {
	var d dirtySet
	d.markWords(10, 2)
	d.markWords(0, 1)
	d.markWords(12, 1) // touches [10,12) only after sorting? no: appended after [0,1)
	d.markWords(1, 2)
	d.markWords(9, 1)
	assert.Equal(t, []ByteRange{{0, 12}, {36, 52}}, d.ranges())
	d.markWords(3, 6) // bridges both
	assert.Equal(t, []ByteRange{{0, 52}}, d.ranges())
	d.clear()
	assert.Empty(t, d.ranges())
}

// TestDirtySetCoversExactlyWhatWasMarked marks random runs, in the patterns
// the queue makes (interleaved per-partition runs of slots, scattered
// status words, whole-buffer marks), and checks ranges against a bitmap of
// the marked words: sorted, coalesced, and covering those words and no
// others.
func TestDirtySetCoversExactlyWhatWasMarked(t *testing.T) {
	const words = 4096
	for seed := uint64(0); seed < 200; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		var d dirtySet
		marked := make([]bool, words)
		mark := func(w, n int) {
			d.markWords(w, n)
			for i := w; i < w+n; i++ {
				marked[i] = true
			}
		}
		next := make([]int, abi.PriorityLevels)
		for p := range next {
			next[p] = p * words / abi.PriorityLevels
		}
		for op := 0; op < 1+rng.IntN(300); op++ {
			switch k := rng.IntN(10); {
			case k < 6: // a slot of partition p, after the last one it wrote
				p := rng.IntN(len(next))
				if next[p]+4 <= (p+1)*words/abi.PriorityLevels {
					mark(next[p], 4)
					next[p] += 4
				}
			case k < 9: // a scattered status word
				mark(rng.IntN(words), 1)
			default: // any run
				w := rng.IntN(words)
				mark(w, 1+rng.IntN(words-w))
			}
			if rng.IntN(20) == 0 {
				d.ranges() // a read between marks must not lose anything
			}
		}
		got := d.ranges()
		covered := make([]bool, words)
		for i, r := range got {
			require.Less(t, r.Start, r.End, "seed %d: empty range", seed)
			if i > 0 {
				require.Greater(t, r.Start, got[i-1].End, "seed %d: ranges %d and %d not sorted and coalesced", seed, i-1, i)
			}
			for b := r.Start; b < r.End; b += abi.WordBytes {
				covered[b/abi.WordBytes] = true
			}
		}
		require.Equal(t, marked, covered, "seed %d", seed)
	}
}

// BenchmarkDirtySetPublish is a publish of 4,096 slots of mixed priorities
// (each to its partition's next slot), then ranges, as the page's frame does.
func BenchmarkDirtySetPublish(b *testing.B) {
	const slots = 65536
	rng := rand.New(rand.NewPCG(1, 2))
	prio := make([]int, 4096)
	for i := range prio {
		prio[i] = rng.IntN(abi.PriorityLevels)
	}
	var d dirtySet
	b.ReportAllocs()
	for b.Loop() {
		d.clear()
		var next [abi.PriorityLevels]int
		for _, p := range prio {
			slot := p*slots/abi.PriorityLevels + next[p]
			next[p]++
			d.markWords(slot*abi.SlotWords, abi.SlotWords)
		}
		if n := len(d.ranges()); n > abi.PriorityLevels {
			b.Fatalf("%d ranges for %d partitions", n, abi.PriorityLevels)
		}
	}
}

// FuzzScanCursors checks Requeue's and ReclaimFaults' cursors against full
// scans: two queues take the same script (publishes, GPU drains read back
// with and without the ring, requeues, fault reclaims, masks), one with its
// cursors reset to 0 before every scan, which makes both scans cover every
// position held, as they did before the cursors. Every buffer, dirty range
// and count must stay equal.
func FuzzScanCursors(f *testing.F) {
	f.Add([]byte{0, 9, 3, 1, 2, 4, 1, 0, 7, 3, 5, 3, 2, 3, 4, 2})
	f.Add([]byte{1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 4, 4, 5, 5, 0, 0, 2, 3, 3, 4})
	f.Fuzz(func(t *testing.T, script []byte) {
		at := 0
		next := func() uint32 {
			if at >= len(script) {
				return 0
			}
			at++
			return uint32(script[at-1])
		}
		cfg := ControlConfig{Slots: next()%40 + 5, Tenants: 4}
		a, err := NewQueue(cfg, 0)
		require.NoError(t, err)
		b, err := NewQueue(cfg, 0)
		require.NoError(t, err)
		full := func() { b.requeueFrom, b.reclaimFrom = [abi.PriorityLevels]uint32{}, [abi.PriorityLevels]uint32{} }
		// WAIT_IO answers depend on the request and the step only, not on
		// how many slots a scan visited.
		salt := uint32(0)
		io := func(req Item) (Item, bool) {
			return Item{Opcode: abi.OpNop, Tenant: req.Tenant}, (req.Args[0]+salt)%3 != 0
		}
		both := func(op func(q *Queue) any) {
			ra, rb := op(a), op(b)
			require.Equal(t, ra, rb)
			require.Equal(t, a.control, b.control)
			require.Equal(t, a.ring, b.ring)
			require.Equal(t, a.age, b.age)
			for buf := range a.dirty {
				require.Equal(t, a.dirty[buf].ranges(), b.dirty[buf].ranges())
			}
		}
		for step := 0; at < len(script) && step < 200; step++ {
			salt++
			switch next() % 6 {
			case 0, 1: // publish
				items := make([]Item, next()%6)
				for i := range items {
					items[i] = Item{Opcode: abi.OpNop, Tenant: next() % 4, Priority: next() % abi.PriorityLevels, Args: [abi.SlotArgs]uint32{next()}}
				}
				both(func(q *Queue) any { n, err := q.Publish(items); return [2]any{n, err == nil} })
			case 2, 3: // the GPU claims and ends some items; the ring read back or not
				ctl, ring := append([]byte(nil), a.control...), append([]byte(nil), a.ring...)
				for p := uint32(0); p < abi.PriorityLevels; p++ {
					c := a.capacity(p)
					if c == 0 {
						continue
					}
					h, tl := a.head(p), a.tail(p)
					take := min(tl-min(h, tl), next()%4)
					for k := h; k < h+take; k++ {
						abi.PutWord(ring, int(a.slotOf(p, k))*abi.SlotWords+abi.SlotStatus, next()%8)
					}
					abi.PutWord(ctl, abi.CtrlHead+int(p), h+take)
				}
				readRing := next()%3 != 0
				both(func(q *Queue) any {
					q.ClearDirty()
					if readRing {
						return q.Absorb(ctl, ring, nil) == nil
					}
					return q.Absorb(ctl, nil, nil) == nil
				})
			case 4:
				full()
				both(func(q *Queue) any { st, err := q.Requeue(io); return [2]any{st, err == nil} })
			case 5:
				switch next() % 3 {
				case 0:
					full()
					both(func(q *Queue) any { return q.ReclaimFaults() })
				case 1:
					tenant, on := next()%4, next()%2 == 0
					both(func(q *Queue) any { return q.SetTenantMask(tenant, on) == nil })
				case 2:
					both(func(q *Queue) any { q.NewEpoch(); return nil })
				}
			}
		}
	})
}
