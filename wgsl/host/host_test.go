package host_test

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

func w(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[i*abi.WordBytes:]) }

func setW(b []byte, i int, v uint32) { binary.LittleEndian.PutUint32(b[i*abi.WordBytes:], v) }

func slotW(ring []byte, slot, word int) uint32 { return w(ring, slot*abi.SlotWords+word) }

func newQueue(t *testing.T, cfg host.ControlConfig) *host.Queue {
	t.Helper()
	q, err := host.NewQueue(cfg, 8)
	require.NoError(t, err)
	q.ClearDirty()
	return q
}

// snapshot copies the three host buffers.
func snapshot(q *host.Queue) [3][]byte {
	return [3][]byte{append([]byte(nil), q.Control()...), append([]byte(nil), q.Ring()...), append([]byte(nil), q.Log()...)}
}

// gpuDrain plays the GPU: every pending position of every partition is
// claimed and its slot ends in the status end returns; then the readback
// is absorbed.
func gpuDrain(t *testing.T, q *host.Queue, end func(slot uint32, op uint32) uint32) {
	t.Helper()
	require.Empty(t, q.Dirty(host.ControlBuffer), "upload before draining")
	require.Empty(t, q.Dirty(host.RingBuffer), "upload before draining")
	control := append([]byte(nil), q.Control()...)
	ring := append([]byte(nil), q.Ring()...)
	off := q.Partitions()
	for p := 0; p < abi.PriorityLevels; p++ {
		c := off[p+1] - off[p]
		for k := w(control, abi.CtrlHead+p); k < w(control, abi.CtrlTail+p); k++ {
			slot := off[p] + k%c
			st := end(slot, slotW(ring, int(slot), abi.SlotOpcode))
			setW(ring, int(slot)*abi.SlotWords, st)
			if st == abi.StatusDone || st == abi.StatusFault {
				setW(control, abi.CtrlDoneCount, w(control, abi.CtrlDoneCount)+1)
			}
		}
		setW(control, abi.CtrlHead+p, w(control, abi.CtrlTail+p))
	}
	require.NoError(t, q.Absorb(control, ring, nil))
}

func allDone(uint32, uint32) uint32 { return abi.StatusDone }

