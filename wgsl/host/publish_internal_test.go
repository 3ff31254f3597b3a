package host

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// TestPublishBatchMatchesOneByOne: Publish's batch bookkeeping (one run per
// partition, wrapping, TAIL once) leaves the same bytes, dirty ranges, ring
// changes, tails and ages as the protocol's item-by-item put, over batches
// of mixed priorities that wrap partitions of uneven sizes.
func TestPublishBatchMatchesOneByOne(t *testing.T) {
	cfg := ControlConfig{Slots: 97, Tenants: 4, Partitions: [abi.PriorityLevels + 1]uint32{0, 7, 7, 40, 90, 97}}
	batch, err := NewQueue(cfg, 0)
	require.NoError(t, err)
	single, err := NewQueue(cfg, 0)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	prios := []uint32{0, 2, 3, 4} // partition 1 is empty
	for round := range 40 {
		batch.ClearDirty()
		single.ClearDirty()
		batch.ClearRingChanges()
		single.ClearRingChanges()
		// Free every slot, as a drain would, so each round has room; vary
		// which status the slots are left in.
		for s := uint32(0); s < cfg.Slots; s++ {
			st := []uint32{abi.StatusEmpty, abi.StatusDone}[rng.IntN(2)]
			abi.PutWord(batch.ring, int(s)*abi.SlotWords+abi.SlotStatus, st)
			abi.PutWord(single.ring, int(s)*abi.SlotWords+abi.SlotStatus, st)
		}
		items := make([]Item, rng.IntN(12))
		for i := range items {
			items[i] = Item{Opcode: uint32(rng.IntN(8)), Tenant: uint32(rng.IntN(4)), Priority: prios[rng.IntN(len(prios))]}
			for a := range items[i].Args {
				items[i].Args[a] = rng.Uint32()
			}
		}
		n, err := batch.Publish(items)
		require.NoError(t, err, "round %d", round)
		require.Equal(t, len(items), n)
		for i := range items {
			single.put(&items[i], 0)
		}
		require.Equal(t, single.ring, batch.ring, "round %d: ring", round)
		require.Equal(t, single.control, batch.control, "round %d: control", round)
		assert.Equal(t, single.Dirty(RingBuffer), batch.Dirty(RingBuffer), "round %d: dirty ring", round)
		assert.Equal(t, single.Dirty(ControlBuffer), batch.Dirty(ControlBuffer), "round %d: dirty control", round)
		assert.Equal(t, single.RingChanges(), batch.RingChanges(), "round %d: changes", round)
		assert.Equal(t, single.age, batch.age, "round %d: ages", round)
	}
}

// TestPublishQuotaNamesFirstItemPast: with two tenants past their quotas,
// the error names the earliest item past one, as an item-by-item check
// would.
func TestPublishQuotaNamesFirstItemPast(t *testing.T) {
	cfg := ControlConfig{Slots: 64, Tenants: 3}
	cfg.Quotas[1], cfg.Quotas[2] = 2, 1
	q, err := NewQueue(cfg, 0)
	require.NoError(t, err)
	items := []Item{{Tenant: 1}, {Tenant: 0}, {Tenant: 2}, {Tenant: 1}, {Tenant: 2}, {Tenant: 1}}
	before := append([]byte(nil), q.ring...)
	_, err = q.Publish(items)
	var ie *ItemError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, 4, ie.Index) // tenant 2's second item; tenant 1's third is later
	assert.ErrorIs(t, err, ErrQuota)
	assert.Equal(t, before, q.ring)
}

// BenchmarkPublish publishes 1,048,576 NOP items into one partition of a
// ring of as many slots (Reset between ops, not timed): the 1 M drain of
// bench row 6 (issue 19), natively or under GOOS=js GOARCH=wasm.
func BenchmarkPublish(b *testing.B) {
	const n = 1 << 20
	cfg := ControlConfig{Slots: n, Tenants: 1, Partitions: [abi.PriorityLevels + 1]uint32{0, 0, 0, n, n, n}}
	q, err := NewQueue(cfg, 0)
	require.NoError(b, err)
	items := make([]Item, n)
	for i := range items {
		items[i].Priority = abi.PriorityNormal
	}
	benchPublish(b, q, cfg, items)
}

// benchPublish times q.Publish(items) on a fresh generation of cfg each
// op (the Reset not timed).
func benchPublish(b *testing.B, q *Queue, cfg ControlConfig, items []Item) {
	b.SetBytes(int64(len(items)) * abi.SlotBytes)
	for b.Loop() {
		b.StopTimer()
		require.NoError(b, q.Reset(cfg))
		b.StartTimer()
		if _, err := q.Publish(items); err != nil {
			b.Fatal(err)
		}
	}
}

