package workload

import "github.com/ringscope/ringscope/wgsl/abi"

// The presets that show a queue that does not drain (skewed tenants,
// priority inversion) publish as a producer that keeps a backlog: each
// frame they top a partition up to a target of queued items (TAIL − HEAD,
// which the caller reports with SetQueued before Next) rather than
// publish a fixed count. Their rings claim fewer items a frame than the
// backlog holds (the preset's budget on one workgroup, Preset.Workers:
// 64 lanes × the budget), so the backlog outlasts every submission, and
// the producer never outruns its partition: no publish is refused.

// SetQueued tells the generator how many items each priority partition
// holds published and not yet claimed (TAIL[p] − HEAD[p]), for the
// backlog presets' top-ups. Without it they take the partitions for
// empty. Other presets ignore it.
func (g *Generator) SetQueued(queued [abi.PriorityLevels]uint32) { g.queued = queued }

// topUp is how many items partition p needs to hold target queued.
func (g *Generator) topUp(p, target uint32) uint32 {
	if q := g.queued[p]; q < target {
		return target - q
	}
	return 0
}

// backlog is the target of queued items of a backlog preset's busy
// partition (backlogOf its ring).
func (g *Generator) backlog() uint32 { return backlogOf(g.spec.Slots) }

// backlogOf is a backlog preset's target on a ring of slots slots: an
// eighth of the ring (8,192 at 65,536 slots: 16 frames of the
// priority-inversion preset's 512 claims, 8 of skewed tenants' 1,024),
// less than the partition's fifth, so its top-ups always fit.
func backlogOf(slots uint32) uint32 { return max(slots/8, 1) }

// Skewed tenants: tenant 0, the hot one, keeps backlog() items queued at
// HIGH; the other tenants (Zipf-weighted among themselves) keep
// skewColdBacklog() items queued at each of NORMAL, LOW and IDLE. Lanes
// claim HIGH first and the hot backlog outlasts every submission, so no
// cold item is ever claimed: the cold tenants' oldest items age and their
// TENANT_CLAIMS stay flat while tenant 0 completes every claim.
const (
	skewHotTenant = 0
	skewHotPrio   = abi.PriorityHigh
)

// skewColdBacklog is a cold priority's target: a sixty-fourth of the
// ring (1,024 at 65,536 slots).
func (g *Generator) skewColdBacklog() uint32 { return max(g.spec.Slots/64, 1) }

// planSkewed sets the frame's items of the skewed-tenants preset: the hot
// tenant's top-up, then the cold priorities'.
func (g *Generator) planSkewed() {
	g.plan = [abi.PriorityLevels]uint32{}
	g.plan[skewHotPrio] = g.topUp(skewHotPrio, g.backlog())
	if g.spec.Tenants > 1 {
		for p := uint32(abi.PriorityNormal); p <= abi.PriorityIdle; p++ {
			g.plan[p] = g.topUp(p, g.skewColdBacklog())
		}
	}
}

// skewedItem is the next item of the frame's plan; ok is false once the
// plan is spent.
func (g *Generator) skewedItem() (t, p uint32, ok bool) {
	for p := range g.plan {
		if g.plan[p] == 0 {
			continue
		}
		g.plan[p]--
		if p == skewHotPrio || g.spec.Tenants == 1 {
			return skewHotTenant, uint32(p), true
		}
		return 1 + pick(g.coldCDF, g.rng.Float64()), uint32(p), true
	}
	return 0, 0, false
}

// pick is the index of the cumulative distribution cdf that u falls in.
func pick(cdf []float64, u float64) uint32 {
	for t, c := range cdf {
		if u <= c {
			return uint32(t)
		}
	}
	return uint32(len(cdf) - 1)
}
