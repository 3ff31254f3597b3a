package session

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/ref"
	"github.com/ringscope/ringscope/wgsl/workload"
)

// frameMS is the live loop's frame period in these runs: 60 frames a
// second, a GPU's.
const frameMS = 1000.0 / 60

// presetFrame is what one frame of a preset run showed.
type presetFrame struct {
	waits   decode.WaitTimes
	prio    [abi.PriorityLevels]uint32 // PRIORITY_CLAIMS
	tenant  [abi.TenantSlots]uint32    // TENANT_CLAIMS
	done    uint32
	refused uint64
}

// runPreset runs a preset's live loop as the page does, on the reference
// kernel, for frames frames frameMS apart: its ring size (slots, when not
// 0), tenants and budget (fitted to the ring, as the page's URL does),
// and its worker cap as the grid (64 lanes a workgroup, the page's
// default width; 64 workgroups, a GPU's 4,096 lanes, without a cap). It
// returns the frames and the budget.
func runPreset(t *testing.T, preset string, slots uint32, frames int) ([]presetFrame, uint32) {
	t.Helper()
	p, ok := workload.PresetByName(preset)
	require.True(t, ok)
	if slots == 0 {
		slots = p.Slots
	}
	gen, err := workload.New(workload.Spec{Preset: preset, Slots: slots, Tenants: p.Tenants, Seed: 5})
	require.NoError(t, err)
	cfg := host.ControlConfig{Slots: slots, Observable: workload.ObservableWords, Masks: gen.Masks()}
	r := newRefRunner(t, cfg, gen.Data())
	r.grid = ref.Grid{Workgroups: 64, Width: 64}
	if p.Workers != 0 {
		r.grid.Workgroups = p.Workers
	}
	r.budget = p.BudgetAt(workload.Launch{Slots: slots, Width: r.grid.Width, Workers: p.Workers})
	var c clock
	s := New(c.now)
	s.Open(Ring{Runner: r, Generator: gen})
	out := make([]presetFrame, frames)
	for i := range out {
		c.ms += frameMS
		f, err := s.LiveFrame(context.Background(), nil)
		require.NoError(t, err)
		require.NotNil(t, f.Waits)
		ctl := &f.Ring.Control
		out[i] = presetFrame{waits: *f.Waits, prio: ctl.PriorityFairness, tenant: ctl.TenantFairness, done: ctl.DoneCount}
		for _, n := range s.Facts().Refused {
			out[i].refused += n
		}
	}
	return out, r.budget
}

// maxOldest is the largest oldest-waiting age of any tenant and priority
// over the frames.
func maxOldest(fs []presetFrame) (ms float64) {
	for i := range fs {
		for _, st := range fs[i].waits.Tenant {
			ms = max(ms, st.OldestAge)
		}
		for _, st := range fs[i].waits.Priority {
			ms = max(ms, st.OldestAge)
		}
	}
	return ms
}

// Healthy presets: over 10 s at 60 frames a second, no item waits more
// than a few frames and no publish is refused (on a quarter of the
// preset's ring, for the test's time: the work scales with the ring).
func TestHealthyPresetsKeepWaitsShort(t *testing.T) {
	for _, preset := range []string{workload.DefaultMix, workload.NOPFlood} {
		t.Run(preset, func(t *testing.T) {
			fs, _ := runPreset(t, preset, 16384, 600)
			last := &fs[len(fs)-1]
			oldest := maxOldest(fs)
			t.Logf("%s: oldest waiting item of any tenant or priority over 600 frames %.1f ms; CRITICAL p99 %.1f ms, IDLE p99 %.1f ms; done %d; refused %d",
				preset, oldest, last.waits.Priority[0].P99, last.waits.Priority[4].P99, last.done, last.refused)
			assert.LessOrEqual(t, oldest, 4*frameMS, "every item ends within a few frames")
			assert.Zero(t, last.refused, "no publish refused")
			assert.Positive(t, last.done)
		})
	}
}

// Skewed tenants: the hot tenant takes every claim, the cold tenants'
// oldest items age with the run and their claims stay at zero, and no
// publish is refused: on the preset's ring and on a small one, where its
// budget shrinks with the backlog.
func TestSkewedTenantsStarveTheColdTenants(t *testing.T) {
	for _, slots := range []uint32{0, 2048} {
		t.Run(fmt.Sprint(slots), func(t *testing.T) { skewedTenantsStarve(t, slots) })
	}
}