func TestEncodeControl(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cfg   host.ControlConfig
		check func(t *testing.T, b []byte)
		err   string
	}{
		{name: "defaults", cfg: host.ControlConfig{Slots: 256, Observable: 8, Generation: 7}, check: func(t *testing.T, b []byte) {
			assert.Len(t, b, int(abi.ControlWords(8))*abi.WordBytes)
			assert.Equal(t, abi.Magic, w(b, abi.CtrlMagic))
			assert.Equal(t, abi.Version, w(b, abi.CtrlABIVersion))
			assert.Equal(t, uint32(abi.TenantBaseValue), w(b, abi.CtrlTenantBase))
			assert.Equal(t, uint32(7), w(b, abi.CtrlGeneration))
			for i, o := range abi.DefaultPartitions(256) {
				assert.Equal(t, o, w(b, abi.CtrlPriorityOffsets+i))
			}
			for i := 0; i < abi.ControlMinWords+8; i++ {
				switch {
				case i == abi.CtrlMagic, i == abi.CtrlABIVersion, i == abi.CtrlTenantBase, i == abi.CtrlGeneration,
					i >= abi.CtrlPriorityOffsets+1 && i <= abi.CtrlPriorityOffsets+abi.PriorityLevels:
				default:
					assert.Zero(t, w(b, i), "word %d", i)
				}
			}
		}},
		{name: "tenants and quotas", cfg: host.ControlConfig{Slots: 5, Tenants: 3, Quotas: [abi.TenantCount]uint32{1: 10, 28: 5}}, check: func(t *testing.T, b []byte) {
			for tn := 0; tn < abi.TenantCount; tn++ {
				want := uint32(0)
				if tn < 3 {
					want = host.MaskOn
				}
				assert.Equal(t, want, w(b, abi.CtrlTenantMask+tn), "mask %d", tn)
			}
			assert.Equal(t, uint32(10), w(b, abi.CtrlTenantQuota+1))
			assert.Equal(t, uint32(5), w(b, abi.CtrlTenantQuota+28))
			assert.Zero(t, w(b, abi.CtrlTenantQuota+29))
		}},
		{name: "explicit masks", cfg: host.ControlConfig{Slots: 5, Masks: []uint32{0, 1, 0, 9}}, check: func(t *testing.T, b []byte) {
			assert.Equal(t, []uint32{0, 1, 0, 9, 0}, []uint32{w(b, 3), w(b, 4), w(b, 5), w(b, 6), w(b, 7)})
		}},
		{name: "all 29 tenants", cfg: host.ControlConfig{Slots: 1, Tenants: 29}, check: func(t *testing.T, b []byte) {
			assert.Equal(t, host.MaskOn, w(b, abi.CtrlTenantMask+28))
			assert.Zero(t, w(b, abi.CtrlTenantQuota))
		}},
		{name: "custom partitions", cfg: host.ControlConfig{Slots: 8, Partitions: [6]uint32{0, 4, 4, 8, 8, 8}}, check: func(t *testing.T, b []byte) {
			assert.Equal(t, uint32(4), w(b, abi.CtrlPriorityOffsets+1))
			assert.Equal(t, uint32(8), w(b, abi.CtrlPriorityOffsets+5))
		}},
		{name: "no slots", cfg: host.ControlConfig{}, err: "host: config: 0 slots"},
		{name: "too many slots", cfg: host.ControlConfig{Slots: host.MaxSlots + 1}, err: "slots, want 1"},
		{name: "too many observable", cfg: host.ControlConfig{Slots: 1, Observable: host.MaxObservable + 1}, err: "observable words"},
		{name: "tenant 29", cfg: host.ControlConfig{Slots: 1, Tenants: 30}, err: "30 tenants"},
		{name: "tenants and masks", cfg: host.ControlConfig{Slots: 1, Tenants: 1, Masks: []uint32{1}}, err: "both Tenants"},
		{name: "too many masks", cfg: host.ControlConfig{Slots: 1, Masks: make([]uint32, 30)}, err: "30 tenant masks"},
		{name: "partitions not ending at slots", cfg: host.ControlConfig{Slots: 8, Partitions: [6]uint32{0, 1, 2, 3, 4, 5}}, err: "end at the slot count 8"},
		{name: "partitions not starting at 0", cfg: host.ControlConfig{Slots: 8, Partitions: [6]uint32{1, 2, 3, 4, 5, 8}}, err: "start at 0"},
		{name: "partitions decreasing", cfg: host.ControlConfig{Slots: 8, Partitions: [6]uint32{0, 5, 3, 6, 7, 8}}, err: "decrease at priority 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := host.EncodeControl(tc.cfg)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				assert.Nil(t, b)
				return
			}
			require.NoError(t, err)
			tc.check(t, b)
		})
	}
}

func TestParamsBytes(t *testing.T) {
	b := host.Params{Epoch: 1, Budget: 2, Observable: 3, Flags: 4}.Bytes()
	assert.Equal(t, []uint32{1, 2, 3, 4}, []uint32{w(b[:], abi.ParamEpoch), w(b[:], abi.ParamBudget), w(b[:], abi.ParamObservable), w(b[:], abi.ParamFlags)})
}

func TestNewQueue(t *testing.T) {
	q, err := host.NewQueue(host.ControlConfig{Slots: 10, Observable: 4}, 3)
	require.NoError(t, err)
	assert.Len(t, q.Control(), int(abi.ControlWords(4))*abi.WordBytes)
	assert.Len(t, q.Ring(), 10*abi.SlotBytes)
	assert.Len(t, q.Log(), int(abi.LogWords(3))*abi.WordBytes)
	assert.Equal(t, uint32(3), w(q.Log(), abi.LogCapacity))
	assert.Equal(t, []host.ByteRange{{0, len(q.Control())}}, q.Dirty(host.ControlBuffer))
	assert.Equal(t, []host.ByteRange{{0, len(q.Ring())}}, q.Dirty(host.RingBuffer))
	assert.Equal(t, []host.ByteRange{{0, len(q.Log())}}, q.Dirty(host.LogBuffer))
	assert.Equal(t, host.Params{Budget: 9, Observable: 4, Flags: abi.ParamFlagUnlapped}, q.Params(9), "a fresh queue is unlapped")

	_, err = host.NewQueue(host.ControlConfig{Slots: 1}, host.MaxLogCapacity+1)
	assert.ErrorContains(t, err, "host: log capacity")
	_, err = host.NewQueue(host.ControlConfig{}, 1)
	assert.ErrorContains(t, err, "host: config")
}

