package diagnose

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

func TestHealthyRingsShowNoCause(t *testing.T) {
	d, r := New(), newRing(65536, 8)
	for i := range 600 {
		r.clear()
		r.queue(i%8, i%5, 40)                   // fresh work, queued at readback
		r.tel.Occupancy[decode.StatusYield] = 4 // a few parked slots
		r.tel.Control.BudgetExhausted += uint32(i % 2)
		for tn := range 8 {
			r.complete(tn, tn%5, 500, uint32(tn%2)) // under 1% faults
		}
		r.log.Records = []decode.LogRecord{{Format: abi.LogFaultTag | abi.FaultUserFault, A: abi.OpRaise}}
		got := r.step(d, 100)
		require.Empty(t, got.Causes, "frame %d: %v", i, kinds(got))
		require.Equal(t, Progressing, got.Health, "frame %d", i)
	}
}

func TestIdleIsNothingQueuedNothingDone(t *testing.T) {
	d, r := New(), newRing(4096, 2)
	for range 5 {
		assert.Equal(t, Idle, r.step(d, 100).Health)
	}
	r.complete(0, 2, 10, 0)
	assert.Equal(t, Progressing, r.step(d, 100).Health, "completions with an empty queue at readback are progress")
	assert.Equal(t, Idle, r.step(d, 100).Health)
}

func TestMaskedTenantExplainsTheStall(t *testing.T) {
	d, r := New(), newRing(4096, 8)
	r.tel.Control.TenantMasks[0] = 0
	r.queue(0, 2, 1812)
	var got *Diagnosis
	for range 6 {
		r.tel.Control.Denied += 1812
		got = r.step(d, 200)
	}
	require.Equal(t, Stalled, got.Health)
	c := got.First()
	require.NotNil(t, c)
	assert.Equal(t, MaskedTenant, c.Kind)
	assert.Equal(t, 0, c.Subject.Tenant)
	slots, _ := c.Evidence.Get("slots")
	assert.Equal(t, 1812.0, slots)
	denied, _ := c.Evidence.Get("deniedPerFrame")
	assert.Equal(t, 1812.0, denied)
	assert.Contains(t, c.Fix, "setTenantMask(0, true)")
	assert.Equal(t, []string{"masked-tenant"}, kinds(got), "one cause: tenants the ring does not run are not counted")

	// Unmasking clears it within the watchdog's intervals.
	r.tel.Control.TenantMasks[0] = 1
	for range 3 {
		r.clear()
		r.complete(0, 2, 600, 0)
		got = r.step(d, 200)
	}
	assert.Equal(t, Progressing, got.Health)
	assert.Empty(t, got.Causes)
}

func TestAFewMaskedSlotsOnAProgressingRingAreNoCause(t *testing.T) {
	d, r := New(), newRing(65536, 8)
	r.tel.Control.TenantMasks[7] = 0
	r.queue(7, 4, 16)
	for range 20 {
		r.complete(1, 2, 1000, 0)
		got := r.step(d, 100)
		require.Empty(t, got.Causes)
	}
	r.queue(7, 4, 700) // 1% of the ring
	r.complete(1, 2, 1000, 0)
	r.step(d, 100)
	r.complete(1, 2, 1000, 0)
	got := r.step(d, 100)
	assert.Equal(t, Degraded, got.Health)
	assert.Equal(t, []string{"masked-tenant"}, kinds(got))
}

