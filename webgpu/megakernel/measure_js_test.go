//go:build js && wasm

package megakernel

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// TestMeasure reports (t.Logf, never asserting a wall-clock time) what the
// runner costs on this device: pipeline creation, the round trip of one
// submission with its readback, and slots drained per second for 65,536
// NOP and SPIN slots at widths 64 and 256. RINGSCOPE_MEASURE_REPEATS
// raises the repetitions (default 3 drains, 40 round trips).
func TestMeasure(t *testing.T) {
	if testing.Short() {
		t.Skip("measurements take a few seconds; -short skips them")
	}
	repeats, trips := 3, 40
	if os.Getenv("RINGSCOPE_MEASURE_REPEATS") != "" {
		repeats, trips = 10, 200
	}
	ctx := ctxT(t)
	// A fresh device (Dawn caches pipelines per device), with timestamps
	// when the adapter has them.
	a, err := webgpu.RequestAdapter(ctx, webgpu.RequestAdapterOptions{})
	require.NoError(t, err)
	var desc webgpu.DeviceDescriptor
	if a.HasFeature(webgpu.FeatureTimestampQuery) {
		desc.RequiredFeatures = []string{webgpu.FeatureTimestampQuery}
	}
	dev, err := a.RequestDevice(ctx, desc)
	require.NoError(t, err)
	t.Cleanup(dev.Destroy)
	t.Logf("adapter limits: %d invocations/workgroup, %d workgroups/dimension", dev.Limits().MaxComputeInvocationsPerWorkgroup, dev.Limits().MaxComputeWorkgroupsPerDimension)

	// Pipeline creation, first time on this device.
	r := openT(t, dev, Options{Slots: 64, Tenants: 1, Observable: 8, LogCapacity: 8, Budget: 4})
	for _, width := range []uint32{64, 256} {
		t0 := time.Now()
		_, _, _, err := r.pipeline(ctx, width, false)
		require.NoError(t, err)
		t.Logf("pipeline creation, interpreter x%d (first on device%s): %.1f ms", width,
			map[bool]string{true: ", with finalize", false: ""}[width == 64], Ms(time.Since(t0)))
	}
	r.scan.opcodes = []uint32{abi.OpNop, abi.OpSpin}
	t0 := time.Now()
	_, _, _, err = r.pipeline(ctx, 64, true)
	require.NoError(t, err)
	t.Logf("pipeline creation, JIT {NOP, SPIN} x64: %.1f ms", Ms(time.Since(t0)))

	// Round trip: one NOP published, one submission, readback of a
	// 64-slot ring.
	var total, wait, gpu []time.Duration
	for i := 0; i < trips; i++ {
		_, err := r.Publish([]host.Item{{}})
		require.NoError(t, err)
		ep, err := r.Step(ctx)
		require.NoError(t, err)
		total, wait = append(total, ep.Timings.Total), append(wait, ep.Timings.Readback)
		gpu = append(gpu, ep.GPUTime)
	}
	t.Logf("round trip (publish 1 NOP, upload, submit, map %d B, decode), %d trips: median %.3f ms, p90 %.3f ms; of which readback wait median %.3f ms, p90 %.3f ms; GPU time of the pass median %.3f ms",
		r.lay.staging(), trips, Ms(quantile(total, 0.5)), Ms(quantile(total, 0.9)), Ms(quantile(wait, 0.5)), Ms(quantile(wait, 0.9)), Ms(quantile(gpu, 0.5)))

	// Throughput: 65,536 slots, all in one partition, drained by the
	// policy's grid (sized to what the device holds resident).
	const slots = 1 << 16
	const spinRounds = 256
	for _, width := range []uint32{64, 256} {
		for _, op := range []uint32{abi.OpNop, abi.OpSpin} {
			o := Options{Slots: slots, Tenants: 1, Observable: 1, Budget: 64, WorkgroupSize: width, Mode: ModeInterpreter,
				Partitions: [6]uint32{0, 0, 0, slots, slots, slots}, Readback: decode.ReadbackOnDemand}
			items := make([]host.Item, slots)
			for i := range items {
				items[i] = host.Item{Opcode: op, Priority: abi.PriorityNormal}
				if op == abi.OpSpin {
					items[i].Args[0], items[i].Args[1], items[i].Args[2] = spinRounds, 0, uint32(i)
				}
			}
			var drains, steps, gpus []time.Duration
			var last *Epoch
			for k := 0; k < repeats+1; k++ { // the first run warms the pipeline and buffers
				require.NoError(t, r.Reset(o))
				_, err := r.Publish(items)
				require.NoError(t, err)
				t0 := time.Now()
				n := 0
				for r.needsSubmit() {
					ep, err := r.Step(ctx)
					require.NoError(t, err)
					last = ep
					n++
				}
				if k > 0 {
					drains = append(drains, time.Since(t0))
					steps = append(steps, last.Timings.Readback)
					gpus = append(gpus, last.GPUTime)
				}
				require.EqualValues(t, slots, abi.Word(r.Control(), abi.CtrlDoneCount))
			}
			name := map[uint32]string{abi.OpNop: "NOP", abi.OpSpin: "SPIN(256 rounds)"}[op]
			med := quantile(drains, 0.5)
			t.Logf("drain 65,536 %s slots, width %d, grid %d×%d, budget 64, control+log readback: median %.2f ms over %d runs = %.2f M slots/s (last submission's readback wait %.2f ms, GPU time of its pass %.2f ms)",
				name, width, last.Grid, last.Width, Ms(med), repeats, float64(slots)/med.Seconds()/1e6, Ms(quantile(steps, 0.5)), Ms(quantile(gpus, 0.5)))
		}
	}
}

func quantile(d []time.Duration, q float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[min(int(q*float64(len(s))), len(s)-1)]
}
