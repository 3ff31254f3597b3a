package session

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/workload"
)

// seen records what an observer saw of each frame: copies, since the
// frame's storage is reused two frames later.
type seen struct {
	seqs    []uint64
	done    []uint32
	control [][]byte
	changed [][]frame.SlotRun
	patch   []bool
}

func (o *seen) Observe(f *frame.Frame) {
	o.seqs = append(o.seqs, f.Seq)
	o.done = append(o.done, f.Ring.Control.DoneCount)
	o.control = append(o.control, clone(f.Raw.Control))
	o.changed = append(o.changed, append([]frame.SlotRun(nil), f.Raw.ChangedSlots...))
	o.patch = append(o.patch, f.Raw.Patchable)
}

// clock is the page's clock, which the test moves on a frame at a time: the
// session reads it at every publish and absorb too (queue waits).
type clock struct{ ms float64 }

func (c *clock) now() float64 { return c.ms }

func TestLiveFramesFollowTheReferenceKernel(t *testing.T) {
	ctx := context.Background()
	for _, preset := range workload.Presets {
		t.Run(preset, func(t *testing.T) {
			r, gen := newGeneratedRunner(t, preset, 512, 7)
			obs := &seen{}
			var c clock
			s := New(c.now, obs)
			s.Open(Ring{Runner: r, Generator: gen, Why: "test", SketchDepth: 4, SketchWidth: 64})
			warms := 0
			big := false
			var prev *frame.Frame
			for i := 1; i <= 12; i++ {
				c.ms += 16
				f, err := s.LiveFrame(ctx, func() { warms++ })
				require.NoError(t, err)
				require.NotNil(t, f)
				// The frame is the runner's state after its Step: its
				// telemetry decodes the host copy the kernel left.
				assert.Equal(t, uint64(i), f.Seq)
				assert.Equal(t, float64(16*i), f.AtMillis)
				assert.Equal(t, abi.Word(r.Control(), abi.CtrlDoneCount), f.Ring.Control.DoneCount)
				assert.Equal(t, r.Published(), f.Raw.Published)
				assert.Equal(t, uint32(512), f.Counters.TotalSlots)
				require.NotNil(t, f.Dispatch)
				require.NotNil(t, f.Report)
				assert.Equal(t, uint64(i), f.Report.DispatchCount, "every Step is in the run's report")
				assert.NotNil(t, f.Sketch, "a full frame is sketched from its slots")
				assert.Len(t, f.Ring.Slots, 512)
				assert.False(t, f.Raw.Patchable, "a frame that read the ring is recorded whole")
				// The host counts every item that ended, per opcode: the
				// counts add up to DONE_COUNT, opcodes ≥ 32 included.
				ended := uint32(0)
				for _, m := range f.OpcodeEnds {
					ended += m.Count
					big = big || (m.Opcode >= abi.MetricOpcodes && m.Count > 0)
				}
				assert.Equal(t, f.Ring.Control.DoneCount, ended, "frame %d: ends per opcode", i)
				if prev != nil {
					assert.Equal(t, uint64(i-1), prev.Seq, "the frame before stays valid (two buffers)")
				}
				prev = f
			}
			assert.Equal(t, 12, warms)
			assert.Equal(t, []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, obs.seqs, "the observer sees every frame, in order")
			assert.Equal(t, r.steps, uint64(12))
			assert.Positive(t, r.Published(), "the generator published")
			assert.Equal(t, obs.done[11], abi.Word(obs.control[11], abi.CtrlDoneCount), "Raw.Control is the frame's control")
			if preset != workload.Stall {
				assert.Positive(t, obs.done[11], "the ring made progress")
			}
			if preset == workload.DefaultMix {
				assert.True(t, big, "default-mix ends opcodes ≥ 32 (HASH, SPIN)")
			}
		})
	}
}

func TestLiveFrameShedsAFullPartition(t *testing.T) {
	// Two slots per priority: a batch with three items of one priority
	// does not fit, and Publish takes all of a batch or none of it. The
	// full priority's items wait for a later frame; the others go now.
	r := newRefRunner(t, host.ControlConfig{Slots: 10, Tenants: 1}, nil)
	s := New(func() float64 { return 0 })
	s.Open(Ring{Runner: r})
	items := []host.Item{{Opcode: abi.OpNop, Priority: 0}, {Opcode: abi.OpNop, Priority: 0}, {Opcode: abi.OpNop, Priority: 0},
		{Opcode: abi.OpNop, Priority: 1}, {Opcode: abi.OpNop, Priority: 2}}
	require.NoError(t, s.publishShedding(items))
	assert.Equal(t, uint64(2), r.Published(), "priorities 1 and 2 published, priority 0 shed")
	assert.Equal(t, uint32(0), abi.Word(r.Control(), abi.CtrlTail+0), "nothing of priority 0")
}

