package megakernel

import (
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// swiftShader are the limits of a default device on SwiftShader
// (shared/docs/BROWSER.md).
var swiftShader = webgpu.Limits{
	MaxBufferSize:                     256 << 20,
	MaxStorageBufferBindingSize:       128 << 20,
	MaxComputeInvocationsPerWorkgroup: 256,
	MaxComputeWorkgroupSizeX:          256,
	MaxComputeWorkgroupsPerDimension:  65535,
}

func valid() Options {
	return Options{Slots: 256, Tenants: 1, Observable: 16, LogCapacity: 8, Budget: 4}
}

func TestValidateRefuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(*Options)
		field string
	}{
		{"zero slots", func(o *Options) { o.Slots = 0 }, "Slots"},
		{"slots past host limit", func(o *Options) { o.Slots = host.MaxSlots + 1 }, "Slots"},
		{"ring past binding limit", func(o *Options) { o.Slots = 4 << 20 }, "Slots"},
		{"zero budget", func(o *Options) { o.Budget = 0 }, "Budget"},
		{"tenant 30", func(o *Options) { o.Tenants = 30 }, "Tenants"},
		{"30 masks", func(o *Options) { o.Tenants = 0; o.Masks = make([]uint32, 30) }, "Masks"},
		{"tenants and masks", func(o *Options) { o.Masks = []uint32{1} }, "Masks"},
		{"65 window opcodes", func(o *Options) { o.WindowOpcodes = make([]uint32, 65) }, "WindowOpcodes"},
		{"width 100", func(o *Options) { o.WorkgroupSize = 100 }, "WorkgroupSize"},
		{"observable past limit", func(o *Options) { o.Observable = host.MaxObservable + 1 }, "Observable"},
		{"log past limit", func(o *Options) { o.LogCapacity = host.MaxLogCapacity + 1 }, "LogCapacity"},
		{"data not words", func(o *Options) { o.Data = make([]byte, 6) }, "Data"},
		{"grid past limit", func(o *Options) { o.Grid = 65536 }, "Grid"},
		{"bad mode", func(o *Options) { o.Mode = 7 }, "Mode"},
		{"submission bound too short", func(o *Options) { o.SubmissionTimeout = MinSubmissionTimeout - 1 }, "SubmissionTimeout"},
		{"submission bound too long", func(o *Options) { o.SubmissionTimeout = MaxSubmissionTimeout + 1 }, "SubmissionTimeout"},
		{"negative submission bound", func(o *Options) { o.SubmissionTimeout = -time.Second }, "SubmissionTimeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := valid()
			tc.edit(&o)
			err := o.Validate(swiftShader)
			var oe *OptionError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, tc.field, oe.Field)
			assert.Contains(t, err.Error(), "megakernel: option "+tc.field)
		})
	}
}

func TestValidateAccepts(t *testing.T) {
	for _, o := range []Options{
		valid(),
		{Slots: 1, Budget: 1},
		{Slots: 65536, Tenants: 29, Observable: 1024, LogCapacity: 1024, Budget: 64, WorkgroupSize: 256, Grid: 1, Mode: ModeJIT, Data: make([]byte, 1024)},
		{Slots: 5, Masks: []uint32{0, 1}, Budget: 1, Readback: decode.ReadbackOnDemand},
		{Slots: 1, Budget: 1, SubmissionTimeout: MinSubmissionTimeout},
		{Slots: 1, Budget: 1, SubmissionTimeout: MaxSubmissionTimeout},
	} {
		assert.NoError(t, o.Validate(swiftShader), "%+v", o)
	}
}

// The zero bound is the default; a set one is kept.
func TestSubmissionTimeout(t *testing.T) {
	o := valid()
	assert.Equal(t, DefaultSubmissionTimeout, o.submissionTimeout())
	o.SubmissionTimeout = 2 * time.Second
	assert.Equal(t, 2*time.Second, o.submissionTimeout())
}

func TestValidateHostConfig(t *testing.T) {
	o := valid()
	o.Partitions = [6]uint32{0, 10, 5, 20, 30, 256} // decreasing
	err := o.Validate(swiftShader)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "megakernel: options:")
}

func TestValidateZeroLimits(t *testing.T) {
	var lre *decode.LaunchRequestError
	assert.ErrorAs(t, valid().Validate(webgpu.Limits{}), &lre, "the launch policy needs the adapter limits")
}

