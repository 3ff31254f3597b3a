//go:build js && wasm

package megakernel

import (
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/tasktrace"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// tracedHost is the example host app (static/attach-host.js) driven from
// Go: its own kernel, static/attach-host.wgsl with its trace hooks as
// code, over its own buffers, one dispatch a frame. Each frame claims the
// slots the frame before published, a record each, and publishes a wave.
type tracedHost struct {
	dev                               *webgpu.Device
	control, ring, log, params, trace *webgpu.Buffer
	pipe                              *webgpu.ComputePipeline
	bind                              *webgpu.BindGroup
	slots, wave, frame                uint32
}

const hostObservable = 8

func newTracedHost(t *testing.T, dev *webgpu.Device, slots, wave, records uint32) *tracedHost {
	t.Helper()
	src, err := os.ReadFile("../../static/attach-host.wgsl")
	require.NoError(t, err)
	code := regexp.MustCompile(`(?m)^(\s*)// @trace: `).ReplaceAllString(string(src), "$1")
	h := &tracedHost{dev: dev, slots: slots, wave: wave}
	usage := webgpu.BufferUsageStorage | webgpu.BufferUsageCopySrc | webgpu.BufferUsageCopyDst
	mk := func(label string, size uint64, usage webgpu.BufferUsage) *webgpu.Buffer {
		b, err := dev.CreateBuffer(webgpu.BufferDescriptor{Label: label, Size: size, Usage: usage})
		require.NoError(t, err)
		t.Cleanup(b.Destroy)
		return b
	}
	h.control = mk("host control", (abi.ControlMinWords+hostObservable)*abi.WordBytes, usage)
	h.ring = mk("host ring", uint64(slots)*abi.SlotBytes, usage)
	h.log = mk("host log", (4+4*64)*abi.WordBytes, usage)
	h.params = mk("host params", 16, webgpu.BufferUsageUniform|webgpu.BufferUsageCopyDst)
	h.trace = mk("host trace", tasktrace.Bytes(records), usage)
	// The control words the host owns, as attach-host.js writes them.
	cw := make([]uint32, abi.ControlMinWords+hostObservable)
	cw[abi.CtrlTenantBase] = abi.TenantBaseValue
	for i := range 4 {
		cw[abi.CtrlTenantMask+i] = 1
	}
	for p := range abi.PriorityLevels + 1 {
		cw[abi.CtrlPriorityOffsets+p] = uint32(p) * slots / abi.PriorityLevels
	}
	cw[abi.CtrlMagic], cw[abi.CtrlABIVersion], cw[abi.CtrlGeneration] = abi.Magic, 1, 1
	q := dev.Queue()
	require.NoError(t, q.WriteBuffer(h.control, 0, wordBytes(cw)))
	require.NoError(t, q.WriteBuffer(h.log, 0, wordBytes([]uint32{0, 64, 0, 0})))
	h.resetTrace(t, records)
	m, err := dev.CreateShaderModule(ctxT(t), "host kernel", code)
	require.NoError(t, err)
	h.pipe, err = dev.CreateComputePipelineAsync(ctxT(t), webgpu.ComputePipelineDescriptor{Label: "host frame", Module: m, EntryPoint: "frame"})
	require.NoError(t, err)
	bgl, err := h.pipe.GetBindGroupLayout(0)
	require.NoError(t, err)
	var entries []webgpu.BindGroupEntry
	for i, b := range []*webgpu.Buffer{h.control, h.ring, h.log, h.params, h.trace} {
		entries = append(entries, webgpu.BindGroupEntry{Binding: uint32(i), Buffer: b})
	}
	h.bind, err = dev.CreateBindGroup(webgpu.BindGroupDescriptor{Label: "host", Layout: bgl, Entries: entries})
	require.NoError(t, err)
	return h
}

// resetTrace rewrites the trace header: no records, capacity records, clock 0.
func (h *tracedHost) resetTrace(t *testing.T, capacity uint32) {
	require.NoError(t, h.dev.Queue().WriteBuffer(h.trace, 0, wordBytes([]uint32{0, capacity, 0, 0})))
}

// run submits n frames.
func (h *tracedHost) run(t *testing.T, n int) {
	t.Helper()
	for range n {
		h.frame++
		q := h.dev.Queue()
		require.NoError(t, q.WriteBuffer(h.params, 0, wordBytes([]uint32{h.frame, h.slots, h.wave, 0})))
		enc, err := h.dev.CreateCommandEncoder("host frame")
		require.NoError(t, err)
		p := enc.BeginComputePass(webgpu.ComputePassDescriptor{})
		p.SetPipeline(h.pipe)
		p.SetBindGroup(0, h.bind)
		p.DispatchWorkgroups((h.slots+63)/64, 1, 1)
		p.End()
		cmd, err := enc.Finish()
		require.NoError(t, err)
		require.NoError(t, q.Submit(cmd))
	}
}

func (h *tracedHost) attach(t *testing.T, capacity uint32) *Attachment {
	t.Helper()
	a, err := Attach(ctxT(t), h.dev, AttachOptions{Control: h.control, Ring: h.ring, Log: h.log, Readback: decode.ReadbackFull,
		Trace: h.trace, TraceCapacity: capacity})
	require.NoError(t, err)
	t.Cleanup(a.Detach)
	return a
}

// checkWindow checks the window against the host's counters read in the
// same frame: a record per claim since claims0 (DONE or FAULT: a DONE_COUNT
// since done0), each on its slot's workgroup and lane, its start ticket
// before its end, every ticket once, each in a pass.
func checkWindow(t *testing.T, a *Attachment, claims0, done0 uint32) {
	t.Helper()
	w, ctl := a.Trace(), a.Telemetry().Control
	require.Positive(t, ctl.Claims-claims0)
	require.Len(t, w.Records, int(ctl.Claims-claims0), "a record per claim of the window")
	ended, seen := 0, map[uint32]bool{}
	for _, r := range w.Records {
		require.Less(t, r.Start, r.End, "slot %d", r.Slot)
		require.False(t, seen[r.Start] || seen[r.End], "ticket %d or %d twice", r.Start, r.End)
		seen[r.Start], seen[r.End] = true, true
		require.GreaterOrEqual(t, tasktrace.Find(w.Passes, r.Start), 0, "slot %d's start in a pass", r.Slot)
		require.Equal(t, [2]uint32{r.Slot / 64, r.Slot % 64}, [2]uint32{r.Workgroup, r.Lane}, "slot %d", r.Slot)
		require.False(t, r.HasParent())
		if r.Status == decode.StatusDone || r.Status == decode.StatusFault {
			ended++
		}
	}
	assert.Equal(t, int(ctl.DoneCount-done0), ended, "DONE or FAULT records: DONE_COUNT over the window")
	for _, p := range w.Passes {
		assert.False(t, p.Timed, "an attachment's passes are on the logical axis")
	}
}

func TestAttachReadsTheHostsTraceRecords(t *testing.T) {
	h := newTracedHost(t, shared(t), 256, 32, 1024)
	a := h.attach(t, 0)
	assert.EqualValues(t, 1024, a.Trace().Capacity, "the records the buffer holds")
	// Frames read now and then: one after each host frame, then after
	// three, then twice with nothing new (no pass added).
	for _, n := range []int{1, 1, 1, 3, 0, 0, 2} {
		h.run(t, n)
		stepT(t, a)
	}
	w := a.Trace()
	assert.Len(t, w.Passes, 4, "a pass per frame that found new tickets (the first frames claim nothing)")
	checkWindow(t, a, 0, 0)
	assert.Equal(t, 2*uint32(len(w.Records)), w.Passes[len(w.Passes)-1].End, "two tickets a record, from ticket 0")
	faults := 0
	for _, r := range w.Records {
		if r.Status == decode.StatusFault {
			faults++
			assert.Equal(t, decode.FaultCode(abi.FaultUnknownOpcode), r.Fault)
		}
	}
	assert.Positive(t, faults, "the host faults some slots, and says why")
	assert.Zero(t, w.Overflow)

	// The host starts its trace over and runs further than before: the
	// clock and the cursor pass where they were, the last record read is
	// another, and the window starts over without the old run's records.
	claims, done := a.Telemetry().Control.Claims, a.Telemetry().Control.DoneCount
	changes := a.Trace().Changes
	h.resetTrace(t, 1024)
	h.run(t, 9)
	stepT(t, a)
	assert.Zero(t, len(a.Trace().Records), "the frame that finds the new run starts the window over")
	assert.Greater(t, a.Trace().Changes, changes)
	h.run(t, 1)
	stepT(t, a)
	checkWindow(t, a, claims, done)
	// A run started over that is behind where the last one was: the cursor
	// went back.
	claims, done = a.Telemetry().Control.Claims, a.Telemetry().Control.DoneCount
	h.resetTrace(t, 1024)
	h.run(t, 1)
	stepT(t, a)
	stepT(t, a)
	checkWindow(t, a, claims, done)
}

// A trace buffer too small for the claims: the records it holds, and the
// rest counted exactly as overflow; a capacity below the buffer's reads
// that many.
func TestAttachTraceOverflow(t *testing.T) {
	for _, c := range []struct {
		name              string
		records, capacity uint32
	}{{"buffer", 40, 0}, {"capacity", 1024, 24}} {
		t.Run(c.name, func(t *testing.T) {
			h := newTracedHost(t, shared(t), 256, 32, c.records)
			a := h.attach(t, c.capacity)
			want := c.capacity
			if want == 0 {
				want = c.records
			}
			for range 4 {
				h.run(t, 2)
				stepT(t, a)
			}
			claims := a.Telemetry().Control.Claims
			require.Greater(t, claims, want)
			w := a.Trace()
			assert.Len(t, w.Records, int(want))
			assert.EqualValues(t, claims-want, w.Overflow, "every claim past the capacity")
		})
	}
}

func TestAttachTraceRefusals(t *testing.T) {
	dev := shared(t)
	h := newTracedHost(t, dev, 64, 8, 16)
	mk := func(label string, size uint64, usage webgpu.BufferUsage) *webgpu.Buffer {
		b, err := dev.CreateBuffer(webgpu.BufferDescriptor{Label: label, Size: size, Usage: usage})
		require.NoError(t, err)
		t.Cleanup(b.Destroy)
		return b
	}
	all := webgpu.BufferUsageStorage | webgpu.BufferUsageCopySrc
	other := testDevice(t)
	foreign, err := other.CreateBuffer(webgpu.BufferDescriptor{Label: "elsewhere", Size: 1024, Usage: all})
	require.NoError(t, err)
	for _, c := range []struct {
		name     string
		buf      *webgpu.Buffer
		capacity uint32
		want     string
	}{
		{"no COPY_SRC", mk("t1", 1024, webgpu.BufferUsageStorage), 0, `megakernel: attach: trace buffer "t1": lacks COPY_SRC usage`},
		{"no record", mk("t2", 40, all), 0, `megakernel: attach: trace buffer "t2": capacity 0: want 1 … 0, the records of 40 bytes`},
		{"capacity past the buffer", mk("t3", 16+32*10, all), 11, `megakernel: attach: trace buffer "t3": capacity 11: want 1 … 10, the records of 336 bytes`},
		{"capacity past the most", h.trace, MaxTraceCapacity + 1, `megakernel: attach: trace buffer "host trace": capacity 4194305: want 1 … 16, the records of 528 bytes`},
		{"another device's", foreign, 0, `megakernel: attach: trace buffer "elsewhere": belongs to another GPUDevice`},
	} {
		_, err := Attach(ctxT(t), dev, AttachOptions{Control: h.control, Ring: h.ring, Trace: c.buf, TraceCapacity: c.capacity})
		var ae *AttachError
		require.ErrorAs(t, err, &ae, c.name)
		assert.ErrorContains(t, err, c.want, c.name)
	}

	// The host destroys its trace buffer: the attachment ends, in one line
	// naming it.
	a := h.attach(t, 0)
	h.run(t, 2)
	stepT(t, a)
	h.trace.Destroy()
	_, err = a.Step(ctxT(t))
	var ended *EndedError
	require.ErrorAs(t, err, &ended)
	assert.Equal(t, `the host's buffers can no longer be copied: its trace buffer "host trace" was destroyed`, ended.Reason)
	assert.NotEmpty(t, a.Trace().Records, "the last window is kept")
}
