package ui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// Frame is one decoded telemetry frame, what Dashboard.Apply consumes. Every
// pointer may be nil (that part was not produced this frame; its panel
// keeps showing "–"). The frame and what it points to must stay unchanged
// until the next Apply (double-buffer the decode destinations): panels read
// it while rendering, and the slot-map hover reads Ring.Slots (or
// StatusMap) between renders.
type Frame struct {
	// Seq numbers frames from 1; AtMillis is the page time
	// (performance.now()) of the readback it decodes.
	Seq      uint64
	AtMillis float64

	Ring     *decode.RingTelemetry
	Counters *decode.RuntimeCounters
	// Watchdog is the verdict of decode.Watchdog.Observe for this frame:
	// health since the previous frame, consecutive stalled intervals, the
	// stall flag and the completion rate.
	Watchdog *decode.WatchdogState
	Sketch   *decode.SketchTelemetry
	// Priority is the requeue/promotion accounting of the host publisher.
	Priority *decode.PriorityRequeueAccounting

	// Launch is the launch policy's plan for the next dispatch; LaunchErr
	// is set instead when the policy refused (for example
	// *decode.OutOfMemoryError).
	Launch    *decode.LaunchRecommendation
	LaunchErr error

	// Dispatch is the telemetry of the dispatch this frame read back;
	// Report aggregates the run so far.
	Dispatch *decode.MegakernelTelemetry
	Report   *decode.MegakernelReport

	Log *decode.Log

	// StatusMap is the packed status of every slot (docs/SUMMARY.md §4: 4
	// bits per slot, 8 slots per word) of a frame read back as a GPU
	// summary, whose Ring.Slots is empty; StatusSlots is its slot count.
	// Both are zero after a full-ring read. The composition root copies
	// the words into the frame's own storage (the frame must not change
	// until the next Apply).
	StatusMap   []uint32
	StatusSlots int
	// HostSlot is, on a summary frame, the slot the inspector shows
	// (Dashboard.OnInspectSlot named it) as the page's copy of the ring
	// held it after this frame's readback: that copy follows the GPU's
	// status map (host.Queue.AbsorbStatusMap), so it is the slot a ring
	// read would have shown. HostSlotOK says it is set.
	HostSlot   decode.RingSlotSnapshot
	HostSlotOK bool

	Timings Timings
}

// SlotCount is the number of slots the frame shows: its slot snapshots
// after a full read, else its status map's (or Ring's status map's).
func (f *Frame) SlotCount() int {
	switch {
	case f == nil || f.Ring == nil:
		return 0
	case len(f.Ring.Slots) > 0:
		return len(f.Ring.Slots)
	case f.StatusSlots > 0:
		return min(f.StatusSlots, len(f.StatusMap)*8)
	}
	return f.Ring.SlotCount()
}

// HasSlots reports whether the frame carries full slot snapshots (a ring
// read), not only statuses.
func (f *Frame) HasSlots() bool { return f != nil && f.Ring != nil && len(f.Ring.Slots) > 0 }

// SlotStatus is slot i's status from whichever view the frame holds (a
// status-map code for a summary frame: unknown raw values read as
// Status(8)); ok is false past the slots.
func (f *Frame) SlotStatus(i int) (decode.Status, bool) {
	switch {
	case i < 0 || i >= f.SlotCount():
		return 0, false
	case len(f.Ring.Slots) > 0:
		return f.Ring.Slots[i].Status, true
	case f.StatusSlots > 0:
		return decode.Status(f.StatusMap[i/8] >> (4 * (i % 8)) & 0xf), true
	}
	return f.Ring.SlotStatus(i)
}

// statusWords is the packed status map the frame's slot map draws from:
// its own copy, else Ring's.
func (f *Frame) statusWords() []uint32 {
	if f.StatusSlots > 0 {
		return f.StatusMap
	}
	return f.Ring.StatusMap.Words()
}