func TestPublishWritesSlotsAndTails(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 10, Tenants: 2}) // partitions [0 2 4 6 8 10]
	items := []host.Item{
		{Opcode: abi.OpStoreU32, Tenant: 1, Priority: abi.PriorityNormal, Args: [12]uint32{7, 160}},
		{Opcode: 0x1234, Tenant: 0, Priority: abi.PriorityCritical, Args: [12]uint32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
		{Opcode: abi.OpNop, Tenant: 1, Priority: abi.PriorityNormal},
	}
	n, err := q.Publish(items)
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	ring := q.Ring()
	for _, c := range []struct {
		slot int
		it   host.Item
	}{{4, items[0]}, {0, items[1]}, {5, items[2]}} {
		assert.Equal(t, uint32(abi.StatusPublished), slotW(ring, c.slot, abi.SlotStatus), "slot %d", c.slot)
		assert.Equal(t, c.it.Opcode, slotW(ring, c.slot, abi.SlotOpcode))
		assert.Equal(t, c.it.Tenant, slotW(ring, c.slot, abi.SlotTenant))
		assert.Equal(t, c.it.Priority, slotW(ring, c.slot, abi.SlotPriority))
		for a := 0; a < abi.SlotArgs; a++ {
			assert.Equal(t, c.it.Args[a], slotW(ring, c.slot, abi.SlotArg0+a))
		}
		got, st, err := q.Item(uint32(c.slot))
		require.NoError(t, err)
		assert.Equal(t, c.it, got)
		assert.Equal(t, uint32(abi.StatusPublished), st)
	}
	assert.Equal(t, []uint32{1, 0, 2, 0, 0}, []uint32{w(q.Control(), abi.CtrlTail), w(q.Control(), abi.CtrlTail+1),
		w(q.Control(), abi.CtrlTail+2), w(q.Control(), abi.CtrlTail+3), w(q.Control(), abi.CtrlTail+4)})
	assert.True(t, q.NeedsSubmit())
	_, _, err = q.Item(10)
	assert.Error(t, err)
}

func TestPublishRefusesWholeBatch(t *testing.T) {
	ok := host.Item{Opcode: abi.OpNop, Tenant: 0, Priority: abi.PriorityNormal}
	for _, tc := range []struct {
		name    string
		cfg     host.ControlConfig
		prior   []host.Item // published (and left pending) first
		batch   []host.Item
		is      error
		index   int
		full    *host.PartitionFullError
		errText string
	}{
		{name: "reserved opcode 0xFFF4", batch: []host.Item{ok, {Opcode: 0xFFF4}}, is: host.ErrOpcode, index: 1},
		{name: "reserved opcode 0xFFFF", batch: []host.Item{{Opcode: 0xFFFF}}, is: host.ErrOpcode},
		{name: "reserved opcode high bit", batch: []host.Item{ok, ok, {Opcode: 0x80000000}}, is: host.ErrOpcode, index: 2},
		{name: "tenant 29", batch: []host.Item{ok, {Tenant: 29}}, is: host.ErrTenant, index: 1},
		{name: "tenant max", batch: []host.Item{{Tenant: ^uint32(0)}}, is: host.ErrTenant},
		{name: "priority 5", batch: []host.Item{ok, {Priority: 5}}, is: host.ErrPriority, index: 1},
		{name: "quota within batch", cfg: host.ControlConfig{Slots: 20, Quotas: [29]uint32{3: 2}},
			batch: []host.Item{{Tenant: 3, Priority: 2}, {Tenant: 4, Priority: 2}, {Tenant: 3, Priority: 2}, {Tenant: 3, Priority: 2}}, is: host.ErrQuota, index: 3},
		{name: "quota across batches", cfg: host.ControlConfig{Slots: 20, Quotas: [29]uint32{3: 2}},
			prior: []host.Item{{Tenant: 3, Priority: 2}}, batch: []host.Item{{Tenant: 3, Priority: 1}, {Tenant: 3, Priority: 2}}, is: host.ErrQuota, index: 1},
		{name: "partition full in batch", cfg: host.ControlConfig{Slots: 10},
			batch: []host.Item{ok, ok, ok, ok, ok}, full: &host.PartitionFullError{Priority: 2, Capacity: 2}, errText: "partition is full (2 slots)"},
		{name: "partition full with pending", cfg: host.ControlConfig{Slots: 10},
			prior: []host.Item{{Priority: 4}, {Priority: 4}}, batch: []host.Item{ok, {Priority: 4}}, full: &host.PartitionFullError{Priority: 4, Capacity: 2}},
		{name: "zero-capacity partition", cfg: host.ControlConfig{Slots: 1},
			batch: []host.Item{{Priority: abi.PriorityCritical}}, full: &host.PartitionFullError{Priority: 0, Capacity: 0}, errText: "has no slots"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			if cfg.Slots == 0 {
				cfg.Slots = 20
			}
			q := newQueue(t, cfg)
			_, err := q.Publish(tc.prior)
			require.NoError(t, err)
			q.ClearDirty()
			before := snapshot(q)
			n, err := q.Publish(tc.batch)
			require.Error(t, err)
			assert.Zero(t, n)
			assert.Equal(t, before, snapshot(q), "nothing written")
			for b := host.ControlBuffer; b <= host.LogBuffer; b++ {
				assert.Empty(t, q.Dirty(b), "%v dirty", b)
			}
			assert.Regexp(t, "^host: ", err.Error())
			if tc.errText != "" {
				assert.Contains(t, err.Error(), tc.errText)
			}
			if tc.full != nil {
				var pf *host.PartitionFullError
				require.ErrorAs(t, err, &pf)
				assert.Equal(t, tc.full, pf)
				return
			}
			require.ErrorIs(t, err, tc.is)
			var ie *host.ItemError
			require.ErrorAs(t, err, &ie)
			assert.Equal(t, tc.index, ie.Index)
			assert.Equal(t, tc.batch[tc.index], ie.Item)
		})
	}
}

