//go:build js && wasm

package bench

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// TestDrainProbe times drain kernels side by side on the ring of row 6
// (N NOP items, or row 1's SPIN with -probe-spin, in NORMAL, budget 64),
// one pass each, the GPU warmed before each, variants interleaved per
// repetition. -probe names a folder with variants.txt, one variant a line:
//
//	name source grid width finalize constants
//
// source: a file of the folder holding a megakernel.wgsl (assembled after
// abi_gen.wgsl), "-" for the built-in drain, "bare" for bare_ring.wgsl;
// finalize 1 puts finalize.wgsl's dispatch in the same pass (as the
// runner does); constants: K=V,K=V or "-". Prints one PROBE line per
// variant: median, min and max µs, DONE_COUNT and BUDGET_EXHAUSTED after
// its last pass, and the time its shader module and pipeline took to
// create, in wall and process CPU time.
var probeDir = flag.String("probe", "", "TestDrainProbe: the folder of variants.txt")
var probeN = flag.Uint("probe-n", 1<<20, "TestDrainProbe: items")
var probeReps = flag.Int("probe-reps", 7, "TestDrainProbe: repetitions")
var probeSpin = flag.Bool("probe-spin", false, "TestDrainProbe: SPIN items (row 1's) instead of NOP")

type probeVariant struct {
	name        string
	grid, width uint32
	finalize    bool
	compile     time.Duration // shader module and pipeline creation
	compileCPU  time.Duration // the process's CPU time meanwhile (processCPU)
	pipe        *webgpu.ComputePipeline
	bind        *webgpu.BindGroup
	times       []float64
	done        uint32
	exhausted   uint32 // BUDGET_EXHAUSTED after its last pass
}

