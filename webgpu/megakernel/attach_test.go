package megakernel

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
)

func TestCheckAttachGeometry(t *testing.T) {
	src := webgpu.BufferUsageCopySrc | webgpu.BufferUsageStorage
	ctl := hostBuffer{field: "control", label: "c", size: 640 + 4*8, usage: src}
	ring := hostBuffer{field: "ring", label: "r", size: 64 * 100, usage: src}
	log := hostBuffer{field: "log", label: "l", size: 16 + 16*32, usage: src}
	g, err := checkAttach(ctl, ring, &log, nil, 0, 0, 0)
	require.NoError(t, err)
	assert.Equal(t, attachGeometry{slots: 100, observable: 8, logCapacity: 32, hasLog: true}, g)
	g, err = checkAttach(ctl, hostBuffer{field: "ring", size: 64*100 + 8, usage: src}, nil, nil, 0, 40, 0)
	require.NoError(t, err, "slots watches a prefix of a ring that is not whole slots")
	assert.EqualValues(t, 40, g.slots)
	_, err = checkAttach(ctl, ring, nil, nil, 0, 0, MaxWindowOpcodes+1)
	assert.ErrorContains(t, err, "megakernel: attach: WindowOpcodes: 65 opcodes: at most 64")
	_, err = checkAttach(ctl, hostBuffer{field: "ring", size: 0, usage: src}, nil, nil, 0, 0, 0)
	assert.ErrorContains(t, err, `ring buffer: 0 bytes holds no 64-byte slot`)
	_, err = checkAttach(ctl, ring, nil, nil, 8, 0, 0)
	assert.EqualError(t, err, "megakernel: attach: TraceCapacity: given without a trace buffer")
	g, err = checkAttach(ctl, ring, nil, &hostBuffer{field: "trace", size: 16 + 32*5 + 8, usage: src}, 0, 0, 0)
	require.NoError(t, err)
	assert.EqualValues(t, 5, g.traceCapacity, "all the buffer holds")
}

func TestResolveAttachReadback(t *testing.T) {
	storage := hostBuffer{field: "ring", label: "r", usage: webgpu.BufferUsageStorage | webgpu.BufferUsageCopySrc}
	plain := hostBuffer{field: "ring", label: "p", usage: webgpu.BufferUsageCopySrc}
	lim := webgpu.Limits{MaxStorageBufferBindingSize: 1 << 20}
	for _, tc := range []struct {
		name     string
		want     decode.Readback
		software bool
		ring     hostBuffer
		bytes    uint64
		got      decode.Readback
		note     string
	}{
		{"auto on a CPU", decode.ReadbackAuto, true, storage, 64, decode.ReadbackFull, "auto: a CPU or fallback adapter"},
		{"auto on a GPU", decode.ReadbackAuto, false, storage, 64, decode.ReadbackSummary, "auto: a GPU adapter"},
		{"auto on a GPU, sketch too large", decode.ReadbackAuto, false, storage, 64, decode.ReadbackFull, "exceeds the GPU summary's 8 × 4096"},
		{"auto on a GPU, no STORAGE", decode.ReadbackAuto, false, plain, 64, decode.ReadbackFull, `needs STORAGE usage on the ring buffer "p" (usage 0x4 = COPY_SRC)`},
		{"summary, ring too large to bind", decode.ReadbackSummary, false, storage, 2 << 20, decode.ReadbackFull, "more than the device's maxStorageBufferBindingSize 1048576"},
		{"full asked for", decode.ReadbackFull, false, storage, 64, decode.ReadbackFull, "readback=full"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shape := SummaryShape{Depth: 4, Width: 1024}
			if strings.Contains(tc.name, "sketch too large") {
				shape.Depth = 16
			}
			got, note := resolveAttachReadback(tc.want, tc.software, shape, tc.ring, tc.bytes, lim)
			assert.Equal(t, tc.got, got)
			assert.Contains(t, note, tc.note)
		})
	}
}

func TestUsageNames(t *testing.T) {
	assert.Equal(t, "none", usageNames(0))
	assert.Equal(t, "MAP_READ|COPY_DST", usageNames(webgpu.BufferUsageMapRead|webgpu.BufferUsageCopyDst))
}

func TestChooseReadback(t *testing.T) {
	for _, c := range []struct {
		mode     string
		software bool
		depth    int
		want     decode.Readback
		why      string
	}{
		{"auto", true, 4, decode.ReadbackFull, "a CPU or fallback adapter"},
		{"", false, 4, decode.ReadbackSummary, "a GPU adapter"},
		{"auto", false, 16, decode.ReadbackFull, "exceeds the GPU summary"},
		{"summary", true, 4, decode.ReadbackSummary, "readback=summary"},
		{"full", false, 4, decode.ReadbackFull, "readback=full"},
	} {
		want, ok := decode.ParseReadback(c.mode)
		require.True(t, ok, c.mode)
		got, why := ChooseReadback(want, c.software, c.depth, 1024)
		assert.Equal(t, c.want, got, "%+v", c)
		assert.Contains(t, why, c.why, "%+v", c)
	}
	_, ok := decode.ParseReadback("Summary")
	assert.False(t, ok, "modes are lower case, as the page spells them")
	assert.True(t, SummaryFits(8, 4096))
	assert.False(t, SummaryFits(8, 4097))
	assert.False(t, SummaryFits(9, 4096))
}

func TestAttachTimingsBusy(t *testing.T) {
	ms := time.Millisecond
	tm := AttachTimings{Submit: 1 * ms, Readback: 10 * ms, Wait: 7 * ms, Decode: 4 * ms}
	assert.Equal(t, 8*ms, tm.Busy(), "the waits are the host's time, not ringscope's")
	assert.Zero(t, AttachTimings{}.Busy())
}
