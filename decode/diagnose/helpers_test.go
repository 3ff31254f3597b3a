package diagnose

import (
	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// ring is a scripted ring: each step moves its counters the way a kernel
// would and returns the frame's Input, watchdog included.
type ring struct {
	t     float64
	tel   decode.RingTelemetry
	wd    *decode.Watchdog
	ws    decode.WatchdogState
	log   decode.Log
	acct  decode.PriorityRequeueAccounting
	facts Facts
}

func newRing(slots uint32, tenants uint32) *ring {
	r := &ring{wd: decode.NewWatchdog(3), facts: Facts{Tenants: tenants, IOService: true, Budget: 64}}
	r.tel.Control.Magic, r.tel.Control.ABIVersion = abi.Magic, abi.Version
	r.tel.Occupancy[decode.StatusEmpty] = slots
	for t := range tenants {
		r.tel.Control.TenantMasks[t] = 1
	}
	r.log.Capacity = 64
	return r
}

// queue sets n active slots of tenant t at priority p, PUBLISHED.
func (r *ring) queue(t, p int, n uint32) {
	r.tel.Active.Tenant[t] += n
	r.tel.Active.Priority[p] += n
	r.tel.Occupancy[decode.StatusPublished] += n
	r.tel.Occupancy[decode.StatusEmpty] -= n
}

// clear empties the queue.
func (r *ring) clear() {
	r.tel.Occupancy[decode.StatusEmpty] += r.tel.Occupancy.QueueDepth()
	r.tel.Occupancy[decode.StatusPublished], r.tel.Occupancy[decode.StatusWaitIO], r.tel.Occupancy[decode.StatusYield], r.tel.Occupancy[decode.StatusRequeue] = 0, 0, 0, 0
	r.tel.Active = decode.ActiveCounts{}
}

// complete runs n claims of tenant t at priority p that end DONE, faults
// of them FAULT.
func (r *ring) complete(t, p int, n, faults uint32) {
	c := &r.tel.Control
	c.DoneCount += n
	c.Faults += faults
	c.Claims += n
	c.TenantFairness[t] += n
	c.PriorityFairness[p] += n
}

func (r *ring) step(d *Diagnoser, ms float64) *Diagnosis {
	r.t += ms
	r.tel.Control.Dispatches++
	r.ws = r.wd.Observe(r.t, &r.tel)
	return d.Observe(&Input{AtMillis: r.t, Ring: &r.tel, Watchdog: &r.ws, Log: &r.log, Requeues: &r.acct}, &r.facts)
}

func kinds(d *Diagnosis) []string {
	ks := []string{}
	for _, c := range d.Causes {
		ks = append(ks, c.Kind.String())
	}
	return ks
}

var _ = abi.TenantSlots
