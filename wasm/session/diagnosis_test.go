package session

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode/diagnose"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/workload"
)

// presetRun runs preset's live loop on the reference kernel for frames
// frames, 100 ms apart, and returns every frame's diagnosis.
func presetRun(t *testing.T, preset string, slots uint32, frames int) []diagnose.Diagnosis {
	t.Helper()
	p, ok := workload.PresetByName(preset)
	require.True(t, ok)
	gen, err := workload.New(workload.Spec{Preset: preset, Slots: slots, Tenants: p.Tenants, Seed: 11})
	require.NoError(t, err)
	cfg := host.ControlConfig{Slots: slots, Observable: workload.ObservableWords, Masks: gen.Masks()}
	r := newRefRunner(t, cfg, gen.Data())
	// The page's log (controller.LogCapacity): a preset's PRINTFs fit.
	q, err := host.NewQueue(cfg, 1024)
	require.NoError(t, err)
	r.q = q
	require.NoError(t, r.decode())
	r.budget = p.Budget
	ms := 0.0
	s := New(func() float64 { ms += 100; return ms })
	s.Open(Ring{Runner: r, Generator: gen, Why: "test", SketchDepth: 4, SketchWidth: 64})
	s.SetFacts(diagnose.Facts{Tenants: p.Tenants, Budget: p.Budget, IOService: true})
	out := make([]diagnose.Diagnosis, 0, frames)
	for range frames {
		f, err := s.LiveFrame(context.Background(), nil)
		require.NoError(t, err)
		require.NotNil(t, f.Diagnosis)
		out = append(out, f.Diagnosis.Clone())
	}
	return out
}

func TestHealthyPresetsShowNoCause(t *testing.T) {
	for _, preset := range []string{workload.DefaultMix, workload.NOPFlood} {
		t.Run(preset, func(t *testing.T) {
			for i, d := range presetRun(t, preset, 4096, 300) {
				require.Empty(t, d.Causes, "frame %d: %+v", i, d.Causes)
				require.Contains(t, []diagnose.Health{diagnose.Progressing, diagnose.Idle}, d.Health, "frame %d", i)
			}
		})
	}
}

func TestStallPresetIsAMaskedTenant(t *testing.T) {
	ds := presetRun(t, workload.Stall, 4096, 40)
	last := ds[len(ds)-1]
	assert.Equal(t, diagnose.Stalled, last.Health)
	c := last.First()
	require.NotNil(t, c)
	assert.Equal(t, diagnose.MaskedTenant, c.Kind)
	assert.Equal(t, 0, c.Subject.Tenant)
	slots, _ := c.Evidence.Get("slots")
	assert.Greater(t, slots, 1000.0, "the masked tenant's queued slots")
	for _, c := range last.Causes[1:] {
		assert.NotEqual(t, diagnose.MaskedTenant, c.Kind, "only tenant 0 holds masked work: %+v", c)
	}
}

func TestFaultStormPresetIsDegraded(t *testing.T) {
	ds := presetRun(t, workload.FaultStorm, 4096, 40)
	last := ds[len(ds)-1]
	assert.Equal(t, diagnose.Degraded, last.Health)
	c := last.First()
	require.NotNil(t, c)
	assert.Equal(t, diagnose.FaultStorm, c.Kind)
	share, _ := c.Evidence.Get("share")
	assert.InDelta(t, 0.4, share, 0.08)
}

func TestALostDeviceShowsUntilAFrameIsReadAgain(t *testing.T) {
	r, gen := newGeneratedRunner(t, workload.DefaultMix, 512, 3)
	ms := 0.0
	s := New(func() float64 { ms += 100; return ms })
	s.Open(Ring{Runner: r, Generator: gen, Why: "test", SketchDepth: 4, SketchWidth: 64})
	for range 3 {
		_, err := s.LiveFrame(context.Background(), nil)
		require.NoError(t, err)
	}
	f := s.MarkLost("runaway: a submission ran past 2 s", []string{"spin_forever"}, 0)
	require.NotNil(t, f)
	assert.Equal(t, diagnose.Lost, f.Diagnosis.Health)
	c := f.Diagnosis.First()
	require.NotNil(t, c)
	assert.Equal(t, diagnose.DeviceLost, c.Kind)
	assert.Equal(t, "spin_forever", c.Subject.Name)
	assert.Contains(t, c.Fix, "spin_forever")
	assert.Same(t, f, s.LastFrame(), "snapshot reads the re-diagnosed frame")
	assert.Equal(t, uint64(3), f.Seq, "no new frame: the last good one stays")

	f, err := s.LiveFrame(context.Background(), nil)
	require.NoError(t, err)
	assert.NotEqual(t, diagnose.Lost, f.Diagnosis.Health, "a frame read back ends the loss")
	assert.False(t, f.Diagnosis.Has(diagnose.DeviceLost))
}

// A ring opened after a faulting one, lost before its first frame: the
// loss is diagnosed on the new ring's host copy, not on the last frame,
// which is the old ring's (its fault storm is not the new ring's).
func TestALossBeforeARingsFirstFrameIsNotDiagnosedOnTheRingBefore(t *testing.T) {
	r, gen := newGeneratedRunner(t, workload.FaultStorm, 4096, 3)
	ms := 0.0
	s := New(func() float64 { ms += 100; return ms })
	s.Open(Ring{Runner: r, Generator: gen, Why: "test", SketchDepth: 4, SketchWidth: 64})
	var f *frame.Frame
	for range 12 {
		var err error
		f, err = s.LiveFrame(context.Background(), nil)
		require.NoError(t, err)
	}
	require.True(t, f.Diagnosis.Has(diagnose.FaultStorm), "the first ring storms")

	r2, _ := newGeneratedRunner(t, workload.DefaultMix, 512, 3)
	s.Open(Ring{Runner: r2, Why: "test", SketchDepth: 4, SketchWidth: 64})
	f = s.MarkLost("runaway: a submission ran past 2 s", []string{"spin"}, 0)
	require.NotNil(t, f)
	assert.Equal(t, diagnose.Lost, f.Diagnosis.Health)
	assert.False(t, f.Diagnosis.Has(diagnose.FaultStorm), "the ring before's storm: %+v", f.Diagnosis.Causes)
	assert.Equal(t, uint64(13), f.Seq, "a frame of the new ring's host copy")
}