func TestDrainProbe(t *testing.T) {
	if *probeDir == "" {
		t.Skip("-probe names the variants' folder")
	}
	ctx := ctxT(t)
	dev := device(t)
	n := uint32(*probeN)
	parts := [abi.PriorityLevels + 1]uint32{0, 0, 0, n, n, n}
	q, err := host.NewQueue(host.ControlConfig{Slots: n, Observable: 1, Tenants: 1, Partitions: parts}, 0)
	must(t, err)
	op := uint32(abi.OpNop)
	if *probeSpin {
		op = abi.OpSpin
	}
	_, err = q.Publish(dispatchItems(int(n), op))
	must(t, err)
	control, ring, logb := q.Control(), q.Ring(), q.Log()
	params := q.Params(pageBudget).Bytes()
	f := newFloors(ctx, t, dev, len(control), len(ring), 64, pageBudget)
	buf := func(label string, size int, usage webgpu.BufferUsage) *webgpu.Buffer {
		b, err := dev.CreateBuffer(webgpu.BufferDescriptor{Label: label, Size: uint64(size), Usage: usage})
		must(t, err)
		t.Cleanup(b.Destroy)
		return b
	}
	logBuf := buf("probe log", len(logb), webgpu.BufferUsageStorage|webgpu.BufferUsageCopyDst)
	paramBuf := buf("probe params", len(params), webgpu.BufferUsageUniform|webgpu.BufferUsageCopyDst)
	dataBuf := buf("probe data", abi.WordBytes, webgpu.BufferUsageStorage|webgpu.BufferUsageCopyDst)
	storage := webgpu.BufferBindingLayout{Type: webgpu.BufferBindingStorage}
	entries := []webgpu.BindGroupLayoutEntry{
		{Binding: abi.BindingControl, Buffer: storage}, {Binding: abi.BindingRing, Buffer: storage},
		{Binding: abi.BindingLog, Buffer: storage}, {Binding: abi.BindingParams, Buffer: webgpu.BufferBindingLayout{Type: webgpu.BufferBindingUniform}},
		{Binding: abi.BindingData, Buffer: webgpu.BufferBindingLayout{Type: webgpu.BufferBindingReadOnlyStorage}}}
	bgl, err := dev.CreateBindGroupLayout(webgpu.BindGroupLayoutDescriptor{Label: "probe", Entries: entries})
	must(t, err)
	pl, err := dev.CreatePipelineLayout(webgpu.PipelineLayoutDescriptor{Label: "probe", BindGroupLayouts: []*webgpu.BindGroupLayout{bgl}})
	must(t, err)
	bind, err := dev.CreateBindGroup(webgpu.BindGroupDescriptor{Label: "probe", Layout: bgl, Entries: []webgpu.BindGroupEntry{
		{Binding: abi.BindingControl, Buffer: f.control}, {Binding: abi.BindingRing, Buffer: f.ring}, {Binding: abi.BindingLog, Buffer: logBuf},
		{Binding: abi.BindingParams, Buffer: paramBuf}, {Binding: abi.BindingData, Buffer: dataBuf}}})
	must(t, err)
	compile := func(label, src, entry string, layout *webgpu.PipelineLayout, consts map[string]float64) *webgpu.ComputePipeline {
		m, err := dev.CreateShaderModule(ctx, label, src)
		must(t, err)
		p, err := dev.CreateComputePipelineAsync(ctx, webgpu.ComputePipelineDescriptor{Label: label, Layout: layout, Module: m, EntryPoint: entry, Constants: consts})
		must(t, err)
		return p
	}
	fin := compile("probe finalize", wgsl.FinalizeSource(), wgsl.FinalizeEntryPoint, pl, nil)
	manifest, err := os.ReadFile(filepath.Join(*probeDir, "variants.txt"))
	must(t, err)
	var vs []*probeVariant
	for _, line := range strings.Split(string(manifest), "\n") {
		fs := strings.Fields(line)
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		if len(fs) != 6 {
			t.Fatalf("probe: %q: want name source grid width finalize constants", line)
		}
		v := &probeVariant{name: fs[0], finalize: fs[4] == "1", bind: bind}
		g, err1 := strconv.ParseUint(fs[2], 10, 32)
		w, err2 := strconv.ParseUint(fs[3], 10, 32)
		must(t, errors.Join(err1, err2))
		v.grid, v.width = uint32(g), uint32(w)
		consts := map[string]float64{wgsl.WorkgroupSizeX: float64(w)}
		if fs[5] != "-" {
			for _, kv := range strings.Split(fs[5], ",") {
				k, val, _ := strings.Cut(kv, "=")
				x, err := strconv.ParseFloat(val, 64)
				must(t, err)
				consts[k] = x
			}
		}
		t0, c0 := time.Now(), processCPU()
		switch fs[1] {
		case "bare":
			consts["BUDGET"] = pageBudget
			v.pipe, v.bind = compile(v.name, wgsl.ABISource()+bareRingWGSL, "bare", barePL(t, dev, f), consts), f.bareBind
		case "-":
			v.pipe = compile(v.name, wgsl.DrainSource(), wgsl.DrainEntryPoint, pl, consts)
		default:
			src, err := os.ReadFile(filepath.Join(*probeDir, fs[1]))
			must(t, err)
			v.pipe = compile(v.name, wgsl.ABISource()+"\n"+string(src), wgsl.DrainEntryPoint, pl, consts)
		}
		v.compile, v.compileCPU = time.Since(t0), processCPU()-c0
		vs = append(vs, v)
	}
	wq := dev.Queue()
	for k := range *probeReps + 1 {
		for _, v := range vs {
			must(t, f.upload(control, ring))
			must(t, wq.WriteBuffer(logBuf, 0, logb))
			must(t, wq.WriteBuffer(paramBuf, 0, params[:])) // the floors' warm has its own params
			must(t, f.warm(ctx))
			d, err := probePass(ctx, f, v, fin)
			must(t, err)
			done, err := f.readControl(ctx)
			must(t, err)
			v.done, v.exhausted = abi.Word(done, abi.CtrlDoneCount), abi.Word(done, abi.CtrlBudgetExhausted)
			if k > 0 {
				v.times = append(v.times, us(d))
			}
		}
	}
	for _, v := range vs {
		s := slices.Clone(v.times)
		slices.Sort(s)
		fmt.Printf("PROBE %-24s grid %5d×%-3d fin %v: %8.1f µs (min %.1f, max %.1f, n %d), DONE_COUNT %d of %d, BUDGET_EXHAUSTED %d, compiled in %.1f ms (CPU %.1f ms)\n",
			v.name, v.grid, v.width, v.finalize, s[len(s)/2], s[0], s[len(s)-1], len(s), v.done, n, v.exhausted, ms(v.compile), ms(v.compileCPU))
		if v.done != n {
			t.Errorf("probe %s: DONE_COUNT %d, want %d", v.name, v.done, n)
		}
	}
}