// TestItemLayout: Item's fields lie at the offsets of slot words 1–15
// (from SlotOpcode), which Publish's whole-item copy relies on.
func TestItemLayout(t *testing.T) {
	var it Item
	at := func(p unsafe.Pointer) uintptr { return uintptr(p) - uintptr(unsafe.Pointer(&it)) }
	w := func(word int) uintptr { return uintptr((word - abi.SlotOpcode) * abi.WordBytes) }
	assert.Equal(t, w(abi.SlotOpcode), at(unsafe.Pointer(&it.Opcode)))
	assert.Equal(t, w(abi.SlotTenant), at(unsafe.Pointer(&it.Tenant)))
	assert.Equal(t, w(abi.SlotPriority), at(unsafe.Pointer(&it.Priority)))
	assert.Equal(t, w(abi.SlotArg0), at(unsafe.Pointer(&it.Args)))
	assert.Equal(t, uintptr(itemWords*abi.WordBytes), unsafe.Sizeof(it))
}

// TestFirstLapMatchesGeneralPath: the one-pass publish of a ring's first
// lap (publishFirstLap) and the general path leave the same bytes, dirty
// ranges, changes, pending opcodes, tails and errors, over batches that
// fit, that run past the first lap, and that hold an invalid item (which
// the one pass must undo).
func TestFirstLapMatchesGeneralPath(t *testing.T) {
	cfg := ControlConfig{Slots: 97, Tenants: 4, Partitions: [abi.PriorityLevels + 1]uint32{0, 7, 7, 40, 90, 97}}
	fast, err := NewQueue(cfg, 0)
	require.NoError(t, err)
	slow, err := NewQueue(cfg, 0)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(3, 4))
	prios := []uint32{0, 2, 3, 4}
	tookFast := 0
	for round := range 30 {
		slow.firstLap = false // the general path, always
		items := make([]Item, rng.IntN(20))
		for i := range items {
			items[i] = Item{Opcode: uint32(rng.IntN(4)), Tenant: uint32(rng.IntN(4)), Priority: prios[rng.IntN(len(prios))]}
			items[i].Args[rng.IntN(abi.SlotArgs)] = rng.Uint32()
		}
		if round%5 == 4 && len(items) > 0 {
			items[len(items)-1].Opcode = abi.OpSystemLow + 5 // reserved: the batch is refused
		}
		wasFirst := fast.firstLap
		nf, errF := fast.Publish(items)
		ns, errS := slow.Publish(items)
		require.Equal(t, ns, nf, "round %d", round)
		require.Equal(t, errS, errF, "round %d", round)
		if errF == nil && wasFirst && fast.Dirty(RingBuffer) != nil {
			tookFast++
		}
		requireSamePublish(t, slow, fast, fmt.Sprintf("round %d", round))
	}
	assert.Positive(t, tookFast)
}

// requireSamePublish checks that the general path (slow) and the first lap
// (fast) left the same ring, control, dirty ranges, changes, pending
// opcodes and tenant counts.
func requireSamePublish(t *testing.T, slow, fast *Queue, what string) {
	t.Helper()
	require.Equal(t, slow.ring, fast.ring, "%s: ring", what)
	require.Equal(t, slow.control, fast.control, "%s: control", what)
	assert.Equal(t, slow.Dirty(RingBuffer), fast.Dirty(RingBuffer), "%s: dirty", what)
	assert.Equal(t, slow.RingChanges(), fast.RingChanges(), "%s: changes", what)
	assert.Equal(t, slow.PendingOpcodes(nil), fast.PendingOpcodes(nil), "%s: pending", what)
	assert.Equal(t, slow.published, fast.published, "%s: published", what)
}

// TestFirstLapUndo: a first-lap batch refused at its last item leaves the
// ring, control, pending opcodes and dirty ranges as they were.
func TestFirstLapUndo(t *testing.T) {
	q, err := NewQueue(ControlConfig{Slots: 64, Tenants: 2}, 0)
	require.NoError(t, err)
	_, err = q.Publish([]Item{{Opcode: 7, Priority: abi.PriorityHigh}})
	require.NoError(t, err)
	q.ClearDirty()
	ring, control := append([]byte(nil), q.ring...), append([]byte(nil), q.control...)
	items := []Item{{Opcode: 3, Priority: abi.PriorityHigh, Args: [abi.SlotArgs]uint32{9}}, {Opcode: 4, Priority: abi.PriorityLow}, {Opcode: abi.OpSystemLow + 5}}
	_, err = q.Publish(items)
	var ie *ItemError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, 2, ie.Index)
	assert.Equal(t, ring, q.ring)
	assert.Equal(t, control, q.control)
	assert.Equal(t, []uint32{7}, q.PendingOpcodes(nil))
	assert.Empty(t, q.Dirty(RingBuffer))
}

