//go:build js && wasm

package bench

import (
	"flag"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// traceSlots is the trace row's ring size: the target's 1,048,576 on a GPU;
// a CPU adapter (SwiftShader) takes minutes there, so make bench-node
// passes less.
var traceSlots = flag.Uint("trace-slots", 1<<20, "trace row: ring size in slots")

// TestTraceRow: the drain pass traced (Options.TraceCapacity = the ring:
// every slot's record kept) against untraced, on the same device, the same
// items, runs interleaved, the order alternating. A side's time is the sum
// of its submissions' drain-pass timestamps (docs/TRACE.md §2); each
// measured drain follows warm.wgsl's -warm of GPU work.
func TestTraceRow(t *testing.T) {
	needRows(t)
	ctx := ctxT(t)
	dev := device(t)
	warm := newWarmer(ctx, t, dev)
	n := uint32(*traceSlots)
	parts := [abi.PriorityLevels + 1]uint32{0, 0, 0, n, n, n}
	for _, op := range []uint32{abi.OpNop, abi.OpSpin} {
		items := dispatchItems(int(n), op)
		o := megakernel.Options{Slots: n, Tenants: 1, Observable: 1, Budget: pageBudget, Mode: megakernel.ModeInterpreter,
			Partitions: parts, Readback: decode.ReadbackOnDemand,
			SubmissionTimeout: megakernel.MaxSubmissionTimeout} // SPIN on a CPU adapter: minutes, not a runaway
		off, err := megakernel.Open(ctx, dev, o)
		must(t, err)
		o.TraceCapacity = n
		on, err := megakernel.Open(ctx, dev, o)
		must(t, err)
		var offUs, onUs, records []float64
		var grid, width uint32
		var steps int
		drain := func(r *megakernel.Runner, traced bool) float64 {
			must(t, r.Reset(r.Options()))
			runtime.GC()
			_, err := r.Publish(items)
			must(t, err)
			must(t, warm.warm(ctx))
			var gpu time.Duration
			steps = 0
			for r.Pending() > 0 {
				ep, err := r.Step(ctx)
				must(t, err)
				if steps == 0 {
					grid, width = ep.Grid, ep.Width
				}
				gpu += ep.GPUTime
				steps++
			}
			if got := abi.Word(r.Control(), abi.CtrlDoneCount); got != n {
				t.Fatalf("DONE_COUNT %d, want %d", got, n)
			}
			if traced {
				w := r.Trace()
				if w.Overflow != 0 || len(w.Records) != int(n) {
					t.Fatalf("traced: %d records, %d overflow; want %d, 0", len(w.Records), w.Overflow, n)
				}
				records = append(records, float64(len(w.Records)))
			}
			return us(gpu)
		}
		runs := reps(7)
		for k := range runs + 1 { // run 0 warms pipelines and buffers
			var a, b float64
			if k%2 == 0 {
				a = drain(off, false)
				b = drain(on, true)
			} else {
				b = drain(on, true)
				a = drain(off, false)
			}
			if k == 0 {
				continue
			}
			offUs, onUs = append(offUs, a), append(onUs, b)
		}
		off.Close()
		on.Close()
		name := fmt.Sprintf("%d NOP", n)
		if op == abi.OpSpin {
			name = fmt.Sprintf("%d SPIN(%d rounds)", n, spinRounds)
		}
		emit("trace", name, map[string]any{
			"items": n, "onGpuUs": dist(onUs), "offGpuUs": dist(offUs), "records": dist(records),
			"steps": steps, "grid": fmt.Sprintf("%d×%d", grid, width), "budget": pageBudget,
			"timestamps": dev.HasFeature(webgpu.FeatureTimestampQuery), "warmMs": ms(*warmFor),
		})
	}
}
