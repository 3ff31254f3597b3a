package workload

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func preset(t *testing.T, name string) Preset {
	t.Helper()
	p, ok := PresetByName(name)
	require.True(t, ok)
	return p
}

// fits says whether p shows what it describes at l.
func fits(p Preset, l Launch) bool {
	lo, hi := p.Budgets(l)
	return uint64(l.Budget) >= lo && uint64(l.Budget) <= hi
}

func TestPresetsKeepTheirOwnBudgetOnTheirOwnRing(t *testing.T) {
	for _, p := range Catalogue {
		l := Launch{Slots: p.Slots, Width: 64, Workers: max(p.Workers, 1), Budget: p.Budget}
		assert.Equal(t, p.Budget, p.BudgetAt(l), p.Name)
		assert.True(t, fits(p, l), p.Name)
	}
}

// A backlog preset's budget shrinks with its ring so that a frame claims
// at most half its backlog (an eighth of the ring).
func TestABacklogPresetsBudgetFitsASmallerRing(t *testing.T) {
	skewed, inversion := preset(t, SkewedTenants), preset(t, PriorityInversion)
	for _, c := range []struct {
		p           Preset
		slots, want uint32
	}{
		{skewed, 16384, 16}, {skewed, 8192, 8}, {skewed, 2048, 2}, {skewed, 1024, 1}, {skewed, 600, 1},
		{inversion, 16384, 8}, {inversion, 4096, 4}, {inversion, 2048, 2}, {inversion, 1040, 2},
	} {
		l := Launch{Slots: c.slots, Width: 64, Workers: 1}
		l.Budget = c.p.BudgetAt(l)
		assert.Equal(t, c.want, l.Budget, "%s at %d slots", c.p.Name, c.slots)
		assert.True(t, fits(c.p, l), "%s at %d slots", c.p.Name, c.slots)
		assert.Less(t, l.lanes()*uint64(l.Budget), uint64(backlogOf(c.slots)), "a frame's claims stay below the backlog")
		assert.Greater(t, l.lanes()*uint64(l.Budget), uint64(c.p.FrameClaims-1), "and make the claims the preset needs")
	}
	assert.Equal(t, uint32(64), preset(t, DefaultMix).BudgetAt(Launch{Slots: 1024, Width: 64, Workers: 1}), "a preset with no backlog keeps its budget")
}

func TestBudgetsRefuseWhatDrainsTheBacklog(t *testing.T) {
	skewed, inversion := preset(t, SkewedTenants), preset(t, PriorityInversion)
	for _, c := range []struct {
		name   string
		p      Preset
		l      Launch
		lo, hi uint64
	}{
		{"a small ring", skewed, Launch{Slots: 2048, Width: 64, Workers: 1}, 1, 3},
		{"wider workgroups", skewed, Launch{Slots: 8192, Width: 256, Workers: 1}, 1, 3},
		{"more workgroups", skewed, Launch{Slots: 65536, Width: 64, Workers: 16}, 1, 7},
		{"the trickle's claims", inversion, Launch{Slots: 65536, Width: 64, Workers: 1}, 2, 127},
		{"no worker cap", skewed, Launch{Slots: 65536, Width: 64, Workers: 0}, 1, 0},
		{"no backlog", preset(t, DefaultMix), Launch{Slots: 8, Width: 256, Workers: 0}, 1, 1<<32 - 1},
	} {
		lo, hi := c.p.Budgets(c.l)
		assert.Equal(t, [2]uint64{c.lo, c.hi}, [2]uint64{lo, hi}, c.name)
	}
}

// The smallest ring a backlog preset fits is MinSlots: one slot fewer has
// no budget that fits.
func TestMinSlotsIsTheSmallestRingThatFits(t *testing.T) {
	for _, name := range []string{SkewedTenants, PriorityInversion} {
		p := preset(t, name)
		for _, width := range []uint32{64, 128, 256} {
			l := Launch{Width: width, Workers: 1}
			l.Slots = uint32(p.MinSlots(l))
			l.Budget = p.BudgetAt(l)
			assert.True(t, fits(p, l), "%s width %d at %d slots", name, width, l.Slots)
			l.Slots -= 8
			lo, hi := p.Budgets(l)
			assert.Greater(t, lo, hi, "%s width %d at %d slots", name, width, l.Slots)
		}
	}
	assert.Equal(t, uint64(520), preset(t, SkewedTenants).MinSlots(Launch{Width: 64, Workers: 1}))
	assert.Equal(t, uint64(1032), preset(t, PriorityInversion).MinSlots(Launch{Width: 64, Workers: 1}))
}
