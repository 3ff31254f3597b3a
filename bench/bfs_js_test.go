//go:build js && wasm

package bench

import (
	"context"
	_ "embed"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/examples"
	"github.com/ringscope/ringscope/wgsl/host"
)

// Row 7 (issue 31): BFS over an RMAT graph, (a) the spawn BFS
// (examples.BFS on megakernel.Runner: one submission, one generation per
// level) against (b) a level-synchronous WebGPU BFS (bfs_level.wgsl: one
// dispatch per level, the host reading the next frontier's size between
// levels), same graph, same device, runs interleaved; bench/bfs_cuda.py is
// (c) and (d) on the graph -bfs-graph writes. And the spawn microbenchmark:
// NOPs spawned on the GPU against NOPs published by the host.
var (
	bfsScale = flag.Uint("bfs-scale", 20, "row 7: RMAT scale (2^scale vertices, 16 edges each)")
	bfsGraph = flag.String("bfs-graph", "", "row 7: write the graph, root and Go distances here for bench/bfs_cuda.py")
)

//go:embed bfs_level.wgsl
var bfsLevelWGSL string

// bfsSeed seeds the row's RMAT graph.
const bfsSeed = 7

func TestBFSRow(t *testing.T) {
	needRows(t)
	ctx := ctxT(t)
	dev := device(t)
	warm := newWarmer(ctx, t, dev)
	scale := *bfsScale
	t0 := time.Now()
	g := examples.RMAT(scale, 16<<scale, 0.57, 0.19, 0.19, bfsSeed)
	gen := time.Since(t0)
	root := uint32(0) // RMAT's largest hub: a = 0.57 weighs vertex 0 most
	want := g.BFS(root)
	var reached, traversed uint64
	levels := uint32(0)
	for v, d := range want {
		if d != examples.Unreached {
			reached++
			traversed += uint64(g.Offsets[v+1] - g.Offsets[v])
			levels = max(levels, d+1)
		}
	}
	if *bfsGraph != "" {
		writeGraph(t, *bfsGraph, g, root, want)
	}

	// (a) the spawn BFS: one submission of one generation per level.
	def := examples.BFSDefinition(g, root)
	o := megakernel.Options{Slots: def.Slots, Tenants: 1, Budget: pageBudget, Data: abi.Bytes(def.Data), Kernel: def.Kernel(),
		Generations: levels, Readback: decode.ReadbackOnDemand, Mode: megakernel.ModeJIT}
	r, err := megakernel.Open(ctx, dev, o)
	must(t, err)
	defer r.Close()
	lvl := newLevelBFS(ctx, t, dev, g)
	runs := reps(5)
	var spawnGPU, spawnWall, spawnReset, levelGPU, levelWall []float64
	var uploaded, readBack, prepare, submit, readWait, resetMs, queueResetMs []float64
	hcfg := host.ControlConfig{Slots: def.Slots, Tenants: 1}
	hq, err := host.NewQueue(hcfg, 0)
	must(t, err)
	var grid, width uint32
	for k := range runs + 1 { // run 0 compiles and creates
		t0 := time.Now()
		must(t, r.Reset(o))
		items, err := def.Workload.Items(nil)
		must(t, err)
		_, err = r.Publish(items)
		must(t, err)
		reset := time.Since(t0) // timed apart: the GPU's clock is raised between
		// What of Reset is the host queue's own (zeroing its ring copy):
		// the same Reset on a bare host.Queue of the same shape.
		tq := time.Now()
		must(t, hq.Reset(hcfg))
		queueReset := time.Since(tq)
		must(t, warm.warm(ctx))
		t1 := time.Now()
		var gpu time.Duration
		var ep *megakernel.Epoch
		steps := 0
		var up, rb uint64
		for r.Pending() > 0 {
			ep, err = r.Step(ctx)
			must(t, err)
			gpu += ep.GPUTime
			up, rb = up+ep.Telemetry.BytesUploaded, rb+ep.Telemetry.BytesReadBack
			grid, width = ep.Grid, ep.Width
			steps++
		}
		t2 := time.Now()
		b, err := r.ReadBuffer(ctx, "dist")
		must(t, err)
		checkDist(t, "spawn BFS", abi.Words(b), want)
		if steps != 1 {
			t.Logf("spawn BFS took %d submissions", steps)
		}

		must(t, warm.warm(ctx))
		lg, lw := lvl.run(ctx, t, root)
		checkDist(t, "level-synchronous BFS", lvl.dist, want)
		if k > 0 {
			spawnGPU, spawnWall = append(spawnGPU, gteps(traversed, gpu)), append(spawnWall, gteps(traversed, t2.Sub(t1)))
			spawnReset = append(spawnReset, gteps(traversed, reset+t2.Sub(t1)))
			levelGPU, levelWall = append(levelGPU, gteps(traversed, lg)), append(levelWall, gteps(traversed, lw))
			uploaded, readBack = append(uploaded, float64(up)), append(readBack, float64(rb))
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }
			prepare, submit, readWait = append(prepare, ms(ep.Timings.Prepare)), append(submit, ms(ep.Timings.Upload+ep.Timings.Submit)), append(readWait, ms(ep.Timings.Readback))
			resetMs, queueResetMs = append(resetMs, ms(reset)), append(queueResetMs, ms(queueReset))
		}
	}
	sp, _ := r.Spawn()
	emit("bfs", fmt.Sprintf("RMAT 2^%d", scale), map[string]any{
		"vertices": g.Vertices(), "edges": len(g.Neighbours), "root": root, "reached": reached, "traversed": traversed, "levels": levels,
		"generateSeconds": gen.Seconds(),
		"spawnGTEPSgpu":   dist(spawnGPU), "spawnGTEPSwall": dist(spawnWall), "spawnGTEPSwallWithReset": dist(spawnReset),
		"levelGTEPSgpu": dist(levelGPU), "levelGTEPSwall": dist(levelWall),
		"spawnBytesUploaded": dist(uploaded), "spawnBytesReadBack": dist(readBack), "ringBytes": uint64(def.Slots) * abi.SlotBytes,
		"spawnStepMs":  map[string]any{"prepare": dist(prepare), "uploadSubmit": dist(submit), "readback": dist(readWait)},
		"spawnResetMs": map[string]any{"resetAndPublish": dist(resetMs), "hostQueueResetAlone": dist(queueResetMs)},
		"spawnShape": fmt.Sprintf("grid %d×%d, budget %d, %d generations in 1 submission, ring %d slots, JIT; spawned %d, refused %d",
			grid, width, pageBudget, levels, def.Slots, sp.Spawned, sp.RefusedFull+sp.RefusedBad),
		"levelShape": "bfs_level.wgsl: one dispatch per level (64-wide, a lane per frontier vertex), one submit + counts readback per level",
		"wall":       "spawn: the Steps after Publish (user buffers made, root uploaded, submission, control and spawn state read back); withReset: plus Reset and Publish (the host copy re-zeroed, the device ring cleared by the GPU), timed before the warm-up; level: dist upload to the last level's readback",
	})
}

