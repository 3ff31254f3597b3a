package diagnose

import "fmt"

// Kind names a cause. The names are kebab-case and part of the contract
// (docs/DIAGNOSIS.md has one row per kind); the order is the order causes
// are listed in, the one that explains the others first.
type Kind uint8

// The cause kinds, most explanatory first.
const (
	// DeviceLost: the GPU device is gone; nothing runs until recovery.
	DeviceLost Kind = iota + 1
	// SubmissionStuck: a submission has not completed for longer than the
	// host's grace; nothing is read back until it does, or until the
	// runaway bound gives its device up (then DeviceLost).
	SubmissionStuck
	// ForeignControl: the control buffer is not in ringscope's ABI (MAGIC
	// or ABI_VERSION wrong): an attached host's buffer of another layout,
	// or one it overwrote. Its counters mean nothing, so no other rule
	// judges them.
	ForeignControl
	// Shutdown: SHUTDOWN is set while work is queued.
	Shutdown
	// MaskedTenant: queued work belongs to a tenant whose mask is off.
	MaskedTenant
	// PriorityInversion: a higher priority waits while a lower one runs.
	// It comes before wait-io: a high priority parked on an answer that
	// low-priority work holds back is the inversion, WAIT_IO its means.
	PriorityInversion
	// WaitIO: WAIT_IO slots wait for a host IO service that does not answer.
	WaitIO
	// RequeueLoop: slots requeue themselves over and over, completing nothing.
	RequeueLoop
	// Starvation: a tenant's queued work is not claimed while others' is.
	Starvation
	// Budget: lanes spend their claim budget every submission and the
	// queue grows.
	Budget
	// BackPressure: publishes are refused because a partition is full.
	BackPressure
	// SpawnRefused: spawns on the GPU were refused (a full partition, or
	// an opcode, tenant or priority the ring does not run).
	SpawnRefused
	// FaultStorm: a large share of completions are faults.
	FaultStorm
	// LogOverflow: the log buffer dropped records.
	LogOverflow
	// NoProgress: a stall no other rule explains.
	NoProgress
	kindEnd
)

var kindNames = [kindEnd]string{
	DeviceLost:        "device-lost",
	SubmissionStuck:   "submission-stuck",
	ForeignControl:    "foreign-control",
	Shutdown:          "shutdown",
	MaskedTenant:      "masked-tenant",
	WaitIO:            "wait-io",
	RequeueLoop:       "requeue-loop",
	PriorityInversion: "priority-inversion",
	Starvation:        "starvation",
	Budget:            "budget",
	BackPressure:      "back-pressure",
	SpawnRefused:      "spawn-refused",
	FaultStorm:        "fault-storm",
	LogOverflow:       "log-overflow",
	NoProgress:        "no-progress",
}

// String is the kind's kebab-case name.
func (k Kind) String() string {
	if k > 0 && k < kindEnd {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// ringWide says whether a cause of kind k is the ring's, one at a time,
// its subject a description that may change while it lasts (a fault
// storm's opcode of most fault records), not what tells two causes of
// the kind apart.
func (k Kind) ringWide() bool { return k == FaultStorm }

// MarshalText writes the name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Vocabulary lists every kind, in listing order.
func Vocabulary() []Kind {
	ks := make([]Kind, 0, kindEnd-1)
	for k := DeviceLost; k < kindEnd; k++ {
		ks = append(ks, k)
	}
	return ks
}

// ParseKind is String's inverse.
func ParseKind(s string) (Kind, bool) {
	for k := DeviceLost; k < kindEnd; k++ {
		if kindNames[k] == s {
			return k, true
		}
	}
	return 0, false
}
