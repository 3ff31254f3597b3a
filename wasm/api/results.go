package api

import (
	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/internal/nocompare"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// What the ring's methods resolve to (docs/EMBEDDING.md), as Plain
// converts them: field names in lowerCamelCase.

// OpenResult is what open resolves to.
type OpenResult struct {
	Generation uint32
	Slots      uint32
	Partitions [abi.PriorityLevels + 1]uint32
	// WatchdogIntervals is the watchdog's N: stalled intervals in a row
	// before the stall alert.
	WatchdogIntervals int
}

// DrainResult is what drain resolves to.
type DrainResult struct {
	Report     decode.MegakernelReport
	Telemetry  *decode.RingTelemetry
	Counters   *decode.RuntimeCounters
	Observable []uint32
	// Log is the frame's log, each record named and resolved as the
	// page's log panel shows it (LogOf).
	Log *Log
	// Diagnosis is the verdict of the frame the drain ended on.
	Diagnosis *Diagnosis
	// Spawn is the spawn state the drain ended on (Snapshot's).
	Spawn *decode.SpawnTelemetry

	// Outcome says why the drain stopped (megakernel.DrainOutcome's
	// names): "empty", "no-progress", "max-submissions" or "lost";
	// Submissions counts its submissions; Stuck is where the work it left
	// sits; Error, with "lost", is the device loss that cut it short.
	Outcome     string
	Submissions int
	Stuck       Stuck
	Error       string
	// Trace is the drain's own submissions' trace records, on a ring
	// opened with trace (docs/TRACE.md); nil otherwise.
	Trace *Trace
}

// Snapshot is what snapshot resolves to: the last decoded state.
type Snapshot struct {
	Telemetry  *decode.RingTelemetry
	Counters   *decode.RuntimeCounters
	Observable []uint32
	Log        *Log // as drain's
	Report     *decode.MegakernelReport
	Published  uint64
	Pending    uint32
	// Running is the live loop's state; Watchdog its last verdict (nil
	// before the first frame).
	Running  bool
	Watchdog *decode.WatchdogState
	// Diagnosis is the last frame's verdict (docs/DIAGNOSIS.md).
	Diagnosis *Diagnosis
	// Waits is the queue waits the host measured, per tenant and per
	// priority, as of the last frame (nil before the first, and while
	// attached: a host's ring publishes without ringscope).
	Waits *decode.WaitTimes
	// Stale: the shown telemetry is the last good snapshot from before a
	// device loss, no frame since. Recoveries counts recovered losses;
	// LastLoss records the latest.
	Stale      bool
	Recoveries int
	LastLoss   *Loss
	// Readback is the mode the ring runs in ("summary" or "full");
	// RingReads the frames of this ring that read the whole ring back
	// (every one in full mode); LastBytesReadBack the last frame's bytes
	// read back (its dispatch's BytesReadBack).
	Readback          string
	RingReads         uint64
	LastBytesReadBack uint64
	// Trace is the ring's trace window, when snapshot({trace: true})
	// asked for it on a traced ring (docs/TRACE.md); nil otherwise.
	Trace *Trace
	// Spawn is a spawning kernel's spawn state as of the last frame
	// (docs/PROTOCOL-SPAWN.md): generations, spawned per opcode, the
	// frontier per generation, refusals; nil for a ring that does not
	// spawn.
	Spawn *decode.SpawnTelemetry
}

// Status is what ringscope.status resolves to, at once, even while a
// call waits on the GPU: the page's status (the header's) and, while a
// submission is outstanding past the grace, Busy.
type Status struct {
	_ nocompare.T

	Status string
	Busy   *Busy
}

// Busy is a submission outstanding past the busy grace: how long it was
// waited for (as of the last tick, every 250 ms), the bound at which it
// is a runaway, the grace, and the user opcodes it could run.
type Busy struct {
	WaitedMillis, BoundMillis, GraceMillis float64
	UserOpcodes                            []string
}

// LiveState is what start and stop resolve to.
type LiveState struct {
	Running bool
}

// LiveStep is what step resolves to: the frame's numbers an embedder (or a
// test) most often wants, without the whole snapshot.
type LiveStep struct {
	Seq       uint64
	DoneCount uint32
	Published uint64
	Pending   uint32
	Watchdog  decode.WatchdogState
	Diagnosis *Diagnosis
	// Recovered is set when the device was lost during the step and the
	// page recovered (the step ran again on the new device).
	Recovered bool
}

// Loss is the record of one device loss and its recovery (snapshot's
// lastLoss).
type Loss struct {
	// Reason and Message are GPUDeviceLostInfo's.
	Reason, Message string
	// Cause is the error of the operation that met the loss ("" when the
	// Lost channel noticed it first, with no operation in flight).
	Cause string
	// Frame is the sequence number of the last good frame; DoneCount and
	// Published the host's record at the loss (the last readback's
	// DONE_COUNT, items published).
	Frame     uint64
	DoneCount uint32
	Published uint64
	// UserOpcodes names the user opcodes the lost submission could run:
	// a runaway user function loses the device (docs/OPCODES.md).
	UserOpcodes []string
	// Runaway says the page's own watchdog gave the device up: a
	// submission ran past its bound (megakernel.RunawayError; Reason is
	// megakernel.LostRunaway), and UserOpcodes were in flight.
	Runaway bool
	// Dropped counts the items a runaway's recovery dropped: its ring is
	// recovered empty (docs/OPCODES.md §1), so they are the items
	// published and not ended at the last readback.
	Dropped uint64
	// RecoveredMillis is the time from noticing the loss to a rebound
	// runner; Recovered says whether it recovered.
	RecoveredMillis float64
	Recovered       bool
	// BuffersReset says the recovery gave the ring's user buffers their
	// initial bytes again: what the GPU wrote into a read_write one died
	// with the device, and the host keeps no copy (docs/OPCODES.md §2).
	BuffersReset bool
}