// BenchmarkPublishMixed publishes batches of 4,096 items in runs of one
// opcode, tenant and priority (runs of 1–64 items, four priorities, eight
// opcodes, four tenants), as the page's frames do, into a first lap.
func BenchmarkPublishMixed(b *testing.B) {
	const n = 4096
	cfg := ControlConfig{Slots: 1 << 16, Tenants: 4}
	q, err := NewQueue(cfg, 0)
	require.NoError(b, err)
	rng := rand.New(rand.NewPCG(5, 6))
	items := make([]Item, 0, n)
	for len(items) < n {
		it := Item{Opcode: uint32(rng.IntN(8)), Tenant: uint32(rng.IntN(4)), Priority: uint32(rng.IntN(4))}
		for range min(1+rng.IntN(64), n-len(items)) {
			items = append(items, it)
		}
	}
	benchPublish(b, q, cfg, items)
}

// TestFirstLapRuns: batches of runs of one opcode, tenant and priority
// (publishFirstLap's unit) leave the same state and errors as the general
// path, where a run fills its partition exactly, runs past its room, is
// broken by a bad tenant, or is followed by an item of another partition.
func TestFirstLapRuns(t *testing.T) {
	cfg := ControlConfig{Slots: 97, Tenants: 4, Partitions: [abi.PriorityLevels + 1]uint32{0, 7, 7, 40, 90, 97}}
	run := func(n int, it Item) []Item {
		items := make([]Item, n)
		for i := range items {
			items[i] = it
			items[i].Args[0] = uint32(i)
		}
		return items
	}
	cat := func(runs ...[]Item) []Item {
		var items []Item
		for _, r := range runs {
			items = append(items, r...)
		}
		return items
	}
	hi := Item{Opcode: 3, Tenant: 1, Priority: abi.PriorityCritical}
	low := Item{Opcode: 5, Tenant: 2, Priority: abi.PriorityLow}
	cases := []struct {
		name    string
		batches [][]Item
		fails   bool // the last batch is refused
	}{
		{"mixed runs", [][]Item{cat(run(3, hi), run(20, low), run(2, hi), run(1, low), run(4, Item{Opcode: 3, Tenant: 3, Priority: abi.PriorityNormal}))}, false},
		{"run fills its partition", [][]Item{cat(run(2, low), run(7, hi), run(5, low))}, false},
		{"run past its room", [][]Item{run(4, hi), cat(run(2, low), run(4, hi))}, true},
		{"tenant breaks a run", [][]Item{cat(run(3, low), run(1, Item{Opcode: 5, Tenant: abi.TenantCount, Priority: abi.PriorityLow}), run(3, low))}, true},
		{"opcode breaks a run", [][]Item{cat(run(3, hi), run(1, Item{Opcode: abi.OpSystemLow + 5}), run(3, hi))}, true},
		{"priority breaks a run", [][]Item{cat(run(3, hi), run(1, Item{Opcode: 3, Tenant: 1, Priority: abi.PriorityIdle + 1}))}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fast, err := NewQueue(cfg, 0)
			require.NoError(t, err)
			slow, err := NewQueue(cfg, 0)
			require.NoError(t, err)
			slow.firstLap = false           // the general path, always
			direct, err := NewQueue(cfg, 0) // the one pass alone
			require.NoError(t, err)
			for i, items := range c.batches {
				refused := c.fails && i == len(c.batches)-1
				assert.Equal(t, !refused, direct.publishFirstLap(items), "batch %d: took the one pass", i)
				fast.ClearDirty()
				slow.ClearDirty()
				nf, errF := fast.Publish(items)
				ns, errS := slow.Publish(items)
				require.Equal(t, errS, errF, "batch %d", i)
				require.Equal(t, ns, nf, "batch %d", i)
				assert.Equal(t, refused, errF != nil, "batch %d: %v", i, errF)
				require.Equal(t, fast.ring, direct.ring, "batch %d: one pass", i)
				requireSamePublish(t, slow, fast, fmt.Sprintf("batch %d", i))
			}
		})
	}
}