func TestPublishAcceptsEverySystemOpcode(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 50})
	for _, op := range []uint32{abi.OpYield, abi.OpRequeue, abi.OpWaitIO, abi.OpRaise, abi.OpPrintf, abi.OpShutdown, 0xFFEF, 0x10000, 0x7FFFFFFF} {
		_, err := q.Publish([]host.Item{{Opcode: op, Priority: abi.PriorityNormal}})
		assert.NoError(t, err, "op %#x", op)
	}
}

func TestBackPressureAndReuse(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 10, Tenants: 1}) // NORMAL = slots 4, 5
	it := host.Item{Opcode: abi.OpNop, Priority: abi.PriorityNormal}
	_, err := q.Publish([]host.Item{it, it})
	require.NoError(t, err)
	_, err = q.Publish([]host.Item{it})
	var pf *host.PartitionFullError
	require.ErrorAs(t, err, &pf)
	assert.Equal(t, host.PartitionFullError{Priority: 2, Capacity: 2}, *pf)

	q.ClearDirty()
	gpuDrain(t, q, allDone)
	assert.False(t, q.NeedsSubmit())
	it.Args[0] = 42
	_, err = q.Publish([]host.Item{it, it})
	require.NoError(t, err, "DONE slots are reusable")
	assert.Equal(t, uint32(4), w(q.Control(), abi.CtrlTail+2))
	assert.Equal(t, uint32(42), slotW(q.Ring(), 4, abi.SlotArg0), "k=2 wraps to slot OFF+0")
	assert.Equal(t, uint32(42), slotW(q.Ring(), 5, abi.SlotArg0))

	// A FAULT slot blocks its position until the host reclaims it.
	q.ClearDirty()
	gpuDrain(t, q, func(slot, _ uint32) uint32 {
		if slot == 4 {
			return abi.StatusFault
		}
		return abi.StatusDone
	})
	_, err = q.Publish([]host.Item{it})
	require.ErrorAs(t, err, &pf)
	assert.Equal(t, 1, q.ReclaimFaults())
	assert.Equal(t, []host.ByteRange{{4 * abi.SlotBytes, 4*abi.SlotBytes + 4}}, q.Dirty(host.RingBuffer))
	_, err = q.Publish([]host.Item{it})
	require.NoError(t, err)
}

