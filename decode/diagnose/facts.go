package diagnose

import (
	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// Input is one frame's telemetry as the rules read it. Ring is required;
// the rest may be nil.
type Input struct {
	AtMillis float64
	Ring     *decode.RingTelemetry
	Watchdog *decode.WatchdogState
	Log      *decode.Log
	// Requeues is the host's cumulative requeue accounting.
	Requeues *decode.PriorityRequeueAccounting
	// Spawn is a spawning kernel's spawn state (nil: the ring does not
	// spawn, or it is not known).
	Spawn *decode.SpawnTelemetry
}

// Facts is what the host knows that the buffers do not say. The zero
// value describes a ring seen from outside (a capture, an attachment):
// every tenant id may run, WAIT_IO is not known to be serviced, no
// publish was refused.
type Facts struct {
	// Tenants is how many tenant ids (0…Tenants−1) the ring runs; 0
	// means unknown (every id of abi.TenantCount).
	Tenants uint32
	// IOService reports that the host services WAIT_IO slots; IOWaiting
	// counts the WAIT_IO slots its last pass left waiting (not ready).
	IOService bool
	IOWaiting int
	// Yielded and Requeued count the YIELD and REQUEUE slots the host's
	// last pass republished; YieldOpcode and RequeueOpcode are the opcodes
	// most of each hold: what a yield or a requeue loop runs
	// (host.RequeueStats).
	Yielded, Requeued          int
	YieldOpcode, RequeueOpcode uint32
	// Attached says the ring is a host's (ringscope.attach): its own code
	// services the WAIT_IO slots, and whether it answers is known only from
	// progress, so wait-io holds while the ring is stalled with them; and a
	// loss (Lost) is the attachment's end, which no recovery follows.
	Attached bool
	// Drained says a drain's submission left nothing to run (the host's
	// queue empty, nothing parked or waiting): the workload ended with
	// this frame, though it completed work since the frame before.
	Drained bool
	// Budget is each lane's claim budget per submission (0: unknown).
	Budget uint32
	// Refused counts the publishes refused per priority because the
	// partition was full, since the ring opened.
	Refused [abi.PriorityLevels]uint64
	// Published counts the items the host published since the ring opened.
	Published uint64
	// Lost is set while the device is lost and not yet recovered;
	// LostReason says why and InFlight names the user opcodes that were
	// in flight (a runaway's suspects).
	Lost       bool
	LostReason string
	InFlight   []string
	// EarlierRunaways counts, for a device the host gave up as a runaway,
	// the earlier runaways whose abandoned work still ran then: on a CPU
	// adapter they hold its threads, so the submission may have waited
	// behind them rather than run away itself.
	EarlierRunaways int
	// StuckMillis is how long the submission in flight has been waited
	// for, set while it is past the host's grace (0: none is); InFlight
	// then names the user opcodes it could run, and StuckBoundMillis is
	// the bound at which the host gives its device up as a runaway.
	StuckMillis, StuckBoundMillis float64
	// Waits is the host's queue-wait measurement (nil: not measured).
	Waits *decode.WaitTimes
	// OpcodeName names an opcode (nil: hexadecimal).
	OpcodeName func(op uint32) string
}

// tenants is the number of tenant ids the rules consider.
func (f *Facts) tenants() int {
	if f.Tenants == 0 || f.Tenants > abi.TenantCount {
		return abi.TenantCount
	}
	return int(f.Tenants)
}

func (f *Facts) opName(op uint32) string {
	if f.OpcodeName != nil {
		return f.OpcodeName(op)
	}
	return hex(op)
}

func hex(v uint32) string {
	const digits = "0123456789abcdef"
	if v == 0 {
		return "0x0"
	}
	var b [10]byte
	i := len(b)
	for v > 0 {
		i--
		b[i] = digits[v&0xf]
		v >>= 4
	}
	i -= 2
	b[i], b[i+1] = '0', 'x'
	return string(b[i:])
}
