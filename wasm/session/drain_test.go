package session

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/diagnose"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// TestDrainJudgesEverySubmission drives a drain as megakernel.DrainWith
// does (Step, Requeue, ObserveSubmission) on a ring whose tenant 1 is
// masked: the submissions, not the drain's one frame, give the watchdog
// its intervals and the diagnosis its frames, and the frame carries the
// last submission's verdict without counting one more interval.
func TestDrainJudgesEverySubmission(t *testing.T) {
	ctx := context.Background()
	r := newRefRunner(t, host.ControlConfig{Slots: 256, Masks: []uint32{host.MaskOn, 0}}, nil)
	ms := 0.0
	frames := &seen{}
	s := New(func() float64 { ms += 10; return ms }, frames)
	s.Open(Ring{Runner: r})
	s.SetFacts(diagnose.Facts{Tenants: 2, IOService: true})
	items := []host.Item{{Opcode: abi.OpNop, Priority: 2}}
	for range 4 {
		items = append(items, host.Item{Opcode: abi.OpNop, Priority: 2, Tenant: 1})
	}
	_, err := r.Publish(items)
	require.NoError(t, err)

	var rep decode.MegakernelReport
	var w *decode.WatchdogState
	var d *diagnose.Diagnosis
	for range 4 {
		ep, err := r.Step(ctx)
		require.NoError(t, err)
		ep.AddTo(&rep)
		st, err := r.Requeue()
		require.NoError(t, err)
		assert.Equal(t, 4, st.Parked, "tenant 1's YIELDs stay parked")
		w, d = s.ObserveSubmission(st, false)
	}
	require.NotNil(t, w)
	assert.Equal(t, 3, w.StalledIntervals, "one interval per submission after the first")
	assert.True(t, w.Stalled)
	require.NotNil(t, d.First())
	assert.Equal(t, diagnose.Stalled, d.Health)
	assert.Equal(t, diagnose.MaskedTenant, d.First().Kind)
	assert.Equal(t, 1, d.First().Subject.Tenant)
	assert.Empty(t, frames.seqs, "no frame per submission")
	last := w.AtMillis

	f, err := s.DrainFrame(rep, true)
	require.NoError(t, err)
	assert.Equal(t, 3, f.Watchdog.StalledIntervals, "the frame is not one more look")
	assert.Equal(t, last, f.AtMillis, "the last submission's time")
	require.NotNil(t, f.Diagnosis.First())
	assert.Equal(t, diagnose.MaskedTenant, f.Diagnosis.First().Kind)
	assert.Len(t, frames.seqs, 1, "the drain's one frame")

	// A drain that made no submission is judged at its frame.
	f, err = s.DrainFrame(decode.MegakernelReport{}, false)
	require.NoError(t, err)
	assert.Equal(t, 4, f.Watchdog.StalledIntervals)
	assert.Greater(t, f.AtMillis, last)
}