func TestFaultStormNamesTheShareCodeAndOpcode(t *testing.T) {
	d, r := New(), newRing(16384, 8)
	r.facts.OpcodeName = func(op uint32) string { return map[uint32]string{0x1234: "SYS(0x1234)"}[op] }
	var got *Diagnosis
	for range 4 {
		r.complete(1, 2, 1000, 400)
		r.log.Records = r.log.Records[:0]
		for i := range 40 {
			code, op := uint32(abi.FaultUnknownOpcode), uint32(0x1234)
			if i%4 == 0 {
				code, op = abi.FaultProtected, abi.OpStoreU32
			}
			r.log.Records = append(r.log.Records, decode.LogRecord{Format: abi.LogFaultTag | code, A: op})
		}
		got = r.step(d, 100)
	}
	assert.Equal(t, Degraded, got.Health, "faults complete: degraded, not progressing")
	c := got.First()
	require.NotNil(t, c)
	assert.Equal(t, FaultStorm, c.Kind)
	share, _ := c.Evidence.Get("share")
	assert.InDelta(t, 0.4, share, 1e-9)
	assert.Equal(t, int64(0x1234), c.Subject.Opcode)
	assert.Equal(t, "SYS(0x1234)", c.Subject.Name)
	assert.Equal(t, "UNKNOWN_OPCODE", c.Evidence.Facts()[3].Text)
	assert.Contains(t, c.Fix, "most of them with UNKNOWN_OPCODE, most often from SYS(0x1234)")
}

// A storm whose fault codes and opcodes are about even (the fault-storm
// preset's four, each about a quarter): one cause while the opcode of most
// records changes from frame to frame, its name and fix following it, and
// no "most" for a code of a quarter.
func TestAnEvenFaultStormIsOneCauseThatFollowsItsTopOpcode(t *testing.T) {
	d, r := New(), newRing(16384, 8)
	names := map[uint32]string{0x1234: "USER(0x1234)", abi.OpStoreU32: "STORE_U32"}
	r.facts.OpcodeName = func(op uint32) string { return names[op] }
	codes := []uint32{abi.FaultUnknownOpcode, abi.FaultProtected, abi.FaultOutOfBounds, abi.FaultUserFault}
	for frame := range 12 {
		r.complete(1, 2, 1000, 400)
		r.log.Records = r.log.Records[:0]
		// Each frame's records lean to one opcode, in turn.
		lean := []uint32{0x1234, abi.OpStoreU32}[frame/3%2]
		for i := range 40 {
			op := uint32(0x1234)
			if i%2 == 1 {
				op = abi.OpStoreU32
			}
			if i < 4 {
				op = lean
			}
			r.log.Records = append(r.log.Records, decode.LogRecord{Format: abi.LogFaultTag | codes[i%4], A: op})
		}
		got := r.step(d, 100)
		if frame < 1 {
			continue
		}
		require.Equal(t, []string{"fault-storm"}, kinds(got), "frame %d", frame)
		c := got.First()
		assert.Equal(t, names[uint32(c.Subject.Opcode)], c.Subject.Name, "frame %d: the name is the subject opcode's", frame)
		assert.Contains(t, c.Fix, "more often than any other code, most often from "+c.Subject.Name, "frame %d", frame)
		assert.NotContains(t, c.Fix, "most of them", "frame %d", frame)
	}
}

func TestFaultsUnderTheThresholdAreNoStorm(t *testing.T) {
	d, r := New(), newRing(16384, 8)
	for range 10 {
		r.complete(1, 2, 1000, 99)
		got := r.step(d, 100)
		require.False(t, got.Has(FaultStorm))
	}
}

