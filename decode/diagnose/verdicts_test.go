package diagnose

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// stepSpawn is ring.step with a spawn state.
func (r *ring) stepSpawn(d *Diagnoser, ms float64, sp *decode.SpawnTelemetry) *Diagnosis {
	r.t += ms
	r.tel.Control.Dispatches++
	r.ws = r.wd.Observe(r.t, &r.tel)
	return d.Observe(&Input{AtMillis: r.t, Ring: &r.tel, Watchdog: &r.ws, Log: &r.log, Requeues: &r.acct, Spawn: sp}, &r.facts)
}

// A drain whose one submission ran a small faulting workload to its end
// returns its verdict: the host says the ring drained (Facts.Drained), so
// the work is judged whole at once, not two frames later (there are none).
func TestADrainedWorkloadIsJudgedAtOnce(t *testing.T) {
	d, r := New(), newRing(4096, 1)
	for range 3 { // the live frames before the drain: nothing runs
		r.step(d, 100)
	}
	r.complete(0, 2, 200, 100)
	r.facts.Drained = true
	got := r.step(d, 100)
	require.Equal(t, []string{"fault-storm"}, kinds(got), "the drain's one frame")
	assert.Equal(t, Degraded, got.Health)

	// The same frame without the host's word waits for a second.
	d, r = New(), newRing(4096, 1)
	for range 3 {
		r.step(d, 100)
	}
	r.complete(0, 2, 200, 100)
	assert.Empty(t, kinds(r.step(d, 100)), "work just completed may go on")
	assert.Equal(t, []string{"fault-storm"}, kinds(r.step(d, 100)), "nothing since: ended, at once")

	// A drained workload without faults is no storm.
	d, r = New(), newRing(4096, 1)
	r.step(d, 100)
	r.complete(0, 2, 200, 0)
	r.facts.Drained = true
	assert.Empty(t, kinds(r.step(d, 100)))
}

// Refusals a spawning workload met before the window's first frame still
// name it once the work ended: a drain of one submission refused 24
// spawns, and the verdict says so at once.
func TestSpawnRefusedOfAnEndedWorkload(t *testing.T) {
	d, r := New(), newRing(64, 1)
	sp := decode.SpawnTelemetry{}
	r.stepSpawn(d, 100, &sp)
	sp.Spawned, sp.RefusedFull = 38, 24
	r.complete(0, 2, 39, 0)
	r.facts.Drained = true
	got := r.stepSpawn(d, 100, &sp)
	require.Equal(t, []string{"spawn-refused"}, kinds(got))
	full, _ := got.First().Evidence.Get("refusedFull")
	assert.Equal(t, 24.0, full)
	assert.Equal(t, Degraded, got.Health)

	// Refusals in the first frame of a window, then the ring idles: the
	// delta over the window is 0, the ended work's counters are not.
	d, r = New(), newRing(64, 1)
	r.facts.Drained = false
	sp = decode.SpawnTelemetry{Spawned: 38, RefusedFull: 24}
	r.complete(0, 2, 39, 0)
	for range 4 {
		got = r.stepSpawn(d, 100, &sp)
	}
	assert.Equal(t, []string{"spawn-refused"}, kinds(got))
}

// Spawners that requeue when spawn returns false fill their own partition:
// no spawn succeeds while work is queued. The fix says that requeuing is
// what holds the slots, not to requeue.
func TestSpawnRefusedWhileNothingSpawnsBlamesTheSpawnersSlots(t *testing.T) {
	d, r := New(), newRing(64, 1)
	r.queue(0, 2, 16)
	sp := decode.SpawnTelemetry{}
	var got *Diagnosis
	for range 4 {
		sp.RefusedFull += 16
		got = r.stepSpawn(d, 100, &sp)
	}
	require.True(t, got.Has(SpawnRefused))
	var c Cause
	for _, x := range got.Causes {
		if x.Kind == SpawnRefused {
			c = x
		}
	}
	assert.Contains(t, c.Fix, "spawners' own slots")
	assert.NotContains(t, c.Fix, "or requeue the spawner")
}

