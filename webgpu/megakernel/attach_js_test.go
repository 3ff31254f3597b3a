//go:build js && wasm

package megakernel

import (
	"context"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// A Runner stands in for the host page's own kernel: its buffers are the
// host's, reached the way an embedder hands them over (the JS GPUDevice and
// GPUBuffers, wrapped again), and its own readback is the host's view.

// hostRing is a runner's device and buffers as an attachment borrows them.
type hostRing struct {
	r                   *Runner
	dev                 *webgpu.Device // a second wrapper of the runner's GPUDevice
	control, ring, logB *webgpu.Buffer
}

func borrow(t *testing.T, r *Runner) hostRing {
	t.Helper()
	w, err := webgpu.WrapDevice(r.Device().JSValue())
	require.NoError(t, err)
	h := hostRing{r: r, dev: w}
	for _, b := range []struct {
		dst  **webgpu.Buffer
		src  *webgpu.Buffer
		name string
	}{{&h.control, r.res.bufs[bufControl], "control"}, {&h.ring, r.res.bufs[bufRing], "ring"}, {&h.logB, r.res.bufs[bufLog], "log"}} {
		*b.dst, err = webgpu.WrapBuffer(w, b.src.JSValue(), b.name)
		require.NoError(t, err)
	}
	return h
}

// busyHost runs one submission over a mix of work: ATOMIC_ADDs at every
// priority, unknown opcodes that fault, a masked tenant's slots that yield,
// and more than one submission's claims, so statuses stay mixed.
func busyHost(t *testing.T, dev *webgpu.Device) *Runner {
	r := openT(t, dev, Options{Slots: 320, Masks: []uint32{host.MaskOn, 0, host.MaskOn}, Observable: 8, LogCapacity: 16,
		Budget: 1, WorkgroupSize: 64, Grid: 1, Mode: ModeInterpreter})
	var items []host.Item
	for i := range uint32(150) {
		it := addItem(i%8, 1, i%abi.PriorityLevels, []uint32{0, 1, 2}[i%3])
		if i%7 == 0 {
			it.Opcode = 0x7777 // unknown: faults
		}
		items = append(items, it)
	}
	_, err := r.Publish(items)
	require.NoError(t, err)
	_, err = r.Step(ctxT(t))
	require.NoError(t, err)
	return r
}

func attachT(t *testing.T, h hostRing, o AttachOptions) *Attachment {
	t.Helper()
	o.Control, o.Ring = h.control, h.ring
	if o.Log == nil {
		o.Log = h.logB
	}
	a, err := Attach(ctxT(t), h.dev, o)
	require.NoError(t, err)
	t.Cleanup(a.Detach)
	return a
}

func stepT(t *testing.T, a *Attachment) {
	t.Helper()
	ok, err := a.Step(ctxT(t))
	require.NoError(t, err)
	require.True(t, ok)
}

// assertSameRing checks the attachment's frame against the host's own
// readback of the same buffers at the same point.
func assertSameRing(t *testing.T, want, got *decode.RingTelemetry) {
	t.Helper()
	assert.Equal(t, want.Control.DoneCount, got.Control.DoneCount, "DONE_COUNT")
	assert.Equal(t, want.Control.Claims, got.Control.Claims, "CLAIMS")
	assert.Equal(t, want.Control.Faults, got.Control.Faults, "FAULTS")
	assert.Equal(t, want.Control.Metrics, got.Control.Metrics, "OPCODE_METRICS")
	assert.Equal(t, want.Control.TenantFairness, got.Control.TenantFairness, "TENANT_CLAIMS")
	assert.Equal(t, want.Occupancy, got.Occupancy, "occupancy")
}

func TestAttachFullMatchesTheHostsReadback(t *testing.T) {
	r := busyHost(t, testDevice(t))
	h := borrow(t, r)
	a := attachT(t, h, AttachOptions{Readback: decode.ReadbackFull})
	assert.Equal(t, decode.ReadbackFull, a.Readback())
	assert.EqualValues(t, 320, a.Slots())
	assert.EqualValues(t, 8, a.Observable())
	assert.EqualValues(t, 16, a.LogCapacity())
	stepT(t, a)
	occ := r.Telemetry().Occupancy
	require.Positive(t, occ[decode.StatusDone])
	require.Positive(t, occ[decode.StatusFault])
	require.Positive(t, occ[decode.StatusPublished], "the host's one submission left work pending")
	assertSameRing(t, r.Telemetry(), a.Telemetry())
	assert.Equal(t, r.Control(), a.Control(), "control, byte for byte")
	assert.Equal(t, r.Ring(), a.Ring(), "ring, byte for byte")
	assert.Equal(t, r.LogBytes(), a.LogBytes(), "log, byte for byte")
	assert.Equal(t, r.Log().Records, a.Log().Records)
	assert.Equal(t, r.Pending(), a.Pending())
	assert.Equal(t, r.Published(), a.Published())

	// Frames read, they do not write: the host's next submission finds its
	// buffers as it left them (Absorb refuses host words the GPU changed)
	// and the attachment follows it.
	for range 3 {
		stepT(t, a)
	}
	_, err := r.Step(ctxT(t))
	require.NoError(t, err)
	stepT(t, a)
	assertSameRing(t, r.Telemetry(), a.Telemetry())
	assert.Equal(t, r.Ring(), a.Ring())
	assert.EqualValues(t, 5, a.Frames())
	// The waits for the GPU are part of the readback, and not main-thread
	// time (the pacing's budget counts Busy).
	tm := a.Timings()
	assert.Positive(t, tm.Wait)
	assert.LessOrEqual(t, tm.Wait, tm.Readback)
	assert.Equal(t, tm.Submit+tm.Decode+tm.Readback-tm.Wait, tm.Busy())
	assert.Positive(t, tm.Busy())

	// Detach releases what it made; the host keeps running.
	a.Detach()
	_, err = a.Step(ctxT(t))
	require.ErrorIs(t, err, ErrDetached)
	_, err = r.Drain(ctxT(t), 64)
	require.NoError(t, err)
	require.NoError(t, h.dev.Err())
}

func TestAttachSummaryMatchesTheHostsReadback(t *testing.T) {
	r := busyHost(t, testDevice(t))
	h := borrow(t, r)
	a := attachT(t, h, AttachOptions{Readback: decode.ReadbackSummary})
	require.Equal(t, decode.ReadbackSummary, a.Readback(), a.ReadbackNote())
	stepT(t, a) // the first frame reads the ring too
	assert.True(t, a.RingRead())
	prev := append([]byte(nil), a.Ring()...)
	a.ClearRingChanges()
	_, err := r.Step(ctxT(t))
	require.NoError(t, err)
	stepT(t, a)
	assert.False(t, a.RingRead(), "a summary frame reads no ring")
	// RingChanges covers every slot the frame changed: the last ring with
	// those slots copied in is the ring now.
	changes := a.RingChanges()
	require.NotEmpty(t, changes)
	for _, c := range changes {
		require.Zero(t, c.Start%abi.SlotBytes)
		copy(prev[c.Start:c.End], a.Ring()[c.Start:c.End])
	}
	assert.Equal(t, a.Ring(), prev)
	assert.Less(t, a.BytesPerFrame(), uint64(320*abi.SlotBytes))
	assertSameRing(t, r.Telemetry(), a.Telemetry())
	var want, got decode.SketchTelemetry
	require.NoError(t, r.Telemetry().SketchInto(&want, DefaultSketchDepth, DefaultSketchWidth))
	require.NoError(t, a.Sketches(&got))
	assert.Equal(t, want, got, "the GPU's sketches of the host's ring")
	// The ring copy follows the status map: every status as the host's.
	ring := a.Ring()
	for s := range 320 {
		at := s*abi.SlotBytes + abi.SlotStatus*abi.WordBytes
		require.Equal(t, binary.LittleEndian.Uint32(r.Ring()[at:]), binary.LittleEndian.Uint32(ring[at:]), "slot %d status", s)
	}
	// On demand, a summary frame reads the ring again.
	a.RequestRing()
	stepT(t, a)
	assert.True(t, a.RingRead())
	assert.Equal(t, r.Ring(), a.Ring())
}

// A vyre dump's layout (MAGIC 0) attached live decodes as a legacy ring, in
// either readback mode.
func TestAttachLegacyRing(t *testing.T) {
	dev := testDevice(t)
	w, err := webgpu.WrapDevice(dev.JSValue())
	require.NoError(t, err)
	usage := webgpu.BufferUsageStorage | webgpu.BufferUsageCopySrc | webgpu.BufferUsageCopyDst
	mk := func(name string, size uint64) *webgpu.Buffer {
		b, err := dev.CreateBuffer(webgpu.BufferDescriptor{Label: "vyre " + name, Size: size, Usage: usage})
		require.NoError(t, err)
		t.Cleanup(b.Destroy)
		wb, err := webgpu.WrapBuffer(w, b.JSValue(), name)
		require.NoError(t, err)
		return wb
	}
	control, ring := mk("control", abi.ControlMinWords*abi.WordBytes), mk("ring", 5*abi.SlotBytes)
	cw := make([]uint32, abi.ControlMinWords)
	cw[abi.CtrlDoneCount], cw[abi.CtrlTenantBase] = 2, 3
	cw[abi.CtrlOpcodeMetrics+2] = 2
	copy(cw[abi.CtrlPriorityOffsets:], []uint32{0, 1, 2, 3, 4, 5})
	cw[abi.CtrlMagic] = 0
	cw[150] = 0xdead // a word vyre does not define: ignored
	rw := make([]uint32, 5*abi.SlotWords)
	for s, st := range []uint32{abi.StatusDone, abi.StatusPublished, abi.StatusDone, abi.StatusFault, abi.StatusEmpty} {
		rw[s*abi.SlotWords], rw[s*abi.SlotWords+1] = st, abi.OpAtomicAdd
	}
	q := dev.Queue()
	require.NoError(t, q.WriteBuffer(control, 0, wordBytes(cw)))
	require.NoError(t, q.WriteBuffer(ring, 0, wordBytes(rw)))
	for _, mode := range []decode.Readback{decode.ReadbackFull, decode.ReadbackSummary} {
		t.Run(mode.String(), func(t *testing.T) {
			a, err := Attach(ctxT(t), w, AttachOptions{Control: control, Ring: ring, Readback: mode})
			require.NoError(t, err)
			defer a.Detach()
			require.Equal(t, mode, a.Readback())
			for range 2 { // in summary mode the second frame is a summary's
				stepT(t, a)
			}
			tel := a.Telemetry()
			assert.True(t, tel.Control.Legacy)
			assert.EqualValues(t, 2, tel.Control.DoneCount)
			assert.Equal(t, []decode.Metric{{Opcode: abi.OpAtomicAdd, Count: 2}}, tel.Control.Metrics)
			assert.EqualValues(t, 2, tel.Occupancy[decode.StatusDone])
			assert.EqualValues(t, 1, tel.Occupancy[decode.StatusPublished])
			assert.EqualValues(t, 1, tel.Occupancy[decode.StatusFault])
			assert.EqualValues(t, 1, tel.Occupancy[decode.StatusEmpty])
			assert.EqualValues(t, 1, a.Pending(), "a legacy ring's pending work is its active slots")
		})
	}
}

func wordBytes(w []uint32) []byte {
	b := make([]byte, 4*len(w))
	for i, v := range w {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	return b
}

func TestAttachRefusals(t *testing.T) {
	dev := testDevice(t)
	w, err := webgpu.WrapDevice(dev.JSValue())
	require.NoError(t, err)
	all := webgpu.BufferUsageStorage | webgpu.BufferUsageCopySrc | webgpu.BufferUsageCopyDst
	mk := func(label string, size uint64, usage webgpu.BufferUsage) *webgpu.Buffer {
		b, err := dev.CreateBuffer(webgpu.BufferDescriptor{Label: label, Size: size, Usage: usage})
		require.NoError(t, err)
		t.Cleanup(b.Destroy)
		wb, err := webgpu.WrapBuffer(w, b.JSValue(), label)
		require.NoError(t, err)
		return wb
	}
	ctl, ring := mk("ctl", 640, all), mk("rng", 64*64, all)
	for _, tc := range []struct {
		name string
		o    AttachOptions
		want string
	}{
		{"control without COPY_SRC", AttachOptions{Control: mk("c", 640, webgpu.BufferUsageStorage|webgpu.BufferUsageCopyDst), Ring: ring},
			`megakernel: attach: control buffer "c": lacks COPY_SRC usage (usage 0x88 = COPY_DST|STORAGE)`},
		{"ring without COPY_SRC", AttachOptions{Control: ctl, Ring: mk("r", 640, webgpu.BufferUsageStorage)},
			`megakernel: attach: ring buffer "r": lacks COPY_SRC usage (usage 0x80 = STORAGE)`},
		{"log without COPY_SRC", AttachOptions{Control: ctl, Ring: ring, Log: mk("l", 32, webgpu.BufferUsageStorage)},
			`megakernel: attach: log buffer "l": lacks COPY_SRC usage`},
		{"ring of part slots", AttachOptions{Control: ctl, Ring: mk("r100", 100, all)},
			`megakernel: attach: ring buffer "r100": 100 bytes is not a whole number of 64-byte slots`},
		{"control too short", AttachOptions{Control: mk("c600", 600, all), Ring: ring},
			`megakernel: attach: control buffer "c600": 600 bytes is shorter than the control minimum of 640 bytes (160 words`},
		{"control of part words", AttachOptions{Control: mk("c642", 644-2, all), Ring: ring},
			`642 bytes is not a whole number of 4-byte words`},
		{"log of part records", AttachOptions{Control: ctl, Ring: ring, Log: mk("l20", 20, all)},
			`megakernel: attach: log buffer "l20": 20 bytes is not a log`},
		{"more slots than the ring", AttachOptions{Control: ctl, Ring: ring, Slots: 65},
			`megakernel: attach: Slots: 65 slots need 4160 bytes; the ring buffer "rng" has 4096`},
		{"no ring", AttachOptions{Control: ctl}, `megakernel: attach: ring buffer: is required`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Attach(ctxT(t), w, tc.o)
			assert.Nil(t, a)
			var ae *AttachError
			require.ErrorAs(t, err, &ae)
			assert.ErrorContains(t, err, tc.want)
		})
	}

	// Summary on a ring without STORAGE: full, and the note says why.
	a, err := Attach(ctxT(t), w, AttachOptions{Control: ctl, Ring: mk("plain", 64*8, webgpu.BufferUsageCopySrc|webgpu.BufferUsageCopyDst), Readback: decode.ReadbackSummary})
	require.NoError(t, err)
	defer a.Detach()
	assert.Equal(t, decode.ReadbackFull, a.Readback())
	assert.Contains(t, a.ReadbackNote(), `summary readback needs STORAGE usage on the ring buffer "plain" (usage 0xc = COPY_SRC|COPY_DST)`)
	stepT(t, a)
	// Auto on a CPU adapter reads the full ring; on a GPU it reduces.
	for _, sw := range []bool{true, false} {
		a, err := Attach(ctxT(t), w, AttachOptions{Control: ctl, Ring: ring, Software: sw})
		require.NoError(t, err)
		assert.Equal(t, map[bool]decode.Readback{true: decode.ReadbackFull, false: decode.ReadbackSummary}[sw], a.Readback(), a.ReadbackNote())
		a.Detach()
	}
}

// A buffer the host destroys mid-attach ends the attachment with the
// reason; the last good frame stays decoded.
func TestAttachEndsWhenTheHostDestroysABuffer(t *testing.T) {
	for _, mode := range []decode.Readback{decode.ReadbackFull, decode.ReadbackSummary} {
		t.Run(mode.String(), func(t *testing.T) {
			r := busyHost(t, testDevice(t))
			h := borrow(t, r)
			a := attachT(t, h, AttachOptions{Readback: mode})
			stepT(t, a)
			done := a.Telemetry().Control.DoneCount
			require.Positive(t, done)
			r.res.bufs[bufRing].Destroy() // the host destroys its ring
			_, err := a.Step(ctxT(t))
			var ended *EndedError
			require.ErrorAs(t, err, &ended)
			// One line naming the buffer, not the device's multi-line message.
			assert.Equal(t, `the host's buffers can no longer be copied: its ring buffer "ringscope ring" was destroyed`, ended.Reason)
			assert.Equal(t, ended, a.Ended())
			_, again := a.Step(ctxT(t))
			assert.Equal(t, err, again, "an ended attachment stays ended")
			assert.Equal(t, done, a.Telemetry().Control.DoneCount, "the last good frame is kept")
			require.NoError(t, h.dev.Err(), "the device is the host's and still alive")
		})
	}
}

func TestAttachEndsWhenTheHostLosesItsDevice(t *testing.T) {
	dev := testDevice(t)
	h := borrow(t, busyHost(t, dev))
	a := attachT(t, h, AttachOptions{Readback: decode.ReadbackFull})
	stepT(t, a)
	dev.Destroy()
	_, err := a.Step(ctxT(t))
	var ended *EndedError
	require.ErrorAs(t, err, &ended)
	assert.Contains(t, ended.Reason, "the host's device was lost (destroyed)")
}

// A Step whose context ends gives up that frame only: the attachment lives.
func TestAttachStepCancelled(t *testing.T) {
	h := borrow(t, busyHost(t, shared(t)))
	a := attachT(t, h, AttachOptions{Readback: decode.ReadbackFull})
	ctx, cancel := context.WithCancel(ctxT(t))
	cancel()
	_, err := a.Step(ctx)
	require.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, a.Ended())
	stepT(t, a)
	assertSameRing(t, h.r.Telemetry(), a.Telemetry())
}
