package megakernel

import (
	"fmt"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// SummaryFits reports whether a sketch of depth × width fits the GPU
// summary (docs/SUMMARY.md §1: SKETCH_MAX_DEPTH, SKETCH_MAX_WIDTH).
func SummaryFits(depth, width int) bool {
	return depth <= abi.SketchMaxDepth && width <= abi.SketchMaxWidth
}

// ChooseReadback is the readback policy of every ring ringscope reads, its
// own runner's and an attachment's: the mode a ring asked for want runs
// in, on an adapter that is software (a CPU or fallback one) or not, with
// a summary sketch of depth × width; summary or full, with the reason the
// header shows. Auto picks full on a software adapter, where the reduce
// pass reads the whole ring on the CPU and costs more than the copy it
// saves (bench/results.md, row 2), and where the sketch exceeds the GPU
// summary's bounds; summary on a GPU. Summary asked for is summary: a
// caller refuses a sketch that does not fit before it asks.
func ChooseReadback(want decode.Readback, software bool, depth, width int) (decode.Readback, string) {
	switch {
	case want == decode.ReadbackSummary || want == decode.ReadbackFull:
		return want, "readback=" + want.String()
	case software:
		return decode.ReadbackFull, "auto: a CPU or fallback adapter, where the reduce pass costs more than the copy it saves"
	case !SummaryFits(depth, width):
		return decode.ReadbackFull, fmt.Sprintf("auto: the sketch shape %d × %d exceeds the GPU summary's %d × %d", depth, width, abi.SketchMaxDepth, abi.SketchMaxWidth)
	}
	return decode.ReadbackSummary, "auto: a GPU adapter, where summary reads back fewer bytes"
}