// Timings are the host-side costs of the frame, in milliseconds (0 means
// not measured).
type Timings struct {
	_ noCompare

	PublishMS   float64 // encoding and writing published slots (writeBuffer)
	DispatchMS  float64 // encoding and submitting the drain + finalize passes
	ReadbackMS  float64 // copy + mapAsync + getMappedRange → Go slice
	DecodeMS    float64 // decode of control, ring, log, sketches, counters
	RoundTripMS float64 // submit to readback available: what the GPU round trip cost
	GPUMS       float64 // device time from timestamp queries, when the adapter has them
}

// AdapterInfo describes the WebGPU adapter and device (package ui cannot
// import the webgpu binding, so the composition root copies it here).
type AdapterInfo struct {
	Vendor       string
	Architecture string
	Device       string
	Description  string
	// IsFallback is GPUAdapter.isFallbackAdapter (or info.isFallbackAdapter).
	IsFallback bool
	// IsCPU is set when the adapter is a software rasteriser running on the
	// CPU (SwiftShader, lavapipe, WARP): timings do not represent a GPU.
	IsCPU bool
	// Limits are the device's limits, name → value, in any order.
	Limits []Limit
	// Features are the device's enabled features.
	Features []string
}

// Limit is one named WebGPU limit.
type Limit struct {
	_ noCompare

	Name  string
	Value uint64
}

// Software reports whether the adapter is a fallback or CPU adapter.
func (a *AdapterInfo) Software() bool { return a != nil && (a.IsFallback || a.IsCPU) }

// Dashboard statuses: the closed set shown in data-testid="status".
const (
	StatusLoading  = "loading"
	StatusReady    = "ready"
	StatusNoWebGPU = "no-webgpu"
)

// ErrorStatus returns the status text for err: "error: " + its message.
func ErrorStatus(err error) string {
	if err == nil {
		return "error: unknown"
	}
	return "error: " + err.Error()
}

// Settings are the run parameters the person edits in the settings form;
// the composition root applies them (OnApplySettings). The zero value is
// invalid; start from DefaultSettings or a preset.
type Settings struct {
	// Preset names the workload generator (PresetNames); the other fields
	// tune it.
	Preset string
	// RingSlots is the ring size in slots (64 bytes each).
	RingSlots int
	// Tenants is how many tenant ids (0…Tenants−1) the workload uses.
	Tenants int
	// Budget is params.budget: claim iterations per lane per dispatch.
	Budget int
	// WorkgroupSizeX is the preferred workgroup width: 64, 128 or 256.
	WorkgroupSizeX int
	// WorkerCap is the launch request's RequestedWorkerGroups; 0 lets the
	// policy derive it from the adapter's limits.
	WorkerCap int
	// WindowOpcodes lists the ticketed-window opcodes, comma separated,
	// decimal or 0x-hex ("0x100, 7").
	WindowOpcodes string
	// SketchDepth × SketchWidth is the shape of each Count-Min sketch.
	SketchDepth int
	SketchWidth int
	// Readback is how frames are read back: ReadbackAuto (also ""),
	// ReadbackSummary or ReadbackFull (ResolveReadback).
	Readback string
}

// Readback modes of Settings.Readback.
const (
	// ReadbackAuto picks full on a CPU or fallback adapter and summary on
	// a GPU (ResolveReadback says why).
	ReadbackAuto = "auto"
	// ReadbackSummary reads control, log, the GPU summary and the 4-bit
	// status map each frame, and the ring only on demand.
	ReadbackSummary = "summary"
	// ReadbackFull reads the whole ring (64 bytes per slot) each frame.
	ReadbackFull = "full"
)

// ReadbackModes lists the modes in menu order.
var ReadbackModes = []string{ReadbackAuto, ReadbackSummary, ReadbackFull}

