package diagnose

import (
	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/internal/nocompare"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// Diagnoser turns each frame into a Diagnosis. It keeps the counters of the
// frames before (the rules ask what rose and what did not) and each
// cause's hysteresis. The zero value is ready (New is the same). A Diagnoser
// is not safe for concurrent use; Observe allocates only when a cause
// first appears or its fix is reworded.
type Diagnoser struct {
	// hist holds the last windowFrames frames' counters, oldest first
	// once full (a ring indexed by seq).
	hist [windowFrames]sample
	seq  int
	// tenantSince and prioritySince are, per tenant and priority, when its
	// claim counter last rose or it last had nothing queued: the start of
	// its wait.
	tenantSince   [abi.TenantSlots]float64
	prioritySince [abi.PriorityLevels]float64

	tracked []tracked
	cands   []Cause
	// final holds, by kind, the causes this frame judged on a workload
	// that ended (rules.ended): its counters no longer move, so the next
	// frame would only repeat the verdict, and a drain that ends on this
	// frame must not return without it.
	final kindSet
	// settled says this frame's workload ended (rules.ended, final): a
	// cause whose rule does not hold on it clears at once, since nothing
	// will move its counters (a drain's one frame must not return the
	// verdict on the drain before).
	settled bool
	out     Diagnosis
}

// windowFrames is how many frames the rules look back over.
const windowFrames = 8

// sample is the part of one frame the rules compare across frames.
type sample struct {
	_ nocompare.T

	at         float64
	done       uint32
	faults     uint32
	denied     uint32
	exhausted  uint32
	dispatches uint32
	queue      uint32
	active     uint32 // slots in an active status: work left to run
	backlog    uint32 // PUBLISHED slots: queued and not yet claimed
	requeues   uint64
	logCursor  uint32
	published  uint64
	refused    [abi.PriorityLevels]uint64
	// spawned, spawnFull and spawnBad are the spawn state's counters.
	spawned, spawnFull, spawnBad uint32
	tenant                       [abi.TenantSlots]uint32
	priority                     [abi.PriorityLevels]uint32
	// faultCodes and faultOps count this frame's fault records by code
	// and by opcode.
	faultCodes, faultOps tally
}

// tracked is a cause under hysteresis: seen counts consecutive frames its
// rule held, missed consecutive frames it did not.
type tracked struct {
	_ nocompare.T

	cause        Cause
	seen, missed int
	active       bool
}

// New returns a Diagnoser with no history.
func New() *Diagnoser { return &Diagnoser{} }

// Reset forgets the history, as when the ring is re-opened.
func (d *Diagnoser) Reset() {
	*d = Diagnoser{tracked: d.tracked[:0], cands: d.cands[:0], out: Diagnosis{Causes: d.out.Causes[:0]}}
}

// Observe diagnoses one frame. The result is valid until the next Observe.
func (d *Diagnoser) Observe(in *Input, f *Facts) *Diagnosis {
	if in == nil || in.Ring == nil {
		d.out.Health, d.out.Causes = Idle, d.out.Causes[:0]
		return &d.out
	}
	if f == nil {
		f = &Facts{}
	}
	if in.Watchdog != nil && in.Watchdog.Health.Reset {
		at := in.AtMillis
		d.Reset()
		d.tenantSince, d.prioritySince = fill32(at), fill5(at)
	}
	cur := d.record(in, f)
	d.final = 0
	r := rules{in: in, f: f, cur: cur, prev: d.at(1), old: d.oldest(), d: d}
	d.cands = r.all(d.cands[:0])
	_, d.settled = r.ended()
	d.track(in.AtMillis)
	d.dropFallback(r.stalled())
	d.out.Health = r.health(len(d.out.Causes) > 0)
	if d.out.Health == Stalled && len(d.out.Causes) == 0 {
		// A stall names a cause from its first frame: the watchdog's
		// verdict needs no confirm frames, and "stalled, cause none" told
		// the user nothing. Until a rule's cause is confirmed, the
		// fallback's evidence (what is queued) is what is known.
		d.out.Causes = r.noProgress(d.out.Causes)
	}
	return &d.out
}

// dropFallback takes no-progress, the stall no rule explains, out of the
// causes shown while another cause is shown beside it or the ring is not
// stalled: a tracked cause lingers for its clear frames, and no-progress
// lingered beside the cause that explained the stall, or under degraded.
// The causes are in kind order and NoProgress is the last kind, so it is
// at the end.
func (d *Diagnoser) dropFallback(stalled bool) {
	out := d.out.Causes
	n := len(out)
	if n > 0 && out[n-1].Kind == NoProgress && (n > 1 || !stalled) {
		d.out.Causes = out[:n-1]
	}
}

// record appends this frame's sample and updates the wait clocks.
func (d *Diagnoser) record(in *Input, f *Facts) *sample {
	c := &in.Ring.Control
	prev := d.at(0)
	first := d.seq == 0
	d.seq++
	s := &d.hist[(d.seq-1)%windowFrames]
	*s = sample{at: in.AtMillis, done: c.DoneCount, faults: c.Faults, denied: c.Denied, exhausted: c.BudgetExhausted,
		dispatches: c.Dispatches, queue: in.Ring.Occupancy.QueueDepth(), active: in.Ring.Occupancy.ActiveSlots(), backlog: in.Ring.Occupancy[decode.StatusPublished], refused: f.Refused, published: f.Published,
		tenant: c.TenantFairness, priority: c.PriorityFairness}
	if in.Requeues != nil {
		s.requeues = in.Requeues.RequeueCount + in.Requeues.AgedPromotions
	}
	if in.Spawn != nil {
		s.spawned, s.spawnFull, s.spawnBad = in.Spawn.Spawned, in.Spawn.RefusedFull, in.Spawn.RefusedBad
	}
	if l := in.Log; l != nil {
		s.logCursor = l.Cursor
		// Only the records new since the frame before: the log is the
		// generation's, so once it is full its records are the first
		// faults, and counting them every frame named those for ever.
		from := 0
		if !first && l.Cursor >= prev.logCursor {
			from = int(min(prev.logCursor, uint32(len(l.Records))))
		}
		s.tallyFaults(l.Records[from:])
	}
	a := &in.Ring.Active
	for t := range abi.TenantSlots {
		if first || a.Tenant[t] == 0 || s.tenant[t] != prev.tenant[t] {
			d.tenantSince[t] = in.AtMillis
		}
	}
	for p := range abi.PriorityLevels {
		if first || a.Priority[p] == 0 || s.priority[p] != prev.priority[p] {
			d.prioritySince[p] = in.AtMillis
		}
	}
	return s
}

// at returns the sample of k frames ago (0: the latest); the latest when
// fewer frames were seen.
func (d *Diagnoser) at(k int) *sample {
	if d.seq == 0 {
		return &d.hist[0]
	}
	k = min(k, d.seq-1, windowFrames-1)
	return &d.hist[(d.seq-1-k)%windowFrames]
}

// oldest is the oldest sample in the window.
func (d *Diagnoser) oldest() *sample { return d.at(windowFrames - 1) }

// frames is how many samples the window holds.
func (d *Diagnoser) frames() int { return min(d.seq, windowFrames) }

// track folds this frame's candidate causes into the tracked ones: a cause
// becomes active once its rule held for its kind's confirm frames, and
// stops being active after clearFrames frames without it.
func (d *Diagnoser) track(at float64) {
	for i := range d.tracked {
		d.tracked[i].missed++
	}
	for _, c := range d.cands {
		i := d.find(c.Kind, c.Subject)
		if i < 0 {
			d.tracked = append(d.tracked, tracked{cause: c})
			i = len(d.tracked) - 1
		}
		t := &d.tracked[i]
		fix, name, since, op := t.cause.Fix, t.cause.Subject.Name, t.cause.SinceMillis, t.cause.Subject.Opcode
		t.cause = c
		if c.Fix == "" {
			t.cause.Fix = fix
		}
		// A name is its opcode's: a ring-wide cause whose subject moved
		// to another opcode, or to none, does not keep it.
		if c.Subject.Name == "" && c.Subject.Opcode == op {
			t.cause.Subject.Name = name
		}
		t.seen, t.missed = t.seen+1, 0
		if !t.active && (t.seen >= confirmFrames(c.Kind) || d.final.has(c.Kind)) {
			t.active, since = true, at
		}
		t.cause.SinceMillis = since
	}
	kept := d.tracked[:0]
	for _, t := range d.tracked {
		switch {
		case t.missed == 0:
		case !t.active || t.missed >= clearFrames || t.cause.Kind.certain() || d.settled:
			continue
		default:
			t.seen = 0
		}
		kept = append(kept, t)
	}
	d.tracked = kept
	d.out.Causes = d.out.Causes[:0]
	// By kind; within a kind, causes about a tenant first (a starved
	// tenant names the hot one; a starved priority does not).
	for k := DeviceLost; k < kindEnd; k++ {
		for pass := range 2 {
			for _, t := range d.tracked {
				if t.active && t.cause.Kind == k && (t.cause.Subject.Tenant == None) == (pass == 1) {
					d.out.Causes = append(d.out.Causes, t.cause)
				}
			}
		}
	}
}

func (d *Diagnoser) find(k Kind, s Subject) int {
	for i := range d.tracked {
		if d.tracked[i].cause.Kind == k && (k.ringWide() || d.tracked[i].cause.Subject.same(s)) {
			return i
		}
	}
	return -1
}

// clearFrames is how many frames in a row a cause's rule must fail before
// the cause clears: one quiet frame is not a recovery.
const clearFrames = 3

// confirmFrames is how many frames in a row a rule must hold before its
// cause shows. Facts the host knows for certain show at once.
func confirmFrames(k Kind) int {
	if k.certain() || k == Shutdown {
		return 1
	}
	return 2
}

// certain says whether a cause of kind k is a fact, not a reading of
// counters (a lost device, a submission past its grace, a control buffer
// of another layout): it shows at once and clears at once.
func (k Kind) certain() bool {
	return k == DeviceLost || k == SubmissionStuck || k == ForeignControl
}

// tallyFaults counts this frame's new fault records by code and opcode. A
// refused spawn's record is not a slot's fault (the spawner went on):
// spawn-refused counts those.
func (s *sample) tallyFaults(records []decode.LogRecord) {
	for _, r := range records {
		code := r.FaultCode()
		if code == 0 || code.SpawnRefusal() {
			continue
		}
		s.faultCodes.add(uint32(code), 1)
		s.faultOps.add(r.A, 1)
	}
}

// tally counts the keys of a frame or a window (opcodes, fault codes: a
// user's are any of 65,536): exactly while it has seen at most
// len(key) keys, and past that the most frequent kept (space-saving: a
// new key takes the least count's place and adds to it, so counts are
// upper bounds, lossy says so, and they still sum to every add).
type tally struct {
	key   [8]uint32
	n     [8]uint32
	lossy bool
}

// add counts key n more times.
func (t *tally) add(key, n uint32) {
	low := 0
	for i := range t.key {
		if t.n[i] > 0 && t.key[i] == key {
			t.n[i] += n
			return
		}
		if t.n[i] < t.n[low] {
			low = i
		}
	}
	t.lossy = t.lossy || t.n[low] > 0
	t.key[low], t.n[low] = key, t.n[low]+n
}

// merge counts every key of o into t.
func (t *tally) merge(o *tally) {
	t.lossy = t.lossy || o.lossy
	for i, n := range o.n {
		if n > 0 {
			t.add(o.key[i], n)
		}
	}
}

// top is the most counted key, its count and the count of every key.
func (t *tally) top() (key, n, total uint32) {
	best := 0
	for i, c := range t.n {
		total += c
		if c > t.n[best] {
			best = i
		}
	}
	return t.key[best], t.n[best], total
}

// kindSet is a set of cause kinds.
type kindSet uint32

func (s *kindSet) add(k Kind)     { *s |= 1 << k }
func (s kindSet) has(k Kind) bool { return s&(1<<k) != 0 }

func fill32(v float64) (a [abi.TenantSlots]float64) {
	for i := range a {
		a[i] = v
	}
	return a
}

func fill5(v float64) (a [abi.PriorityLevels]float64) {
	for i := range a {
		a[i] = v
	}
	return a
}
