package diagnose

import (
	"fmt"
	"strconv"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// The thresholds of the rules (docs/DIAGNOSIS.md lists them by kind).
const (
	// MaskedRingShare is the share of the ring's slots that masked work
	// must hold to be a cause while the ring still progresses (while it
	// stalls, any masked work is).
	MaskedRingShare = 0.01
	// FaultShare is the share of completions that faulted, over the
	// window, above which the faults are a storm; FaultMinDone the
	// completions the window must hold to judge.
	FaultShare   = 0.10
	FaultMinDone = 64
	// StarveMillis is how long queued work may go unclaimed while others
	// are claimed before it is starving.
	StarveMillis = 1000
	// RequeueMin is the requeues a window must hold, at least as many as
	// its completions, to be a requeue loop.
	RequeueMin = 16
	// BudgetFrames is how many frames in a row lanes must exhaust their
	// budget, while the queue grows, to blame the budget.
	BudgetFrames = 4
	// RefusedShare is the share of one priority's publishes refused over
	// the window above which the partition is back-pressuring.
	RefusedShare = 0.05
)

// rules evaluates every rule over one frame.
type rules struct {
	in   *Input
	f    *Facts
	cur  *sample
	prev *sample // the frame before (cur itself on the first frame)
	old  *sample // the oldest frame of the window
	d    *Diagnoser
	// foreign says the control buffer is not ringscope's ABI: set by
	// all, read by health.
	foreign bool
}

// all appends every cause whose rule holds this frame, before hysteresis.
func (r *rules) all(dst []Cause) []Cause {
	n := len(dst)
	dst = r.deviceLost(dst)
	dst = r.submissionStuck(dst)
	if !r.in.Ring.Control.KnownABI() {
		r.foreign = true
		return r.foreignControl(dst)
	}
	dst = r.shutdown(dst)
	dst = r.maskedTenants(dst)
	dst = r.priorities(dst)
	dst = r.waitIO(dst)
	dst = r.requeueLoop(dst)
	dst = r.tenantStarvation(dst)
	dst = r.budget(dst)
	dst = r.backPressure(dst)
	dst = r.spawnRefused(dst)
	dst = r.faultStorm(dst)
	dst = r.logOverflow(dst)
	if len(dst) == n {
		dst = r.noProgress(dst)
	}
	return dst
}

// health is the one-word verdict, given whether a cause is active.
func (r *rules) health(caused bool) Health {
	switch {
	case r.f.Lost:
		return Lost
	case r.f.StuckMillis > 0:
		return Stalled
	case r.foreign:
		// Its counters are not DONE_COUNT's: no stall or progress to tell.
		return Degraded
	case r.stalled():
		return Stalled
	case caused:
		return Degraded
	case r.cur.queue == 0 && r.cur.done == r.prev.done:
		return Idle
	}
	return Progressing
}

func (r *rules) stalled() bool { return r.in.Watchdog != nil && r.in.Watchdog.Stalled }

// suspect reports an interval with work queued and none done.
func (r *rules) suspect() bool {
	return r.in.Watchdog != nil && (r.in.Watchdog.Stalled || r.in.Watchdog.Health.SuspectedStall)
}

// windowMillis is the time the window spans.
func (r *rules) windowMillis() float64 { return r.cur.at - r.old.at }

func (r *rules) maskedTenants(dst []Cause) []Cause {
	ring := float64(r.in.Ring.Occupancy.TotalSlots())
	denied := float64(r.cur.denied - r.prev.denied)
	for t := range r.f.tenants() {
		n := r.in.Ring.Active.Tenant[t]
		if n == 0 || r.in.Ring.Control.TenantMasks[t] != 0 {
			continue
		}
		if !r.suspect() && float64(n) < MaskedRingShare*ring {
			continue
		}
		c := Cause{Kind: MaskedTenant, Subject: TenantSubject(t)}
		c.Evidence.Add("slots", float64(n))
		c.Evidence.Add("share", share(float64(n), float64(r.cur.queue)))
		c.Evidence.Add("deniedPerFrame", denied)
		switch {
		case !r.wantFix(&c):
		case r.f.Attached:
			c.Fix = fmt.Sprintf("Tenant %d is masked and its work waits: the host must set its mask non-zero (control word %d) to run it, or stop publishing its work.", t, abi.CtrlTenantMask+t)
		default:
			c.Fix = fmt.Sprintf("Tenant %d is masked and its work waits: setTenantMask(%[1]d, true) to run it, or stop publishing its work.", t)
		}
		dst = append(dst, c)
	}
	return dst
}

func (r *rules) waitIO(dst []Cause) []Cause {
	n := r.in.Ring.Occupancy[decode.StatusWaitIO]
	if n == 0 || (r.f.Attached && !r.stalled()) || (!r.f.Attached && r.f.IOService && r.f.IOWaiting == 0) {
		return dst
	}
	c := Cause{Kind: WaitIO, Subject: OpcodeSubject(abi.OpWaitIO, r.f.opName(abi.OpWaitIO))}
	c.Evidence.Add("slots", float64(n))
	c.Evidence.Add("waiting", float64(r.f.IOWaiting))
	switch {
	case r.f.Attached:
		c.Fix = "The ring is stalled with slots in WAIT_IO: the host's IO service does not answer them. Check that it runs, and what their requests wait on."
	case r.f.IOService:
		c.Fix = "The IO service answers 'not ready' for WAIT_IO slots: check what their requests wait on."
	default:
		c.Fix = "WAIT_IO slots wait for a host IO service and none runs: setIOService(true), or stop publishing WAIT_IO."
	}
	return append(dst, c)
}

func (r *rules) requeueLoop(dst []Cause) []Cause {
	rq := r.cur.requeues - r.old.requeues
	done := uint64(r.cur.done - r.old.done)
	if r.d.frames() < 3 || rq < RequeueMin || rq < done {
		return dst
	}
	c := Cause{Kind: RequeueLoop, Subject: NoSubject}
	c.Evidence.Add("requeues", float64(rq))
	c.Evidence.Add("completed", float64(done))
	c.Evidence.Add("slots", float64(r.in.Ring.Occupancy[decode.StatusRequeue]))
	if r.in.Requeues != nil {
		c.Evidence.Add("maxAge", float64(r.in.Requeues.MaxPriorityAge))
	}
	if r.f.Requeued == 0 { // a ring seen from outside: which opcode is not known
		c.Subject.Name = "REQUEUE"
		c.Fix = "Slots end REQUEUE again and again without completing: give the opcode an exit (complete, or FAULT after N tries)."
		return append(dst, c)
	}
	c.Evidence.Add("opcode", float64(r.f.RequeueOpcode))
	if r.wantFixNaming(&c, "opcode") {
		name := r.f.opName(r.f.RequeueOpcode)
		c.Subject.Name = name
		c.Fix = "Slots of " + name + " end REQUEUE again and again without completing: give " + name +
			" an exit (complete, or FAULT after N tries)."
	}
	return append(dst, c)
}

// priorities finds priorities whose queued work goes unclaimed while
// others' is claimed: an inversion when a lower priority runs, starvation
// when only higher ones do.
func (r *rules) priorities(dst []Cause) []Cause {
	if r.d.frames() < 3 {
		return dst
	}
	a := &r.in.Ring.Active
	masked := uint32(0) // a bound on the queued work of masked tenants
	for t := range abi.TenantCount {
		if r.in.Ring.Control.TenantMasks[t] == 0 {
			masked += a.Tenant[t]
		}
	}
	for p := range abi.PriorityLevels {
		age := r.cur.at - r.d.prioritySince[p]
		// Masked work waits by design (masked-tenant names it): a
		// priority starves only when it holds more than that.
		if a.Priority[p] <= masked || age < StarveMillis {
			continue
		}
		lower, higher := uint32(0), uint32(0)
		runner := -1
		for q := range abi.PriorityLevels {
			moved := r.cur.priority[q] - r.old.priority[q]
			switch {
			case q > p && moved > 0:
				lower += moved
				if runner < 0 {
					runner = q
				}
			case q < p:
				higher += moved
			}
		}
		kind := PriorityInversion
		switch {
		case lower > 0:
		case higher > 0:
			kind = Starvation
		default:
			continue
		}
		c := Cause{Kind: kind, Subject: PrioritySubject(p)}
		c.Evidence.Add("ageMs", age)
		c.Evidence.Add("slots", float64(a.Priority[p]))
		if kind == PriorityInversion {
			c.Evidence.Add("lowerPriority", float64(runner))
			c.Evidence.Add("lowerClaims", float64(lower))
			if r.wantFixNaming(&c, "lowerPriority") {
				c.Fix = priorityName(p) + " work waits unclaimed while " + priorityName(runner) +
					" runs: find what holds it (its tenants' masks and quotas, a parked slot at its partition's head)."
			}
		} else {
			c.Evidence.Add("higherClaims", float64(higher))
			if r.wantFix(&c) {
				c.Fix = priorityName(p) + " work waits while higher priorities take every claim: " +
					"publish less above it or raise the lane budget."
			}
		}
		if w := r.f.Waits; w != nil {
			c.Evidence.Add("p99WaitMs", w.Priority[p].P99)
			c.Evidence.Add("oldestAgeMs", w.Priority[p].OldestAge)
		}
		dst = append(dst, c)
	}
	return dst
}

func (r *rules) tenantStarvation(dst []Cause) []Cause {
	if r.d.frames() < 3 || r.cur.done == r.old.done {
		return dst
	}
	hot, hotClaims, total := -1, uint32(0), uint32(0)
	for t := range abi.TenantSlots {
		moved := r.cur.tenant[t] - r.old.tenant[t]
		total += moved
		if moved > hotClaims {
			hot, hotClaims = t, moved
		}
	}
	for t := range r.f.tenants() {
		age := r.cur.at - r.d.tenantSince[t]
		if t == hot || r.in.Ring.Active.Tenant[t] == 0 || r.in.Ring.Control.TenantMasks[t] == 0 || age < StarveMillis {
			continue
		}
		c := Cause{Kind: Starvation, Subject: TenantSubject(t)}
		c.Evidence.Add("ageMs", age)
		c.Evidence.Add("slots", float64(r.in.Ring.Active.Tenant[t]))
		c.Evidence.Add("hotTenant", float64(hot))
		c.Evidence.Add("hotShare", share(float64(hotClaims), float64(total)))
		if w := r.f.Waits; w != nil {
			c.Evidence.Add("p99WaitMs", w.Tenant[t].P99)
			c.Evidence.Add("oldestAgeMs", w.Tenant[t].OldestAge)
		}
		// A quota is the fix only when one tenant takes most claims; with
		// the claims spread, what holds this tenant is its own.
		dominant := 2*hotClaims > total
		if r.wantFixNaming(&c, "hotTenant") || (r.trackedFact(&c, "hotShare").Value > 0.5) != dominant {
			if dominant {
				c.Fix = fmt.Sprintf("Tenant %d's work waits unclaimed while tenant %d takes the claims: publish less of tenant %[2]d's work at a time (a quota, in Go), or tenant %[1]d's at a higher priority.", t, hot)
			} else {
				// Not "a higher priority": its work may be CRITICAL already,
				// held by an inversion (the priority-inversion preset's).
				c.Fix = "Tenant " + strconv.Itoa(t) + "'s work waits while other tenants' work is claimed: find what holds it: " +
					"a priority inversion or a parked slot (WAIT_IO, YIELD) ahead of it, or its priority below theirs (then raise it)."
			}
		}
		dst = append(dst, c)
	}
	return dst
}

func (r *rules) budget(dst []Cause) []Cause {
	n := min(BudgetFrames, r.d.frames()-1)
	if n < BudgetFrames {
		return dst
	}
	// Lanes that stop on their budget are routine while the next
	// submission claims the rest; the budget is to blame only when the
	// unclaimed backlog is never worked off.
	for k := range n {
		if s := r.d.at(k); s.exhausted == r.d.at(k+1).exhausted || s.backlog == 0 {
			return dst
		}
	}
	first := r.d.at(n)
	if r.cur.backlog <= first.backlog || r.cur.done == first.done {
		return dst
	}
	c := Cause{Kind: Budget, Subject: NoSubject}
	c.Evidence.Add("budget", float64(r.f.Budget))
	c.Evidence.Add("exhaustedPerFrame", float64(r.cur.exhausted-first.exhausted)/float64(n))
	c.Evidence.Add("backlogGrowth", float64(r.cur.backlog)-float64(first.backlog))
	c.Evidence.Add("backlog", float64(r.cur.backlog))
	if r.wantFixNaming(&c, "budget") {
		c.Fix = "Lanes spend their claim budget every submission and the queue grows: raise the lane budget"
		if r.f.Budget > 0 {
			c.Fix += " (open({budget: " + strconv.FormatUint(uint64(min(2*r.f.Budget, 1<<16)), 10) + "}))"
		}
		c.Fix += " or the worker groups."
	}
	return append(dst, c)
}

func (r *rules) backPressure(dst []Cause) []Cause {
	published := r.f.Published
	for p := range abi.PriorityLevels {
		refused := r.cur.refused[p] - r.old.refused[p]
		if refused == 0 {
			continue
		}
		// The published items of the window are not known per priority:
		// compare with all of them, which understates the share.
		all := float64(refused) + float64(published-r.d.publishedAtOld())
		if share(float64(refused), all) < RefusedShare {
			continue
		}
		c := Cause{Kind: BackPressure, Subject: PrioritySubject(p)}
		c.Evidence.Add("refused", float64(refused))
		c.Evidence.Add("share", share(float64(refused), all))
		if ms := r.windowMillis(); ms > 0 {
			c.Evidence.Add("refusedPerSecond", float64(refused)*1000/ms)
		}
		queued := r.in.Ring.Active.Priority[p]
		off := &r.in.Ring.Control.PriorityOffsets
		capacity := off[p+1] - min(off[p], off[p+1])
		c.Evidence.Add("queued", float64(queued))
		c.Evidence.Add("capacity", float64(capacity))
		switch {
		case !r.wantFix(&c):
		case queued > 0 && 2*queued < capacity:
			// Mostly empty, yet refusing: a slot parked in place (YIELD of
			// a masked tenant, WAIT_IO) is where the partition wraps. With
			// nothing queued at all, nothing is parked: a burst filled the
			// partition and the frame drained it after the refusal.
			c.Fix = priorityName(p) + " refuses publishes though most of its slots are free: a parked slot " +
				"(a masked tenant's YIELD, a WAIT_IO) blocks where the partition wraps; unmask or service it."
		default:
			c.Fix = priorityName(p) + "'s partition is full and refuses publishes: publish less at " + priorityName(p) +
				", drain faster (budget, workers), or give it more slots."
		}
		dst = append(dst, c)
	}
	return dst
}

// publishedAtOld is the host's published count at the window's oldest
// frame (tracked beside the samples).
func (d *Diagnoser) publishedAtOld() uint64 { return d.oldest().published }

// wantFix reports whether c needs its fix worded: the first frame of its
// (kind, subject), since a tracked cause keeps the fix it was given, so
// the steady state formats nothing.
func (r *rules) wantFix(c *Cause) bool {
	i := r.d.find(c.Kind, c.Subject)
	return i < 0 || r.d.tracked[i].cause.Fix == ""
}

// wantFixNaming is wantFix for a fix that names the fact key of c's
// evidence (the hot tenant, the running priority, the budget, the top
// fault): it is worded again when that fact changed, so that the fix
// never names another tenant or priority than the evidence beside it.
func (r *rules) wantFixNaming(c *Cause, key string) bool {
	i := r.d.find(c.Kind, c.Subject)
	if i < 0 {
		return true
	}
	t := &r.d.tracked[i].cause
	now, _ := c.Evidence.lookup(key)
	was, _ := t.Evidence.lookup(key)
	// A ring-wide cause's subject describes it and may change too.
	return t.Fix == "" || was != now || !t.Subject.same(c.Subject)
}

// trackedFact is the fact key of c's (kind, subject) as tracked from the
// frames before; the zero Fact when none is tracked.
func (r *rules) trackedFact(c *Cause, key string) Fact {
	i := r.d.find(c.Kind, c.Subject)
	if i < 0 {
		return Fact{}
	}
	f, _ := r.d.tracked[i].cause.Evidence.lookup(key)
	return f
}

func share(part, whole float64) float64 {
	if whole <= 0 {
		return 0
	}
	return part / whole
}

var priorityNames = [abi.PriorityLevels]string{"CRITICAL", "HIGH", "NORMAL", "LOW", "IDLE"}

func priorityName(p int) string {
	if p >= 0 && p < abi.PriorityLevels {
		return priorityNames[p]
	}
	return "priority " + strconv.Itoa(p)
}
