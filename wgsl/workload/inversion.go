package workload

import (
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// Priority inversion, as on Mars Pathfinder: a low-priority job holds a
// lock that high-priority work needs, and medium-priority work that needs
// nothing keeps the low one from running, so the high-priority work waits
// on the medium. In the ring:
//
//   - the lock is the host's IO service (IO): a WAIT_IO slot asks for it
//     and Requeue republishes the answer once the service says ready;
//   - the holder is an IDLE job of the last tenant: its acquire is
//     granted while the ring is quiet, and its release is one more IDLE
//     slot, which must be claimed to free the lock;
//   - then the flood: tenants 1 … Tenants−2 keep backlog() SPIN items
//     queued at NORMAL, more than a submission claims, so no lane reaches
//     IDLE and the release waits;
//   - meanwhile invWaiters CRITICAL items of tenant 0 ask for the lock,
//     are claimed at once (CRITICAL first), park WAIT_IO and stay parked:
//     CRITICAL's claims stop, its oldest item ages, NORMAL completes.
//
// After invFlood frames the flood stops; NORMAL drains, the release runs,
// the CRITICAL items complete with waits of the whole flood (their p99
// far above NORMAL's), and the cycle starts again.
const (
	// invWaiters is the CRITICAL items each cycle parks on the lock.
	invWaiters = 8
	// invFlood is the frames the NORMAL flood lasts: 5 s at 60 frames a
	// second.
	invFlood = 300
	// invQuiet is the frames the ring stays quiet after the CRITICAL
	// items got the lock, before the next holder asks for it.
	invQuiet = 4
	// invTrickle is the NORMAL items published each frame outside the
	// flood, which a frame's claims drain with room to spare for IDLE:
	// the ring keeps working between floods (not idle).
	invTrickle = 64
)

// IO requests of the lock (a WAIT_IO slot's ARG0): a tag in the high
// half, so no other WAIT_IO request is taken for one.
const (
	ioLockTag     = 0x10C4 << 16
	ioLockAcquire = ioLockTag | 1 // the holder takes the lock
	ioLockRelease = ioLockTag | 2 // the holder gives it back
	ioLockWait    = ioLockTag | 3 // CRITICAL work waits until it is free
)

// Phases of an inversion cycle.
const (
	invAcquire  = iota // publish the holder's acquire
	invHolding         // wait for the grant
	invFlooding        // the flood, invFlood frames
	invDraining        // wait for the release and the waiters
	invResting         // invQuiet frames of quiet
)

// inversion is the priority-inversion preset's state, which its IO
// service shares.
type inversion struct {
	phase   int
	left    int // frames left in invFlooding or invResting
	held    bool
	waiting int // CRITICAL items published and not yet granted
	plan    [3]uint32
}

// The plan's item kinds.
const (
	invPlanHolder = iota
	invPlanWaiter
	invPlanFlood
)

// planInversion moves the cycle on by one frame and sets its items.
func (g *Generator) planInversion() {
	v := &g.inv
	v.plan = [3]uint32{}
	switch v.phase {
	case invAcquire:
		v.plan[invPlanHolder] = 1
		v.phase = invHolding
	case invHolding:
		if v.held {
			v.phase, v.left = invFlooding, invFlood
			v.plan[invPlanWaiter] = invWaiters
			v.waiting += invWaiters
		}
	case invDraining:
		if !v.held && v.waiting == 0 {
			v.phase, v.left = invResting, invQuiet
		}
	case invResting:
		if v.left--; v.left <= 0 {
			v.phase = invAcquire
		}
	}
	if v.phase == invFlooding {
		v.plan[invPlanFlood] = g.topUp(abi.PriorityNormal, g.backlog())
		if v.left--; v.left <= 0 {
			v.phase = invDraining
		}
	} else {
		v.plan[invPlanFlood] = g.topUp(abi.PriorityNormal, invTrickle)
	}
}

// inversionItem is the next item of the frame's plan.
func (g *Generator) inversionItem() (host.Item, bool) {
	v := &g.inv
	last := g.spec.Tenants - 1
	switch {
	case v.plan[invPlanHolder] > 0:
		v.plan[invPlanHolder]--
		return item(abi.OpWaitIO, last, abi.PriorityIdle, ioLockAcquire), true
	case v.plan[invPlanWaiter] > 0:
		v.plan[invPlanWaiter]--
		return item(abi.OpWaitIO, 0, abi.PriorityCritical, ioLockWait), true
	case v.plan[invPlanFlood] > 0:
		v.plan[invPlanFlood]--
		t := uint32(0)
		if g.spec.Tenants > 2 {
			t = 1 + g.uniform(g.spec.Tenants-2)
		}
		return g.spin(t, abi.PriorityNormal, 512), true
	}
	return host.Item{}, false
}

// IO is the host IO service the preset's WAIT_IO slots need (the
// runner's Requeue calls it for each), or nil when the preset needs none:
// a nil service answers every request at once with a NOP. For priority
// inversion it is the lock: an acquire is granted when the lock is free
// (answered with the holder's release, a WAIT_IO slot of its own), a
// release frees it, and a wait is answered with a NOP once it is free.
// Any other request is answered at once with a NOP.
func (g *Generator) IO() host.IOFunc {
	if g.spec.Preset != PriorityInversion {
		return nil
	}
	return g.lockIO
}

func (g *Generator) lockIO(req host.Item) (host.Item, bool) {
	v := &g.inv
	nop := host.Item{Opcode: abi.OpNop, Tenant: req.Tenant}
	switch req.Args[0] {
	case ioLockAcquire:
		if v.held {
			return host.Item{}, false
		}
		v.held = true
		return item(abi.OpWaitIO, req.Tenant, req.Priority, ioLockRelease), true
	case ioLockRelease:
		v.held = false
	case ioLockWait:
		if v.held {
			return host.Item{}, false
		}
		v.waiting = max(v.waiting-1, 0)
	}
	return nop, true
}