func TestPatchesCoverEveryChangeBetweenFrames(t *testing.T) {
	// A recorder stores a frame that read no ring as a patch of the frame
	// before: its ChangedSlots must cover every slot changed since that
	// frame, including what an embedder published between the two.
	ctx := context.Background()
	r := newRefRunner(t, host.ControlConfig{Slots: 64, Tenants: 1}, nil)
	obs := &seen{}
	s := New(func() float64 { return 0 }, obs)
	s.Open(Ring{Runner: r})
	_, err := s.LiveFrame(ctx, nil)
	require.NoError(t, err)
	_, err = r.Publish([]host.Item{{Opcode: abi.OpNop, Priority: 2}, {Opcode: abi.OpNop, Priority: 2}})
	require.NoError(t, err)
	_, err = s.DrainFrame(decode.MegakernelReport{}, false)
	require.NoError(t, err)
	first := abi.DefaultPartitions(64)[2]
	assert.Equal(t, []frame.SlotRun{{First: first, Count: 2}}, obs.changed[1], "the published slots changed since frame 1")
	_, err = s.LiveFrame(ctx, nil)
	require.NoError(t, err)
	require.Len(t, obs.changed, 3)
	// A Step that reads the ring back may change any slot: the host copy
	// is the GPU's again, every slot of it.
	assert.Equal(t, []frame.SlotRun{{First: 0, Count: 64}}, obs.changed[2])
}

func TestDrainFrameTakesTheDrainsReport(t *testing.T) {
	ctx := context.Background()
	r := newRefRunner(t, host.ControlConfig{Slots: 64, Tenants: 1}, nil)
	s := New(func() float64 { return 0 })
	s.Open(Ring{Runner: r})
	items := make([]host.Item, 40)
	for i := range items {
		items[i] = host.Item{Opcode: abi.OpNop, Priority: 2}
	}
	_, err := r.Publish(items[:12])
	require.NoError(t, err)
	rep, err := r.Drain(ctx, 8)
	require.NoError(t, err)
	f, err := s.DrainFrame(rep, false)
	require.NoError(t, err)
	assert.Equal(t, uint32(12), f.Ring.Control.DoneCount)
	assert.Equal(t, rep.DispatchCount, f.Report.DispatchCount)
	last, _ := rep.Last()
	require.NotNil(t, f.Dispatch)
	assert.Equal(t, last, *f.Dispatch, "the frame's dispatch is the drain's last")
	assert.Equal(t, rep.DispatchCount, s.Report().DispatchCount, "the drain's report is the run's")
}

func TestStepErrorsReachTheCaller(t *testing.T) {
	r := newRefRunner(t, host.ControlConfig{Slots: 8, Tenants: 1}, nil)
	s := New(func() float64 { return 0 })
	_, err := s.LiveFrame(context.Background(), nil)
	assert.ErrorIs(t, err, ErrNoRing)
	s.Open(Ring{Runner: r})
	lost := errors.New("device lost")
	r.failNext = lost
	f, err := s.LiveFrame(context.Background(), nil)
	assert.ErrorIs(t, err, lost)
	assert.Nil(t, f)
	assert.Zero(t, s.Seq(), "a failed step makes no frame")
}

func TestSummaryReadsTheRingOnlyWhenAsked(t *testing.T) {
	ctx := context.Background()
	r := newRefRunner(t, host.ControlConfig{Slots: 16, Tenants: 1}, nil)
	s := New(func() float64 { return 0 })
	s.Open(Ring{Runner: r, Summary: true, Why: "test"})
	assert.Equal(t, Readback{Mode: "summary", Why: "test"}, s.Readback())
	s.Inspect(3)
	_, err := r.Publish([]host.Item{{Opcode: abi.OpNop, Priority: 2}})
	require.NoError(t, err)
	f, err := s.LiveFrame(ctx, nil)
	require.NoError(t, err)
	assert.Zero(t, r.ringAsks, "summary: no ring read unless asked")
	assert.True(t, f.HostSlotOK, "the inspected slot comes from the host copy")
	assert.Nil(t, f.Sketch, "a summary frame takes the GPU's sketches (the ref runner has none)")
	s.AskRing(api.RingInspect)
	_, err = s.LiveFrame(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, r.ringAsks, "an inspector's ask reads the ring with the next frame")
	assert.Equal(t, uint64(2), s.Readback().RingReads, "the ref runner reads the ring every Step")

	s.Open(Ring{Runner: r, Why: "full", SketchDepth: 2, SketchWidth: 32})
	s.AskRing(api.RingInspect)
	f, err = s.LiveFrame(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, r.ringAsks, "full readback needs no request")
	assert.False(t, f.HostSlotOK, "a full frame has every slot")
	assert.NotNil(t, f.Sketch)
}
