package session

import (
	"context"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/ref"
	"github.com/ringscope/ringscope/wgsl/workload"
)

// Every item that ended is in the waits, once: their counts are DONE_COUNT
// (DONE and FAULT), and the items waiting are the ring's active slots.
func TestFramesCarryTheQueueWaits(t *testing.T) {
	ctx := context.Background()
	for _, preset := range []string{workload.DefaultMix, workload.FaultStorm, workload.Stall} {
		t.Run(preset, func(t *testing.T) {
			r, gen := newGeneratedRunner(t, preset, 512, 7)
			var c clock
			s := New(c.now)
			s.Open(Ring{Runner: r, Generator: gen})
			for range 30 {
				c.ms += 16
				f, err := s.LiveFrame(ctx, nil)
				require.NoError(t, err)
				require.NotNil(t, f.Waits)
				var ended uint64
				var waiting uint32
				for _, st := range f.Waits.Priority {
					ended += st.Count
					waiting += st.Waiting
				}
				var tenantsEnded uint64
				for _, st := range f.Waits.Tenant {
					tenantsEnded += st.Count
				}
				assert.Equal(t, uint64(f.Ring.Control.DoneCount), ended)
				assert.Equal(t, ended, tenantsEnded)
				active := 0
				for _, sl := range f.Ring.Slots {
					if sl.Status.Active() {
						active++
					}
				}
				// The frame's slots are the ring before Requeue and
				// ReclaimFaults ran: a parked slot moved by Requeue is one
				// active slot either way.
				assert.Equal(t, active, int(waiting))
			}
			f := s.LastFrame()
			if preset == workload.Stall {
				st := f.Waits.Tenant[gen.MaskedTenant()]
				assert.Positive(t, st.Waiting)
				assert.Equal(t, 30*16.0-16, st.OldestAge, "the masked tenant's first items wait from the first frame")
				assert.Zero(t, st.Count)
				return
			}
			all := decode.WaitStats{}
			for _, st := range f.Waits.Priority {
				all.Max = max(all.Max, st.Max)
			}
			assert.Positive(t, all.Max)
		})
	}
}

// An embedder's publishes and drain() are timed too: every absorb of the
// drain's submissions records its ends at the clock's time then.
func TestDrainFrameCarriesTheWaits(t *testing.T) {
	r := newRefRunner(t, host.ControlConfig{Slots: 64, Tenants: 2}, nil)
	r.budget = 1
	r.grid = ref.Grid{Workgroups: 1, Width: 4} // 4 claims a submission
	var c clock
	s := New(c.now)
	s.Open(Ring{Runner: r})
	items := make([]host.Item, 12)
	for i := range items {
		items[i] = host.Item{Opcode: abi.OpNop, Tenant: uint32(i % 2), Priority: 2}
	}
	c.ms = 100
	_, err := r.Publish(items)
	require.NoError(t, err)
	c.ms = 150
	rep, err := r.Drain(context.Background(), 8)
	require.NoError(t, err)
	f, err := s.DrainFrame(rep, false)
	require.NoError(t, err)
	require.NotNil(t, f.Waits)
	st := f.Waits.Priority[2]
	assert.Equal(t, uint64(12), st.Count)
	assert.Equal(t, 50.0, st.Max)
	assert.Equal(t, uint64(6), f.Waits.Tenant[1].Count)
	assert.Zero(t, st.Waiting)
}

// BenchmarkFillWaits is a frame's summary of the queue's waits: 8 tenants
// and 5 priorities with ended items, the rest empty.
func BenchmarkFillWaits(b *testing.B) {
	q, err := host.NewQueue(host.ControlConfig{Slots: 4096, Tenants: 8}, 8)
	require.NoError(b, err)
	ms := 0.0
	q.TrackWaits(func() float64 { return ms })
	items := make([]host.Item, 800)
	for i := range items {
		items[i] = host.Item{Opcode: abi.OpNop, Tenant: uint32(i % 8), Priority: uint32(i % 5)}
	}
	for range 4 {
		ms += 16
		_, err := q.Publish(items)
		require.NoError(b, err)
		ctl, ring := append([]byte(nil), q.Control()...), append([]byte(nil), q.Ring()...)
		for p := range abi.PriorityLevels {
			binary.LittleEndian.PutUint32(ctl[(abi.CtrlHead+p)*4:], abi.Word(ctl, abi.CtrlTail+p))
		}
		for s := range 4096 {
			if binary.LittleEndian.Uint32(ring[s*64:]) == abi.StatusPublished {
				binary.LittleEndian.PutUint32(ring[s*64:], abi.StatusDone)
			}
		}
		ms += 3
		q.ClearDirty() // uploaded
		require.NoError(b, q.Absorb(ctl, ring, nil))
	}
	require.Equal(b, uint64(400), q.Waits().Tenant(3).Ended())
	var dst decode.WaitTimes
	b.ReportAllocs()
	for range b.N {
		fillWaits(&dst, q.Waits(), ms)
	}
}