func TestQuotaRefillsOnNewEpoch(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 50, Quotas: [29]uint32{0: 3}})
	it := host.Item{Priority: abi.PriorityLow}
	_, err := q.Publish([]host.Item{it, it, it})
	require.NoError(t, err)
	_, err = q.Publish([]host.Item{it})
	require.ErrorIs(t, err, host.ErrQuota)
	_, err = q.Publish([]host.Item{{Tenant: 1, Priority: abi.PriorityLow}})
	require.NoError(t, err, "quota 0 is unlimited")
	q.NewEpoch()
	assert.Equal(t, uint32(1), q.Epoch())
	assert.Equal(t, uint32(1), q.Params(1).Epoch)
	_, err = q.Publish([]host.Item{it, it, it})
	require.NoError(t, err)
}

func TestDirtyRanges(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 10, Observable: 2}) // partitions [0 2 4 6 8 10]
	ctrl := func(w, n int) host.ByteRange { return host.ByteRange{w * 4, (w + n) * 4} }
	slots := func(s, n int) host.ByteRange { return host.ByteRange{s * abi.SlotBytes, (s + n) * abi.SlotBytes} }
	for _, tc := range []struct {
		name        string
		do          func(q *host.Queue)
		ctrl, ring_ []host.ByteRange
	}{
		{name: "nothing", do: func(*host.Queue) {}},
		{name: "one item", do: func(q *host.Queue) {
			_, _ = q.Publish([]host.Item{{Priority: 3}})
		}, ctrl: []host.ByteRange{ctrl(abi.CtrlTail+3, 1)}, ring_: []host.ByteRange{slots(6, 1)}},
		{name: "adjacent slots and tails coalesce", do: func(q *host.Queue) {
			_, _ = q.Publish([]host.Item{{Priority: 3}, {Priority: 2}, {Priority: 3}, {Priority: 2}})
		}, ctrl: []host.ByteRange{ctrl(abi.CtrlTail+2, 2)}, ring_: []host.ByteRange{slots(4, 4)}},
		{name: "sorted across batches", do: func(q *host.Queue) {
			_, _ = q.Publish([]host.Item{{Priority: 4}})
			_, _ = q.Publish([]host.Item{{Priority: 0}})
			_, _ = q.Publish([]host.Item{{Priority: 2}})
		}, ctrl: []host.ByteRange{ctrl(abi.CtrlTail, 1), ctrl(abi.CtrlTail+2, 1), ctrl(abi.CtrlTail+4, 1)},
			ring_: []host.ByteRange{slots(0, 1), slots(4, 1), slots(8, 1)}},
		{name: "masks and shutdown", do: func(q *host.Queue) {
			q.SetShutdown(true)
			require.NoError(t, q.SetTenantMask(1, true))
			require.NoError(t, q.SetTenantMask(0, false))
			require.NoError(t, q.SetTenantMask(28, true))
		}, ctrl: []host.ByteRange{ctrl(abi.CtrlShutdown, 1), ctrl(abi.CtrlTenantMask, 2), ctrl(abi.CtrlTenantMask+28, 1)}},
		{name: "same word twice", do: func(q *host.Queue) {
			q.SetShutdown(true)
			q.SetShutdown(false)
		}, ctrl: []host.ByteRange{ctrl(abi.CtrlShutdown, 1)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := newQueue(t, host.ControlConfig{Slots: 10, Observable: 2})
			tc.do(q)
			assert.Equal(t, tc.ctrl, nilIfEmpty(q.Dirty(host.ControlBuffer)))
			assert.Equal(t, tc.ring_, nilIfEmpty(q.Dirty(host.RingBuffer)))
			assert.Empty(t, q.Dirty(host.LogBuffer))
			for _, r := range q.Dirty(host.ControlBuffer) {
				assert.Zero(t, r.Start%4)
				assert.Zero(t, r.End%4)
				assert.Positive(t, r.Len())
			}
			q.ClearDirty()
			assert.Empty(t, q.Dirty(host.ControlBuffer))
			assert.Empty(t, q.Dirty(host.RingBuffer))
		})
	}
	_ = q
	assert.Nil(t, q.Dirty(host.Buffer(9)))
	assert.Equal(t, "ring", host.RingBuffer.String())
}

func nilIfEmpty(r []host.ByteRange) []host.ByteRange {
	if len(r) == 0 {
		return nil
	}
	return r
}

