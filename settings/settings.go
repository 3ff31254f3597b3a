package settings

import (
	"fmt"
	"github.com/ringscope/ringscope/internal/nocompare"
	"sort"
	"strconv"
	"strings"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/internal/numfmt"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/workload"
)

// AdapterInfo describes the WebGPU adapter and device (the page's components
// cannot import the webgpu binding, so the composition root copies it here).
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
	_ nocompare.T

	Name  string
	Value uint64
}

// Software reports whether the adapter is a fallback or CPU adapter.
func (a *AdapterInfo) Software() bool { return a != nil && (a.IsFallback || a.IsCPU) }

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
	// Readback is how frames are read back: one of
	// decode.PageReadbacks; the runner's policy picks the mode auto runs
	// in (megakernel.ChooseReadback).
	Readback decode.Readback
	// LogCapacity is the log records a ring keeps per submission (the
	// log panel's DROPPED line asks to raise it).
	LogCapacity int
	// TraceCapacity is the records per submission the live ring traces
	// (docs/TRACE.md), 0: off. A traced ring's hang hunter keeps the
	// window when the diagnosis says stalled or lost.
	TraceCapacity int
}

// Bounds of the GPU summary's sketches (docs/SUMMARY.md §1: SKETCH_MAX_DEPTH,
// SKETCH_MAX_WIDTH): a summary-mode ring needs its sketch shape within them.
const (
	SummaryMaxSketchDepth = abi.SketchMaxDepth
	SummaryMaxSketchWidth = abi.SketchMaxWidth
)

// Preset is a named workload with its settings.
type Preset struct {
	_ nocompare.T

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
	// MaxLogCapacity is the largest log, in records (host.MaxLogCapacity).
	MaxLogCapacity = host.MaxLogCapacity
	// DefaultLogCapacity is the log records of the presets.
	DefaultLogCapacity = 1024
)

// DefaultSettings is the "default-mix" preset's settings.
func DefaultSettings() Settings { return presets[0].Settings }

// Presets returns the workloads the page offers, in menu order; the slice
// is the package's, not to be changed.
func Presets() []Preset { return presets }

// presets are the workloads the page offers, in menu order: the
// catalogue's (wgsl/workload.Catalogue), each with the page's own
// settings (workgroup size, sketch shape, readback) at their defaults.
var presets = func() []Preset {
	out := make([]Preset, len(workload.Catalogue))
	for i, p := range workload.Catalogue {
		out[i] = Preset{Name: p.Name, Title: p.Title, Description: p.Description, Settings: Settings{
			Preset: p.Name, RingSlots: int(p.Slots), Tenants: int(p.Tenants), Budget: int(p.Budget),
			WindowOpcodes: OpcodeList(p.WindowOpcodes), WorkgroupSizeX: 64, WorkerCap: int(p.Workers), SketchDepth: 4, SketchWidth: 128,
			Readback: decode.ReadbackAuto, LogCapacity: DefaultLogCapacity}}
	}
	return out
}()

// OpcodeList formats opcodes the way the settings form writes them:
// "0x100,0x101".
func OpcodeList(ops []uint32) string {
	var b strings.Builder
	for i, op := range ops {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("0x")
		b.WriteString(strconv.FormatUint(uint64(op), 16))
	}
	return b.String()
}

// PresetNames lists the preset names in menu order.
func PresetNames() []string { return workload.Presets }