// processCPU is the CPU time Node's process has used (process.cpuUsage:
// every thread, Dawn's and the adapter's included): a compile's cost that
// other processes on a loaded machine do not inflate as they do its wall
// time.
func processCPU() time.Duration {
	u := js.Global().Get("process").Call("cpuUsage")
	return time.Duration(u.Get("user").Float()+u.Get("system").Float()) * time.Microsecond
}

// barePL is the bare ring's pipeline layout (newFloors's, rebuilt).
func barePL(t *testing.T, dev *webgpu.Device, f *floors) *webgpu.PipelineLayout {
	t.Helper()
	storage := webgpu.BufferBindingLayout{Type: webgpu.BufferBindingStorage}
	bgl, err := dev.CreateBindGroupLayout(webgpu.BindGroupLayoutDescriptor{Label: "bench bare ring", Entries: []webgpu.BindGroupLayoutEntry{
		{Binding: abi.BindingControl, Buffer: storage}, {Binding: abi.BindingRing, Buffer: storage}}})
	must(t, err)
	pl, err := dev.CreatePipelineLayout(webgpu.PipelineLayoutDescriptor{Label: "bench bare ring", BindGroupLayouts: []*webgpu.BindGroupLayout{bgl}})
	must(t, err)
	bg, err := dev.CreateBindGroup(webgpu.BindGroupDescriptor{Label: "bench bare ring", Layout: bgl, Entries: []webgpu.BindGroupEntry{
		{Binding: abi.BindingControl, Buffer: f.control}, {Binding: abi.BindingRing, Buffer: f.ring}}})
	must(t, err)
	f.bareBind = bg
	return pl
}

// probePass is one timed pass of v (and finalize after it when v says so).
func probePass(ctx context.Context, f *floors, v *probeVariant, fin *webgpu.ComputePipeline) (time.Duration, error) {
	enc, err := f.dev.CreateCommandEncoder("probe")
	if err != nil {
		return 0, err
	}
	pass := enc.BeginComputePass(webgpu.ComputePassDescriptor{Label: "probe",
		TimestampWrites: &webgpu.ComputePassTimestampWrites{QuerySet: f.qs, BeginningOfPassWriteIndex: 0, EndOfPassWriteIndex: 1}})
	pass.SetPipeline(v.pipe)
	pass.SetBindGroup(abi.BindGroup, v.bind)
	pass.DispatchWorkgroups(v.grid, 1, 1)
	if v.finalize {
		pass.SetPipeline(fin)
		pass.DispatchWorkgroups(1, 1, 1)
	}
	pass.End()
	return f.submitTimed(ctx, enc)
}

// readControl copies the floors' control buffer back.
func (f *floors) readControl(ctx context.Context) ([]byte, error) {
	enc, err := f.dev.CreateCommandEncoder("probe control")
	if err != nil {
		return nil, err
	}
	enc.CopyBufferToBuffer(f.control, 0, f.stage, 0, uint64(len(f.dst)))
	cmd, err := enc.Finish()
	if err != nil {
		return nil, err
	}
	if err := f.dev.Queue().Submit(cmd); err != nil {
		return nil, err
	}
	return f.dst, f.stage.MapReadInto(ctx, f.dst, 0)
}
