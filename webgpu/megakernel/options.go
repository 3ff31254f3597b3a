package megakernel

import (
	"fmt"
	"math"

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

// RingReadback says when a Step copies the ring back. The zero value is
// RingAlways.
type RingReadback uint8

const (
	// RingAlways reads control, log and ring back after every submission.
	RingAlways RingReadback = iota
	// RingOnDemand reads only control and log, and the ring when
	// Runner.RequestRing asked for it (Drain always asks). Until the ring is
	// read back, the host copy keeps the statuses it last saw, so slots the
	// GPU finished look busy: publishing into them fails with a
	// *host.PartitionFullError, and the decoded slots are the host's.
	RingOnDemand
	// RingSummary adds the GPU telemetry reduction (docs/SUMMARY.md) to
	// every submission and reads back control, log, the summary and the
	// packed status map instead of the ring, decoding them with
	// decode.DecodeSummaryInto: a frame's bytes no longer grow 64 per slot
	// but half a byte per slot. The ring comes back only when
	// Runner.RequestRing asked for it (Drain always asks); the host copy
	// takes its statuses from the status map (host.Queue.AbsorbStatusMap),
	// so unlike RingOnDemand it does not go stale: the GPU writes only the
	// statuses of the slots it claims.
	RingSummary
)

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
	// RingReadback says when the ring is read back.
	RingReadback RingReadback
	// Summary shapes the GPU summary of RingSummary; its zero value means
	// the defaults (SummaryShape.withDefaults). Ignored in other modes.
	Summary SummaryShape
	// Kernel is the user's own opcodes and buffers, compiled into the
	// drain's dispatch (docs/OPCODES.md); the zero value is the built-in
	// kernel. Its refusals are *wgsl.DeclError values naming the field.
	Kernel wgsl.Kernel
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
	}
}

// layout is the byte geometry of a runner's buffers.
type layout struct {
	control, ring, log, data uint64
	// user is the user buffers' bytes (Options.Kernel), all together.
	user uint64
	// The GPU summary's buffers (RingSummary only, else 0): summary,
	// status map and the summary params.
	summary, statusMap, sparams uint64
}

func (o *Options) layout() layout {
	data := uint64(len(o.Data))
	if data == 0 {
		data = abi.WordBytes
	}
	l := layout{
		control: uint64(abi.ControlWords(o.Observable)) * abi.WordBytes,
		ring:    uint64(o.Slots) * abi.SlotBytes,
		log:     uint64(abi.LogWords(o.LogCapacity)) * abi.WordBytes,
		data:    data,
	}
	for _, b := range o.Kernel.Buffers {
		l.user += b.Size
	}
	if o.RingReadback == RingSummary {
		sh := o.summaryShape()
		l.summary = abi.SummaryWords(sh.Depth, sh.Width, sh.WindowCapacity) * abi.WordBytes
		l.statusMap = abi.StatusMapWords(o.Slots) * abi.WordBytes
		l.sparams = abi.SummaryParamsWords * abi.WordBytes
	}
	return l
}

// paramsBytes is the size of the params uniform.
const paramsBytes = abi.ParamsWords * abi.WordBytes

// timestampBytes is the two resolved timestamps (the drain pass's begin
// and end, u64 nanoseconds) at the head of a staging buffer.
const timestampBytes = 16

// staging is the size of one MAP_READ staging buffer: timestamps, control,
// log, summary, status map (both empty unless RingSummary), then ring,
// back to back (all whole words), so a readback without the ring maps one
// contiguous range.
func (l layout) staging() uint64 {
	return timestampBytes + l.control + l.log + l.summary + l.statusMap + l.ring
}

// controlOffset, logOffset, summaryOffset, statusMapOffset and ringOffset
// are offsets in a staging buffer.
func (l layout) controlOffset() uint64   { return timestampBytes }
func (l layout) logOffset() uint64       { return timestampBytes + l.control }
func (l layout) summaryOffset() uint64   { return timestampBytes + l.control + l.log }
func (l layout) statusMapOffset() uint64 { return l.summaryOffset() + l.summary }
func (l layout) ringOffset() uint64      { return l.statusMapOffset() + l.statusMap }

// stagedUploadMin and stagedUploadMax bound the ring uploads that go
// through a mapped staging buffer (upload_js.go): a ring upload of at
// least stagedUploadMin bytes (below it writeBuffer's own staging is
// cheap), for rings of at most stagedUploadMax bytes (262,144 slots: the
// staging is another ring's worth of memory, so larger rings keep
// writeBuffer).
const (
	stagedUploadMin = 1 << 20
	stagedUploadMax = 16 << 20
)

// upload is the size of the ring's upload staging: the ring's when it is
// between stagedUploadMin and stagedUploadMax bytes, else 0 (none).
func (l layout) upload() uint64 {
	if l.ring < stagedUploadMin || l.ring > stagedUploadMax {
		return 0
	}
	return l.ring
}