// A small workload that ended with faults (16 items, 4 of them
// UNKNOWN_OPCODE, as the Playwright kit's scratch app publishes), whether
// ringscope ran it or a host kernel it attached to: too few completions
// for the window, so it is judged whole once the queue is empty.
func TestASmallFinishedWorkloadThatFaultedIsAStorm(t *testing.T) {
	d, r := New(), newRing(64, 2)
	r.queue(0, 2, 16)
	got := r.step(d, 100)
	require.False(t, got.Has(FaultStorm), "queued, nothing done yet")
	r.clear()
	r.complete(0, 2, 16, 4)
	r.log.Records = append(r.log.Records[:0], decode.LogRecord{Format: abi.LogFaultTag | abi.FaultUnknownOpcode, A: 0x4242})
	for range 3 {
		got = r.step(d, 100)
	}
	assert.Equal(t, Degraded, got.Health)
	require.Equal(t, []string{"fault-storm"}, kinds(got))
	// Attached, the host's kernel leaves its FAULT slots in place (the
	// ringscope runner reclaims its own): the same verdict.
	ad, ar := New(), newRing(64, 2)
	ar.complete(0, 2, 16, 4)
	ar.tel.Occupancy[decode.StatusFault], ar.tel.Occupancy[decode.StatusEmpty] = 4, 60
	ar.log.Records = r.log.Records
	var att *Diagnosis
	for range 3 {
		att = ar.step(ad, 100)
	}
	require.Equal(t, []string{"fault-storm"}, kinds(att), "a host's ring, its FAULT slots unreclaimed")
	c := got.First()
	share, _ := c.Evidence.Get("share")
	assert.InDelta(t, 0.25, share, 1e-9)
	completed, _ := c.Evidence.Get("completed")
	assert.Equal(t, 16.0, completed)
	assert.Equal(t, "UNKNOWN_OPCODE", c.Evidence.Facts()[3].Text)
	// It stays: the generation's faults are still its evidence.
	for range 30 {
		got = r.step(d, 100)
	}
	assert.True(t, got.Has(FaultStorm))

	// Under the share, or no fault at all, it is no storm.
	d, r = New(), newRing(64, 2)
	r.complete(0, 2, 20, 1)
	for range 3 {
		got = r.step(d, 100)
	}
	assert.False(t, got.Has(FaultStorm), "5% of a finished workload")
	// While work is still queued, the window alone judges.
	d, r = New(), newRing(64, 2)
	r.queue(0, 2, 8)
	r.complete(0, 2, 16, 8)
	for range 3 {
		got = r.step(d, 100)
	}
	assert.False(t, got.Has(FaultStorm), "work still queued: too few completions to judge")
	// While frames still complete work, the window judges, whole
	// workloads or not: 60 a frame, a third faults, needs 64 in it.
	d, r = New(), newRing(1024, 1)
	for range 2 {
		r.complete(0, 2, 60, 20)
		got = r.step(d, 100)
	}
	assert.False(t, got.Has(FaultStorm), "work completing every frame: the window's 64 first")
}

func TestTenantStarvationNamesTheHotTenant(t *testing.T) {
	d, r := New(), newRing(65536, 4)
	r.queue(2, 3, 300)
	var got *Diagnosis
	for range 15 {
		r.complete(0, 1, 5000, 0)
		r.complete(1, 3, 100, 0)
		got = r.step(d, 100)
	}
	c := got.First()
	require.NotNil(t, c, "%v", kinds(got))
	assert.Equal(t, Starvation, c.Kind)
	assert.Equal(t, 2, c.Subject.Tenant)
	hot, _ := c.Evidence.Get("hotTenant")
	assert.Equal(t, 0.0, hot)
	age, _ := c.Evidence.Get("ageMs")
	assert.GreaterOrEqual(t, age, 1000.0)
	// Tenant 2 is claimed again: it clears.
	for range 4 {
		r.complete(2, 3, 10, 0)
		got = r.step(d, 100)
	}
	assert.False(t, got.Has(Starvation), "%v", kinds(got))
}

// The fix names the hot tenant of the evidence beside it, frame by frame,
// not the one that was hot when the cause was first seen.
func TestAStarvationFixFollowsTheHotTenant(t *testing.T) {
	d, r := New(), newRing(65536, 4)
	r.queue(2, 3, 300)
	run := func(hot int) *Cause {
		var got *Diagnosis
		for range 15 {
			r.complete(hot, 1, 5000, 0)
			r.complete(1-hot, 3, 100, 0)
			got = r.step(d, 100)
		}
		c := got.First()
		require.NotNil(t, c, "%v", kinds(got))
		require.Equal(t, Starvation, c.Kind)
		return c
	}
	for _, hot := range []int{0, 1, 0} {
		c := run(hot)
		named, _ := c.Evidence.Get("hotTenant")
		assert.Equal(t, float64(hot), named)
		assert.Contains(t, c.Fix, "while tenant "+strconv.Itoa(hot)+" takes the claims", "the fix names the evidence's hot tenant")
	}
}

