package diagnose

import (
	"strconv"

	"github.com/ringscope/ringscope/decode"
)

// The rules of how work ends: faults, refused spawns, a log that
// overflows, and the stall no other rule explains.

func (r *rules) faultStorm(dst []Cause) []Cause {
	done := float64(r.cur.done - r.old.done)
	faults := float64(r.cur.faults - r.old.faults)
	whole, final := r.ended()
	if done < FaultMinDone && whole {
		// A workload that ended with too few completions for the window
		// to judge (a test's 16 items, a host's small batch): it is
		// judged whole, on the generation's counters, which a ring
		// ringscope runs and one attached count alike.
		done, faults = float64(r.cur.done), float64(r.cur.faults)
		if faults == 0 {
			return dst
		}
	} else if done < FaultMinDone {
		return dst
	}
	if share(faults, done) < FaultShare {
		return dst
	}
	if final {
		r.d.final.add(FaultStorm)
	}
	var codes, ops tally
	for k := range r.d.frames() {
		s := r.d.at(k)
		codes.merge(&s.faultCodes)
		ops.merge(&s.faultOps)
	}
	topCode, topN, logged := codes.top()
	top := decode.FaultCode(topCode)
	op, opN, _ := ops.top()
	// One storm, the ring's: its subject is the opcode of most fault
	// records now, which may change from frame to frame (Kind.ringWide).
	c := Cause{Kind: FaultStorm, Subject: NoSubject}
	if opN > 0 {
		c.Subject = OpcodeSubject(op, "")
	}
	c.Evidence.Add("share", share(faults, done))
	c.Evidence.Add("faults", faults)
	c.Evidence.Add("completed", done)
	topShare := 0.0
	if logged > 0 {
		c.Evidence.AddText("topFault", top.String())
		if !codes.lossy {
			// With more codes than the tally holds its counts are upper
			// bounds: no share is claimed.
			topShare = share(float64(topN), float64(logged))
			c.Evidence.Add("topFaultShare", topShare)
		}
	}
	// Worded, and the opcode named (a name may be formatted), when the
	// named facts change: the code, whether it is most of the records, the
	// opcode.
	if r.wantFixNaming(&c, "topFault") || (r.trackedFact(&c, "topFaultShare").Value > 0.5) != (topShare > 0.5) {
		c.Fix = "A large share of completions fault"
		switch {
		case codes.lossy:
			c.Fix += ", with many codes, " + top.String() + " among the most frequent"
		case topShare > 0.5:
			c.Fix += ", most of them with " + top.String()
		case logged > 0:
			c.Fix += ", with " + top.String() + " more often than any other code"
		}
		if c.Subject.Opcode >= 0 {
			c.Subject.Name = r.f.opName(op)
			c.Fix += ", most often from " + c.Subject.Name
		}
		if logged == 0 && r.in.Log != nil && r.in.Log.Dropped > 0 {
			// A full log keeps the generation's first records and drops
			// the rest: these faults left none to name.
			c.Fix += ": the log is full, so these faults left no record to name their code; open the ring again (or raise its log capacity) to see them."
		} else {
			c.Fix += ": read the log panel's fault records and fix what publishes them."
		}
	}
	return append(dst, c)
}

// ended reports a workload that ended: no slot left to run (FAULT slots a
// host kernel leaves in place, where ringscope's runner reclaims its own,
// are no work), and either nothing completed since the frame before or the
// host's drain found nothing left (Facts.Drained). Its counters no longer
// move, so a rule judges it whole; and, final, at once, unless this is the
// first frame (which has no frame before to tell): a drain of one
// submission returns that verdict.
func (r *rules) ended() (whole, final bool) {
	whole = r.cur.active == 0 && (r.f.Drained || r.cur.done == r.prev.done)
	return whole, whole && (r.f.Drained || r.d.frames() >= 2)
}