func TestPublishDoesNotAllocate(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 1000})
	items := make([]host.Item, 100)
	for i := range items {
		items[i].Priority = uint32(i % abi.PriorityLevels)
	}
	allocs := testing.AllocsPerRun(50, func() {
		if _, err := q.Publish(items); err != nil {
			panic(err)
		}
		_ = q.Dirty(host.RingBuffer)
		_ = q.Dirty(host.ControlBuffer)
		q.ClearDirty()
		// Free the slots again the way the GPU would: mark DONE.
		for s := 0; s < 1000; s++ {
			setW(q.Ring(), s*abi.SlotWords, abi.StatusDone)
		}
	})
	assert.Zero(t, allocs)
}

func TestTenantMaskAndShutdown(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 5})
	assert.False(t, q.TenantEnabled(0))
	require.NoError(t, q.SetTenantMask(0, true))
	assert.True(t, q.TenantEnabled(0))
	assert.Equal(t, host.MaskOn, w(q.Control(), abi.CtrlTenantMask))
	err := q.SetTenantMask(29, true)
	assert.ErrorIs(t, err, host.ErrTenant)
	assert.False(t, q.TenantEnabled(29))

	_, err = q.Publish([]host.Item{{Priority: 2}})
	require.NoError(t, err)
	assert.True(t, q.NeedsSubmit())
	q.SetShutdown(true)
	assert.True(t, q.Shutdown())
	assert.Equal(t, uint32(1), w(q.Control(), abi.CtrlShutdown))
	assert.False(t, q.NeedsSubmit(), "lanes would stop at once")
	q.SetShutdown(false)
	assert.True(t, q.NeedsSubmit())
}

func TestReset(t *testing.T) {
	q, err := host.NewQueue(host.ControlConfig{Slots: 5, Generation: 4, Tenants: 1}, 2)
	require.NoError(t, err)
	_, err = q.Publish([]host.Item{{Priority: 2}})
	require.NoError(t, err)
	q.NewEpoch()
	q.ClearDirty()
	require.Error(t, q.Reset(host.ControlConfig{}))
	assert.Equal(t, uint32(4), q.Generation(), "unchanged on error")
	assert.Empty(t, q.Dirty(host.ControlBuffer))

	require.NoError(t, q.Reset(host.ControlConfig{Slots: 7, Generation: 99, Observable: 1}))
	assert.Equal(t, uint32(5), q.Generation())
	assert.Zero(t, q.Epoch())
	assert.Len(t, q.Ring(), 7*abi.SlotBytes)
	assert.Zero(t, w(q.Control(), abi.CtrlTail+2))
	assert.Equal(t, uint32(2), w(q.Log(), abi.LogCapacity))
	assert.Equal(t, []host.ByteRange{{0, len(q.Ring())}}, q.Dirty(host.RingBuffer))
	want, err := host.EncodeControl(host.ControlConfig{Slots: 7, Generation: 5, Observable: 1})
	require.NoError(t, err)
	assert.Equal(t, want, q.Control())
	assert.False(t, q.NeedsSubmit())
}

func TestAbsorb(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 5, Tenants: 1, Observable: 1})
	ctl := snapshot(q)[0]
	assert.ErrorContains(t, q.Absorb(ctl[:len(ctl)-4], nil, nil), "host: absorb: control readback is 640 bytes, want 644")
	assert.ErrorContains(t, q.Absorb(nil, make([]byte, 64), nil), "ring readback is 64 bytes")
	assert.ErrorContains(t, q.Absorb(nil, nil, make([]byte, 4)), "log readback")

	foreign := append([]byte(nil), ctl...)
	setW(foreign, abi.CtrlGeneration, 9)
	assert.ErrorContains(t, q.Absorb(foreign, nil, nil), "control word 143")

	// Words the host changed after the upload survive the readback.
	gpu := append([]byte(nil), ctl...)
	setW(gpu, abi.CtrlClaims, 3)
	setW(gpu, abi.CtrlObservable, 77)
	_, err := q.Publish([]host.Item{{Priority: 2, Args: [12]uint32{5}}})
	require.NoError(t, err)
	ring := make([]byte, len(q.Ring())) // the GPU never saw the publish
	require.NoError(t, q.Absorb(gpu, ring, nil))
	assert.Equal(t, uint32(3), w(q.Control(), abi.CtrlClaims))
	assert.Equal(t, uint32(77), w(q.Control(), abi.CtrlObservable))
	assert.Equal(t, uint32(1), w(q.Control(), abi.CtrlTail+2))
	assert.Equal(t, uint32(abi.StatusPublished), slotW(q.Ring(), 2, abi.SlotStatus))
	assert.Equal(t, uint32(5), slotW(q.Ring(), 2, abi.SlotArg0))
}