// User fault codes are told apart (each of 65,536), and a refused spawn's
// log record is not a fault of the storm.
func TestFaultStormNamesTheUserFaultCode(t *testing.T) {
	d, r := New(), newRing(4096, 1)
	var got *Diagnosis
	for range 3 {
		r.complete(0, 2, 100, 60)
		r.log.Records = r.log.Records[:0]
		for i := range 60 {
			code := abi.FaultUserFirst + 42
			if i%4 == 0 {
				code = abi.FaultUserFirst + 7
			}
			r.log.Records = append(r.log.Records, decode.LogRecord{Format: abi.LogFaultTag | uint32(code), A: 0x12})
		}
		for range 100 { // refused spawns outnumber them: not faults
			r.log.Records = append(r.log.Records, decode.LogRecord{Format: abi.LogFaultTag | uint32(decode.FaultSpawnTenant), A: 0x13})
		}
		got = r.step(d, 100)
	}
	require.True(t, got.Has(FaultStorm))
	c := got.First()
	top, _ := c.Evidence.lookup("topFault")
	assert.Equal(t, "USER_FAULT(42)", top.Text)
	share, _ := c.Evidence.Get("topFaultShare")
	assert.InDelta(t, 0.75, share, 1e-9)
	assert.Contains(t, c.Fix, "most of them with USER_FAULT(42)")
	assert.Equal(t, int64(0x12), c.Subject.Opcode)
}

func TestTallyKeepsTheFrequentKeys(t *testing.T) {
	var tl tally
	for i := range 1000 {
		tl.add(uint32(i%7), 1) // six rare keys
		if i%2 == 0 {
			tl.add(1000, 2)
		}
	}
	key, n, total := tl.top()
	assert.Equal(t, uint32(1000), key)
	assert.GreaterOrEqual(t, n, uint32(1000))
	assert.Equal(t, uint32(2000), total, "the counts sum to every add")
	var m tally
	m.merge(&tl)
	m.merge(&tl)
	key, _, total = m.top()
	assert.Equal(t, uint32(1000), key)
	assert.Equal(t, uint32(4000), total)
}

// On an attached ring ringscope's setters refuse (the host's code owns
// its control buffer): a fix names what the host must change instead.
func TestAnAttachedRingsFixesNameTheHostsBuffers(t *testing.T) {
	d, r := New(), newRing(4096, 2)
	r.facts = Facts{Attached: true}
	r.tel.Control.TenantMasks[1] = 0
	r.queue(1, 2, 100)
	r.tel.Control.Shutdown = true
	var got *Diagnosis
	for range 6 {
		got = r.step(d, 100)
	}
	require.True(t, got.Has(MaskedTenant))
	require.True(t, got.Has(Shutdown))
	for _, c := range got.Causes {
		assert.NotContains(t, c.Fix, "setTenantMask", c.Kind.String())
		assert.NotContains(t, c.Fix, "setShutdown", c.Kind.String())
		switch c.Kind {
		case MaskedTenant:
			assert.Contains(t, c.Fix, "control word 4")
		case Shutdown:
			assert.Contains(t, c.Fix, "control word 0")
		}
	}
}

// A control buffer that is not ringscope's ABI (a host overwrote MAGIC,
// or attached another layout) is one cause, foreign-control: its words
// are no counters, so the storm its all-ones FAULTS would make is not
// reported. A legacy vyre dump (MAGIC 0) is no foreign buffer.
func TestAForeignControlBufferIsOneCause(t *testing.T) {
	d, r := New(), newRing(4096, 1)
	r.facts = Facts{Attached: true}
	r.tel.Control.Magic = 0xDEADBEEF
	var got *Diagnosis
	for range 4 {
		r.complete(0, 2, 1000, 900)
		r.log.Records = []decode.LogRecord{{Format: abi.LogFaultTag | abi.FaultUnknownOpcode, A: 0x7777}}
		got = r.step(d, 100)
	}
	require.Equal(t, []string{"foreign-control"}, kinds(got))
	assert.Equal(t, Degraded, got.Health)
	magic, _ := got.First().Evidence.Get("magic")
	assert.Equal(t, float64(0xDEADBEEF), magic)
	assert.Contains(t, got.First().Fix, "0x31435352")

	r.tel.Control.Magic = abi.Magic
	r.tel.Control.ABIVersion = 9
	assert.True(t, r.step(d, 100).Has(ForeignControl), "a wrong ABI_VERSION")
	r.tel.Control.ABIVersion = abi.Version
	got = r.step(d, 100)
	assert.False(t, got.Has(ForeignControl), "cleared at once when it is v1 again")

	d, r = New(), newRing(4096, 1)
	r.tel.Control.Magic, r.tel.Control.Legacy = 0, true
	assert.False(t, r.step(d, 100).Has(ForeignControl), "a legacy vyre dump")
}

