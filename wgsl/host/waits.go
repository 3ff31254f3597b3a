package host

import (
	"math"

	"github.com/ringscope/ringscope/internal/loghist"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// Waits is what a Queue measures of queue waits, once TrackWaits gave it
// a clock: per tenant and per priority, the waits of the items that ended
// (publish to the absorb that first showed the slot DONE or FAULT) in a
// log histogram, and the items still waiting with the oldest one's
// publish time.
//
// An item keeps its publish time when Requeue republishes it (YIELD,
// REQUEUE, a WAIT_IO answer), so its wait is publish → end, however many
// times it was parked; a promotion or an answer of another tenant moves
// it to that priority's or tenant's count. Items published before
// TrackWaits are not counted. The waits are the run's since TrackWaits or
// the generation began (Reset), not a sliding window.
//
// The costs: a float64 per slot, a batch's stamps written in one pass per
// partition at Publish, and at each absorb a pass over the positions
// claimed since the last one (not the ring), which Requeue and
// ReclaimFaults make too. The oldest waiting item needs no pass at all
// (stampFIFO).
type Waits struct {
	now func() float64
	// born is, per slot, the publish time of the waiting or just ended
	// item it holds; NaN when it holds none that is tracked.
	born     []float64
	tenant   [abi.TenantCount]WaitGroup
	priority [abi.PriorityLevels]WaitGroup
	// endFrom is, per partition, the position up to which absorbs were
	// scanned for ends.
	endFrom [abi.PriorityLevels]uint32
}

// WaitGroup is the waits of one tenant or priority.
type WaitGroup struct {
	hist    loghist.Hist
	fifo    stampFIFO
	waiting uint32
}

// Ended is the number of items whose wait ended (DONE or FAULT).
func (g *WaitGroup) Ended() uint64 { return g.hist.Count() }

// Quantile is the q-quantile of the ended waits, in the clock's unit,
// within loghist.RelError; 0 when none ended.
func (g *WaitGroup) Quantile(q float64) float64 { return g.hist.Quantile(q) }

// Sum is the ended waits' sum.
func (g *WaitGroup) Sum() float64 { return g.hist.Sum() }

// Max is the longest ended wait, exactly.
func (g *WaitGroup) Max() float64 { return g.hist.Max() }

// Waiting is the number of items published and not yet ended.
func (g *WaitGroup) Waiting() uint32 { return g.waiting }

// Oldest is the publish time of the oldest waiting item; ok is false when
// none waits.
func (g *WaitGroup) Oldest() (at float64, ok bool) { return g.fifo.oldest() }

func (g *WaitGroup) reset() {
	g.hist.Reset()
	g.fifo.reset()
	g.waiting = 0
}

func (g *WaitGroup) publish(at float64, n uint32) {
	g.fifo.add(at, n)
	g.waiting += n
}

// leave takes n items of stamp at off the waiting ones.
func (g *WaitGroup) leave(at float64, n uint32) {
	if g.fifo.remove(at, n) {
		g.waiting -= min(n, g.waiting)
	}
}

// TrackWaits starts measuring queue waits with now, the clock (the page's
// milliseconds): the publish and end times are now's at Publish and at the
// absorbs. A nil now stops it. Either way the counts restart, and a Reset
// keeps the clock.
func (q *Queue) TrackWaits(now func() float64) {
	if now == nil {
		q.waits = nil
		return
	}
	q.waits = &Waits{now: now}
	q.waits.reset(q.cfg.Slots)
}

// Waits is the queue's wait measurements, nil unless TrackWaits gave it a
// clock. It changes with the queue; read it between calls.
func (q *Queue) Waits() *Waits { return q.waits }

// Now is the tracker's clock now.
func (w *Waits) Now() float64 { return w.now() }

// Tenant is tenant t's waits (t < abi.TenantCount).
func (w *Waits) Tenant(t int) *WaitGroup { return &w.tenant[t] }

// Priority is priority p's waits (p < abi.PriorityLevels).
func (w *Waits) Priority(p int) *WaitGroup { return &w.priority[p] }

func (w *Waits) reset(slots uint32) {
	w.born = resize(w.born, int(slots))
	for i := range w.born {
		w.born[i] = math.NaN()
	}
	for i := range w.tenant {
		w.tenant[i].reset()
	}
	for i := range w.priority {
		w.priority[i].reset()
	}
	w.endFrom = [abi.PriorityLevels]uint32{}
}

// published stamps the n[p] items each partition p just took (the
// positions up to TAIL[p]) with the clock's now, and counts them per
// tenant and priority.
func (w *Waits) published(q *Queue, perTenant *[abi.TenantCount]uint32, n *[abi.PriorityLevels]uint32) {
	now := w.now()
	for p, k := range n {
		if k == 0 {
			continue
		}
		first := q.slotOf(uint32(p), q.tail(uint32(p))-k)
		run := min(k, q.off[p+1]-first)
		fill(w.born[first:first+run], now)
		fill(w.born[q.off[p]:q.off[p]+k-run], now)
		w.priority[p].publish(now, k)
	}
	for t, k := range perTenant {
		if k != 0 {
			w.tenant[t].publish(now, k)
		}
	}
}

func fill(s []float64, v float64) {
	for i := range s {
		s[i] = v
	}
}

// moved carries the publish time of the item Requeue moved from slot from
// (tenant t, priority p) to slot to (as it, possibly promoted, or a WAIT_IO
// answer of another tenant).
func (w *Waits) moved(from, to, t, p uint32, it *Item) {
	at := w.born[from]
	if from != to {
		w.born[from] = math.NaN()
	}
	w.born[to] = at
	if math.IsNaN(at) {
		return
	}
	if it.Tenant != t {
		w.tenant[t].leave(at, 1)
		w.tenant[it.Tenant].publish(at, 1)
	}
	if it.Priority != p {
		w.priority[p].leave(at, 1)
		w.priority[it.Priority].publish(at, 1)
	}
}

// ends records the waits of the items the last absorb showed ended: in
// each partition, the slots DONE or FAULT among the positions claimed
// since the last call (up to ringHead, where the host copy's statuses are
// the GPU's). A slot parked there (YIELD, REQUEUE, WAIT_IO) still waits;
// Requeue moves it on with its time. Ends come in runs of one publish
// time (a batch), so per item only its tenant's count grows; each run is
// recorded once per tenant and priority.
func (w *Waits) ends(q *Queue) {
	now := w.now()
	for p := uint32(0); p < abi.PriorityLevels; p++ {
		c := q.capacity(p)
		to := q.ringHead[p]
		if c == 0 {
			w.endFrom[p] = to
			continue
		}
		tail := q.tail(p)
		run := endRun{at: math.NaN()}
		// k < to, modulo 2^32.
		for k := max(w.endFrom[p], tail-min(tail, c)); k-to >= 1<<31; k++ {
			slot := q.slotOf(p, k)
			if st := q.status(slot); st != abi.StatusDone && st != abi.StatusFault {
				continue
			}
			at := w.born[slot]
			if at != at { // NaN: not tracked
				continue
			}
			w.born[slot] = math.NaN()
			t := abi.Word(q.ring, int(slot)*abi.SlotWords+abi.SlotTenant)
			if t >= abi.TenantCount {
				continue
			}
			if at != run.at {
				w.flush(&run, p, now)
				run.at = at
			}
			run.tenant[t]++
			run.n++
		}
		w.flush(&run, p, now)
		w.endFrom[p] = to
	}
}

// endRun is the ended items of one partition and publish time, per
// tenant.
type endRun struct {
	at     float64
	n      uint32
	tenant [abi.TenantCount]uint32
}

// flush records r's ends at now, and empties it.
func (w *Waits) flush(r *endRun, p uint32, now float64) {
	if r.n == 0 {
		return
	}
	wait := now - r.at
	for t, n := range r.tenant {
		if n != 0 {
			g := &w.tenant[t]
			g.hist.AddN(wait, uint64(n))
			g.leave(r.at, n)
			r.tenant[t] = 0
		}
	}
	g := &w.priority[p]
	g.hist.AddN(wait, uint64(r.n))
	g.leave(r.at, r.n)
	r.n = 0
}
