package megakernel

import (
	"fmt"
	"math"
	"time"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// Mode chooses the drain program. The zero value is ModeAuto.
type Mode uint8

const (
	// ModeAuto runs what the launch recommendation's ExecutionMode picks
	// for each submission.
	ModeAuto Mode = iota
	// ModeInterpreter always runs wgsl.Drain, every opcode compiled in.
	ModeInterpreter
	// ModeJIT always runs wgsl.JIT specialised to the opcodes of the
	// PUBLISHED slots (one cached pipeline per wgsl.JITKey).
	ModeJIT
)

// String returns the mode's name.
func (m Mode) String() string {
	switch m {
	case ModeAuto:
		return "auto"
	case ModeInterpreter:
		return "interpreter"
	case ModeJIT:
		return "jit"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// MaxWindowOpcodes is the longest Options.WindowOpcodes list.
const MaxWindowOpcodes = 64

// Options describes a runner: the ring's shape and the launch knobs. The
// zero value is not valid (a ring needs slots and lanes a budget).
type Options struct {
	// Slots is the ring size in slots (64 bytes each), at least 1.
	Slots uint32
	// Tenants enables tenants 0 … Tenants−1 (at most abi.TenantCount, 29);
	// Masks, when non-nil, sets the mask words verbatim instead.
	Tenants uint32
	Masks   []uint32
	// Quotas is TENANT_QUOTA per tenant (0 = unlimited), enforced by the
	// host publisher per host epoch.
	Quotas [abi.TenantCount]uint32
	// Partitions is PRIORITY_OFFSETS; the zero value means the default
	// partitions (abi.DefaultPartitions).
	Partitions [abi.PriorityLevels + 1]uint32
	// Observable is the number of OBSERVABLE words after control's fixed 160.
	Observable uint32
	// LogCapacity is the log size in records (0: a log that drops every
	// record but still counts them).
	LogCapacity uint32
	// Budget is the claim iterations each lane may run per submission
	// (params.budget), at least 1.
	Budget uint32
	// WorkgroupSize is the preferred workgroup width: 64, 128 or 256, or 0
	// for the policy's default; lowered to what the device allows.
	WorkgroupSize uint32
	// WorkerGroups is the ceiling on workgroups per dispatch; 0 lets the
	// launch policy derive it from the device (PROTOCOL §6).
	WorkerGroups uint32
	// Grid, when non-zero, dispatches exactly Grid workgroups whatever the
	// policy says: for experiments and tests of oversubscribed grids.
	Grid uint32
	// WindowOpcodes are the opcodes decoded as ticketed windows.
	WindowOpcodes []uint32
	// MemoryBudgetBytes is the device-memory budget; 0 means unbounded.
	// A runner whose planned peak exceeds it is refused with a
	// *decode.OutOfMemoryError before anything is allocated.
	MemoryBudgetBytes uint64
	// Mode picks the drain program.
	Mode Mode
	// Data is the content of binding 4 (DFA tables, hash input); a length
	// that is a multiple of 4. Empty means 4 zero bytes.
	Data []byte
	// Readback says when a Step copies the ring back: full (and auto,
	// the zero value) after every submission; on demand, control and log
	// alone, the ring when RequestRing asked for it (Drain always asks),
	// the host copy keeping the statuses it last saw until then (slots the
	// GPU finished look busy, so publishing into them is back-pressure);
	// summary, the GPU's reduce pass (docs/SUMMARY.md) instead of the ring:
	// control, log, the summary and the packed status map, half a byte per
	// slot, the host copy taking its statuses from the status map
	// (host.Queue.AbsorbStatusMap), so unlike on demand it does not go
	// stale.
	Readback decode.Readback
	// Summary shapes the GPU summary of decode.ReadbackSummary; its zero value means
	// the defaults (Options.summaryShape). Ignored in other modes.
	Summary SummaryShape
	// Kernel is the user's own opcodes and buffers, compiled into the
	// drain's dispatch (docs/OPCODES.md); the zero value is the built-in
	// kernel. Its refusals are *wgsl.DeclError values naming the field.
	Kernel wgsl.Kernel
	// Generations is the drain passes each submission of a spawning
	// kernel runs (docs/PROTOCOL-SPAWN.md §3), at most MaxGenerations; 0
	// lets the runner's policy pick (spawn.go, generationPolicy). Ignored
	// for a kernel that does not spawn.
	Generations uint32
	// SubmissionTimeout bounds one submission, from its submit to its
	// readback: one that takes longer is a runaway (a *RunawayError, the
	// device abandoned: runaway_js.go). 0 means DefaultSubmissionTimeout;
	// at most MaxSubmissionTimeout.
	SubmissionTimeout time.Duration
	// TraceCapacity, when non-zero, traces the drain (docs/TRACE.md): a
	// record of every claimed slot's start and end tickets, at most
	// TraceCapacity per submission (the rest are counted as overflow), in
	// Runner.Trace. At most MaxTraceCapacity. It sets Kernel.Trace.
	TraceCapacity uint32
}

// Bounds of Options.SubmissionTimeout. The default is well above any
// legitimate submission: a drain pass of 65,536 slots on SwiftShader, the
// slowest adapter here, takes tens of milliseconds.
const (
	DefaultSubmissionTimeout = 10 * time.Second
	MinSubmissionTimeout     = 100 * time.Millisecond
	MaxSubmissionTimeout     = 10 * time.Minute
)

// submissionTimeout is o's bound of one submission.
func (o *Options) submissionTimeout() time.Duration { return boundOrDefault(o.SubmissionTimeout) }

// boundOrDefault is a submission bound, 0 meaning the default.
func boundOrDefault(d time.Duration) time.Duration {
	if d == 0 {
		return DefaultSubmissionTimeout
	}
	return d
}

// SubmissionTimeoutMs is the submission bound of the JS option
// submissionTimeoutMs (open's and attach's): ms milliseconds, 0 for the
// default; out of range, an error naming the option and its range.
func SubmissionTimeoutMs(ms uint32) (time.Duration, error) {
	bound := time.Duration(ms) * time.Millisecond
	if ms != 0 && (bound < MinSubmissionTimeout || bound > MaxSubmissionTimeout) {
		return 0, fmt.Errorf("submissionTimeoutMs must be %d…%d (0: the default, %d), got %d",
			MinSubmissionTimeout.Milliseconds(), MaxSubmissionTimeout.Milliseconds(), DefaultSubmissionTimeout.Milliseconds(), ms)
	}
	return bound, nil
}

// OptionError is an Options value a runner refuses.
type OptionError struct {
	Field  string // the Options field at fault
	Value  uint64 // its value (a length for slices)
	Reason string // why, and the limit
}

func (e *OptionError) Error() string {
	return fmt.Sprintf("megakernel: option %s = %d: %s", e.Field, e.Value, e.Reason)
}

// controlConfig is the host encoder's view of o.
func (o *Options) controlConfig() host.ControlConfig {
	return host.ControlConfig{
		Slots:      o.Slots,
		Observable: o.Observable,
		Tenants:    o.Tenants,
		Masks:      o.Masks,
		Quotas:     o.Quotas,
		Partitions: o.Partitions,
		Spawn:      o.Kernel.Spawns(),
	}
}

// RingTenants is how many tenant ids (0 … n−1) the ring runs: one per
// mask word when Masks is set, else Tenants. An item of a larger id would
// wait forever (its mask word is 0), so the API refuses it at publish.
func (o *Options) RingTenants() uint32 {
	if o.Masks != nil {
		return uint32(len(o.Masks))
	}
	return o.Tenants
}

// Validate reports the first reason o cannot run on a device with limits,
// before any GPU work: a clear *OptionError, the host encoder's refusal, a
// *decode.OutOfMemoryError when the planned peak exceeds MemoryBudgetBytes,
// or the launch policy's refusal of the device limits.
func (o Options) Validate(limits webgpu.Limits) error {
	_, err := o.plan(limits)
	return err
}

// plan validates o and returns its layout.
func (o *Options) plan(limits webgpu.Limits) (layout, error) {
	l := o.layout()
	bindMax := bindLimit(limits)
	switch {
	case o.Slots == 0:
		return l, &OptionError{"Slots", 0, "a ring needs at least one slot"}
	case o.Slots > host.MaxSlots:
		return l, &OptionError{"Slots", uint64(o.Slots), fmt.Sprintf("at most %d slots", host.MaxSlots)}
	case l.ring > bindMax:
		return l, &OptionError{"Slots", uint64(o.Slots), fmt.Sprintf("the ring needs %d bytes; the device binds at most %d (maxStorageBufferBindingSize, maxBufferSize)", l.ring, bindMax)}
	case o.Budget == 0:
		return l, &OptionError{"Budget", 0, "each lane needs at least one claim iteration per submission"}
	case o.Tenants > abi.TenantCount:
		return l, &OptionError{"Tenants", uint64(o.Tenants), fmt.Sprintf("tenant ids are 0 … %d (PROTOCOL §2)", abi.TenantCount-1)}
	case len(o.Masks) > abi.TenantCount:
		return l, &OptionError{"Masks", uint64(len(o.Masks)), fmt.Sprintf("at most %d tenant masks", abi.TenantCount)}
	case o.Tenants != 0 && o.Masks != nil:
		return l, &OptionError{"Masks", uint64(len(o.Masks)), "set Tenants or Masks, not both"}
	case len(o.WindowOpcodes) > MaxWindowOpcodes:
		return l, &OptionError{"WindowOpcodes", uint64(len(o.WindowOpcodes)), fmt.Sprintf("at most %d window opcodes", MaxWindowOpcodes)}
	case o.WorkgroupSize != 0 && o.WorkgroupSize != 64 && o.WorkgroupSize != 128 && o.WorkgroupSize != 256:
		return l, &OptionError{"WorkgroupSize", uint64(o.WorkgroupSize), "want 0 (policy default), 64, 128 or 256"}
	case o.Observable > host.MaxObservable:
		return l, &OptionError{"Observable", uint64(o.Observable), fmt.Sprintf("at most %d words", host.MaxObservable)}
	case l.control > bindMax:
		return l, &OptionError{"Observable", uint64(o.Observable), fmt.Sprintf("the control buffer needs %d bytes; the device binds at most %d", l.control, bindMax)}
	case o.LogCapacity > host.MaxLogCapacity:
		return l, &OptionError{"LogCapacity", uint64(o.LogCapacity), fmt.Sprintf("at most %d records", host.MaxLogCapacity)}
	case l.log > bindMax:
		return l, &OptionError{"LogCapacity", uint64(o.LogCapacity), fmt.Sprintf("the log needs %d bytes; the device binds at most %d", l.log, bindMax)}
	case len(o.Data)%abi.WordBytes != 0:
		return l, &OptionError{"Data", uint64(len(o.Data)), "the data binding is whole 4-byte words"}
	case l.data > bindMax:
		return l, &OptionError{"Data", l.data, fmt.Sprintf("the device binds at most %d bytes", bindMax)}
	case limits.MaxComputeWorkgroupsPerDimension != 0 && uint64(o.Grid) > limits.MaxComputeWorkgroupsPerDimension:
		return l, &OptionError{"Grid", uint64(o.Grid), fmt.Sprintf("the device dispatches at most %d workgroups per dimension", limits.MaxComputeWorkgroupsPerDimension)}
	case o.Mode > ModeJIT:
		return l, &OptionError{"Mode", uint64(o.Mode), "want ModeAuto, ModeInterpreter or ModeJIT"}
	case o.Readback > decode.ReadbackOnDemand:
		return l, &OptionError{"Readback", uint64(o.Readback), "want auto, full, summary or on-demand (decode.Readback)"}
	case o.SubmissionTimeout != 0 && (o.SubmissionTimeout < MinSubmissionTimeout || o.SubmissionTimeout > MaxSubmissionTimeout):
		return l, &OptionError{"SubmissionTimeout", uint64(o.SubmissionTimeout.Milliseconds()),
			fmt.Sprintf("milliseconds: want 0 (the default, %v) or %v … %v", DefaultSubmissionTimeout, MinSubmissionTimeout, MaxSubmissionTimeout)}
	}
	k := o.Kernel // as Open runs it: traced when TraceCapacity says so
	k.Trace = k.Trace || o.TraceCapacity > 0
	if err := checkKernel(&k, limits, bindMax); err != nil {
		return l, err
	}
	if err := checkTrace(o.TraceCapacity, bindMax); err != nil {
		return l, err
	}
	if o.Readback == decode.ReadbackSummary {
		if err := o.Summary.check(); err != nil {
			return l, err
		}
		if l.summary > bindMax || l.statusMap > bindMax {
			return l, &OptionError{"Summary", l.summary, fmt.Sprintf("the summary needs %d bytes and the status map %d; the device binds at most %d", l.summary, l.statusMap, bindMax)}
		}
	}
	cfg := o.controlConfig()
	if err := cfg.Validate(); err != nil {
		return l, fmt.Errorf("megakernel: options: %w", err)
	}
	// The worst launch of this ring: every slot queued. Recommend checks
	// the budget against the same peak a Step reports, so a runner Open
	// accepts never meets an out-of-memory refusal later.
	if _, err := o.recommend(limits, o.Slots, l, nil, 0); err != nil {
		return l, err
	}
	return l, nil
}

// checkKernel validates k's declarations (wgsl.Kernel.Validate), then
// against the device: the drain's storage buffers and the user's within
// maxStorageBuffersPerShaderStage, every binding below
// maxBindingsPerBindGroup, each buffer within what one binding holds.
func checkKernel(k *wgsl.Kernel, limits webgpu.Limits, bindMax uint64) error {
	if err := k.Validate(); err != nil {
		return err
	}
	n := uint64(len(bindBuffers(k)))
	if n == 0 {
		return nil
	}
	// The user's buffers, and the storage the kernel binds itself: the
	// drain's, a trace buffer, a spawning kernel's spawn state (which
	// bindBuffers appends to the user's).
	users := uint64(len(k.Buffers))
	own, drain := uint64(abi.DrainStorageBuffers)+n-users, "drain"
	switch {
	case k.Trace && k.Spawns():
		own, drain = own+abi.TraceStorageBuffers, "traced spawning drain"
	case k.Trace:
		own, drain = own+abi.TraceStorageBuffers, "traced drain"
	case k.Spawns():
		drain = "spawning drain"
	}
	if m := limits.MaxStorageBuffersPerShaderStage; m != 0 && own+users > m {
		return &wgsl.DeclError{Field: "buffers", Reason: fmt.Sprintf("%d buffers: the %s binds %d storage buffers itself and the device allows %d per shader stage (maxStorageBuffersPerShaderStage, the adapter's own limit), so at most %d are yours",
			users, drain, own, m, m-min(m, own))}
	}
	if m := limits.MaxBindingsPerBindGroup; m != 0 && abi.BindingFirstUser+n > m {
		return &wgsl.DeclError{Field: "buffers", Reason: fmt.Sprintf("%d buffers need bindings up to %d; the device allows bindings below %d (maxBindingsPerBindGroup)",
			n, abi.BindingFirstUser+n-1, m)}
	}
	for i, b := range k.Buffers {
		if b.Size > bindMax {
			return &wgsl.DeclError{Field: fmt.Sprintf("buffers[%d].size", i), Reason: fmt.Sprintf("%d bytes: the device binds at most %d (maxStorageBufferBindingSize, maxBufferSize)", b.Size, bindMax)}
		}
	}
	return nil
}

// bindLimit is the most bytes one storage binding may hold on a device.
func bindLimit(limits webgpu.Limits) uint64 {
	return min(nonZero(limits.MaxStorageBufferBindingSize), nonZero(limits.MaxBufferSize))
}

func nonZero(v uint64) uint64 {
	if v == 0 {
		return math.MaxUint64
	}
	return v
}
