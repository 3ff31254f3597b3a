package abi

// Magic and version (PROTOCOL §2, words 141–142).
const (
	// Magic is the value of control word MAGIC in an ABI v1 buffer: the
	// little-endian bytes "RSC1". Zero means a legacy vyre dump.
	Magic uint32 = 0x31435352
	// Version is the ABI version this package describes.
	Version uint32 = 1
)

// Word size and buffer geometry.
const (
	WordBytes = 4
	// SlotWords is the size of one ring slot in words (64 bytes).
	SlotWords = 16
	SlotBytes = SlotWords * WordBytes
	// SlotArgs is the number of argument words in a slot (ARG0…ARG11).
	SlotArgs = 12
	// ParamsWords is the size of the params uniform: epoch, budget, observable, flags.
	ParamsWords = 4
)

// Bindings of bind group 0 (PROTOCOL §1).
const (
	// BindGroup is the bind group every ABI buffer lives in.
	BindGroup      = 0
	BindingControl = 0
	BindingRing    = 1
	BindingLog     = 2
	BindingParams  = 3
	BindingData    = 4
	// BindingFirstExtension is the first binding free for further buffers.
	BindingFirstExtension = 5
)

// Limits of the tenant, priority and metric tables.
const (
	// TenantCount is the number of valid tenant ids: masks exist for 0..28 only.
	TenantCount = 29
	// TenantSlots is the width of the quota and claim tables (tenant % 32).
	TenantSlots = 32
	// PriorityLevels is the number of priority partitions, 0 CRITICAL … 4 IDLE.
	PriorityLevels = 5
	// MetricOpcodes is the number of opcodes counted in OPCODE_METRICS (op < 32).
	MetricOpcodes = 32
	// PriorityAgeThreshold is how many requeues promote a slot one level up.
	PriorityAgeThreshold = 32
	// SpinMaxRounds is the most rounds a SPIN slot may ask for; a larger a0
	// faults OUT_OF_BOUNDS, so one slot's cost stays bounded (browsers reset
	// long dispatches, and the reference interpreter must terminate).
	SpinMaxRounds = 1 << 16
)

// Control buffer words (PROTOCOL §2).
const (
	CtrlShutdown        = 0
	CtrlDoneCount       = 1
	CtrlTenantBase      = 2
	CtrlTenantMask      = 3  // 3..31, TenantCount words
	CtrlTenantQuota     = 32 // 32..63, TenantSlots words
	CtrlTenantClaims    = 64 // 64..95, TenantSlots words
	CtrlOpcodeMetrics   = 96 // 96..127, MetricOpcodes words
	CtrlEpoch           = 128
	CtrlPriorityOffsets = 129 // 129..134, PriorityLevels+1 words
	CtrlStarvation      = 135
	CtrlPriorityClaims  = 136 // 136..140, PriorityLevels words
	CtrlMagic           = 141
	CtrlABIVersion      = 142
	CtrlGeneration      = 143
	CtrlDispatches      = 144
	CtrlClaims          = 145
	CtrlFaults          = 146
	CtrlDenied          = 147
	CtrlBudgetExhausted = 148
	CtrlHead            = 149 // 149..153, PriorityLevels words
	CtrlTail            = 154 // 154..158, PriorityLevels words
	CtrlReserved        = 159
	// CtrlObservable is the first OBSERVABLE word; every word below it is protected.
	CtrlObservable = 160
	// ControlMinWords is the size of a control buffer with no observable words.
	ControlMinWords = 160

	// TenantBaseValue is the constant stored in TENANT_BASE (vyre's indirection word).
	TenantBaseValue = CtrlTenantMask
	// LegacyLastWord is the last word a legacy vyre dump gives meaning to.
	LegacyLastWord = CtrlPriorityClaims + PriorityLevels - 1
)

// Ring slot words (PROTOCOL §3).
const (
	SlotStatus   = 0
	SlotOpcode   = 1
	SlotTenant   = 2
	SlotPriority = 3
	SlotArg0     = 4 // 4..15, SlotArgs words
)

