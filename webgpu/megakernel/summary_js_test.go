//go:build js && wasm

package megakernel

import (
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

const (
	sumWindowOp     = 0x4000 // a window opcode the kernel does not know: it faults when claimed
	summaryRings    = 120
	summaryObserved = 8
)

var summaryWindowOps = []uint32{abi.OpSpin, sumWindowOp}

// randomSummaryRing resets r to opts and fills it: random items in every
// partition (some full), then random statuses poked into published slots:
// every named status and unknown values, so the drain meets slots that are
// not PUBLISHED (BAD_STATE) and the reduce meets every status.
func randomSummaryRing(t *testing.T, r *Runner, rng *rand.Rand, opts Options) {
	t.Helper()
	require.NoError(t, r.Reset(opts))
	off := r.q.Partitions()
	for p := uint32(0); p < abi.PriorityLevels; p++ {
		c := off[p+1] - off[p]
		if c == 0 {
			continue
		}
		n := rng.Uint32N(c + 1)
		if rng.IntN(4) == 0 {
			n = c
		}
		items := make([]host.Item, n)
		for i := range items {
			it := host.Item{Priority: p, Tenant: rng.Uint32N(4)}
			switch rng.IntN(5) {
			case 0:
				it.Opcode = abi.OpNop
			case 1:
				it.Opcode = abi.OpYield
			case 2:
				it.Opcode = abi.OpRequeue
			case 3: // a window slot of SPIN: ARG0 the ticket (= rounds), ARG1 the class (= result word)
				it.Opcode, it.Args[0], it.Args[1] = abi.OpSpin, rng.Uint32N(6), rng.Uint32N(3)
			default:
				it.Opcode, it.Args[0], it.Args[1] = sumWindowOp, rng.Uint32N(6), rng.Uint32N(3)
			}
			items[i] = it
		}
		_, err := r.Publish(items)
		require.NoError(t, err)
		for k := uint32(0); k < n; k++ {
			if rng.IntN(5) != 0 {
				continue
			}
			st := rng.Uint32N(abi.StatusCount + 1)
			if st == abi.StatusCount {
				st = abi.StatusCount + rng.Uint32N(1000)
				if rng.IntN(2) == 0 {
					st = rng.Uint32()
				}
			}
			slot := slotOf(r, p, k)
			poke(r, slot, abi.SlotStatus, st)
			if rng.IntN(4) == 0 {
				poke(r, slot, abi.SlotTenant, 30+rng.Uint32N(10)) // past the tables
			}
			if rng.IntN(4) == 0 {
				poke(r, slot, abi.SlotPriority, rng.Uint32N(9))
			}
		}
	}
}

// compareSummary checks the runner's last GPU summary against the host's
// decode of the full ring read back by the same Step.
func compareSummary(t *testing.T, r *Runner, label string) (dropped bool) {
	t.Helper()
	var gpu decode.RingTelemetry
	require.NoError(t, decode.DecodeSummaryInto(&gpu, nil, r.Control(), r.SummaryBytes(), r.StatusMapBytes(), r.opts.WindowOpcodes), label)
	var full decode.RingTelemetry
	require.NoError(t, decode.DecodeInto(&full, nil, r.Control(), r.Ring(), r.opts.WindowOpcodes))

	assert.Equal(t, full.Control, gpu.Control, label)
	assert.Equal(t, full.Occupancy, gpu.Occupancy, label)
	assert.Equal(t, full.Active, gpu.Active, label)
	var want decode.StatusMap
	want.SetSlots(full.Slots)
	assert.Equal(t, want.Words(), gpu.StatusMap.Words(), "%s: status map", label)
	assert.Equal(t, len(full.Slots), gpu.SlotCount(), label)

	sh := r.opts.summaryShape()
	var wantSk, gotSk decode.SketchTelemetry
	require.NoError(t, full.SketchInto(&wantSk, int(sh.Depth), int(sh.Width)))
	require.NoError(t, r.Sketches(&gotSk))
	assert.Equal(t, wantSk, gotSk, "%s: sketches bit for bit", label)

	if gpu.WindowsDropped == 0 {
		assert.Equal(t, full.Windows, gpu.Windows, "%s: windows", label)
		return false
	}
	// Overflow: only when the ring holds more windows than
	// WindowClosedLimit, and then the table holds at least that many.
	// Every window kept is exact, and every open window is kept when the
	// open windows fit in the table.
	limit := int(abi.WindowClosedLimit(sh.WindowCapacity))
	assert.Greater(t, len(full.Windows), limit, label)
	assert.GreaterOrEqual(t, len(gpu.Windows), limit, label)
	assert.LessOrEqual(t, len(gpu.Windows), int(sh.WindowCapacity), label)
	byKey := map[[2]uint32]decode.WindowTelemetry{}
	var slots uint32
	for _, w := range full.Windows {
		byKey[[2]uint32{w.Ticket, w.Opcode}] = w
	}
	kept := map[[2]uint32]bool{}
	for _, w := range gpu.Windows {
		assert.Equal(t, byKey[[2]uint32{w.Ticket, w.Opcode}], w, label)
		kept[[2]uint32{w.Ticket, w.Opcode}] = true
	}
	open := map[[2]uint32]bool{}
	for _, s := range full.Slots {
		if s.Opcode == abi.OpSpin || s.Opcode == sumWindowOp {
			slots++
			if s.Status != decode.StatusEmpty && s.Status != decode.StatusDone {
				open[[2]uint32{s.Args[0], s.Opcode}] = true
			}
		}
	}
	if len(open) <= int(sh.WindowCapacity) {
		for k := range open {
			assert.True(t, kept[k], "%s: open window %v kept", label, k)
		}
	}
	inTable := uint32(0)
	for _, w := range gpu.Windows {
		inTable += windowSlotCount(full.Slots, w)
	}
	assert.Equal(t, slots-inTable, gpu.WindowsDropped, "%s: dropped slots", label)
	return true
}

func windowSlotCount(slots []decode.RingSlotSnapshot, w decode.WindowTelemetry) uint32 {
	var n uint32
	for _, s := range slots {
		if s.Opcode == w.Opcode && s.Args[0] == w.Ticket {
			n++
		}
	}
	return n
}

// TestSummaryDifferential: for summaryRings random rings, the decoded GPU
// summary equals the host's decode of the full ring, field by field.
func TestSummaryDifferential(t *testing.T) {
	start := time.Now()
	rng := rand.New(rand.NewPCG(2026, 5))
	base := Options{Slots: 64, Tenants: 3, Observable: summaryObserved, LogCapacity: 16, Budget: 1, Grid: 1,
		WindowOpcodes: summaryWindowOps, Readback: decode.ReadbackSummary}
	r := openT(t, shared(t), base)
	shapes := []SummaryShape{{}, {Depth: 3, Width: 16}, {Depth: 1, Width: 1}, {Depth: abi.SketchMaxDepth, Width: abi.SketchMaxWidth, WindowCapacity: 64},
		{Depth: 2, Width: 1000, WindowCapacity: 4}}
	sizes := []uint32{1, 7, 64, 200, 1000, 2048}
	var overflowed int
	for i := 0; i < summaryRings; i++ {
		o := base
		o.Slots = sizes[i%len(sizes)]
		o.Summary = shapes[(i/len(sizes))%len(shapes)]
		o.Budget = 1 + rng.Uint32N(3)
		o.Grid = 1 + rng.Uint32N(2)
		o.WorkgroupSize = []uint32{64, 128, 256}[rng.IntN(3)]
		if i%10 == 9 {
			o.WindowOpcodes = nil // no window table
		}
		randomSummaryRing(t, r, rng, o)
		r.RequestRing()
		_, err := r.Step(ctxT(t))
		require.NoError(t, err)
		if compareSummary(t, r, o.describe(i)) {
			overflowed++
		}
		if t.Failed() {
			return
		}
	}
	// A larger ring, of a size no workgroup width divides.
	for i, slots := range []uint32{65536 + 37} {
		o := base
		o.Slots, o.Budget, o.Grid, o.WorkgroupSize = slots, 4, 8, 256
		randomSummaryRing(t, r, rng, o)
		r.RequestRing()
		_, err := r.Step(ctxT(t))
		require.NoError(t, err)
		compareSummary(t, r, o.describe(summaryRings+i))
	}
	assert.Positive(t, overflowed, "some rings overflow the 4-entry window table")
	t.Logf("%d rings compared in %v (%d with a full window table)", summaryRings+1, time.Since(start), overflowed)
}

// TestSummaryKeepsOpenWindows: a ring of 500 windows, 10 of them open (a
// slot poked out of PUBLISHED, so the drain faults it), in a table of 16
// entries: the table overflows, and it keeps all 10 open windows (placed
// by reduce before the closed ones), each exact.
func TestSummaryKeepsOpenWindows(t *testing.T) {
	o := Options{Slots: 4096, Tenants: 2, Observable: summaryObserved, Budget: 64, WindowOpcodes: []uint32{abi.OpSpin},
		Summary: SummaryShape{WindowCapacity: 16}, Readback: decode.ReadbackSummary}
	r := openT(t, shared(t), o)
	items := make([]host.Item, 2000)
	for i := range items {
		items[i] = host.Item{Opcode: abi.OpSpin, Priority: uint32(i % abi.PriorityLevels), Tenant: uint32(i % 2)}
		items[i].Args[0], items[i].Args[1] = uint32(i/4), uint32(i%2) // 500 tickets of 4 slots
	}
	_, err := r.Publish(items)
	require.NoError(t, err)
	open := map[uint32]bool{}
	for j := uint32(3); len(open) < 10; j += 197 { // one slot (item j's) of 10 tickets spread over the ring
		poke(r, slotOf(r, j%abi.PriorityLevels, j/abi.PriorityLevels), abi.SlotStatus, abi.StatusWaitIO)
		open[j/4] = true
	}
	r.RequestRing()
	_, err = r.Step(ctxT(t))
	require.NoError(t, err)
	tel := r.Telemetry()
	require.Zero(t, tel.Occupancy[decode.StatusPublished], "one Step drained every item")
	require.True(t, compareSummary(t, r, "500 windows in 16 entries"), "the table overflows")

	var gpu decode.RingTelemetry
	require.NoError(t, decode.DecodeSummaryInto(&gpu, nil, r.Control(), r.SummaryBytes(), r.StatusMapBytes(), o.WindowOpcodes))
	kept := map[uint32]bool{}
	for _, w := range gpu.Windows {
		kept[w.Ticket] = true
	}
	for ticket := range open {
		assert.True(t, kept[ticket], "open window %d kept", ticket)
	}
	assert.Positive(t, gpu.WindowsDropped)
}

// TestSummaryHostCopyFollowsStatusMap: 60 summary frames of parking,
// faulting and plain work (back-pressure included) with no ring read,
// Requeue and ReclaimFaults after each. After every frame the host copy's
// statuses are the GPU's status map; at the end, once nothing is left to
// claim, a ring read brings back the host copy byte for byte (the GPU
// writes only the statuses of the slots it claims).
func TestSummaryHostCopyFollowsStatusMap(t *testing.T) {
	o := Options{Slots: 1000, Tenants: 3, Observable: summaryObserved, Budget: 4, Grid: 2, WorkgroupSize: 64, Readback: decode.ReadbackSummary}
	r := openT(t, shared(t), o)
	rng := rand.New(rand.NewPCG(17, 4))
	ops := []uint32{abi.OpNop, abi.OpNop, abi.OpSpin, abi.OpYield, abi.OpRequeue, abi.OpWaitIO, sumWindowOp /* faults */}
	var refused, requeued, reclaimed int
	for frame := range 60 {
		if frame < 50 {
			items := make([]host.Item, rng.IntN(300))
			for i := range items {
				items[i] = host.Item{Opcode: ops[rng.IntN(len(ops))], Tenant: rng.Uint32N(3), Priority: rng.Uint32N(abi.PriorityLevels)}
			}
			if _, err := r.Publish(items); err != nil {
				var full *host.PartitionFullError
				require.ErrorAs(t, err, &full)
				refused++
			}
		}
		ep, err := r.Step(ctxT(t))
		require.NoError(t, err)
		require.False(t, ep.RingRead, "frame %d read the ring", frame)
		var host decode.StatusMap
		var all decode.RingTelemetry
		require.NoError(t, decode.DecodeInto(&all, nil, r.Control(), r.Ring(), nil))
		host.SetSlots(all.Slots)
		require.Equal(t, r.Telemetry().StatusMap.Words(), host.Words(), "frame %d: host statuses vs the GPU's status map", frame)
		st, err := r.Requeue()
		require.NoError(t, err)
		requeued += st.Yielded + st.Requeued + st.Serviced
		reclaimed += r.ReclaimFaults()
	}
	assert.Positive(t, refused, "some frames met back-pressure")
	assert.Positive(t, requeued, "parked slots republished from the status map")
	assert.Positive(t, reclaimed, "faults reclaimed from the status map")
	// Claim what is pending (parked slots park again; no Requeue now), so
	// that the ring-read Step claims nothing.
	for i := 0; r.q.NeedsSubmit(); i++ {
		require.Less(t, i, 20, "the pending work drains")
		_, err := r.Step(ctxT(t))
		require.NoError(t, err)
	}
	want := append([]byte(nil), r.Ring()...)
	r.RequestRing()
	ep, err := r.Step(ctxT(t))
	require.NoError(t, err)
	require.True(t, ep.RingRead)
	assert.Equal(t, want, r.Ring(), "the ring read back is the host copy")
}

// TestSummaryDrainGivesEverySlot: a Drain with nothing left to run, after
// summary frames, decodes the host copy, so its telemetry has every slot,
// and they equal the GPU's ring read back afterwards.
func TestSummaryDrainGivesEverySlot(t *testing.T) {
	o := Options{Slots: 500, Tenants: 2, Observable: summaryObserved, Budget: 8, Grid: 2, WorkgroupSize: 64, Readback: decode.ReadbackSummary}
	r := openT(t, shared(t), o)
	items := make([]host.Item, 200)
	for i := range items {
		items[i] = host.Item{Opcode: abi.OpNop, Tenant: uint32(i % 2), Priority: uint32(i % abi.PriorityLevels)}
	}
	_, err := r.Publish(items)
	require.NoError(t, err)
	for i := 0; r.q.NeedsSubmit(); i++ {
		require.Less(t, i, 20, "the work drains")
		ep, err := r.Step(ctxT(t))
		require.NoError(t, err)
		require.False(t, ep.RingRead)
	}
	require.Empty(t, r.Telemetry().Slots, "a summary frame has no slots")

	rep, err := r.Drain(ctxT(t), 16)
	require.NoError(t, err)
	assert.Zero(t, rep.DispatchCount, "nothing was left to submit")
	got := append([]decode.RingSlotSnapshot(nil), r.Telemetry().Slots...)
	require.Len(t, got, int(o.Slots))
	assert.Equal(t, uint32(len(items)), r.Telemetry().Occupancy[decode.StatusDone])

	r.RequestRing()
	ep, err := r.Step(ctxT(t))
	require.NoError(t, err)
	require.True(t, ep.RingRead)
	assert.Equal(t, r.Telemetry().Slots, got, "the drained slots are the GPU's ring")
}

func (o Options) describe(i int) string {
	sh := o.summaryShape()
	return "ring " + itoa(i) + " slots " + itoa(int(o.Slots)) + " sketch " + itoa(int(sh.Depth)) + "×" + itoa(int(sh.Width)) +
		" windows " + itoa(int(sh.WindowCapacity)) + " x" + itoa(int(o.WorkgroupSize))
}

func itoa(v int) string {
	if v == 0 {
		return "0"
	}
	var b []byte
	for ; v > 0; v /= 10 {
		b = append([]byte{byte('0' + v%10)}, b...)
	}
	return string(b)
}

// TestSummaryMode: a summary Step decodes from the summary alone (no ring
// bytes), reads back far fewer bytes than a full Step, and RequestRing
// still brings the ring back.
func TestSummaryMode(t *testing.T) {
	o := Options{Slots: 4096, Tenants: 2, Observable: summaryObserved, Budget: 64, WindowOpcodes: summaryWindowOps, Readback: decode.ReadbackSummary}
	r := openT(t, shared(t), o)
	items := make([]host.Item, 300)
	for i := range items {
		items[i] = host.Item{Opcode: abi.OpSpin, Priority: uint32(i) % abi.PriorityLevels, Tenant: uint32(i) % 2}
		items[i].Args[0], items[i].Args[1] = uint32(i%7), uint32(i%2)
	}
	_, err := r.Publish(items)
	require.NoError(t, err)
	ep, err := r.Step(ctxT(t))
	require.NoError(t, err)
	assert.False(t, ep.RingRead)
	tel := r.Telemetry()
	assert.Empty(t, tel.Slots, "a summary decode has no slot words")
	assert.Equal(t, 4096, tel.SlotCount())
	assert.Equal(t, uint32(300), tel.Occupancy[decode.StatusDone])
	assert.Equal(t, uint32(4096-300), tel.Occupancy[decode.StatusEmpty])
	assert.Len(t, tel.Windows, 7, "7 tickets of SPIN")
	st, ok := tel.SlotStatus(0)
	assert.True(t, ok)
	assert.Equal(t, decode.StatusDone, st)
	l := r.lay
	want := l.control + l.log + l.summary + l.statusMap
	if r.tq.querySet != nil {
		want += timestampBytes
	}
	assert.EqualValues(t, want, ep.Telemetry.BytesReadBack, "control + log + summary + status map")
	summaryBytes := ep.Telemetry.BytesReadBack

	r.RequestRing()
	ep, err = r.Step(ctxT(t))
	require.NoError(t, err)
	assert.True(t, ep.RingRead)
	assert.Len(t, r.Telemetry().Slots, 4096)
	assert.EqualValues(t, want+l.ring, ep.Telemetry.BytesReadBack)
	assert.Less(t, summaryBytes*8, ep.Telemetry.BytesReadBack)
	compareSummary(t, r, "summary mode")
}

// TestSummaryBytesPerFrame checks and logs the bytes one frame reads back
// in summary and in full mode at 4,096 and 65,536 slots, and 1,048,576 with
// RINGSCOPE_MEASURE_LARGE=1 (a 64 MiB ring), measured from the device's
// counters against the layout, and the frame times of both modes (the
// ratio is what to compare: a shared machine's times are noisy).
func TestSummaryBytesPerFrame(t *testing.T) {
	if testing.Short() {
		t.Skip("measurements take a few seconds; -short skips them")
	}
	sizes := []uint32{4096, 65536}
	if os.Getenv("RINGSCOPE_MEASURE_LARGE") != "" {
		sizes = append(sizes, 1<<20)
	}
	for _, slots := range sizes {
		var got [2]uint64
		var dur, gpu [2]time.Duration
		for k, mode := range []decode.Readback{decode.ReadbackSummary, decode.ReadbackFull} {
			o := Options{Slots: slots, Tenants: 1, Budget: 1, Grid: 1, Readback: mode}
			r := openT(t, shared(t), o)
			_, err := r.Publish([]host.Item{{Opcode: abi.OpNop, Priority: abi.PriorityNormal}})
			require.NoError(t, err)
			_, err = r.Step(ctxT(t)) // creates buffers and pipelines
			require.NoError(t, err)
			ep, err := r.Step(ctxT(t))
			require.NoError(t, err)
			got[k], dur[k], gpu[k] = ep.Telemetry.BytesReadBack, ep.Timings.Total, ep.Timings.Readback
			l := r.lay
			want := l.control + l.log + l.summary + l.statusMap
			if mode == decode.ReadbackFull {
				want += l.ring
			}
			if r.tq.querySet != nil {
				want += timestampBytes
			}
			assert.EqualValues(t, want, got[k], "slots %d mode %d", slots, mode)
			r.Close()
		}
		t.Logf("slots %9d: summary %9d B/frame (%v, readback %v), full %10d B/frame (%v, readback %v): 1/%.1f of the bytes, %.2f× the time",
			slots, got[0], dur[0], gpu[0], got[1], dur[1], gpu[1], float64(got[1])/float64(got[0]), float64(dur[0])/float64(dur[1]))
	}
}

// TestReduceGPUTime (opt-in: RINGSCOPE_MEASURE_REDUCE=1, an adapter with
// timestamp-query) logs the GPU time of the reduce pass alone (clear,
// reduce, reduce windows, window tenants, as encodePass records them) at 65,536 and
// 1,048,576 slots, on a ring left by one drain of up to 40,960 NOPs (the
// bench row's ten frames of 4,096), without and with NOP as the window
// opcode (a ticket per 4 items: more windows than the table's 256
// entries). It is what the readback row's summary "readback wait" holds
// besides the drain and the transfer.
func TestReduceGPUTime(t *testing.T) {
	if os.Getenv("RINGSCOPE_MEASURE_REDUCE") == "" {
		t.Skip("a measurement for a real GPU: set RINGSCOPE_MEASURE_REDUCE=1")
	}
	ctx := ctxT(t)
	a, err := webgpu.RequestAdapter(ctx, webgpu.RequestAdapterOptions{PowerPreference: "high-performance"})
	require.NoError(t, err)
	if !a.HasFeature(webgpu.FeatureTimestampQuery) {
		t.Skip("the adapter has no timestamp-query")
	}
	lim := a.Limits()
	dev, err := a.RequestDevice(ctx, webgpu.DeviceDescriptor{Label: t.Name(), RequiredFeatures: []string{webgpu.FeatureTimestampQuery},
		RequiredLimits: webgpu.Limits{MaxStorageBufferBindingSize: lim.MaxStorageBufferBindingSize, MaxBufferSize: lim.MaxBufferSize}})
	require.NoError(t, err)
	t.Cleanup(dev.Destroy)
	qs, err := dev.CreateQuerySet(webgpu.QuerySetDescriptor{Label: "reduce time", Type: webgpu.QueryTypeTimestamp, Count: 2})
	require.NoError(t, err)
	resolve, err := dev.CreateBuffer(webgpu.BufferDescriptor{Size: timestampBytes, Usage: webgpu.BufferUsageQueryResolve | webgpu.BufferUsageCopySrc})
	require.NoError(t, err)
	stage, err := dev.CreateBuffer(webgpu.BufferDescriptor{Size: timestampBytes, Usage: webgpu.BufferUsageMapRead | webgpu.BufferUsageCopyDst})
	require.NoError(t, err)
	out := make([]byte, timestampBytes)
	var ts []uint64
	for _, slots := range []uint32{1 << 16, 1 << 20} {
		for _, windows := range [][]uint32{nil, {abi.OpNop}} {
			o := Options{Slots: slots, Tenants: 8, Budget: 64, WorkgroupSize: 64, WindowOpcodes: windows, Readback: decode.ReadbackSummary}
			r := openT(t, dev, o)
			var items []host.Item
			for i := range 40960 {
				items = append(items, host.Item{Opcode: abi.OpNop, Tenant: uint32(i % 8), Priority: uint32(i % abi.PriorityLevels),
					Args: [abi.SlotArgs]uint32{uint32(i / 4), uint32(i % 2)}})
			}
			_, err := r.Publish(items) // 8,192 per partition: room at both sizes
			require.NoError(t, err)
			ep, err := r.Step(ctx)
			require.NoError(t, err)
			red := r.sum.reduce[ep.Width]
			var gpu []float64
			for range 12 {
				enc, err := dev.CreateCommandEncoder("reduce time")
				require.NoError(t, err)
				enc.ClearBuffer(r.sum.buf, 0, r.sum.buf.Size())
				pass := enc.BeginComputePass(webgpu.ComputePassDescriptor{Label: "reduce time",
					TimestampWrites: &webgpu.ComputePassTimestampWrites{QuerySet: qs, BeginningOfPassWriteIndex: 0, EndOfPassWriteIndex: 1}})
				r.sum.encodeReduce(pass, r.reduceTarget(), red, ep.Width)
				pass.End()
				enc.ResolveQuerySet(qs, 0, 2, resolve, 0)
				enc.CopyBufferToBuffer(resolve, 0, stage, 0, timestampBytes)
				cmd, err := enc.Finish()
				require.NoError(t, err)
				require.NoError(t, dev.Queue().Submit(cmd))
				require.NoError(t, stage.MapReadInto(ctx, out, 0))
				ts = webgpu.DecodeTimestamps(ts, out)
				d, _ := webgpu.TimestampInterval(ts[0], ts[1])
				gpu = append(gpu, float64(d.Microseconds()))
			}
			slices.Sort(gpu)
			t.Logf("reduce pass, %8d slots, %d window opcodes, grid %d×%d: GPU %v µs median (min %v, max %v) over %d runs",
				slots, len(windows), reduceGrid(slots, ep.Width, dev.Limits().MaxComputeWorkgroupsPerDimension), ep.Width,
				gpu[len(gpu)/2], gpu[0], gpu[len(gpu)-1], len(gpu))
			r.Close()
		}
	}
}