func TestMemoryBudget(t *testing.T) {
	o := valid()
	l := o.layout()
	// The peak is every buffer the runner holds plus the policy's hit scratch.
	rec, err := o.recommend(swiftShader, o.Slots, l, nil, 0)
	require.NoError(t, err)
	assert.Greater(t, rec.EstimatedPeakDeviceBytes, l.device())

	o.MemoryBudgetBytes = rec.EstimatedPeakDeviceBytes
	assert.NoError(t, o.Validate(swiftShader), "a budget of exactly the peak fits")

	o.MemoryBudgetBytes = rec.EstimatedPeakDeviceBytes - 1
	err = o.Validate(swiftShader)
	var oom *decode.OutOfMemoryError
	require.ErrorAs(t, err, &oom)
	assert.Equal(t, rec.EstimatedPeakDeviceBytes, oom.Requested)
	assert.Equal(t, o.MemoryBudgetBytes, oom.Available)

	// A smaller queue never needs more than the full ring Validate checked.
	o.MemoryBudgetBytes = rec.EstimatedPeakDeviceBytes
	for _, q := range []uint32{0, 1, 100, 256} {
		_, err := o.recommend(swiftShader, q, l, nil, 0)
		assert.NoError(t, err, "queue %d", q)
	}
}

func TestLayout(t *testing.T) {
	o := Options{Slots: 10, Observable: 3, LogCapacity: 2, Budget: 1}
	l := o.layout()
	assert.Equal(t, layout{control: 163 * 4, ring: 640, log: (4 + 8) * 4, data: 4}, l)
	assert.EqualValues(t, 16+163*4+48+640, l.staging())
	assert.EqualValues(t, 16, l.controlOffset())
	assert.EqualValues(t, 16+163*4, l.logOffset())
	assert.EqualValues(t, 16+163*4+48, l.ringOffset())
	assert.EqualValues(t, 163*4+640+48+16+4+2*l.staging()+16, l.device())
	for _, off := range []uint64{l.staging(), l.controlOffset(), l.logOffset(), l.ringOffset()} {
		assert.Zero(t, off%4, "copies need 4-byte offsets")
	}
	o.Data = make([]byte, 12)
	assert.EqualValues(t, 12, o.layout().data)
}

func TestCoalesce(t *testing.T) {
	r := func(s, e int) host.ByteRange { return host.ByteRange{Start: s, End: e} }
	for _, tc := range []struct {
		name string
		in   []host.ByteRange
		gap  int
		want []host.ByteRange
	}{
		{"empty", nil, 256, []host.ByteRange{}},
		{"one", []host.ByteRange{r(0, 64)}, 256, []host.ByteRange{r(0, 64)}},
		{"close ranges merge", []host.ByteRange{r(0, 64), r(128, 192)}, 256, []host.ByteRange{r(0, 192)}},
		{"no gap keeps apart", []host.ByteRange{r(0, 64), r(128, 192)}, 0, []host.ByteRange{r(0, 64), r(128, 192)}},
		{"touching merge at gap 0", []host.ByteRange{r(0, 64), r(64, 128)}, 0, []host.ByteRange{r(0, 128)}},
		{"far apart", []host.ByteRange{r(0, 4), r(1000, 1004)}, 256, []host.ByteRange{r(0, 4), r(1000, 1004)}},
		{"empty range skipped", []host.ByteRange{r(8, 8), r(16, 20)}, 0, []host.ByteRange{r(16, 20)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := coalesce(nil, tc.in, tc.gap)
			assert.Equal(t, tc.want, append([]host.ByteRange{}, got...))
		})
	}
}

func TestCoalesceReusesStorage(t *testing.T) {
	dst := make([]host.ByteRange, 0, 4)
	in := []host.ByteRange{{Start: 0, End: 4}, {Start: 1000, End: 1004}}
	allocs := testing.AllocsPerRun(100, func() { dst = coalesce(dst, in, 0) })
	assert.Zero(t, allocs)
}

func putWord(b []byte, w int, v uint32) { binary.LittleEndian.PutUint32(b[w*4:], v) }

func TestCounters(t *testing.T) {
	c := make([]byte, abi.ControlMinWords*4)
	for p := 0; p < abi.PriorityLevels; p++ {
		putWord(c, abi.CtrlHead+p, uint32(10*p))
		putWord(c, abi.CtrlTail+p, uint32(10*p+p))
	}
	assert.EqualValues(t, 0+1+2+3+4, pendingItems(c))
	// modular: TAIL wrapped past HEAD
	putWord(c, abi.CtrlHead, 0xFFFFFFFE)
	putWord(c, abi.CtrlTail, 1)
	assert.EqualValues(t, 3+1+2+3+4, pendingItems(c))
	// HEAD past TAIL (before finalize) is no pending work
	putWord(c, abi.CtrlHead, 5)
	putWord(c, abi.CtrlTail, 1)
	assert.EqualValues(t, 1+2+3+4, pendingItems(c))

	before := [5]uint32{0, 1, 2, 3, 0xFFFFFFFF}
	after := [5]uint32{4, 1, 3, 3, 1}
	assert.EqualValues(t, 4+0+1+0+2, claimed(before, after))
}