// Slot statuses (PROTOCOL §3).
const (
	StatusEmpty     = 0
	StatusPublished = 1
	StatusClaimed   = 2
	StatusDone      = 3
	StatusWaitIO    = 4
	StatusYield     = 5
	StatusRequeue   = 6
	StatusFault     = 7
	// StatusCount is the number of known statuses; larger values are Unknown.
	StatusCount = 8
	// StatusActiveMask has bit s set for each status s whose slot still has
	// work pending (SUMMARY §2's active slots): PUBLISHED, CLAIMED,
	// WAIT_IO, YIELD and REQUEUE.
	StatusActiveMask = 1<<StatusPublished | 1<<StatusClaimed | 1<<StatusWaitIO | 1<<StatusYield | 1<<StatusRequeue
)

// statusNames are the protocol names of the slot statuses, by value: the
// one table every status label derives from (decode.Status's String and
// Label: the page's legends, class names and test ids, the exports' and
// captures' keys). The Status constants above spell the same names
// (StatusWaitIO, STATUS_WAIT_IO in WGSL); TestStatusNames checks it.
var statusNames = [StatusCount]string{
	StatusEmpty:     "EMPTY",
	StatusPublished: "PUBLISHED",
	StatusClaimed:   "CLAIMED",
	StatusDone:      "DONE",
	StatusWaitIO:    "WAIT_IO",
	StatusYield:     "YIELD",
	StatusRequeue:   "REQUEUE",
	StatusFault:     "FAULT",
}

// StatusName returns the protocol name of status s (WAIT_IO), or false
// for a value of StatusCount and above.
func StatusName(s uint32) (string, bool) {
	if s < StatusCount {
		return statusNames[s], true
	}
	return "", false
}

// Priorities (PROTOCOL §3, word 3).
const (
	PriorityCritical = 0
	PriorityHigh     = 1
	PriorityNormal   = 2
	PriorityLow      = 3
	PriorityIdle     = 4
)

// Opcodes (PROTOCOL §4).
const (
	OpNop         uint32 = 0
	OpStoreU32    uint32 = 1
	OpAtomicAdd   uint32 = 2
	OpLoadU32     uint32 = 3
	OpCompareSwap uint32 = 4
	OpMemcpy      uint32 = 5
	OpDFAStep     uint32 = 6
	OpBatchFence  uint32 = 7
	OpHash        uint32 = 0x100
	OpSpin        uint32 = 0x101
	OpYield       uint32 = 0xFFF0
	OpRequeue     uint32 = 0xFFF1
	OpWaitIO      uint32 = 0xFFF2
	OpRaise       uint32 = 0xFFF3
	OpPrintf      uint32 = 0xFFFE
	OpShutdown    uint32 = 0xFFFFFFFF

	// OpSystemBit marks system opcodes; so does OpSystemLow ≤ op ≤ OpSystemHigh.
	OpSystemBit  uint32 = 0x80000000
	OpSystemLow  uint32 = 0xFFF0
	OpSystemHigh uint32 = 0xFFFF
)

// Log buffer (PROTOCOL §5).
const (
	LogCursor   = 0
	LogCapacity = 1
	// LogHeaderWords is the number of words before record 0.
	LogHeaderWords = 4
	// LogRecordWords is the size of one record: format, slot, a, b.
	LogRecordWords = 4
	// LogFaultTag is or-ed with the fault code in a fault record's format word.
	LogFaultTag uint32 = 0xFFFF0000
	// LogFaultMask selects the tag bits of a format word.
	LogFaultMask uint32 = 0xFFFF0000
)

// Fault codes (PROTOCOL §5).
const (
	FaultUnknownOpcode = 1
	FaultOutOfBounds   = 2
	FaultProtected     = 3
	FaultBadTenant     = 4
	FaultBadState      = 5
	FaultUserFault     = 6
)

// Params uniform words (PROTOCOL §1, binding 3).
const (
	ParamEpoch      = 0
	ParamBudget     = 1
	ParamObservable = 2
	ParamFlags      = 3
)

// Bits of the params FLAGS word (binding 3, word ParamFlags); the others
// are 0.
const (
	// ParamFlagUnlapped: the host vouches that no two claim tickets of this
	// submission name one slot: for every partition p,
	// TAIL[p] − HEAD[p] ≤ OFF[p+1] − OFF[p] (mod 2^32, HEAD as the GPU
	// holds it when the submission starts). Its own publisher keeps that
	// (a slot is published into only when EMPTY or DONE). The drain then
	// claims a slot by a load of STATUS and ends it by a store, where
	// without the bit a compare-exchange makes the claim exclusive; the
	// results are the same whenever the promise holds.
	ParamFlagUnlapped = 1
)