func gteps(edges uint64, d time.Duration) float64 { return float64(edges) / d.Seconds() / 1e9 }

func checkDist(t *testing.T, who string, got, want []uint32) {
	t.Helper()
	for v := range want {
		if v >= len(got) || got[v] != want[v] {
			t.Fatalf("%s: dist[%d] = %d, want %d", who, v, got[v], want[v])
		}
	}
}

// writeGraph writes n, m, root, then the offsets, neighbours and Go's
// distances, little-endian u32, for bench/bfs_cuda.py.
func writeGraph(t *testing.T, path string, g examples.CSR, root uint32, d []uint32) {
	w := []uint32{uint32(g.Vertices()), uint32(len(g.Neighbours)), root}
	w = append(append(append(w, g.Offsets...), g.Neighbours...), d...)
	b := make([]byte, 4*len(w))
	for i, x := range w {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	must(t, os.WriteFile(path, b, 0o644))
}

// levelBFS is the level-synchronous baseline's buffers and pipeline.
type levelBFS struct {
	dev                        *webgpu.Device
	pipe                       *webgpu.ComputePipeline
	graph, distB, a, b, counts *webgpu.Buffer
	stage, distStage, resolve  *webgpu.Buffer
	qs                         *webgpu.QuerySet
	binds                      [2]*webgpu.BindGroup
	n                          int
	init                       []byte
	dist                       []uint32
	ts                         []uint64
}

const maxLevels = 256

func newLevelBFS(ctx context.Context, t *testing.T, dev *webgpu.Device, g examples.CSR) *levelBFS {
	n := g.Vertices()
	l := &levelBFS{dev: dev, n: n}
	buf := func(label string, size int, usage webgpu.BufferUsage) *webgpu.Buffer {
		b, err := dev.CreateBuffer(webgpu.BufferDescriptor{Label: label, Size: uint64(size), Usage: usage})
		must(t, err)
		t.Cleanup(b.Destroy)
		return b
	}
	st := webgpu.BufferUsageStorage | webgpu.BufferUsageCopyDst | webgpu.BufferUsageCopySrc
	words := append(append([]uint32(nil), g.Offsets...), g.Neighbours...)
	l.graph = buf("bfs graph", 4*len(words), st)
	must(t, dev.Queue().WriteBuffer(l.graph, 0, abi.Bytes(words)))
	l.distB, l.a, l.b = buf("bfs dist", 4*n, st), buf("bfs frontier a", 4*n, st), buf("bfs frontier b", 4*n, st)
	l.counts = buf("bfs counts", 16, st)
	l.stage = buf("bfs counts stage", 16, webgpu.BufferUsageMapRead|webgpu.BufferUsageCopyDst)
	l.distStage = buf("bfs dist stage", 4*n, webgpu.BufferUsageMapRead|webgpu.BufferUsageCopyDst)
	if dev.HasFeature(webgpu.FeatureTimestampQuery) {
		var err error
		l.qs, err = dev.CreateQuerySet(webgpu.QuerySetDescriptor{Label: "bfs levels", Type: webgpu.QueryTypeTimestamp, Count: 2 * maxLevels})
		must(t, err)
		l.resolve = buf("bfs resolve", 16*maxLevels, webgpu.BufferUsageQueryResolve|webgpu.BufferUsageCopySrc)
	}
	m, err := dev.CreateShaderModule(ctx, "bfs level", bfsLevelWGSL)
	must(t, err)
	l.pipe, err = dev.CreateComputePipelineAsync(ctx, webgpu.ComputePipelineDescriptor{Label: "bfs level", Module: m, EntryPoint: "bfs_level"})
	must(t, err)
	bgl, err := l.pipe.GetBindGroupLayout(0)
	must(t, err)
	for i, fr := range [2][2]*webgpu.Buffer{{l.a, l.b}, {l.b, l.a}} {
		l.binds[i], err = dev.CreateBindGroup(webgpu.BindGroupDescriptor{Label: "bfs level", Layout: bgl, Entries: []webgpu.BindGroupEntry{
			{Binding: 0, Buffer: l.graph}, {Binding: 1, Buffer: l.distB}, {Binding: 2, Buffer: fr[0]}, {Binding: 3, Buffer: fr[1]}, {Binding: 4, Buffer: l.counts}}})
		must(t, err)
	}
	init := make([]uint32, n)
	for i := range init {
		init[i] = examples.Unreached
	}
	l.init = abi.Bytes(init)
	return l
}

// run is one BFS from root: the GPU time summed over the levels' passes
// (zero without timestamps) and the wall time from the first upload to the
// last level's readback; l.dist holds the distances read back after.
func (l *levelBFS) run(ctx context.Context, t *testing.T, root uint32) (time.Duration, time.Duration) {
	q := l.dev.Queue()
	binary.LittleEndian.PutUint32(l.init[4*root:], 0)
	defer binary.LittleEndian.PutUint32(l.init[4*root:], examples.Unreached)
	cb := make([]byte, 16)
	t0 := time.Now()
	must(t, q.WriteBuffer(l.distB, 0, l.init))
	must(t, q.WriteBuffer(l.a, 0, abi.Bytes([]uint32{root})))
	size, level := uint32(1), uint32(0)
	for ; size > 0; level++ {
		if level >= maxLevels {
			t.Fatal("level-synchronous BFS: too many levels")
		}
		must(t, q.WriteBuffer(l.counts, 0, abi.Bytes([]uint32{size, 0, level, 0})))
		enc, err := l.dev.CreateCommandEncoder("bfs level")
		must(t, err)
		desc := webgpu.ComputePassDescriptor{Label: "bfs level"}
		if l.qs != nil {
			desc.TimestampWrites = &webgpu.ComputePassTimestampWrites{QuerySet: l.qs, BeginningOfPassWriteIndex: int(2 * level), EndOfPassWriteIndex: int(2*level + 1)}
		}
		pass := enc.BeginComputePass(desc)
		pass.SetPipeline(l.pipe)
		pass.SetBindGroup(0, l.binds[level%2])
		pass.DispatchWorkgroups((size+63)/64, 1, 1)
		pass.End()
		enc.CopyBufferToBuffer(l.counts, 0, l.stage, 0, 16)
		cmd, err := enc.Finish()
		must(t, err)
		must(t, q.Submit(cmd))
		must(t, l.stage.MapReadInto(ctx, cb, 0))
		size = binary.LittleEndian.Uint32(cb[4:])
	}
	wall := time.Since(t0)
	enc, err := l.dev.CreateCommandEncoder("bfs dist")
	must(t, err)
	if l.qs != nil {
		enc.ResolveQuerySet(l.qs, 0, 2*level, l.resolve, 0)
	}
	enc.CopyBufferToBuffer(l.distB, 0, l.distStage, 0, uint64(4*l.n))
	cmd, err := enc.Finish()
	must(t, err)
	must(t, q.Submit(cmd))
	out := make([]byte, 4*l.n)
	must(t, l.distStage.MapReadInto(ctx, out, 0))
	l.dist = abi.Words(out)
	var gpu time.Duration
	if l.qs != nil {
		rs, err := l.dev.CreateBuffer(webgpu.BufferDescriptor{Label: "bfs ts", Size: uint64(16 * level), Usage: webgpu.BufferUsageMapRead | webgpu.BufferUsageCopyDst})
		must(t, err)
		defer rs.Destroy()
		enc, err := l.dev.CreateCommandEncoder("bfs ts")
		must(t, err)
		enc.CopyBufferToBuffer(l.resolve, 0, rs, 0, uint64(16*level))
		cmd, err := enc.Finish()
		must(t, err)
		must(t, q.Submit(cmd))
		tb := make([]byte, 16*level)
		must(t, rs.MapReadInto(ctx, tb, 0))
		l.ts = webgpu.DecodeTimestamps(l.ts, tb)
		for i := 0; i+1 < len(l.ts); i += 2 {
			d, _ := webgpu.TimestampInterval(l.ts[i], l.ts[i+1])
			gpu += d
		}
	}
	return gpu, wall
}

// spawnChainWGSL spawns args[0] NOPs (0 or 1), into partition args[1].
const spawnChainWGSL = `fn chain(slot: u32, args: Args) -> Outcome {
    var a: Args;
    for (var i = 0u; i < args[0]; i++) {
        if (!spawn(0u, 0u, args[1], a)) {
            return user_fault(1u);
        }
    }
    return done();
}
`

// TestSpawnRow: what a spawned item costs against a published one. Three
// runs interleaved, each one submission, GPU time of its drain pass:
// 65,536 published NOPs (row 1's megakernel side); 65,536 chain items
// that each spawn one NOP (two generations); the same chain items
// spawning nothing (two generations too). A spawned NOP's cost is the
// difference of the chain runs per item: the spawn, its slot's writes,
// its claim and run in the second generation.
func TestSpawnRow(t *testing.T) {
	needRows(t)
	ctx := ctxT(t)
	dev := device(t)
	warm := newWarmer(ctx, t, dev)
	const n = 65536
	slots := uint32(1 << 18)
	k := wgsl.Kernel{Opcodes: []wgsl.Opcode{{Value: abi.UserOpcodeFirst, Name: "chain", WGSL: spawnChainWGSL}}}
	os := megakernel.Options{Slots: slots, Tenants: 1, Budget: pageBudget, Kernel: k, Generations: 2, Readback: decode.ReadbackOnDemand, Mode: megakernel.ModeInterpreter}
	op := megakernel.Options{Slots: slots, Tenants: 1, Budget: pageBudget, Readback: decode.ReadbackOnDemand, Mode: megakernel.ModeInterpreter}
	rs, err := megakernel.Open(ctx, dev, os)
	must(t, err)
	defer rs.Close()
	rp, err := megakernel.Open(ctx, dev, op)
	must(t, err)
	defer rp.Close()
	chain := func(spawns uint32) []host.Item {
		items := make([]host.Item, n)
		for i := range items {
			p := uint32(i % abi.PriorityLevels)
			items[i] = host.Item{Opcode: abi.UserOpcodeFirst, Priority: p, Args: [abi.SlotArgs]uint32{spawns, p}}
		}
		return items
	}
	nops := make([]host.Item, n)
	for i := range nops {
		nops[i].Priority = uint32(i % abi.PriorityLevels)
	}
	run := func(r *megakernel.Runner, o megakernel.Options, items []host.Item, done uint32) (time.Duration, string) {
		must(t, r.Reset(o))
		_, err := r.Publish(items)
		must(t, err)
		must(t, warm.warm(ctx))
		ep, err := r.Step(ctx)
		must(t, err)
		if got := abi.Word(r.Control(), abi.CtrlDoneCount); got != done || r.Pending() != 0 {
			t.Fatalf("DONE_COUNT %d, pending %d; want %d, 0", got, r.Pending(), done)
		}
		return ep.GPUTime, fmt.Sprintf("grid %d×%d, budget %d, %d generation(s), 1 submission", ep.Grid, ep.Width, pageBudget, ep.Generations)
	}
	var spawned, published, chainNs, bareNs []float64
	var shapeS, shapeP string
	for k := range reps(9) + 1 {
		ts, s := run(rs, os, chain(1), 2*n)
		tb, _ := run(rs, os, chain(0), n)
		tp, p := run(rp, op, nops, n)
		shapeS, shapeP = s, p
		if k > 0 && ts > 0 && tp > 0 {
			spawned = append(spawned, float64((ts-tb).Nanoseconds())/n)
			published = append(published, float64(tp.Nanoseconds())/n)
			chainNs, bareNs = append(chainNs, float64(ts.Nanoseconds())/n), append(bareNs, float64(tb.Nanoseconds())/n)
		}
	}
	emit("spawn", fmt.Sprintf("%d NOPs", n), map[string]any{
		"spawnedNsPerItem": dist(spawned), "publishedNsPerItem": dist(published),
		"chainNsPerItem": dist(chainNs), "chainNoSpawnNsPerItem": dist(bareNs),
		"spawnShape": shapeS, "publishShape": shapeP, "slots": slots,
	})
}