// With the claims spread over the other tenants, none of them is to blame:
// the fix names no quota, and names one again when a tenant takes most.
func TestAStarvationFixNamesAQuotaOnlyForADominantTenant(t *testing.T) {
	d, r := New(), newRing(65536, 4)
	r.queue(2, 3, 300)
	run := func(claims [4]uint32) *Cause {
		var got *Diagnosis
		for range 15 {
			for tenant, n := range claims {
				if n > 0 {
					r.complete(tenant, 1, n, 0)
				}
			}
			got = r.step(d, 100)
		}
		c := got.First()
		require.NotNil(t, c, "%v", kinds(got))
		require.Equal(t, Starvation, c.Kind)
		return c
	}
	c := run([4]uint32{1000, 900, 0, 800})
	assert.NotContains(t, c.Fix, "quota", "three tenants share the claims")
	assert.Contains(t, c.Fix, "other tenants' work is claimed")
	assert.Contains(t, c.Fix, "a priority inversion or a parked slot (WAIT_IO, YIELD) ahead of it")
	assert.NotContains(t, c.Fix, "give it a higher priority", "its work may be CRITICAL already")
	c = run([4]uint32{5000, 100, 0, 100})
	assert.Contains(t, c.Fix, "publish less of tenant 0's work at a time (a quota, in Go)", "tenant 0 takes most claims")
}

func TestPriorityInversionWhenALowerPriorityRuns(t *testing.T) {
	d, r := New(), newRing(65536, 4)
	r.queue(0, abi.PriorityCritical, 50)
	var got *Diagnosis
	for range 15 {
		r.complete(1, abi.PriorityIdle, 800, 0)
		r.complete(0, abi.PriorityIdle, 10, 0) // tenant 0 runs, at IDLE
		got = r.step(d, 100)
	}
	require.True(t, got.Has(PriorityInversion), "%v", kinds(got))
	c := got.First()
	assert.Equal(t, PriorityInversion, c.Kind)
	assert.Equal(t, abi.PriorityCritical, c.Subject.Priority)
	lower, _ := c.Evidence.Get("lowerPriority")
	assert.Equal(t, float64(abi.PriorityIdle), lower)
}

func TestBudgetWhenLanesExhaustAndTheQueueGrows(t *testing.T) {
	d, r := New(), newRing(65536, 1)
	var got *Diagnosis
	for i := range 8 {
		r.queue(0, 2, 500)
		r.complete(0, 2, 300, 0)
		r.tel.Control.BudgetExhausted += 64
		got = r.step(d, 100)
		if i < BudgetFrames {
			require.False(t, got.Has(Budget))
		}
	}
	require.True(t, got.Has(Budget), "%v", kinds(got))
	c := got.Causes[0]
	assert.Contains(t, c.Fix, "budget: 128")
	// The queue stops growing: it clears once the window forgets the growth.
	for range BudgetFrames + clearFrames {
		r.complete(0, 2, 300, 0)
		r.tel.Control.BudgetExhausted += 64
		got = r.step(d, 100)
	}
	assert.False(t, got.Has(Budget))
}

func TestBackPressureNamesThePriority(t *testing.T) {
	d, r := New(), newRing(4096, 2)
	r.tel.Control.PriorityOffsets = [6]uint32{0, 800, 1600, 2400, 3200, 4096}
	// A masked tenant's YIELD slot parked in priority 3.
	r.tel.Active.Priority[3], r.tel.Occupancy[decode.StatusYield], r.tel.Occupancy[decode.StatusEmpty] = 1, 1, 4095
	var got *Diagnosis
	for range 4 {
		r.facts.Published += 900
		r.facts.Refused[3] += 100
		r.complete(0, 3, 900, 0)
		got = r.step(d, 100)
	}
	require.Equal(t, []string{"back-pressure"}, kinds(got))
	assert.Equal(t, 3, got.Causes[0].Subject.Priority)
	assert.Contains(t, got.Causes[0].Fix, "parked slot", "an empty partition that refuses is blocked, not full")
}

