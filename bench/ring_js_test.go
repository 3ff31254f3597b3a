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
	"github.com/ringscope/ringscope/wgsl/host"
)

// ringPhases names the megakernel side's parts (megakernel.Timings).
var ringPhases = [...]string{"publish", "prepare", "upload", "submit", "readback", "decode"}

// TestRingRow (row 6): the ring at the speed of the hardware, at 65,536
// and 1,048,576 NOP items in one partition, the page's budget (64), the
// interpreter program, control + log readback (decode.ReadbackOnDemand), on one
// device, sides interleaved per repetition, the GPU warmed (warm.wgsl)
// before each measured submission:
//
//   - the drain pass's GPU time (timestamp queries around the drain
//     dispatch: megakernel.Epoch.GPUTime) against the bare atomic-head ring
//     (bare_ring.wgsl: the same bytes, grid, width and budget) and against
//     the memory stream over the same bytes (stream.wgsl);
//   - publish + drain (Runner.Publish of the items, then Steps until none
//     is pending: upload, submit, readback, decode) against the JS floor:
//     the same control and ring bytes, already in JS, written with
//     writeBuffer, one dispatch of the bare ring, a readback of control.
//
// ringGrid overrides the megakernel's grid in TestRingRow (Options.Grid),
// to compare grids; 0 keeps the runner's.
var ringGrid = flag.Uint("ring-grid", 0, "row 6: the megakernel's grid (0: the runner's)")

func TestRingRow(t *testing.T) {
	needRows(t)
	ctx := ctxT(t)
	dev := device(t)
	for _, n := range []int{1 << 16, 1 << 20} {
		slots := uint32(n)
		parts := [abi.PriorityLevels + 1]uint32{0, 0, 0, slots, slots, slots}
		o := megakernel.Options{Slots: slots, Tenants: 1, Observable: 1, Budget: pageBudget, Mode: megakernel.ModeInterpreter,
			Partitions: parts, Readback: decode.ReadbackOnDemand, Grid: uint32(*ringGrid)}
		r, err := megakernel.Open(ctx, dev, o)
		must(t, err)
		items := dispatchItems(n, abi.OpNop)
		// The bytes every side starts from: the items published into a
		// fresh queue of the same shape.
		q, err := host.NewQueue(host.ControlConfig{Slots: slots, Observable: 1, Tenants: 1, Partitions: parts}, 0)
		must(t, err)
		_, err = q.Publish(items)
		must(t, err)
		control, ring := append([]byte(nil), q.Control()...), append([]byte(nil), q.Ring()...)
		jsControl, jsRing := jsBytes(control), jsBytes(ring)

		runs := reps(map[int]int{1 << 16: 9, 1 << 20: 5}[n])
		var f *floors
		var drainGPU, bareGPU, streamGPU, e2e, js []float64
		phases := map[string][]float64{}
		var grid, width, bareGrid uint32
		var steps int
		for k := range runs + 1 { // run 0 warms pipelines, buffers and the JIT of the JS engine
			// Megakernel: publish + drain.
			must(t, r.Reset(o))
			runtime.GC() // not inside the timed part
			if f != nil {
				must(t, f.warm(ctx))
			}
			t0 := time.Now()
			_, err := r.Publish(items)
			must(t, err)
			tPub := time.Since(t0)
			steps = 0
			var gpu time.Duration
			var sum megakernel.Timings
			for r.Pending() > 0 {
				ep, err := r.Step(ctx)
				must(t, err)
				if steps == 0 {
					grid = ep.Grid // the first submission's: it drains all, or the most
				}
				width, gpu = ep.Width, gpu+ep.GPUTime
				sum.Prepare += ep.Timings.Prepare
				sum.Upload += ep.Timings.Upload
				sum.Submit += ep.Timings.Submit
				sum.Readback += ep.Timings.Readback
				sum.Decode += ep.Timings.Decode
				steps++
			}
			d := time.Since(t0)
			if got := abi.Word(r.Control(), abi.CtrlDoneCount); got != slots {
				t.Fatalf("megakernel: DONE_COUNT %d, want %d", got, n)
			}
			if f == nil {
				f = newFloors(ctx, t, dev, len(control), len(ring), width, pageBudget)
			}
			// The floors, on the same bytes and grid (raised where the
			// megakernel's first grid could not claim every item: an older
			// runner's policy grid, drained in two submissions).
			perGroup := width * pageBudget
			bareGrid = max(grid, (slots+perGroup-1)/perGroup)
			must(t, f.upload(control, ring))
			must(t, f.warm(ctx))
			bare, err := f.bareTime(ctx, bareGrid)
			must(t, err)
			must(t, f.upload(control, ring))
			must(t, f.warm(ctx))
			stream, err := f.streamTime(ctx, slots)
			must(t, err)
			must(t, f.warm(ctx))
			jd, err := f.jsFloor(ctx, jsControl, jsRing, bareGrid, slots)
			must(t, err)
			if k == 0 {
				continue
			}
			drainGPU = append(drainGPU, us(gpu))
			bareGPU = append(bareGPU, us(bare))
			streamGPU = append(streamGPU, us(stream))
			e2e = append(e2e, ms(d))
			js = append(js, ms(jd))
			for i, v := range []time.Duration{tPub, sum.Prepare, sum.Upload, sum.Submit, sum.Readback, sum.Decode} {
				phases[ringPhases[i]] = append(phases[ringPhases[i]], ms(v))
			}
		}
		r.Close()
		ph := map[string]Dist{}
		for k, v := range phases {
			ph[k] = dist(v)
		}
		emit("ring", fmt.Sprintf("%d NOP", n), map[string]any{
			"items": n, "ringBytes": len(ring),
			"drainGpuUs": dist(drainGPU), "bareGpuUs": dist(bareGPU), "streamGpuUs": dist(streamGPU),
			"publishDrainMs": dist(e2e), "jsFloorMs": dist(js), "phasesMs": ph,
			"steps": steps, "grid": fmt.Sprintf("%d×%d", grid, width), "bareGrid": fmt.Sprintf("%d×%d", bareGrid, width), "budget": pageBudget,
			"timestamps":   dev.HasFeature(webgpu.FeatureTimestampQuery),
			"directUpload": directUpload(dev), "warmMs": ms(*warmFor),
		})
	}
}

func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }

// directUpload reports whether dev's WriteBuffer reads Go memory in place
// (webgpu.Queue.DirectUpload), false where the binding predates it: the
// row also builds against an older tree, for a before/after in one run.
func directUpload(dev *webgpu.Device) bool {
	du, ok := any(dev.Queue()).(interface{ DirectUpload() bool })
	return ok && du.DirectUpload()
}
