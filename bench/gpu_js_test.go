//go:build js && wasm

package bench

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/workload"
)

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// device requests an adapter and a device with the adapter's storage
// limits (a 1,048,576-slot ring is 64 MiB, its staging more) and prints the
// adapter row.
func device(t *testing.T) *webgpu.Device {
	t.Helper()
	ctx := ctxT(t)
	a, err := webgpu.RequestAdapter(ctx, webgpu.RequestAdapterOptions{PowerPreference: "high-performance"})
	if err != nil {
		t.Fatalf("this row needs a WebGPU adapter: %v", err)
	}
	lim := a.Limits()
	// Timestamps where the adapter has them, as the page asks: the runner
	// then times the drain pass on the GPU (and reads 16 B more per frame).
	var features []string
	if a.HasFeature(webgpu.FeatureTimestampQuery) {
		features = append(features, webgpu.FeatureTimestampQuery)
	}
	d, err := a.RequestDevice(ctx, webgpu.DeviceDescriptor{Label: t.Name(), RequiredLimits: webgpu.Limits{
		MaxStorageBufferBindingSize: lim.MaxStorageBufferBindingSize, MaxBufferSize: lim.MaxBufferSize,
	}, RequiredFeatures: features})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Destroy)
	info := a.Info()
	emit("adapter", t.Name(), map[string]any{"vendor": info.Vendor, "architecture": info.Architecture,
		"device": info.Device, "description": info.Description, "fallback": info.IsFallbackAdapter})
	return d
}

// oneLaneDrain is the per-item side of the dispatch row: the megakernel's
// own drain program (wgsl.Drain, the same WGSL and claim loop) compiled with
// WORKGROUP_SIZE_X = 1 and run with budget 1, so one dispatch of one
// workgroup claims and runs exactly one item; N items are N dispatches in
// one compute pass, one command buffer, one submit (the cheapest honest way
// to issue one dispatch per item: separate submits cost more), then the
// finalize dispatch, a copy of control to a staging buffer and one mapAsync.
// Uploads are the whole control, ring and log, as a fresh runner's first
// submission makes them.
type oneLaneDrain struct {
	dev                 *webgpu.Device
	drain, finalize     *webgpu.ComputePipeline
	bgl                 *webgpu.BindGroupLayout
	bufs                [5]*webgpu.Buffer
	stage               *webgpu.Buffer
	bind                *webgpu.BindGroup
	control, ring, logB int
	dst                 []byte
}