// TestBackPressureOfABurst: a burst filled the partition, publishes were
// refused, and the frame drained it all before its readback (seen through
// the API: a 64-slot ring, 16 NORMAL items then one more). Nothing is
// parked, so the fix must not blame a parked slot.
func TestBackPressureOfABurst(t *testing.T) {
	d, r := New(), newRing(64, 1)
	r.tel.Control.PriorityOffsets = [6]uint32{0, 12, 24, 40, 52, 64}
	var got *Diagnosis
	for range 4 {
		r.facts.Published += 16
		r.facts.Refused[2]++
		r.complete(0, 2, 16, 0)
		got = r.step(d, 20)
	}
	require.Equal(t, []string{"back-pressure"}, kinds(got))
	assert.Contains(t, got.Causes[0].Fix, "NORMAL's partition is full")
	assert.NotContains(t, got.Causes[0].Fix, "parked")
}

func TestWaitIOWithoutAService(t *testing.T) {
	d, r := New(), newRing(4096, 2)
	r.facts.IOService = false
	r.tel.Occupancy[decode.StatusWaitIO], r.tel.Occupancy[decode.StatusEmpty] = 12, 4096-12
	var got *Diagnosis
	for range 3 {
		got = r.step(d, 100)
	}
	require.Equal(t, []string{"wait-io"}, kinds(got))
	assert.Equal(t, int64(abi.OpWaitIO), got.Causes[0].Subject.Opcode)
	assert.Contains(t, got.Causes[0].Fix, "setIOService(true)")
	r.facts.IOService = true // serviced: the slots complete
	r.tel.Occupancy[decode.StatusWaitIO], r.tel.Occupancy[decode.StatusEmpty] = 0, 4096
	for range 3 {
		r.complete(0, 2, 12, 0)
		got = r.step(d, 100)
	}
	assert.Empty(t, got.Causes)
}

// An attached host ring's WAIT_IO slots are the host's to service: slots
// in WAIT_IO while work completes are routine, but a ring stalled with
// them is wait-io, not a no-progress whose evidence leaves them out.
func TestAHostRingStalledOnWaitIOIsWaitIO(t *testing.T) {
	d, r := New(), newRing(4096, 2)
	r.facts = Facts{Attached: true}
	r.tel.Occupancy[decode.StatusWaitIO], r.tel.Occupancy[decode.StatusEmpty] = 16, 4096-16
	var got *Diagnosis
	for range 3 {
		r.complete(0, 2, 50, 0)
		got = r.step(d, 100)
	}
	assert.Empty(t, got.Causes, "completing: the host answers its WAIT_IO slots")
	for range 8 {
		got = r.step(d, 100)
	}
	require.Equal(t, Stalled, got.Health)
	require.Equal(t, []string{"wait-io"}, kinds(got))
	assert.Contains(t, got.Causes[0].Fix, "the host's IO service does not answer them")
	slots, _ := got.Causes[0].Evidence.Get("slots")
	assert.Equal(t, 16.0, slots)
}