func TestRingScan(t *testing.T) {
	// One partition of 6 slots (all priorities but NORMAL empty). Five
	// items published, the first claimed by a readback (HEAD 1): the JIT
	// set is the other four's opcodes, read from the queue, not the ring.
	parts := [abi.PriorityLevels + 1]uint32{0, 0, 0, 6, 6, 6}
	q, err := host.NewQueue(host.ControlConfig{Slots: 6, Tenants: 1, Partitions: parts}, 0)
	require.NoError(t, err)
	var items []host.Item
	for _, op := range []uint32{abi.OpMemcpy, abi.OpSpin, abi.OpNop, abi.OpSpin, abi.OpSpin} {
		items = append(items, host.Item{Opcode: op, Priority: abi.PriorityNormal})
	}
	_, err = q.Publish(items)
	require.NoError(t, err)
	q.ClearDirty()
	control := append([]byte(nil), q.Control()...)
	putWord(control, abi.CtrlHead+abi.PriorityNormal, 1)
	require.NoError(t, q.Absorb(control, nil, nil))

	var s ringScan
	last := decode.RingOccupancy{decode.StatusClaimed: 1, decode.StatusYield: 2, decode.StatusPublished: 9}
	s.scan(q.Control(), q, &last)
	assert.EqualValues(t, 4+3, s.active, "4 pending + 3 claimed or parked")
	assert.Equal(t, []uint32{abi.OpNop, abi.OpSpin}, s.opcodes)

	putWord(control, abi.CtrlHead+abi.PriorityNormal, 5) // all claimed
	require.NoError(t, q.Absorb(control, nil, nil))
	s.scan(q.Control(), q, nil)
	assert.Zero(t, s.active)
	assert.Empty(t, s.opcodes)

	c := append([]byte(nil), q.Control()...)
	putWord(c, abi.CtrlHead+abi.PriorityNormal, 5+(1<<31)) // HEAD past TAIL: nothing pending
	s.scan(c, q, nil)
	assert.Zero(t, s.active)

	allocs := testing.AllocsPerRun(100, func() { s.scan(q.Control(), q, &last) })
	assert.Zero(t, allocs)
}

func TestModeAndGrid(t *testing.T) {
	o := valid()
	rec := decode.LaunchRecommendation{DispatchGrid: [3]uint32{7, 1, 1}, ExecutionMode: decode.ModeJIT}
	assert.EqualValues(t, 7, o.grid(rec))
	assert.True(t, o.jit(rec), "auto follows the policy")
	o.Mode = ModeInterpreter
	assert.False(t, o.jit(rec))
	o.Mode, o.Grid = ModeJIT, 3
	assert.True(t, o.jit(decode.LaunchRecommendation{}))
	assert.EqualValues(t, 3, o.grid(rec))
	assert.EqualValues(t, 3, o.gridFor(rec, 1<<20, 65535, false), "the override is kept")
	assert.EqualValues(t, 3, o.gridFor(rec, 1<<20, 65535, true), "the override is kept on a CPU adapter")

	// 255 workgroups of 64 lanes claim 130,560 items at 8 per lane: a
	// larger queue gets the workgroups for 8 items per lane, so a full
	// 1 M ring drains in one submission with its chains side by side.
	o = valid()
	o.Budget = 64
	rec = decode.LaunchRecommendation{DispatchGrid: [3]uint32{255, 1, 1}, WorkgroupSizeX: 64}
	assert.EqualValues(t, 255, o.gridFor(rec, 65536, 65535, false), "never below the policy's")
	assert.EqualValues(t, 2048, o.gridFor(rec, 1<<20, 65535, false))
	o.Budget = 4
	assert.EqualValues(t, 4096, o.gridFor(rec, 1<<20, 65535, false), "a budget below 8 claims is the lane's")
	assert.EqualValues(t, 300, o.gridFor(rec, 1<<24, 300, false), "at most the device's limit")
	// A worker cap bounds the raised grid too: the policy's grid of one
	// workgroup stays one (reliability.spec paces a drain by it).
	o.WorkerGroups = 1
	one := decode.LaunchRecommendation{DispatchGrid: [3]uint32{1, 1, 1}, WorkgroupSizeX: 64}
	assert.EqualValues(t, 1, o.gridFor(one, 1<<20, 65535, false), "the worker cap holds")
	o.WorkerGroups = 100
	capped := decode.LaunchRecommendation{DispatchGrid: [3]uint32{60, 1, 1}, WorkgroupSizeX: 64}
	assert.EqualValues(t, 100, o.gridFor(capped, 1<<20, 65535, false), "the worker cap holds")
	assert.EqualValues(t, 60, o.gridFor(capped, 1<<10, 65535, false), "never below the policy's")

	// On a CPU adapter: the fewest workgroups that claim the queue at the
	// full budget, even below the policy's grid, within the same ceiling.
	o = valid()
	o.Budget = 64
	for _, c := range []struct {
		name       string
		queue, max uint32
		want       uint32
	}{
		{"a page frame's 4,096 items", 4096, 65535, 1},
		{"row 1's 65,536 items", 65536, 65535, 16},
		{"one item more than a workgroup claims", 4097, 65535, 2},
		{"an empty queue", 0, 65535, 1},
		{"a full 1 M ring, above the policy's grid", 1 << 20, 65535, 256},
		{"at most the device's limit", 1 << 20, 100, 100},
	} {
		assert.EqualValues(t, c.want, o.gridFor(rec, c.queue, c.max, true), c.name)
	}
	o.WorkerGroups = 8
	assert.EqualValues(t, 8, o.gridFor(rec, 1<<20, 65535, true), "the worker cap holds on a CPU adapter")
	assert.Equal(t, "jit", ModeJIT.String())
	assert.Equal(t, "Mode(9)", Mode(9).String())
}

