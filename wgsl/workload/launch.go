package workload

import "math"

// A backlog preset (skewed tenants, priority inversion) shows what it
// describes only while its backlog outlasts every frame: a frame's claims
// (Width lanes × Budget on each of Workers workgroups) must stay below the
// backlog, an eighth of the ring, or the busy partition empties each frame
// and the work it should hold back runs. The priority-inversion preset
// also needs more claims a frame than its trickle between floods, or the
// lock's holder never runs. So its ring size, width, worker cap and
// budget go together: Budgets says which budgets show the preset, and
// BudgetAt fits its own to a smaller ring than its own.

// Launch is what a frame of a preset's ring may claim.
type Launch struct {
	Slots   uint32 // the ring's size
	Width   uint32 // lanes a workgroup
	Workers uint32 // workgroups a submission; 0: the adapter's, unbounded here
	Budget  uint32 // claim iterations per lane
}

// lanes is how many lanes claim in a frame of l; 0 when unbounded (no
// worker cap).
func (l Launch) lanes() uint64 { return uint64(l.Width) * uint64(l.Workers) }

// Budgets is the range [lo, hi] of budgets at which p shows what it
// describes on l's ring, width and worker cap (l.Budget aside); lo > hi
// when none does: the ring is too small, or the worker cap is 0. A preset
// that keeps no backlog takes any budget.
func (p Preset) Budgets(l Launch) (lo, hi uint64) {
	need := uint64(p.FrameClaims)
	if need == 0 {
		return 1, math.MaxUint32
	}
	lanes := l.lanes()
	if lanes == 0 {
		return 1, 0
	}
	return (need + lanes - 1) / lanes, uint64(backlogOf(l.Slots)-1) / lanes
}

// MinSlots is the smallest ring on which p shows what it describes at l's
// width and worker cap (l.Slots and l.Budget aside): the backlog, an
// eighth of the ring, must exceed the fewest claims a frame makes.
func (p Preset) MinSlots(l Launch) uint64 {
	lo, _ := p.Budgets(l)
	return 8 * (lo*l.lanes() + 1)
}

// BudgetAt is p's budget on l's ring, width and worker cap: its own, or,
// on a ring whose backlog its own would drain, the most that keeps at
// least half the backlog queued through a frame (never below what the
// preset needs; its own where no budget fits).
func (p Preset) BudgetAt(l Launch) uint32 {
	lo, hi := p.Budgets(l)
	if p.FrameClaims == 0 || lo > hi {
		return p.Budget
	}
	half := uint64(backlogOf(l.Slots)) / 2 / l.lanes()
	return uint32(min(max(min(uint64(p.Budget), half), lo), hi))
}