func TestRequeueLoopShutdownLogOverflowAndLoss(t *testing.T) {
	d, r := New(), newRing(4096, 2)
	r.tel.Occupancy[decode.StatusRequeue], r.tel.Occupancy[decode.StatusEmpty] = 20, 4096-20
	var got *Diagnosis
	for range 4 {
		r.acct.RequeueCount += 20
		got = r.step(d, 100)
	}
	assert.Equal(t, "requeue-loop", kinds(got)[0])

	d, r = New(), newRing(4096, 2)
	r.tel.Control.Shutdown = true
	r.queue(0, 2, 10)
	got = r.step(d, 100)
	assert.Equal(t, []string{"shutdown"}, kinds(got), "SHUTDOWN shows at once")

	d, r = New(), newRing(4096, 2)
	for range 3 { // a full log that keeps logging: the panel's business
		r.log.Cursor += 40
		r.log.Dropped = r.log.Cursor - min(r.log.Cursor, 64)
		r.complete(0, 2, 10, 0)
		got = r.step(d, 100)
	}
	assert.Empty(t, got.Causes)
	for range 2 { // a frame that writes more than the log holds
		r.log.Cursor += 100
		r.log.Dropped = r.log.Cursor - 64
		r.complete(0, 2, 10, 0)
		got = r.step(d, 100)
	}
	assert.Equal(t, []string{"log-overflow"}, kinds(got))
	assert.Contains(t, got.Causes[0].Fix, "logCapacity: 200")

	d, r = New(), newRing(4096, 2)
	r.facts.Lost, r.facts.LostReason, r.facts.InFlight = true, "runaway", []string{"SPIN_FOREVER"}
	got = r.step(d, 100)
	assert.Equal(t, Lost, got.Health)
	assert.Equal(t, "SPIN_FOREVER", got.Causes[0].Subject.Name)
	_, ok := got.Causes[0].Evidence.Get("earlierRunaways")
	assert.False(t, ok, "no earlier runaway, no such evidence")
	assert.Contains(t, got.Causes[0].Fix, "bound the loops of SPIN_FOREVER")
	// A runaway while an earlier one's work still ran: it may only have
	// waited behind it, so the fix says so instead of blaming its opcode.
	r.facts.EarlierRunaways = 1
	got = r.step(d, 100)
	v, ok := got.Causes[0].Evidence.Get("earlierRunaways")
	assert.True(t, ok)
	assert.Equal(t, 1.0, v)
	assert.Contains(t, got.Causes[0].Fix, "may have waited behind it")
	r.facts.Lost, r.facts.EarlierRunaways = false, 0
	got = r.step(d, 100)
	assert.Empty(t, got.Causes, "recovery clears the loss at once")

	// A submission outstanding past the host's grace: stalled at once,
	// naming the opcodes in flight; the next readback clears it.
	d, r = New(), newRing(4096, 2)
	r.queue(1, 2, 30)
	r.facts.StuckMillis, r.facts.StuckBoundMillis, r.facts.InFlight = 1500, 3000, []string{"spin_forever", "count"}
	got = r.step(d, 100)
	assert.Equal(t, Stalled, got.Health)
	require.Equal(t, []string{"submission-stuck"}, kinds(got))
	c := got.Causes[0]
	assert.Equal(t, "spin_forever", c.Subject.Name)
	for k, want := range map[string]float64{"waitedMs": 1500, "boundMs": 3000, "inFlight": 2} {
		v, ok := c.Evidence.Get(k)
		assert.True(t, ok, k)
		assert.Equal(t, want, v, k)
	}
	assert.Contains(t, c.Fix, "Bound the loops of spin_forever")
	r.facts.Lost, r.facts.LostReason = true, "runaway"
	got = r.step(d, 100)
	assert.Equal(t, []string{"device-lost"}, kinds(got), "the loss replaces it")
	r.facts.Lost, r.facts.StuckMillis, r.facts.InFlight = false, 0, nil
	got = r.step(d, 100)
	assert.NotContains(t, kinds(got), "submission-stuck", "a readback clears it at once")
}

func TestAnUnexplainedStallStillNamesACause(t *testing.T) {
	d, r := New(), newRing(4096, 2)
	r.queue(1, 2, 30)
	r.tel.Occupancy[decode.StatusClaimed], r.tel.Occupancy[decode.StatusPublished] = 30, 0
	var got *Diagnosis
	for range 6 {
		got = r.step(d, 100)
	}
	assert.Equal(t, Stalled, got.Health)
	assert.Equal(t, []string{"no-progress"}, kinds(got))
}

