package decode

import (
	"fmt"
	"github.com/ringscope/ringscope/internal/nocompare"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// RingTelemetry is one decoded snapshot of a megakernel: the control buffer,
// the ring's occupancy, every slot, and the ticketed windows of the window
// opcodes the caller asked for. The zero value is an empty snapshot (no
// slots, a zeroed control buffer) and is a valid destination for DecodeInto.
type RingTelemetry struct {
	Control   ControlSnapshot
	Occupancy RingOccupancy
	// Slots holds one entry per ring slot, in slot order.
	Slots []RingSlotSnapshot
	// Windows holds one entry per (ticket, opcode) pair of the window
	// opcodes, sorted by ticket, then opcode.
	Windows []WindowTelemetry
	// Active counts the active slots by tenant, priority and opcode; both
	// DecodeInto and DecodeSummaryInto fill it.
	Active ActiveCounts
	// StatusMap is the packed status view of a summary decode
	// (DecodeSummaryInto), which leaves Slots empty; DecodeInto empties it.
	StatusMap StatusMap
	// WindowsDropped counts the window slots a GPU summary's window table
	// had no room for: Windows is exact when it is 0, always after DecodeInto.
	WindowsDropped uint32
}

// Metric is one non-zero OPCODE_METRICS word: how many times opcode Opcode
// (< abi.MetricOpcodes) was executed. Name is a user opcode's name, set by
// whoever knows the kernel (the page's API results, as its metrics export
// labels them); the buffers do not say it, so decoders leave it empty.
type Metric struct {
	_ nocompare.T

	Opcode uint32
	Count  uint32
	Name   string `json:",omitempty"`
}

// ControlSnapshot is the decoded control buffer (PROTOCOL §2). The zero
// value is an all-zero v1-shaped buffer, which reads as a legacy dump only
// once Legacy is set by a decoder.
type ControlSnapshot struct {
	Shutdown  bool   // SHUTDOWN ≠ 0
	DoneCount uint32 // DONE_COUNT (wraps mod 2^32)
	Epoch     uint32 // EPOCH: BATCH_FENCEs executed
	// Metrics lists the non-zero OPCODE_METRICS words, in opcode order.
	Metrics []Metric
	// TenantFairness is TENANT_CLAIMS: claims per tenant % 32, zeros included.
	TenantFairness [abi.TenantSlots]uint32
	// PriorityFairness is PRIORITY_CLAIMS: claims per priority level.
	PriorityFairness [abi.PriorityLevels]uint32

	// Legacy reports a vyre dump (MAGIC = 0): words 141–159 carry no
	// meaning there, so every v1 field below is zero.
	Legacy bool

	// ABI v1 words 141–158, zero in a legacy dump.
	Magic           uint32
	ABIVersion      uint32
	Generation      uint32
	Dispatches      uint32
	Claims          uint32
	Faults          uint32
	Denied          uint32
	BudgetExhausted uint32
	Heads           [abi.PriorityLevels]uint32
	Tails           [abi.PriorityLevels]uint32

	// Host-written configuration words, decoded in both layouts.
	TenantBase      uint32 // TENANT_BASE, always abi.TenantBaseValue when well formed
	TenantMasks     [abi.TenantCount]uint32
	TenantQuotas    [abi.TenantSlots]uint32
	PriorityOffsets [abi.PriorityLevels + 1]uint32
	Starvation      uint32 // STARVATION, informational

	// Observable holds OBSERVABLE[0…]: every control word from
	// abi.CtrlObservable on. Nil or empty when the buffer has none.
	Observable []uint32
}

// RingOccupancy counts ring slots by status: o[s] for each known status
// s, o[StatusUnknown] for every other value. The zero value is an empty
// ring.
type RingOccupancy [StatusUnknown + 1]uint32

// Of returns the slots in status s: o[s], or o[StatusUnknown] for an
// unknown s.
func (o *RingOccupancy) Of(s Status) uint32 { return o[min(s, StatusUnknown)] }

// RingSlotSnapshot is one decoded ring slot (PROTOCOL §3). Args holds
// ARG0…ARG2, the words ticketed windows and the built-in opcodes use.
type RingSlotSnapshot struct {
	Index    uint32
	Status   Status
	Opcode   uint32
	Tenant   uint32
	Priority uint32
	Args     [3]uint32
}

// Status is the raw STATUS word of a slot. Values of StatusCount and above
// are unknown; they are kept as they are, never rejected.
type Status uint32

// Slot statuses of PROTOCOL §3.
const (
	StatusEmpty     Status = abi.StatusEmpty
	StatusPublished Status = abi.StatusPublished
	StatusClaimed   Status = abi.StatusClaimed
	StatusDone      Status = abi.StatusDone
	StatusWaitIO    Status = abi.StatusWaitIO
	StatusYield     Status = abi.StatusYield
	StatusRequeue   Status = abi.StatusRequeue
	StatusFault     Status = abi.StatusFault
	// StatusUnknown stands for every value of abi.StatusCount and above:
	// RingOccupancy's last counter, the page's "unknown".
	StatusUnknown Status = abi.StatusCount
)

// String returns the protocol name of s, or UNKNOWN(0x…) for other values.
func (s Status) String() string {
	if name, ok := abi.StatusName(uint32(s)); ok {
		return name
	}
	return fmt.Sprintf("UNKNOWN(0x%x)", uint32(s))
}

// Known reports whether s is one of the named statuses.
func (s Status) Known() bool { return s < abi.StatusCount }

// Active reports whether a slot in status s still has work pending (a
// status of abi.StatusActiveMask: PUBLISHED, CLAIMED, WAIT_IO, YIELD or
// REQUEUE). Terminal (DONE, FAULT), EMPTY and unknown statuses are not
// active.
func (s Status) Active() bool { return s.Known() && abi.StatusActiveMask>>s&1 != 0 }

// StatusStyle is how Status.Label spells a status.
type StatusStyle uint8

const (
	// StatusProtocol is the protocol name: WAIT_IO.
	StatusProtocol StatusStyle = iota
	// StatusKebab is for class names and data-testids: wait-io.
	StatusKebab
	// StatusSnake is for metric labels and trace counters: wait_io.
	StatusSnake
	// StatusCamel is for JSON keys: waitIO.
	StatusCamel
	statusStyles
)

// statusLabels are the labels of each status (StatusUnknown last: UNKNOWN)
// in each style, derived once from abi's name table.
var statusLabels = func() (t [statusStyles][StatusUnknown + 1]string) {
	for s := range StatusUnknown + 1 {
		name, ok := abi.StatusName(uint32(s))
		if !ok {
			name = "UNKNOWN"
		}
		t[StatusProtocol][s] = name
		t[StatusKebab][s], t[StatusSnake][s], t[StatusCamel][s] = lowerLabels(name)
	}
	return t
}()

// lowerLabels spells an upper-snake protocol name (ASCII: A–Z, 0–9, _) as
// kebab, snake and lower camel case: WAIT_IO is wait-io, wait_io, waitIO
// (a word of two letters after the first stays upper case, as IO; a
// longer one is capitalised: WAIT_FOR would be waitFor).
func lowerLabels(name string) (kebab, snake, camel string) {
	b := []byte(name)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	snake = string(b)
	var cam []byte
	start := 0 // the current word's first byte
	for i := 0; i <= len(b); i++ {
		if i < len(b) && b[i] != '_' {
			continue
		}
		switch word := b[start:i]; {
		case start == 0:
			cam = append(cam, word...)
		case len(word) <= 2:
			cam = append(cam, name[start:i]...) // IO stays IO
		default:
			cam = append(append(cam, name[start]), word[1:]...)
		}
		if i < len(b) {
			b[i] = '-'
		}
		start = i + 1
	}
	return string(b), snake, string(cam)
}

// Label returns s's name in style: every label of a status (the page's,
// the exports', the captures') derives from its protocol name. Every
// unknown value is UNKNOWN (unknown, …).
func (s Status) Label(style StatusStyle) string {
	return statusLabels[min(style, statusStyles-1)][min(s, StatusUnknown)]
}

// WindowTelemetry aggregates the slots of one ticketed route window: the
// slots of one window opcode sharing ARG0 (the ticket). ARG1 is the class:
// 0 counts as Required, 1 as Lookahead, anything else as neither. Status
// counters leave out EMPTY and unknown slots. The zero value is an empty
// window.
type WindowTelemetry struct {
	Ticket    uint32
	Tenant    uint32 // tenant of the window's lowest-indexed slot
	Opcode    uint32
	Required  uint32
	Lookahead uint32
	Published uint32
	Claimed   uint32
	Done      uint32
	WaitIO    uint32
	Yield     uint32
	Requeue   uint32
	Fault     uint32
}

// Active reports whether the window still has pending slots; a window whose
// slots are all DONE or FAULT is finished.
func (w WindowTelemetry) Active() bool {
	return w.Published > 0 || w.Claimed > 0 || w.WaitIO > 0 || w.Yield > 0 || w.Requeue > 0
}

// RuntimeCounters is the cheap runtime summary of a snapshot (reference
// §5.5): queue, idle, fairness and drain counters. Densities are in basis
// points (1/10000), idle share in parts per million.
type RuntimeCounters struct {
	_ nocompare.T

	TotalSlots            uint32
	QueueDepth            uint32
	GPUIdleSlots          uint32
	GPUIdlePPM            uint32
	FrontierDensityBps    uint16
	OccupancyProxyBps     uint16
	DrainedSlots          uint32
	UnreclaimedDoneSlots  uint32
	TenantFairnessTotal   uint64
	TenantFairnessSkew    uint32
	PriorityFairnessTotal uint64
	RequeueSlots          uint32
	FaultSlots            uint32
}

// WatchdogSnapshot is the health of a ring between two snapshots (PROTOCOL
// §6). DoneDelta is DONE_COUNT's progress modulo 2^32. Reset reports that the
// host re-initialised the ring in between (GENERATION changed, or the done
// counter moved backwards); a reset is never a stall.
type WatchdogSnapshot struct {
	_ nocompare.T

	DoneDelta      uint32
	QueueDepth     uint32
	FaultSlots     uint32
	RequeueSlots   uint32
	GPUIdlePPM     uint32
	SuspectedStall bool
	Reset          bool
}

// TotalSlots is the saturating sum of all nine counters.
func (o RingOccupancy) TotalSlots() uint32 { return uint32(min(o.sum(anyStatus), 0xFFFFFFFF)) }

// QueueDepth is the saturating count of slots that are neither EMPTY nor
// DONE. As in vyre (reference §5.2) it includes FAULT and unknown slots,
// which are not active: they still hold the ring until the host clears them.
func (o RingOccupancy) QueueDepth() uint32 {
	return uint32(min(o.sum(func(s Status) bool { return s != StatusEmpty && s != StatusDone }), 0xFFFFFFFF))
}

// ActiveSlots is the saturating count of slots in an active status.
func (o RingOccupancy) ActiveSlots() uint32 { return uint32(min(o.sum(Status.Active), 0xFFFFFFFF)) }

func anyStatus(Status) bool { return true }

// sum adds the counters of the statuses in, without overflow.
func (o *RingOccupancy) sum(in func(Status) bool) uint64 {
	var n uint64
	for s, v := range o {
		if in(Status(s)) {
			n += uint64(v)
		}
	}
	return n
}