func TestOptionErrorIsClear(t *testing.T) {
	err := error(&OptionError{Field: "Budget", Value: 0, Reason: "why"})
	assert.Equal(t, "megakernel: option Budget = 0: why", err.Error())
	assert.False(t, errors.Is(err, webgpu.ErrDeviceLost))
}

// TestValidateCountsTheTraceBinding: a traced drain binds its trace buffer
// besides the drain's own four storage buffers, so a device of 8 per
// stage leaves a traced kernel three user buffers, not four.
func TestValidateCountsTheTraceBinding(t *testing.T) {
	lim := swiftShader
	lim.MaxStorageBuffersPerShaderStage = 8
	o := valid()
	for _, name := range []string{"a", "b", "c", "d"} {
		o.Kernel.Buffers = append(o.Kernel.Buffers, wgsl.Buffer{Name: name, Size: 4})
	}
	require.NoError(t, o.Validate(lim), "untraced: 4 + 4 storage buffers")
	o.TraceCapacity = 16
	err := o.Validate(lim)
	var de *wgsl.DeclError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "buffers", de.Field)
	assert.Contains(t, de.Reason, "4 buffers: the traced drain binds 5 storage buffers itself and the device allows 8 per shader stage")
	assert.Contains(t, de.Reason, "at most 3 are yours")
	o.Kernel.Buffers = o.Kernel.Buffers[:3]
	assert.NoError(t, o.Validate(lim), "traced: 5 + 3")
}

// A spawning kernel binds its spawn state beside the drain's four: the
// error counts the user's buffers, not the user's plus the kernel's own,
// and says how many are theirs.
func TestValidateCountsTheSpawnStateAsTheKernels(t *testing.T) {
	lim := swiftShader
	lim.MaxStorageBuffersPerShaderStage = 8
	o := valid()
	o.Kernel.Opcodes = []wgsl.Opcode{{Value: abi.UserOpcodeFirst, Name: "fork",
		WGSL: "fn fork(slot: u32, args: Args) -> Outcome { _ = spawn(0x10u, 0u, 2u, args); return done(); }"}}
	require.True(t, o.Kernel.Spawns())
	for _, name := range []string{"a", "b", "c", "d"} {
		o.Kernel.Buffers = append(o.Kernel.Buffers, wgsl.Buffer{Name: name, Size: 4})
	}
	err := o.Validate(lim)
	var de *wgsl.DeclError
	require.ErrorAs(t, err, &de)
	assert.Contains(t, de.Reason, "4 buffers: the spawning drain binds 5 storage buffers itself")
	assert.Contains(t, de.Reason, "at most 3 are yours")
	o.Kernel.Buffers = o.Kernel.Buffers[:3]
	assert.NoError(t, o.Validate(lim))
}