func TestOneNoisyFrameNeitherRaisesNorClears(t *testing.T) {
	d, r := New(), newRing(16384, 2)
	r.complete(0, 2, 1000, 500)
	r.step(d, 100)
	r.complete(0, 2, 1000, 0)
	got := r.step(d, 100)
	assert.False(t, got.Has(FaultStorm), "needs two frames in a row")
}

func TestVocabularyIsDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/DIAGNOSIS.md")
	require.NoError(t, err)
	for _, k := range Vocabulary() {
		assert.True(t, strings.Contains(string(b), "| `"+k.String()+"` |"), "docs/DIAGNOSIS.md has no row for %s", k)
		got, ok := ParseKind(k.String())
		assert.True(t, ok)
		assert.Equal(t, k, got)
	}
	for _, h := range Healths() {
		assert.Contains(t, string(b), "`"+h.String()+"`")
	}
}

func TestTheSteadyStateAllocatesNothing(t *testing.T) {
	d, r := New(), newRing(16384, 8)
	r.tel.Control.TenantMasks[0] = 0
	r.queue(0, 2, 900)
	r.log.Records = []decode.LogRecord{{Format: abi.LogFaultTag | abi.FaultUnknownOpcode, A: 0x1234}}
	step := func() {
		r.complete(1, 2, 1000, 400)
		r.tel.Control.Denied += 900
		r.step(d, 100)
	}
	for range 10 {
		step()
	}
	require.Equal(t, []string{"masked-tenant", "fault-storm"}, kinds(&d.out))
	assert.Zero(t, testing.AllocsPerRun(50, step), "a frame with active causes allocates nothing")
}

// Lanes stop on their budget every frame while the frame still drains
// what was published (SwiftShader's default-mix): no budget cause.
func TestExhaustedLanesThatDrainTheBacklogAreNoCause(t *testing.T) {
	d, r := New(), newRing(65536, 8)
	for i := range 100 {
		r.clear()
		r.tel.Occupancy[decode.StatusWaitIO], r.tel.Occupancy[decode.StatusYield] = uint32(30+i%20), 4
		r.tel.Occupancy[decode.StatusEmpty] -= r.tel.Occupancy[decode.StatusWaitIO] + 4
		r.tel.Control.BudgetExhausted += 60
		r.complete(i%8, 2, 4000, 0)
		got := r.step(d, 100)
		require.Empty(t, got.Causes, "frame %d", i)
	}
}

func TestAStarvedTenantIsListedBeforeAStarvedPriority(t *testing.T) {
	d, r := New(), newRing(65536, 4)
	r.queue(2, 3, 300) // tenant 2 at LOW: both tenant 2 and LOW starve
	var got *Diagnosis
	for range 15 {
		r.complete(0, 1, 5000, 0)
		got = r.step(d, 100)
	}
	require.GreaterOrEqual(t, len(got.Causes), 2, "%v", kinds(got))
	assert.Equal(t, 2, got.Causes[0].Subject.Tenant)
	assert.Equal(t, 3, got.Causes[1].Subject.Priority)
}