func newOneLaneDrain(ctx context.Context, t *testing.T, dev *webgpu.Device, q *host.Queue) *oneLaneDrain {
	t.Helper()
	o := &oneLaneDrain{dev: dev, control: len(q.Control()), ring: len(q.Ring()), logB: len(q.Log())}
	storage := webgpu.BufferBindingLayout{Type: webgpu.BufferBindingStorage}
	bgl, err := dev.CreateBindGroupLayout(webgpu.BindGroupLayoutDescriptor{Label: "bench one-lane", Entries: []webgpu.BindGroupLayoutEntry{
		{Binding: abi.BindingControl, Buffer: storage},
		{Binding: abi.BindingRing, Buffer: storage},
		{Binding: abi.BindingLog, Buffer: storage},
		{Binding: abi.BindingParams, Buffer: webgpu.BufferBindingLayout{Type: webgpu.BufferBindingUniform}},
		{Binding: abi.BindingData, Buffer: webgpu.BufferBindingLayout{Type: webgpu.BufferBindingReadOnlyStorage}},
	}})
	must(t, err)
	pl, err := dev.CreatePipelineLayout(webgpu.PipelineLayoutDescriptor{Label: "bench one-lane", BindGroupLayouts: []*webgpu.BindGroupLayout{bgl}})
	must(t, err)
	pipe := func(p wgsl.Program) *webgpu.ComputePipeline {
		m, err := dev.CreateShaderModule(ctx, p.Label, p.Source)
		must(t, err)
		cp, err := dev.CreateComputePipelineAsync(ctx, webgpu.ComputePipelineDescriptor{Label: p.Label, Layout: pl, Module: m, EntryPoint: p.EntryPoint, Constants: p.Constants})
		must(t, err)
		return cp
	}
	o.drain, o.finalize = pipe(wgsl.Drain(1)), pipe(wgsl.Finalize())
	sizes := [5]int{o.control, o.ring, o.logB, abi.ParamsWords * abi.WordBytes, abi.WordBytes}
	for i, n := range sizes {
		u := webgpu.BufferUsageStorage | webgpu.BufferUsageCopyDst | webgpu.BufferUsageCopySrc
		if i == abi.BindingParams {
			u = webgpu.BufferUsageUniform | webgpu.BufferUsageCopyDst
		}
		o.bufs[i], err = dev.CreateBuffer(webgpu.BufferDescriptor{Label: fmt.Sprint("bench binding ", i), Size: uint64(n), Usage: u})
		must(t, err)
	}
	o.stage, err = dev.CreateBuffer(webgpu.BufferDescriptor{Label: "bench stage", Size: uint64(o.control), Usage: webgpu.BufferUsageMapRead | webgpu.BufferUsageCopyDst})
	must(t, err)
	entries := make([]webgpu.BindGroupEntry, 5)
	for i, b := range o.bufs {
		entries[i] = webgpu.BindGroupEntry{Binding: uint32(i), Buffer: b}
	}
	o.bind, err = dev.CreateBindGroup(webgpu.BindGroupDescriptor{Label: "bench one-lane", Layout: bgl, Entries: entries})
	must(t, err)
	o.dst = make([]byte, o.control)
	t.Cleanup(func() {
		for _, b := range o.bufs {
			b.Destroy()
		}
		o.stage.Destroy()
	})
	return o
}