// logOverflow blames the log when one frame's records alone overflow it.
// The log is append-only for a generation, so any log that keeps logging
// fills in the end (the log panel says so); what no reading of the log can
// recover is a frame that wrote more records than the log holds at all.
func (r *rules) logOverflow(dst []Cause) []Cause {
	l := r.in.Log
	written := r.cur.logCursor - r.prev.logCursor
	if l == nil || l.Dropped == 0 || r.d.frames() < 2 || written <= l.Capacity {
		return dst
	}
	c := Cause{Kind: LogOverflow, Subject: NoSubject}
	c.Evidence.Add("dropped", float64(l.Dropped))
	c.Evidence.Add("capacity", float64(l.Capacity))
	c.Evidence.Add("recordsPerFrame", float64(written))
	switch {
	case !r.wantFix(&c):
	case r.f.Attached:
		c.Fix = "One frame writes more log records than the host's log buffer holds: the host must give it room for " +
			strconv.FormatUint(uint64(max(2*written, 64)), 10) + " records, or log less."
	default:
		c.Fix = "One frame writes more log records than the log holds: raise its capacity (open({logCapacity: " +
			strconv.FormatUint(uint64(max(2*written, 64)), 10) + "})) or log less."
	}
	return append(dst, c)
}

func (r *rules) noProgress(dst []Cause) []Cause {
	if !r.stalled() {
		return dst
	}
	o := &r.in.Ring.Occupancy
	c := Cause{Kind: NoProgress, Subject: NoSubject}
	c.Evidence.Add("queued", float64(r.cur.queue))
	c.Evidence.Add("published", float64(o[decode.StatusPublished]))
	c.Evidence.Add("claimed", float64(o[decode.StatusClaimed]))
	c.Evidence.Add("yield", float64(o[decode.StatusYield]))
	c.Evidence.Add("waitIO", float64(o[decode.StatusWaitIO]))
	c.Evidence.Add("requeue", float64(o[decode.StatusRequeue]))
	c.Evidence.Add("stalledMs", r.in.Watchdog.StalledForMillis)
	if o[decode.StatusYield] > 0 && r.f.Yielded > 0 {
		// The host republishes YIELD slots of unmasked tenants at once, so
		// a stall with YIELD slots is an opcode that yields every time.
		c.Evidence.Add("opcode", float64(r.f.YieldOpcode))
		if r.wantFixNaming(&c, "opcode") {
			name := r.f.opName(r.f.YieldOpcode)
			c.Fix = "Slots of " + name + " end YIELD every time they run and are published again, so they never complete: " +
				"give " + name + " a way to finish (complete once what it waits for is there, or FAULT after N tries)."
		}
		return append(dst, c)
	}
	c.Fix = "Work is queued and nothing completes, and no rule explains it: inspect the oldest queued slots (the slot map's PUBLISHED, CLAIMED, YIELD, WAIT_IO and REQUEUE)."
	return append(dst, c)
}

// spawnRefused: spawns were refused over the window. A full partition's
// refusals are the spawner's to handle (spawn returned false), but work
// the program meant to make was not made; a bad request's are a bug.
func (r *rules) spawnRefused(dst []Cause) []Cause {
	if r.in.Spawn == nil {
		return dst
	}
	old := r.old
	if r.d.seq <= windowFrames {
		// The window reaches back to the ring's first frame: count from
		// the ring's start (the spawn state's counters restart with it),
		// so refusals before that frame count (a drain of one submission
		// made them all).
		old = &sample{}
	}
	full, bad := r.cur.spawnFull-old.spawnFull, r.cur.spawnBad-old.spawnBad
	spawned := r.cur.spawned - old.spawned
	if full+bad == 0 {
		return dst
	}
	if _, final := r.ended(); final {
		r.d.final.add(SpawnRefused)
	}
	c := Cause{Kind: SpawnRefused, Subject: NoSubject}
	c.Evidence.Add("refusedFull", float64(full))
	c.Evidence.Add("refusedBad", float64(bad))
	c.Evidence.Add("spawned", float64(spawned))
	c.Evidence.Add("share", share(float64(full+bad), float64(full+bad+spawned)))
	switch {
	case bad > 0:
		c.Fix = "spawn named an opcode the kernel lacks, a tenant the ring does not run or a priority past IDLE: " +
			"the log's SPAWN_* records name the spawning slot and the opcode."
	case spawned == 0 && r.cur.active > 0:
		// Every spawn refused while work is queued: the partition is full
		// of the spawners themselves (requeued or yielding ones keep their
		// slots), so waiting frees nothing.
		c.Fix = "No spawn found room: the spawners' own slots fill their partition, and a spawner that requeues " +
			"when spawn returns false keeps its slot. Size the ring for the widest frontier (open({slots})), or " +
			"spawn at another priority than the spawners'."
	default:
		c.Fix = "Spawns found their partition full: size the ring for the widest frontier (open({slots})), spread " +
			"spawns over the priorities, or requeue the spawner when spawn returns false."
	}
	return append(dst, c)
}