// The host knows which opcode its requeue pass republished (host.
// RequeueStats.YieldOpcode, RequeueOpcode): a requeue loop and a yield-forever stall name
// it and say what to change in it.
func TestLoopsNameTheirOpcode(t *testing.T) {
	names := map[uint32]string{0x21: "looper", 0x22: "waiter"}
	d, r := New(), newRing(4096, 2)
	r.facts.OpcodeName = func(op uint32) string { return names[op] }
	r.facts.Requeued, r.facts.RequeueOpcode = 20, 0x21
	r.tel.Occupancy[decode.StatusRequeue], r.tel.Occupancy[decode.StatusEmpty] = 20, 4096-20
	var got *Diagnosis
	for range 4 {
		r.acct.RequeueCount += 20
		got = r.step(d, 100)
	}
	c := got.First()
	require.Equal(t, RequeueLoop, c.Kind)
	assert.Equal(t, "looper", c.Subject.Name)
	assert.Contains(t, c.Fix, "give looper an exit")

	// Slots that yield every time: a stall of YIELD slots the host keeps
	// publishing again.
	d, r = New(), newRing(4096, 2)
	r.facts.OpcodeName = func(op uint32) string { return names[op] }
	r.facts.Yielded, r.facts.YieldOpcode = 50, 0x22
	r.queue(0, 2, 50)
	r.tel.Occupancy[decode.StatusPublished], r.tel.Occupancy[decode.StatusYield] = 0, 50
	for range 6 {
		got = r.step(d, 100)
	}
	require.Equal(t, Stalled, got.Health)
	c = got.First()
	require.Equal(t, NoProgress, c.Kind)
	assert.Contains(t, c.Fix, "Slots of waiter end YIELD every time")
	op, _ := c.Evidence.Get("opcode")
	assert.Equal(t, float64(0x22), op)

	// Seen from outside (no requeue pass of ours): as before.
	d, r = New(), newRing(4096, 2)
	r.tel.Occupancy[decode.StatusRequeue], r.tel.Occupancy[decode.StatusEmpty] = 20, 4096-20
	for range 4 {
		r.acct.RequeueCount += 20
		got = r.step(d, 100)
	}
	assert.Equal(t, "REQUEUE", got.First().Subject.Name)
}

// A drain after a drain: the second's one frame must not return the
// first's verdict. On a workload that ended, a cause whose rule no longer
// holds clears at once (nothing will move its counters).
func TestASecondDrainDoesNotKeepTheFirstsVerdict(t *testing.T) {
	d, r := New(), newRing(4096, 1)
	r.step(d, 100)
	r.complete(0, 2, 16, 8)
	r.facts.Drained = true
	require.True(t, r.step(d, 100).Has(FaultStorm), "the first drain: 8 of 16 fault")
	r.complete(0, 2, 600, 0)
	got := r.step(d, 100)
	assert.Empty(t, kinds(got), "the second drain, 600 clean: %+v", got.Causes)
	assert.NotEqual(t, Degraded, got.Health)
}

// Refusals of an earlier workload do not blame a later clean one, nor
// stay on an idle ring: past the window's reach to the ring's first
// frame, only the window's refusals count.
func TestSpawnRefusedOfAnEarlierWorkloadClears(t *testing.T) {
	d, r := New(), newRing(4096, 1)
	sp := decode.SpawnTelemetry{Spawned: 38, RefusedFull: 24}
	r.complete(0, 2, 39, 0)
	r.facts.Drained = true
	require.True(t, r.stepSpawn(d, 100, &sp).Has(SpawnRefused))
	r.facts.Drained = false
	var got *Diagnosis
	for range 40 { // the next workload spawns 100 a frame, none refused
		sp.Spawned += 100
		r.complete(0, 2, 100, 0)
		got = r.stepSpawn(d, 100, &sp)
	}
	assert.False(t, got.Has(SpawnRefused))
	r.facts.Drained = true
	assert.False(t, r.stepSpawn(d, 100, &sp).Has(SpawnRefused), "its drain")
	r.facts.Drained = false
	for range 100 {
		got = r.stepSpawn(d, 100, &sp)
	}
	assert.False(t, got.Has(SpawnRefused), "idle")
}

// With more fault codes in the window than the tally holds exactly, no
// share is claimed: its counts are upper bounds.
func TestFaultStormWithManyCodesClaimsNoShare(t *testing.T) {
	d, r := New(), newRing(4096, 1)
	var got *Diagnosis
	for frame := range 3 {
		r.complete(0, 2, 100, 60)
		r.log.Records = r.log.Records[:0]
		for i := range 60 {
			code := abi.FaultUserFirst + uint32(frame*20+i%20) // 60 codes over the window
			r.log.Records = append(r.log.Records, decode.LogRecord{Format: abi.LogFaultTag | code, A: 0x12})
		}
		got = r.step(d, 100)
	}
	require.True(t, got.Has(FaultStorm))
	c := got.First()
	_, claimed := c.Evidence.Get("topFaultShare")
	assert.False(t, claimed)
	assert.Contains(t, c.Fix, "with many codes")
	assert.NotContains(t, c.Fix, "most of them")

	// Five codes fit: the top one is the true top (22 of 100).
	d, r = New(), newRing(4096, 1)
	for range 3 {
		r.complete(0, 2, 100, 100)
		r.log.Records = r.log.Records[:0]
		for code, n := range []int{20, 20, 20, 22, 18} {
			for range n {
				r.log.Records = append(r.log.Records, decode.LogRecord{Format: abi.LogFaultTag | (abi.FaultUserFirst + uint32(code+1)), A: 0x12})
			}
		}
		got = r.step(d, 100)
	}
	top, _ := got.First().Evidence.lookup("topFault")
	assert.Equal(t, "USER_FAULT(4)", top.Text)
}