func skewedTenantsStarve(t *testing.T, slots uint32) {
	fs, budget := runPreset(t, workload.SkewedTenants, slots, 240)
	last, mid := &fs[239], &fs[119]
	hotRate := float64(last.tenant[0]-mid.tenant[0]) / 120
	t.Logf("skewed-tenants at frame 240 (%.0f ms): tenant 0 claims %d (%.0f a frame), p99 wait %.1f ms, oldest %.1f ms; refused %d",
		240*frameMS, last.tenant[0], hotRate, last.waits.Tenant[0].P99, last.waits.Tenant[0].OldestAge, last.refused)
	cold := 0
	for tn := 1; tn < 16; tn++ {
		st := last.waits.Tenant[tn]
		if st.Waiting == 0 {
			continue
		}
		cold++
		if tn <= 3 || tn == 15 {
			t.Logf("  tenant %d: %d waiting, oldest %.1f ms (frame 120: %.1f ms), ended %d, claims %d", tn, st.Waiting,
				st.OldestAge, mid.waits.Tenant[tn].OldestAge, st.Count, last.tenant[tn])
		}
		assert.Zero(t, last.tenant[tn], "tenant %d never claimed", tn)
		assert.Zero(t, st.Count, "tenant %d: nothing ended", tn)
		assert.InDelta(t, 239*frameMS, st.OldestAge, 1, "tenant %d: its first items wait from the first frame", tn)
		assert.InDelta(t, 120*frameMS, st.OldestAge-mid.waits.Tenant[tn].OldestAge, 1, "tenant %d ages with the run", tn)
	}
	if slots == 0 {
		assert.Equal(t, 15, cold, "every cold tenant has work queued")
	} else {
		assert.Positive(t, cold, "cold tenants have work queued (a small ring's cold backlog, 32 a priority, reaches only the likelier of them)")
	}
	assert.Equal(t, 64*float64(budget), hotRate, "the hot tenant takes every claim of a frame: 64 lanes × budget %d", budget)
	assert.Less(t, last.waits.Tenant[0].OldestAge, 10*frameMS, "the hot tenant's backlog turns over")
	for p := abi.PriorityNormal; p <= abi.PriorityIdle; p++ {
		assert.Zero(t, last.prio[p], "priority %d never claimed", p)
	}
	assert.Zero(t, last.refused)
}

// Priority inversion: during the flood, CRITICAL's claims stay flat and
// its oldest item ages while NORMAL's claims rise; after it, CRITICAL
// completes with waits of the whole flood, its p99 far above NORMAL's: on
// the preset's ring and on a small one, where its budget shrinks with the
// backlog.
func TestPriorityInversionParksCriticalBehindNormal(t *testing.T) {
	for _, slots := range []uint32{0, 2048} {
		t.Run(fmt.Sprint(slots), func(t *testing.T) { inversionParksCritical(t, slots) })
	}
}

func inversionParksCritical(t *testing.T, slots uint32) {
	fs, budget := runPreset(t, workload.PriorityInversion, slots, 700)
	// Frame 0 grants the IDLE holder the lock; the flood runs frames
	// 1 … 300.
	early, late := &fs[20], &fs[290]
	critAge := func(f *presetFrame) float64 { return f.waits.Priority[abi.PriorityCritical].OldestAge }
	t.Logf("priority-inversion, flood frames 20 → 290: CRITICAL claims %d → %d, oldest %.0f → %.0f ms, waiting %d; NORMAL claims %d → %d (%.0f a frame), p99 %.1f ms; IDLE claims %d → %d",
		early.prio[0], late.prio[0], critAge(early), critAge(late), late.waits.Priority[0].Waiting,
		early.prio[2], late.prio[2], float64(late.prio[2]-early.prio[2])/270, late.waits.Priority[2].P99, early.prio[4], late.prio[4])
	assert.Equal(t, early.prio[0], late.prio[0], "CRITICAL's claims stay flat")
	assert.Equal(t, uint32(8), late.prio[0])
	assert.Equal(t, uint32(8), late.waits.Priority[0].Waiting, "its items wait, parked")
	assert.InDelta(t, 270*frameMS, critAge(late)-critAge(early), 1, "its oldest item ages with the flood")
	assert.Equal(t, 270*64*budget, late.prio[2]-early.prio[2], "NORMAL takes every claim: 64 lanes × budget %d", budget)
	assert.Equal(t, early.prio[4], late.prio[4], "IDLE, which holds the lock, never runs")
	assert.Zero(t, late.waits.Priority[0].Count, "no CRITICAL item ended yet")

	last := &fs[len(fs)-1]
	crit, normal := last.waits.Priority[0], last.waits.Priority[2]
	t.Logf("after the first cycle (frame 700): CRITICAL ended %d, p50 %.0f ms, p99 %.0f ms, max %.0f ms; NORMAL ended %d, p50 %.1f ms, p99 %.1f ms; oldest CRITICAL now %.0f ms; refused %d",
		crit.Count, crit.P50, crit.P99, crit.Max, normal.Count, normal.P50, normal.P99, crit.OldestAge, last.refused)
	assert.GreaterOrEqual(t, crit.Count, uint64(8), "the first cycle's CRITICAL items ended")
	assert.Greater(t, crit.P99, 290*frameMS, "after waiting out the flood")
	assert.Greater(t, crit.P99, 10*normal.P99, "CRITICAL's p99 far above NORMAL's")
	assert.Zero(t, last.refused)
}