// PresetByName finds a preset.
func PresetByName(name string) (Preset, bool) {
	for _, p := range presets {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// FieldError is one validation message of the settings form.
type FieldError struct {
	_ nocompare.T

	Field, Message string
}

// Validate returns every problem of s, in form order; none means valid.
func (s Settings) Validate() []FieldError {
	var errs []FieldError
	add := func(f, format string, a ...any) {
		errs = append(errs, FieldError{Field: f, Message: fmt.Sprintf(format, a...)})
	}
	if s.RingSlots < abi.PriorityLevels || s.RingSlots > MaxRingSlots {
		add("RingSlots", "ring slots must be %d…%s (one partition slot per priority at least)", abi.PriorityLevels, numfmt.Thousands(MaxRingSlots))
	}
	if s.Tenants < 1 || s.Tenants > abi.TenantCount {
		add("Tenants", "tenants must be 1…%d (tenant ids ≥ %d fault BAD_TENANT)", abi.TenantCount, abi.TenantCount)
	}
	if s.Budget < 1 || s.Budget > MaxBudget {
		add("Budget", "budget must be 1…%s claim iterations per lane", numfmt.Thousands(MaxBudget))
	}
	switch s.WorkgroupSizeX {
	case 64, 128, 256:
	default:
		add("WorkgroupSizeX", "workgroup width must be 64, 128 or 256")
	}
	if s.WorkerCap < 0 || s.WorkerCap > MaxWorkerCap {
		add("WorkerCap", "worker cap must be 0 (derive) … %s workgroups", numfmt.Thousands(MaxWorkerCap))
	}
	if _, err := ParseOpcodes(s.WindowOpcodes); err != nil {
		add("WindowOpcodes", "%v", err)
	}
	if s.SketchDepth < 1 || s.SketchDepth > MaxSketchDepth {
		add("SketchDepth", "sketch depth must be 1…%d rows", MaxSketchDepth)
	}
	if s.SketchWidth < 1 || s.SketchWidth > MaxSketchWidth {
		add("SketchWidth", "sketch width must be 1…%s counters", numfmt.Thousands(MaxSketchWidth))
	}
	if s.LogCapacity < 0 || s.LogCapacity > MaxLogCapacity {
		add("LogCapacity", "log capacity must be 0…%s records", numfmt.Thousands(MaxLogCapacity))
	}
	if s.TraceCapacity < 0 || s.TraceCapacity > abi.MaxTraceCapacity {
		add("TraceCapacity", "trace capacity must be 0 (off) … %s records", numfmt.Thousands(abi.MaxTraceCapacity))
	}
	switch s.Readback {
	case decode.ReadbackAuto, decode.ReadbackFull:
	case decode.ReadbackSummary:
		if s.SketchDepth > SummaryMaxSketchDepth || s.SketchWidth > SummaryMaxSketchWidth {
			add("Readback", "summary readback sketches on the GPU: at most %d × %s counters (sketch depth × width)", SummaryMaxSketchDepth, numfmt.Thousands(SummaryMaxSketchWidth))
		}
	default:
		add("Readback", "readback must be auto, summary or full")
	}
	if len(errs) == 0 {
		errs = s.checkPreset(errs)
	}
	return errs
}

// checkPreset appends why s's ring is too small for s's preset: a
// backlog preset's backlog, an eighth of the ring, must outlast a frame's
// claims at the least budget (wgsl/workload's launch.go). A budget the
// person set is theirs, even one that drains the backlog (the diagnosis
// then shows what runs); one they did not follows the ring (FitBudget).
func (s Settings) checkPreset(errs []FieldError) []FieldError {
	p, ok := workload.PresetByName(s.Preset)
	l := s.Launch()
	if !ok || l.Workers == 0 {
		return errs // no preset's promise to keep, or no bound on a frame's claims
	}
	if lo, hi := p.Budgets(l); lo > hi {
		errs = append(errs, FieldError{Field: "RingSlots", Message: p.Name + " needs at least " + numfmt.Thousands(p.MinSlots(l)) +
			" slots at this width and worker cap: its backlog, an eighth of the ring, must outlast a frame's claims"})
	}
	return errs
}

// FitBudget sets the budget to the preset's on s's ring, width and worker
// cap: a backlog preset's own budget would drain the backlog of a ring
// smaller than its own (workload.Preset.BudgetAt).
func (s *Settings) FitBudget() {
	if p, ok := workload.PresetByName(s.Preset); ok {
		s.Budget = int(p.BudgetAt(s.Launch()))
	}
}

// Launch is what a frame of s's ring may claim (workload.Launch).
func (s Settings) Launch() workload.Launch {
	return workload.Launch{Slots: uint32(s.RingSlots), Width: uint32(s.WorkgroupSizeX), Workers: uint32(s.WorkerCap), Budget: uint32(s.Budget)}
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
