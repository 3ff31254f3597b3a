package wgsl

import (
	"fmt"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// SummaryParams is the reduce pass's params buffer (docs/SUMMARY.md §1):
// the sketch shape and the window table.
type SummaryParams struct {
	Depth, Width   uint32
	WindowCapacity uint32   // entries, a power of two (or 0: no table)
	WindowOpcodes  []uint32 // at most abi.SummaryMaxWindowOpcodes
}

// Check reports why p is outside the ABI's bounds, or nil.
func (p SummaryParams) Check() error {
	switch {
	case p.Depth == 0 || p.Depth > abi.SketchMaxDepth:
		return fmt.Errorf("wgsl: summary sketch depth %d: want 1 … %d", p.Depth, abi.SketchMaxDepth)
	case p.Width == 0 || p.Width > abi.SketchMaxWidth:
		return fmt.Errorf("wgsl: summary sketch width %d: want 1 … %d", p.Width, abi.SketchMaxWidth)
	case p.WindowCapacity > abi.WindowMaxCapacity || p.WindowCapacity&(p.WindowCapacity-1) != 0:
		return fmt.Errorf("wgsl: window capacity %d: want 0 or a power of two ≤ %d", p.WindowCapacity, abi.WindowMaxCapacity)
	case len(p.WindowOpcodes) > abi.SummaryMaxWindowOpcodes:
		return fmt.Errorf("wgsl: %d window opcodes: at most %d", len(p.WindowOpcodes), abi.SummaryMaxWindowOpcodes)
	}
	return nil
}

// Bytes is the params buffer: abi.SummaryParamsWords little-endian words.
func (p SummaryParams) Bytes() []byte {
	return p.AppendBytes(nil)
}

// AppendBytes appends the params buffer to dst.
func (p SummaryParams) AppendBytes(dst []byte) []byte {
	var w [abi.SummaryParamsWords]uint32
	w[abi.SparamDepth], w[abi.SparamWidth] = p.Depth, p.Width
	w[abi.SparamWindowCapacity], w[abi.SparamWindowOpcodes] = p.WindowCapacity, uint32(len(p.WindowOpcodes))
	copy(w[abi.SparamOpcodeList:], p.WindowOpcodes)
	for _, v := range w {
		dst = abi.AppendWord(dst, v)
	}
	return dst
}
