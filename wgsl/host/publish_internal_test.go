package host

import (
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
			putWord(batch.ring, int(s)*abi.SlotWords+abi.SlotStatus, st)
			putWord(single.ring, int(s)*abi.SlotWords+abi.SlotStatus, st)
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
	b.SetBytes(n * abi.SlotBytes)
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