// run drains q's n published items, one dispatch each, and returns the
// control buffer read back.
func (o *oneLaneDrain) run(ctx context.Context, q *host.Queue, n int) ([]byte, error) {
	wq := o.dev.Queue()
	p := q.Params(1).Bytes()
	for i, b := range [][]byte{q.Control(), q.Ring(), q.Log(), p[:]} {
		if err := wq.WriteBuffer(o.bufs[i], 0, b); err != nil {
			return nil, err
		}
	}
	enc, err := o.dev.CreateCommandEncoder("bench one-lane")
	if err != nil {
		return nil, err
	}
	pass := enc.BeginComputePass(webgpu.ComputePassDescriptor{Label: "bench one dispatch per item"})
	pass.SetPipeline(o.drain)
	pass.SetBindGroup(abi.BindGroup, o.bind)
	for range n {
		pass.DispatchWorkgroups(1, 1, 1)
	}
	pass.SetPipeline(o.finalize)
	pass.DispatchWorkgroups(1, 1, 1)
	pass.End()
	enc.CopyBufferToBuffer(o.bufs[abi.BindingControl], 0, o.stage, 0, uint64(o.control))
	cmd, err := enc.Finish()
	if err != nil {
		return nil, err
	}
	if err := wq.Submit(cmd); err != nil {
		return nil, err
	}
	if err := o.stage.MapReadInto(ctx, o.dst, 0); err != nil {
		return nil, err
	}
	return o.dst, nil
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// spinRounds is SPIN's work per item (as webgpu/megakernel's TestMeasure).
const spinRounds = 256

func dispatchItems(n int, op uint32) []host.Item {
	items := make([]host.Item, n)
	for i := range items {
		items[i] = host.Item{Opcode: op, Priority: abi.PriorityNormal}
		if op == abi.OpSpin {
			items[i].Args[0], items[i].Args[1], items[i].Args[2] = spinRounds, 0, uint32(i)
		}
	}
	return items
}

// TestDispatchRow: the megakernel's drain (megakernel.Runner: the launch
// policy's grid, budget 64, interpreter program, control + log readback)
// against one dispatch per item (oneLaneDrain), on the same device, the
// same items, runs interleaved. Each side's time is from the upload of the
// published ring to the readback of its control buffer showing every item
// done; items per second is items over that time. Each side's measured run
// starts after warm.wgsl kept the GPU busy for -warm (its clock is up).
func TestDispatchRow(t *testing.T) {
	needRows(t)
	ctx := ctxT(t)
	dev := device(t)
	warm := newWarmer(ctx, t, dev) // before each measured run: the GPU's clock up
	for _, n := range []int{4096, 65536} {
		for _, op := range []uint32{abi.OpNop, abi.OpSpin} {
			slots := uint32(n)
			parts := [abi.PriorityLevels + 1]uint32{0, 0, 0, slots, slots, slots}
			o := megakernel.Options{Slots: slots, Tenants: 1, Observable: 1, Budget: pageBudget, Mode: megakernel.ModeInterpreter,
				Partitions: parts, Readback: decode.ReadbackOnDemand}
			r, err := megakernel.Open(ctx, dev, o)
			must(t, err)
			cfg := host.ControlConfig{Slots: slots, Observable: 1, Tenants: 1, Partitions: parts}
			q0, err := host.NewQueue(cfg, 0)
			must(t, err)
			one := newOneLaneDrain(ctx, t, dev, q0)
			items := dispatchItems(n, op)
			// One dispatch per item costs seconds at 65,536 on a CPU
			// adapter: fewer runs there, and its warm-up run is skipped
			// (the 4,096 case compiled the same pipelines on this device).
			runs := reps(map[int]int{4096: 9, 65536: 4}[n])
			var mega, per []float64
			var grid, width uint32
			var steps int
			for k := range runs + 1 { // run 0 warms pipelines and buffers
				// Megakernel.
				must(t, r.Reset(o))
				_, err := r.Publish(items)
				must(t, err)
				must(t, warm.warm(ctx))
				t0 := time.Now()
				steps = 0
				for r.Pending() > 0 {
					ep, err := r.Step(ctx)
					must(t, err)
					grid, width = ep.Grid, ep.Width
					steps++
				}
				dm := time.Since(t0)
				if got := abi.Word(r.Control(), abi.CtrlDoneCount); got != uint32(n) {
					t.Fatalf("megakernel: DONE_COUNT %d, want %d", got, n)
				}
				if k == 0 && n > 4096 {
					continue
				}
				// One dispatch per item.
				q, err := host.NewQueue(cfg, 0)
				must(t, err)
				_, err = q.Publish(items)
				must(t, err)
				must(t, warm.warm(ctx))
				t0 = time.Now()
				control, err := one.run(ctx, q, n)
				must(t, err)
				dp := time.Since(t0)
				if got := abi.Word(control, abi.CtrlDoneCount); got != uint32(n) {
					t.Fatalf("one dispatch per item: DONE_COUNT %d, want %d", got, n)
				}
				if k > 0 {
					mega = append(mega, float64(n)/dm.Seconds())
					per = append(per, float64(n)/dp.Seconds())
				}
			}
			r.Close()
			name := map[uint32]string{abi.OpNop: "NOP", abi.OpSpin: fmt.Sprintf("SPIN(%d rounds)", spinRounds)}[op]
			emit("dispatch", fmt.Sprintf("%d %s", n, name), map[string]any{
				"items": n, "op": name,
				"megakernel": dist(mega), "perItem": dist(per),
				"megakernelShape": fmt.Sprintf("grid %d×%d, budget %d, %d submission(s)", grid, width, pageBudget, steps),
				"perItemShape":    fmt.Sprintf("%d dispatches of 1×1 lane, budget 1, one pass, one submit", n),
			})
		}
	}
}

// readbackItemsPerFrame is what every ring size of the readback row
// publishes per frame: the default-mix page's per-frame count at 65,536
// slots (workload.Generator.PerFrame: slots/16 = 4,096). The row's
// variable is the ring's size, so the work per frame is held fixed; the
// page itself publishes slots/16, whose cost grows with the ring by
// construction and says nothing about the readback.
const readbackItemsPerFrame = 4096

// readbackPhases names the parts of a readback-row frame, in order.
var readbackPhases = [...]string{"publish", "prepare", "upload", "submit", "readback", "decode", "requeue", "sketch", "reclaim"}

// TestReadbackRow: the page's frame (wasm/app_js.go liveFrame: default-mix
// workload, its settings: 8 tenants, budget 64, window opcode 0x100, log of
// 1,024 records; readbackItemsPerFrame items generated per frame and
// published with back-pressure (a full partition's items are dropped),
// one Step, Requeue, ReclaimFaults) at 4,096, 65,536 and 1,048,576 slots,
// on two runners on one device, frames interleaved: one reads back the
// whole ring every frame (decode.ReadbackFull), the other the GPU summary
// (decode.ReadbackSummary: control + log + summary + status map), reading
// the ring only when the page would (api.RingPolicy: for the slot
// inspector and a new recording, so never here; the host copy follows the
// status map), and the row counts those frames. Each run starts from Reset; its first frame (which uploads the
// whole ring and creates buffers) is not counted. Both run the interpreter
// program (the page's ModeAuto may compile a JIT pipeline mid-run, which is
// not what this row compares). Besides the frame, each side reports its
// phases (publish; megakernel.Timings' prepare, upload, submit, readback
// wait, decode; Requeue; the sketches the page's capture makes: the GPU's
// under summary readback, DecodeInto's slots otherwise; ReclaimFaults)
// and the drain pass's GPU time and grid; and its frame time without
// ReclaimFaults (host.Queue's scan of every slot). A side whose Step takes longer than stepLimit
// stops there and reports it.
func TestReadbackRow(t *testing.T) {
	needRows(t)
	ctx := ctxT(t)
	dev := device(t)
	const stepLimit = 60 * time.Second
	for _, c := range []struct {
		slots        uint32
		runs, frames int
	}{{4096, reps(5), 9}, {65536, reps(5), 9}, {1 << 20, reps(3), 9}} {
		slots := c.slots
		if *maxSlots != 0 && slots > uint32(*maxSlots) {
			continue
		}
		var gens [2]*workload.Generator
		var opts [2]megakernel.Options
		var runners [2]*megakernel.Runner
		var policies [2]api.RingPolicy
		var sketches [2]decode.SketchTelemetry
		newGen := func() *workload.Generator {
			g, err := workload.New(workload.Spec{Preset: workload.DefaultMix, Slots: slots, Tenants: pageTenants, WindowOpcodes: pageWindowOpcodes, Seed: 1})
			must(t, err)
			return g
		}
		modes := [2]decode.Readback{decode.ReadbackFull, decode.ReadbackSummary}
		for i, mode := range modes {
			g := newGen()
			opts[i] = megakernel.Options{Slots: slots, Masks: g.Masks(), Observable: workload.ObservableWords, LogCapacity: pageLogCapacity,
				Budget: pageBudget, WorkgroupSize: 64, WindowOpcodes: pageWindowOpcodes, Data: g.Data(), Readback: mode,
				Mode: megakernel.ModeInterpreter}
			var err error
			runners[i], err = megakernel.Open(ctx, dev, opts[i])
			must(t, err)
		}
		type side struct {
			frame, readDecode, published, gpu []float64
			exReclaim                         []float64 // frame minus ReclaimFaults
			grid                              string    // the drain's last grid
			phases                            [len(readbackPhases)][]float64
			bytes, bytesRing                  uint64
			frames, ringReads                 int
			stopped                           string
		}
		var sides [2]side
		var items []host.Item
		for k := range c.runs + 1 { // run 0 warms pipelines and buffers
			for i, r := range runners {
				if sides[i].stopped == "" {
					must(t, r.Reset(opts[i]))
				}
				gens[i] = newGen()
				policies[i].Reset()
			}
			for f := range c.frames {
				for j := range runners {
					i := (j + f) % 2 // alternate which side goes first
					r, s, pol := runners[i], &sides[i], &policies[i]
					if s.stopped != "" {
						continue
					}
					summary := modes[i] == decode.ReadbackSummary
					t0 := time.Now()
					items = gens[i].Next(items[:0], readbackItemsPerFrame)
					n := publishDropping(r, items)
					if summary {
						if read, _ := pol.Next(); read {
							r.RequestRing()
						}
					}
					tPub := time.Now()
					sctx, cancel := context.WithTimeout(ctx, stepLimit)
					ep, err := r.Step(sctx)
					cancel()
					if err != nil && sctx.Err() != nil {
						s.stopped = fmt.Sprintf("a Step (frame %d of run %d) did not finish within %v", f, k, stepLimit)
						continue
					}
					must(t, err)
					if summary {
						pol.Stepped(ep.RingRead)
					}
					tStep := time.Now()
					_, err = r.Requeue()
					must(t, err)
					tReq := time.Now()
					// The page's capture sketches every frame: the GPU's
					// counters under summary readback, the slots otherwise.
					if summary && !ep.RingRead {
						must(t, r.Sketches(&sketches[i]))
					} else {
						must(t, r.Telemetry().SketchInto(&sketches[i], megakernel.DefaultSketchDepth, megakernel.DefaultSketchWidth))
					}
					tSketch := time.Now()
					r.ReclaimFaults()
					tEnd := time.Now()
					d := tEnd.Sub(t0)
					if k == 0 || f == 0 {
						continue
					}
					s.frames++
					if ep.RingRead && summary {
						s.ringReads++
						s.bytesRing = ep.Telemetry.BytesReadBack
					} else {
						s.bytes = ep.Telemetry.BytesReadBack
					}
					tm := ep.Timings
					s.frame = append(s.frame, ms(d))
					s.readDecode = append(s.readDecode, ms(tm.Readback+tm.Decode))
					s.published = append(s.published, float64(n))
					s.gpu = append(s.gpu, ms(ep.GPUTime))
					s.exReclaim = append(s.exReclaim, ms(tSketch.Sub(t0)))
					s.grid = fmt.Sprintf("%d×%d", ep.Grid, ep.Width)
					for p, v := range [len(readbackPhases)]time.Duration{tPub.Sub(t0), tm.Prepare, tm.Upload, tm.Submit, tm.Readback,
						tm.Decode, tReq.Sub(tStep), tSketch.Sub(tReq), tEnd.Sub(tSketch)} {
						s.phases[p] = append(s.phases[p], ms(v))
					}
				}
			}
		}
		for _, r := range runners {
			r.Close()
		}
		out := func(s side) map[string]any {
			ph := map[string]Dist{}
			for p, xs := range s.phases {
				ph[readbackPhases[p]] = dist(xs)
			}
			return map[string]any{"bytesPerFrame": s.bytes, "bytesPerRingReadFrame": s.bytesRing, "frameMs": dist(s.frame),
				"readbackDecodeMs": dist(s.readDecode), "publishedPerFrame": dist(s.published), "drainGpuMs": dist(s.gpu),
				"frameExReclaimMs": dist(s.exReclaim), "drainGrid": s.grid,
				"phasesMs": ph, "frames": s.frames, "ringReadFrames": s.ringReads, "stopped": s.stopped}
		}
		emit("readback", fmt.Sprint(slots), map[string]any{
			"slots": slots, "full": out(sides[0]), "summary": out(sides[1]),
			"framesPerRun": c.frames - 1, "runs": c.runs, "itemsPerFrame": readbackItemsPerFrame,
		})
	}
}