// A stuck submission is stalled whatever its control buffer says.
func TestAStuckSubmissionOnAForeignBufferIsStalled(t *testing.T) {
	d, r := New(), newRing(4096, 1)
	r.facts = Facts{Attached: true, StuckMillis: 2500, StuckBoundMillis: 5000}
	r.tel.Control.Magic = 0xDEADBEEF
	got := r.step(d, 100)
	assert.Equal(t, Stalled, got.Health)
	assert.Equal(t, []string{"submission-stuck", "foreign-control"}, kinds(got))
}

// The log is the generation's: once full it keeps its first records. A
// storm is named by the records new since the frame before, so a later
// storm of another code is named for what it is, and one that left no
// record names none, where the first faults were named for ever.
func TestFaultStormFollowsNewRecordsNotAFullLog(t *testing.T) {
	d, r := New(), newRing(4096, 1)
	add := func(n int, code, op uint32) {
		for range n {
			if r.log.Cursor < r.log.Capacity {
				r.log.Records = append(r.log.Records, decode.LogRecord{Format: abi.LogFaultTag | code, A: op})
			}
			r.log.Cursor++
		}
		r.log.Dropped = r.log.Cursor - min(r.log.Cursor, r.log.Capacity)
	}
	var got *Diagnosis
	for range 2 { // 60 PROTECTED faults from STORE_U32: logged
		r.complete(0, 2, 100, 30)
		add(30, abi.FaultProtected, abi.OpStoreU32)
		got = r.step(d, 100)
	}
	require.True(t, got.Has(FaultStorm))
	top, _ := got.First().Evidence.lookup("topFault")
	assert.Equal(t, "PROTECTED", top.Text)

	for range windowFrames + 2 { // then USER_FAULT(3) from 0x12: the log fills after 4
		r.complete(0, 2, 100, 40)
		add(40, abi.FaultUserFirst+3, 0x12)
		got = r.step(d, 100)
	}
	c := got.First()
	require.NotNil(t, c)
	require.Equal(t, FaultStorm, c.Kind)
	_, logged := c.Evidence.lookup("topFault")
	assert.False(t, logged, "no record of the window's faults: no code named")
	assert.Equal(t, NoSubject, c.Subject)
	assert.Contains(t, c.Fix, "the log is full, so these faults left no record")

	// A log with room: the new code is named, not the first one.
	d, r = New(), newRing(4096, 1)
	r.log.Capacity = 1 << 16
	for range 2 {
		r.complete(0, 2, 100, 30)
		add(30, abi.FaultProtected, abi.OpStoreU32)
		r.step(d, 100)
	}
	for range windowFrames {
		r.complete(0, 2, 100, 40)
		add(40, abi.FaultUserFirst+3, 0x12)
		got = r.step(d, 100)
	}
	top, _ = got.First().Evidence.lookup("topFault")
	assert.Equal(t, "USER_FAULT(3)", top.Text)
	assert.Equal(t, int64(0x12), got.First().Subject.Opcode)
}

// A stall names a cause from its first stalled frame (the watchdog's
// verdict needs no confirm frames; the header read "stalled, cause none"),
// and no-progress, the fallback, leaves as soon as another cause explains
// the stall instead of lingering beside it for its clear frames.
func TestAStallNamesACauseAtOnceAndTheFallbackGivesWay(t *testing.T) {
	d, r := New(), newRing(4096, 1)
	r.complete(0, 2, 10, 0)
	r.step(d, 100)
	r.queue(0, 2, 10)
	var got *Diagnosis
	for i := range 20 {
		got = r.step(d, 100)
		if got.Health == Stalled {
			require.Equal(t, []string{"no-progress"}, kinds(got), "frame %d: the first stalled frame names the fallback", i)
			break
		}
	}
	require.Equal(t, Stalled, got.Health)
	got = r.step(d, 100)
	require.Equal(t, []string{"no-progress"}, kinds(got))

	r.tel.Control.Shutdown = true
	got = r.step(d, 100)
	assert.Equal(t, []string{"shutdown"}, kinds(got), "no-progress gives way to the cause that explains the stall")
	assert.Equal(t, NoProgress, kindEnd-1, "dropFallback finds no-progress at the end of the causes")
}