// device is the device memory a runner holds: the five bindings, two
// staging buffers (double-buffered readback), the ring's upload staging
// and the timestamp resolve buffer.
func (l layout) device() uint64 {
	return l.control + l.ring + l.log + paramsBytes + l.data + 2*l.staging() + l.upload() + timestampBytes +
		l.summary + l.statusMap + l.sparams + l.user
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
	case o.RingReadback > RingSummary:
		return l, &OptionError{"RingReadback", uint64(o.RingReadback), "want RingAlways, RingOnDemand or RingSummary"}
	}
	if err := checkKernel(&o.Kernel, limits, bindMax); err != nil {
		return l, err
	}
	if o.RingReadback == RingSummary {
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
	if _, err := o.recommend(limits, o.Slots, l, nil); err != nil {
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
	n := uint64(len(k.Buffers))
	if n == 0 {
		return nil
	}
	if m := limits.MaxStorageBuffersPerShaderStage; m != 0 && abi.DrainStorageBuffers+n > m {
		return &wgsl.DeclError{Field: "buffers", Reason: fmt.Sprintf("%d buffers: the drain binds %d storage buffers itself and the adapter allows %d per shader stage (maxStorageBuffersPerShaderStage), so at most %d are yours",
			n, abi.DrainStorageBuffers, m, m-min(m, abi.DrainStorageBuffers))}
	}
	if m := limits.MaxBindingsPerBindGroup; m != 0 && abi.BindingFirstUser+n > m {
		return &wgsl.DeclError{Field: "buffers", Reason: fmt.Sprintf("%d buffers need bindings up to %d; the adapter allows bindings below %d (maxBindingsPerBindGroup)",
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

// request is the launch request of one submission of queue pending items.
func (o *Options) request(limits webgpu.Limits, queue uint32, l layout) decode.LaunchRequest {
	return decode.LaunchRequest{
		QueueLen:                          queue,
		RequestedWorkerGroups:             o.WorkerGroups,
		MaxWorkgroupSizeX:                 clampU32(limits.MaxComputeWorkgroupSizeX),
		MaxComputeWorkgroupsPerDimension:  clampU32(limits.MaxComputeWorkgroupsPerDimension),
		MaxComputeInvocationsPerWorkgroup: clampU32(limits.MaxComputeInvocationsPerWorkgroup),
		ResidentDeviceBytes:               l.device(),
		DeviceMemoryBudgetBytes:           o.MemoryBudgetBytes,
		PreferredWorkgroupSizeX:           o.WorkgroupSize,
	}
}

// recommend plans a launch; tel, when non-nil, adds what the last readback
// shows (reference §7.9).
func (o *Options) recommend(limits webgpu.Limits, queue uint32, l layout, tel *decode.RingTelemetry) (decode.LaunchRecommendation, error) {
	req := o.request(limits, queue, l)
	if tel != nil {
		return tel.RecommendLaunch(req)
	}
	return decode.StandardLaunchPolicy().Recommend(req, nil)
}

func clampU32(v uint64) uint32 {
	if v > math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(v)
}

// grid is the workgroups a submission dispatches: the recommendation's, or
// the Grid override.
func (o *Options) grid(rec decode.LaunchRecommendation) uint32 {
	if o.Grid != 0 {
		return o.Grid
	}
	return max(rec.DispatchGrid[0], 1)
}

// gridFor is the grid of a submission of queue pending items: grid's,
// raised to the workgroups that give each lane about laneClaims of the
// items, at most maxGroups (the device's maxComputeWorkgroupsPerDimension)
// and at most WorkerGroups when the caller set that ceiling (the page's
// worker cap; tests that pace a drain by it). The Grid override is kept as
// given.
//
// The policy sizes its grid to what the device holds resident by its
// limits alone (255 workgroups on a 65,535 limit): at budget 64 and width
// 64 that claims 1,044,480 items, so a full 1,048,576-slot ring took a
// second submission, with every host pass again, for its last 4,096; and
// each lane ran 64 claims one after another, each a chain of dependent
// memory operations (the ticket, the slot's words, the compare-exchange
// claim and finish), so the pass took 64 chains' latency while the GPU held
// far more lanes than it ran. With laneClaims items per lane the chains
// run side by side; a workgroup that finds none left costs one failed
// atomicAdd. bench/results-h200.md has the grids tried.
//
// On a CPU adapter (cpu: the device's adapter info says so; a device
// without adapter info is taken for a GPU) the grid is instead the fewest
// workgroups that claim the queue at the full budget, at least one, within
// the same ceiling. SwiftShader runs a few workgroups at a time on its
// threads, so more lanes do not overlap the claims' round trips to memory
// as a GPU's do, and each workgroup costs its lanes' setup and the last,
// failed claim, which runs the drain loop's whole body (megakernel.wgsl's
// lane_loop says why): at 65,536 NOP items the drain pass took 64.1 ms at
// the policy's 255 workgroups and 9.7 ms at 16, at 4,096 items 13.2 ms at
// 64 and 0.51 ms at 1 (bench/results-ring.md).
func (o *Options) gridFor(rec decode.LaunchRecommendation, queue, maxGroups uint32, cpu bool) uint32 {
	g := o.grid(rec)
	if o.Grid != 0 {
		return g
	}
	claims := min(o.Budget, laneClaims)
	if cpu {
		claims = o.Budget
	}
	perGroup := uint64(rec.WorkgroupSizeX) * uint64(claims)
	if perGroup == 0 {
		return g
	}
	need := (uint64(queue) + perGroup - 1) / perGroup
	ceiling := uint64(max(maxGroups, 1))
	if o.WorkerGroups != 0 {
		ceiling = min(ceiling, uint64(o.WorkerGroups))
	}
	if cpu {
		return uint32(max(1, min(need, ceiling)))
	}
	return uint32(max(uint64(g), min(need, ceiling)))
}

// laneClaims is the claims per lane gridFor sizes a large submission's
// grid for.
const laneClaims = 8

// program is the drain a submission runs under mode m and the policy's
// choice.
func (o *Options) jit(rec decode.LaunchRecommendation) bool {
	switch o.Mode {
	case ModeInterpreter:
		return false
	case ModeJIT:
		return true
	}
	return rec.ExecutionMode == decode.ModeJIT
}

// mergeGap is the largest gap between two dirty ranges that one write
// covers: below a few slots, one writeBuffer call costs more than the
// bytes it rewrites.
const mergeGap = 256

// coalesce appends to dst the write ranges for the sorted dirty ranges:
// ranges closer than gap bytes are merged (the words between are rewritten
// with the host copy's values, which equal the device's only when the
// buffer was read back since the last submission; pass gap 0 otherwise).
func coalesce(dst, dirty []host.ByteRange, gap int) []host.ByteRange {
	dst = dst[:0]
	for _, r := range dirty {
		if r.Len() <= 0 {
			continue
		}
		if n := len(dst); n > 0 && r.Start-dst[n-1].End <= gap {
			dst[n-1].End = max(dst[n-1].End, r.End)
			continue
		}
		dst = append(dst, r)
	}
	return dst
}

// pendingItems is Σ (TAIL[p] − HEAD[p]) over the partitions of a control
// buffer: the items published and not yet claimed (32-bit modular, as the
// protocol compares counters).
func pendingItems(control []byte) uint32 {
	var n uint32
	for p := 0; p < abi.PriorityLevels; p++ {
		h, t := word(control, abi.CtrlHead+p), word(control, abi.CtrlTail+p)
		if d := t - h; d < 1<<31 {
			n += d
		}
	}
	return n
}

// heads returns HEAD[0..4] of a control buffer.
func heads(control []byte) (h [abi.PriorityLevels]uint32) {
	for p := range h {
		h[p] = word(control, abi.CtrlHead+p)
	}
	return h
}

// claimed is the tickets taken between two HEAD snapshots.
func claimed(before, after [abi.PriorityLevels]uint32) uint64 {
	var n uint64
	for p := range before {
		n += uint64(after[p] - before[p])
	}
	return n
}

func word(b []byte, w int) uint32 {
	i := w * abi.WordBytes
	if i+abi.WordBytes > len(b) {
		return 0
	}
	return uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2])<<16 | uint32(b[i+3])<<24
}

// ringScan is what the next submission will claim: the sorted, distinct
// opcodes of the pending items (the JIT set), and the ring's active slots.
type ringScan struct {
	active  uint32
	opcodes []uint32
}

// scan fills s, reusing s.opcodes, without reading a slot: opcodes are the
// queue's pending set (host.Queue.PendingOpcodes, kept at publish and
// claim time), and active is the pending items plus the slots the last
// readback saw parked or running (CLAIMED, WAIT_IO, YIELD, REQUEUE); a
// slot republished since counts once, as pending. So a Step's plan costs
// the same for 10 pending items as for a million.
func (s *ringScan) scan(control []byte, q *host.Queue, last *decode.RingOccupancy) {
	s.opcodes = q.PendingOpcodes(s.opcodes)
	s.active = 0
	for p := 0; p < abi.PriorityLevels; p++ {
		off, end := word(control, abi.CtrlPriorityOffsets+p), word(control, abi.CtrlPriorityOffsets+p+1)
		if off >= end {
			continue // an empty or malformed partition is never claimed
		}
		h, t := word(control, abi.CtrlHead+p), word(control, abi.CtrlTail+p)
		if t-h < 1<<31 {
			s.active += min(t-h, end-off) // at most the partition's slots
		}
	}
	if last != nil {
		s.active += last.Claimed + last.WaitIO + last.Yield + last.Requeue
	}
}