// Bounds of the GPU summary's sketches (docs/SUMMARY.md §1: SKETCH_MAX_DEPTH,
// SKETCH_MAX_WIDTH): a summary-mode ring needs its sketch shape within them.
const (
	SummaryMaxSketchDepth = abi.SketchMaxDepth
	SummaryMaxSketchWidth = abi.SketchMaxWidth
)

// ReadbackTitle explains the readback modes (the form's and the header's
// tooltip).
const ReadbackTitle = "readback: auto picks full on a CPU or fallback adapter (SwiftShader: the reduce pass reads " +
	"the whole ring on the CPU, so summary frames measured slower there: 46 ms vs 13 ms at 65,536 slots, make bench row 2) and " +
	"summary on a real GPU; summary reads control + log + GPU summary + 4-bit status map each frame " +
	"(≥ 32× fewer bytes at 65,536 slots) and the full ring only on demand (slot inspector, recording, " +
	"back-pressure, parked work); full reads every slot (64 B) each frame"

// ResolveReadback is the mode a ring of s runs in on an adapter that is
// software (CPU or fallback) or not: summary or full, with the reason.
// Auto picks full where the summary cannot hold the sketch shape.
func ResolveReadback(s Settings, software bool) (mode, why string) {
	fits := s.SketchDepth <= SummaryMaxSketchDepth && s.SketchWidth <= SummaryMaxSketchWidth
	switch s.Readback {
	case ReadbackSummary:
		return ReadbackSummary, "readback=summary"
	case ReadbackFull:
		return ReadbackFull, "readback=full"
	}
	switch {
	case software:
		return ReadbackFull, "auto: CPU/fallback adapter, full is faster there"
	case !fits:
		return ReadbackFull, "auto: the sketch shape exceeds the GPU summary's " + strconv.Itoa(SummaryMaxSketchDepth) + " × " + Thousands(SummaryMaxSketchWidth)
	}
	return ReadbackSummary, "auto: GPU adapter, summary reads back fewer bytes"
}

// Preset is a named workload with its settings.
type Preset struct {
	_ noCompare

	Name, Title, Description string
	Settings                 Settings
}

// Limits of the settings form.
const (
	MaxRingSlots   = 1 << 22
	MaxBudget      = 1 << 20
	MaxWorkerCap   = 65535
	MaxSketchDepth = 16
	MaxSketchWidth = 1 << 16
)

// DefaultSettings is the "default-mix" preset's settings.
func DefaultSettings() Settings {
	return Settings{Preset: "default-mix", RingSlots: 65536, Tenants: 8, Budget: 64,
		WorkgroupSizeX: 64, WorkerCap: 0, WindowOpcodes: "0x100", SketchDepth: 4, SketchWidth: 128, Readback: ReadbackAuto}
}

// Presets are the workloads the page offers, in menu order.
var Presets = func() []Preset {
	d := DefaultSettings()
	with := func(name string, f func(*Settings)) Settings {
		s := d
		s.Preset = name
		f(&s)
		return s
	}
	return []Preset{
		{Name: "default-mix", Title: "Default mix", Description: "every opcode class, 8 tenants, all priorities, some windows", Settings: d},
		{Name: "nop-flood", Title: "Uniform NOP flood", Description: "the whole ring published as NOPs: raw claim throughput",
			Settings: with("nop-flood", func(s *Settings) { s.Tenants = 1; s.WindowOpcodes = "" })},
		{Name: "skewed-tenants", Title: "Skewed tenants", Description: "Zipf-like tenant mix: one tenant owns most slots; watch fairness skew",
			Settings: with("skewed-tenants", func(s *Settings) { s.Tenants = 16 })},
		{Name: "priority-inversion", Title: "Priority inversion", Description: "IDLE floods while CRITICAL work waits behind it; watch heads/tails",
			Settings: with("priority-inversion", func(s *Settings) { s.Budget = 8 })},
		{Name: "stall", Title: "Stall", Description: "work published for a masked tenant: queued, never done; the watchdog fires",
			Settings: with("stall", func(s *Settings) { s.RingSlots = 4096 })},
		{Name: "fault-storm", Title: "Fault storm", Description: "unknown opcodes, bad tenants and RAISE: faults and the log fill up",
			Settings: with("fault-storm", func(s *Settings) { s.RingSlots = 16384 })},
	}
}()