func TestThresholdsHoldBothWays(t *testing.T) {
	t.Run("requeues fewer than completions are no loop", func(t *testing.T) {
		d, r := New(), newRing(4096, 2)
		for range 10 {
			r.acct.RequeueCount += 20
			r.complete(0, 2, 4000, 0)
			require.False(t, r.step(d, 100).Has(RequeueLoop))
		}
	})
	t.Run("a few refusals are no back-pressure", func(t *testing.T) {
		d, r := New(), newRing(4096, 2)
		for range 10 {
			r.facts.Published += 990
			r.facts.Refused[2] += 10
			r.complete(0, 2, 990, 0)
			require.False(t, r.step(d, 100).Has(BackPressure))
		}
	})
	t.Run("WAIT_IO the service left waiting", func(t *testing.T) {
		d, r := New(), newRing(4096, 2)
		r.facts.IOWaiting = 5
		r.tel.Occupancy[decode.StatusWaitIO], r.tel.Occupancy[decode.StatusEmpty] = 5, 4091
		var got *Diagnosis
		for range 3 {
			r.complete(0, 2, 10, 0)
			got = r.step(d, 100)
		}
		assert.True(t, got.Has(WaitIO))
		assert.Contains(t, got.Causes[0].Fix, "not ready")
	})
	t.Run("a backlog worked off in between is no budget cause", func(t *testing.T) {
		d, r := New(), newRing(65536, 1)
		for i := range 12 {
			r.clear()
			if i%3 != 1 {
				r.queue(0, 2, uint32(10*i))
			}
			r.tel.Control.BudgetExhausted += 64
			r.complete(0, 2, 300, 0)
			require.False(t, r.step(d, 100).Has(Budget), "frame %d", i)
		}
	})
	t.Run("a priority that last ran within the window but not since starves", func(t *testing.T) {
		d, r := New(), newRing(65536, 4)
		r.queue(0, 3, 50)
		var got *Diagnosis
		for i := range 9 {
			if i == 2 {
				r.complete(0, 3, 10, 0) // LOW runs once, inside the window
			}
			r.complete(1, 1, 500, 0) // else only HIGH
			got = r.step(d, 200)
		}
		require.NotEmpty(t, got.Causes)
		assert.False(t, got.Has(PriorityInversion), "LOW's own claims are no lower priority running: %v", kinds(got))
		assert.True(t, got.Has(Starvation))
	})
}

func TestOneFrameRaisesNothingAndACauseOutlivesTwoQuietFrames(t *testing.T) {
	d, r := New(), newRing(65536, 8)
	r.complete(1, 2, 1000, 0)
	r.step(d, 100)
	r.tel.Control.TenantMasks[3] = 0
	r.queue(3, 2, 1000) // 1.5% of the ring, masked: one frame
	r.complete(1, 2, 1000, 0)
	require.Empty(t, r.step(d, 100).Causes, "one frame is not confirmed")
	r.complete(1, 2, 1000, 0)
	require.True(t, r.step(d, 100).Has(MaskedTenant), "two in a row are")
	r.clear()
	for i := range clearFrames - 1 {
		r.complete(1, 2, 1000, 0)
		require.True(t, r.step(d, 100).Has(MaskedTenant), "quiet frame %d: still held", i+1)
	}
	r.complete(1, 2, 1000, 0)
	assert.False(t, r.step(d, 100).Has(MaskedTenant), "cleared after %d quiet frames", clearFrames)
}

// TestSpawnRefused: refusals of the spawn state over the window are a
// cause; a full partition's and a bad request's fixes differ.
func TestSpawnRefused(t *testing.T) {
	for _, bad := range []bool{false, true} {
		d, r := New(), newRing(4096, 1)
		sp := decode.SpawnTelemetry{}
		var got *Diagnosis
		for range 4 {
			sp.Spawned += 100
			if bad {
				sp.RefusedBad++
			} else {
				sp.RefusedFull += 10
			}
			r.complete(0, 2, 100, 0)
			r.t += 100
			r.tel.Control.Dispatches++
			r.ws = r.wd.Observe(r.t, &r.tel)
			got = d.Observe(&Input{AtMillis: r.t, Ring: &r.tel, Watchdog: &r.ws, Log: &r.log, Spawn: &sp}, &r.facts)
		}
		require.Equal(t, []string{"spawn-refused"}, kinds(got))
		if bad {
			assert.Contains(t, got.Causes[0].Fix, "SPAWN_")
		} else {
			assert.Contains(t, got.Causes[0].Fix, "partition full")
		}
		// The refusals stop: the cause clears.
		for range 8 {
			sp.Spawned += 100
			r.complete(0, 2, 100, 0)
			got = r.step(d, 100)
		}
		assert.Empty(t, kinds(got))
	}
}