// BUDGET_EXHAUSTED can grow in a submission that drained everything (a lane
// out of budget while another claims the last item): HEAD == TAIL decides.
func TestNeedsSubmitIgnoresBudgetExhausted(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 5})
	assert.False(t, q.NeedsSubmit())
	gpu := snapshot(q)[0]
	setW(gpu, abi.CtrlBudgetExhausted, 2)
	require.NoError(t, q.Absorb(gpu, nil, nil))
	assert.Equal(t, uint32(2), q.BudgetExhaustedGrowth())
	assert.False(t, q.NeedsSubmit(), "nothing pending")
	require.NoError(t, q.Absorb(gpu, nil, nil))
	assert.Zero(t, q.BudgetExhaustedGrowth(), "cumulative counter did not grow")
	_, err := q.Publish([]host.Item{{Priority: 2}})
	require.NoError(t, err)
	assert.True(t, q.NeedsSubmit(), "HEAD < TAIL")
}

func TestErrorsText(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&host.ItemError{Index: 2, Item: host.Item{Opcode: 0xFFF4}, Err: host.ErrOpcode}, "host: item 2: reserved opcode: opcode 0xfff4; nothing published"},
		{&host.ItemError{Index: 0, Item: host.Item{Tenant: 31}, Err: host.ErrTenant}, "host: item 0: invalid tenant: tenant 31; nothing published"},
		{&host.ItemError{Index: 1, Item: host.Item{Priority: 9}, Err: host.ErrPriority}, "host: item 1: invalid priority: priority 9; nothing published"},
		{&host.ItemError{Index: 1, Item: host.Item{Tenant: 4}, Err: host.ErrQuota}, "host: item 1: tenant quota exceeded: tenant 4; nothing published"},
		{&host.PartitionFullError{Priority: 1, Capacity: 3}, "host: priority 1 partition is full (3 slots); nothing published, drain and retry"},
	} {
		assert.Equal(t, tc.want, tc.err.Error())
	}
	assert.True(t, errors.Is(&host.ItemError{Err: host.ErrQuota}, host.ErrQuota))
}

// Params carries ParamFlagUnlapped exactly while no partition's TAIL is
// more than a lap (its capacity) ahead of its HEAD: a full partition is
// still unlapped, a TAIL poked one past it is not, and HEAD catching up
// (the GPU's claims, absorbed) makes it unlapped again.
func TestParamsUnlapped(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 10, Tenants: 1}) // NORMAL = slots 4, 5
	it := host.Item{Opcode: abi.OpNop, Priority: abi.PriorityNormal}
	_, err := q.Publish([]host.Item{it, it})
	require.NoError(t, err)
	assert.True(t, q.Unlapped(), "TAIL − HEAD = C")
	assert.Equal(t, uint32(abi.ParamFlagUnlapped), q.Params(1).Flags)

	ctl := q.Control()
	setW(ctl, abi.CtrlTail+abi.PriorityNormal, 3) // ticket 2 names the slot of ticket 0
	assert.False(t, q.Unlapped(), "TAIL − HEAD = C + 1")
	assert.Zero(t, q.Params(1).Flags)

	setW(ctl, abi.CtrlHead+abi.PriorityNormal, 1)
	assert.True(t, q.Unlapped(), "HEAD moved up")
	setW(ctl, abi.CtrlHead+abi.PriorityNormal, 4) // HEAD past TAIL: TAIL − HEAD wraps
	assert.False(t, q.Unlapped(), "a HEAD past TAIL is not vouched for")

	// An empty partition is never claimed from: its words do not count.
	q = newQueue(t, host.ControlConfig{Slots: 2, Tenants: 1, Partitions: [abi.PriorityLevels + 1]uint32{0, 0, 0, 2, 2, 2}})
	setW(q.Control(), abi.CtrlTail+abi.PriorityCritical, 7)
	assert.True(t, q.Unlapped())
	setW(q.Control(), abi.CtrlTail+abi.PriorityNormal, 3)
	assert.False(t, q.Unlapped())
}