// PresetNames lists the preset names in menu order.
func PresetNames() []string {
	n := make([]string, len(Presets))
	for i, p := range Presets {
		n[i] = p.Name
	}
	return n
}

// PresetByName finds a preset.
func PresetByName(name string) (Preset, bool) {
	for _, p := range Presets {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// FieldError is one validation message of the settings form.
type FieldError struct {
	_ noCompare

	Field, Message string
}

// Validate returns every problem of s, in form order; none means valid.
func (s Settings) Validate() []FieldError {
	var errs []FieldError
	add := func(f, format string, a ...any) {
		errs = append(errs, FieldError{Field: f, Message: fmt.Sprintf(format, a...)})
	}
	if s.RingSlots < abi.PriorityLevels || s.RingSlots > MaxRingSlots {
		add("RingSlots", "ring slots must be %d…%s (one partition slot per priority at least)", abi.PriorityLevels, Thousands(MaxRingSlots))
	}
	if s.Tenants < 1 || s.Tenants > abi.TenantCount {
		add("Tenants", "tenants must be 1…%d (tenant ids ≥ %d fault BAD_TENANT)", abi.TenantCount, abi.TenantCount)
	}
	if s.Budget < 1 || s.Budget > MaxBudget {
		add("Budget", "budget must be 1…%s claim iterations per lane", Thousands(MaxBudget))
	}
	switch s.WorkgroupSizeX {
	case 64, 128, 256:
	default:
		add("WorkgroupSizeX", "workgroup width must be 64, 128 or 256")
	}
	if s.WorkerCap < 0 || s.WorkerCap > MaxWorkerCap {
		add("WorkerCap", "worker cap must be 0 (derive) … %s workgroups", Thousands(MaxWorkerCap))
	}
	if _, err := ParseOpcodes(s.WindowOpcodes); err != nil {
		add("WindowOpcodes", "%v", err)
	}
	if s.SketchDepth < 1 || s.SketchDepth > MaxSketchDepth {
		add("SketchDepth", "sketch depth must be 1…%d rows", MaxSketchDepth)
	}
	if s.SketchWidth < 1 || s.SketchWidth > MaxSketchWidth {
		add("SketchWidth", "sketch width must be 1…%s counters", Thousands(MaxSketchWidth))
	}
	switch s.Readback {
	case "", ReadbackAuto, ReadbackFull:
	case ReadbackSummary:
		if s.SketchDepth > SummaryMaxSketchDepth || s.SketchWidth > SummaryMaxSketchWidth {
			add("Readback", "summary readback sketches on the GPU: at most %d × %s counters (sketch depth × width)", SummaryMaxSketchDepth, Thousands(SummaryMaxSketchWidth))
		}
	default:
		add("Readback", "readback must be auto, summary or full")
	}
	return errs
}

// WindowOpcodeList parses WindowOpcodes (nil when invalid or empty).
func (s Settings) WindowOpcodeList() []uint32 {
	ops, _ := ParseOpcodes(s.WindowOpcodes)
	return ops
}

// ParseOpcodes parses a comma- or space-separated list of opcodes, decimal
// or 0x-hex, into a sorted, de-duplicated list.
func ParseOpcodes(text string) ([]uint32, error) {
	var ops []uint32
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		v, err := strconv.ParseUint(f, 0, 32)
		if err != nil {
			return nil, fmt.Errorf("window opcode %q is not a 32-bit number (decimal or 0x-hex)", f)
		}
		ops = append(ops, uint32(v))
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i] < ops[j] })
	out := ops[:0]
	for i, v := range ops {
		if i == 0 || v != ops[i-1] {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}
