package megakernel

import (
	"fmt"
	"slices"

	"github.com/ringscope/ringscope/internal/heapsort"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// SummaryShape is the shape of the GPU summary under decode.ReadbackSummary
// (docs/SUMMARY.md §1): the Count-Min sketches' depth and width and the
// window table's entries. A zero field takes its default.
type SummaryShape struct {
	// Depth (1 … abi.SketchMaxDepth; default DefaultSketchDepth) and Width
	// (1 … abi.SketchMaxWidth; default DefaultSketchWidth) shape the five
	// sketches, as decode's Sketch(depth, width).
	Depth, Width uint32
	// WindowCapacity is the window table's entries, a power of two ≤
	// abi.WindowMaxCapacity; the default is DefaultWindowCapacity when
	// Options.WindowOpcodes is not empty, else no table. Windows are exact
	// while the ring holds at most abi.WindowClosedLimit (3/4) of this many
	// (ticket, opcode) pairs; past it the table keeps the open windows
	// first and decode.RingTelemetry.WindowsDropped counts the slots left
	// out (docs/SUMMARY.md §3).
	WindowCapacity uint32
}

// Defaults of SummaryShape.
const (
	DefaultSketchDepth    = 4
	DefaultSketchWidth    = 128
	DefaultWindowCapacity = 256
)

func (s SummaryShape) check() error {
	switch {
	case s.Depth > abi.SketchMaxDepth:
		return &OptionError{"Summary.Depth", uint64(s.Depth), fmt.Sprintf("at most %d rows", abi.SketchMaxDepth)}
	case s.Width > abi.SketchMaxWidth:
		return &OptionError{"Summary.Width", uint64(s.Width), fmt.Sprintf("at most %d counters per row", abi.SketchMaxWidth)}
	case s.WindowCapacity > abi.WindowMaxCapacity || s.WindowCapacity&(s.WindowCapacity-1) != 0:
		return &OptionError{"Summary.WindowCapacity", uint64(s.WindowCapacity), fmt.Sprintf("want a power of two ≤ %d", abi.WindowMaxCapacity)}
	}
	return nil
}

// summaryShape is o.Summary with the defaults filled in.
func (o *Options) summaryShape() SummaryShape {
	s := o.Summary
	if s.Depth == 0 {
		s.Depth = DefaultSketchDepth
	}
	if s.Width == 0 {
		s.Width = DefaultSketchWidth
	}
	if s.WindowCapacity == 0 && len(o.WindowOpcodes) > 0 {
		s.WindowCapacity = DefaultWindowCapacity
	}
	return s
}

// summaryParams is the reduce pass's params for o: the shape and the
// window opcodes, sorted and unique (the count decode checks).
func (o *Options) summaryParams() wgsl.SummaryParams {
	sh := o.summaryShape()
	ops := slices.Clone(o.WindowOpcodes)
	heapsort.Ordered(ops)
	ops = slices.Compact(ops)
	return wgsl.SummaryParams{Depth: sh.Depth, Width: sh.Width, WindowCapacity: sh.WindowCapacity, WindowOpcodes: ops}
}

// reduceWordsPerLane is how many status-map words (abi.StatusMapPerWord
// slots each) one reduce lane covers before the grid grows: one word, 8
// slots, the least a lane can own (it assembles its map words alone). A
// lane runs its slots one after the other, and a run of a window opcode
// that meets a full window table probes every entry (a compare-exchange
// and an owner's ring read each) before it counts as dropped, so a lane's
// time grows with its window slots. On an NVIDIA H200 the readback row's
// summary frame at 65,536 slots (bench/results-h200.md, the readback row:
// default-mix, more windows than entries) waited the least for its
// readback at 1 word per lane, the most at 16; on SwiftShader 1 word was
// faster than 16 too (fewer slots per lane beat the per-workgroup flush it
// pays for more workgroups).
const reduceWordsPerLane = 1

// reduceMaxWorkgroups caps the reduce grid at what a large GPU holds
// resident at the narrowest width (a few hundred thousand lanes); a
// lane takes a larger block of the ring beyond it.
const reduceMaxWorkgroups = 4096

// reduceGrid is the reduce dispatch's workgroups: enough lanes of width
// for reduceWordsPerLane status-map words each, capped by
// reduceMaxWorkgroups and the device (each lane takes a contiguous block
// of words, so any grid covers the ring).
func reduceGrid(slots, width uint32, maxPerDim uint64) uint32 {
	words := (uint64(slots) + abi.StatusMapPerWord - 1) / abi.StatusMapPerWord
	lanes := uint64(width) * reduceWordsPerLane
	g := min((words+lanes-1)/lanes, reduceMaxWorkgroups)
	if maxPerDim != 0 {
		g = min(g, maxPerDim)
	}
	return uint32(max(g, 1))
}

// tenantsGrid is the window-tenants dispatch's workgroups: one lane per
// entry, capped by the device (a grid-stride loop covers the rest).
func tenantsGrid(capacity uint32, maxPerDim uint64) uint32 {
	g := (uint64(capacity) + wgsl.WindowTenantsWidth - 1) / wgsl.WindowTenantsWidth
	if maxPerDim != 0 {
		g = min(g, maxPerDim)
	}
	return uint32(max(g, 1))
}
