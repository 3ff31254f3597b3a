package decode

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
)

func TestDecoderFullAndSummaryAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	ops := []uint32{0x4000, 9}
	full, summary := NewDecoder(ops), NewDecoder(ops)
	for i := 0; i < 20; i++ {
		slots := 1 + rng.IntN(300)
		ctl := newControl(2, uint32(slots))
		ring := randomRing(rng, slots, ops)
		want := telemetryOf(ctl, ring, ops...)
		sum, smap := encodeSummary(t, &want, 3, 64, 64, ops)

		got, log, err := full.Decode(Buffers{Control: ctl.bytes(), Ring: ring})
		require.NoError(t, err)
		assert.Nil(t, log, "no log buffer, no log")
		assert.Equal(t, want.Control, got.Control)
		assert.Equal(t, want.Slots, got.Slots)
		assert.Equal(t, want.Windows, got.Windows)
		assert.Same(t, got, full.Telemetry())

		s, _, err := summary.Decode(Buffers{Control: ctl.bytes(), Summary: sum, StatusMap: smap})
		require.NoError(t, err)
		assert.Equal(t, want.Occupancy, s.Occupancy, "frame %d", i)
		assert.Equal(t, want.Windows, s.Windows)
		assert.Empty(t, s.Slots, "a summary carries no slot words")

		ctl[abi.CtrlDoneCount] = 7 // a control-only readback keeps the slots
		c, _, err := full.Decode(Buffers{Control: ctl.bytes()})
		require.NoError(t, err)
		assert.Equal(t, uint32(7), c.Control.DoneCount)
		assert.Equal(t, want.Slots, c.Slots, "control alone leaves the slots as the last Decode left them")
	}
}

func TestDecoderReusesItsStorageAndKeepsItOnError(t *testing.T) {
	ops := []uint32{9}
	d := NewDecoder(ops)
	ops[0] = 1 // the decoder copied its window opcodes
	assert.Equal(t, []uint32{9}, d.WindowOpcodes())
	ctl := newControl(2, 64)
	ring := randomRing(rand.New(rand.NewPCG(1, 1)), 64, []uint32{9})
	log := wordBytes(0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	b := Buffers{Control: ctl.bytes(), Ring: ring, Log: log}
	tel, l, err := d.Decode(b)
	require.NoError(t, err)
	require.NotNil(t, l)
	assert.Equal(t, uint32(4), l.Capacity)
	done := tel.Control.DoneCount
	allocs := testing.AllocsPerRun(20, func() {
		if _, _, err := d.Decode(b); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs, "decoding the same shape again allocates nothing")

	_, _, err = d.Decode(Buffers{Control: ctl.bytes(), Ring: ring[:100]})
	var de *DecodeError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, BufferRing, de.Buffer)
	assert.Equal(t, done, d.Telemetry().Control.DoneCount, "a refused readback leaves the last telemetry")
	assert.Len(t, d.Telemetry().Slots, 64)
}

func TestDecoderResetAndWindowOpcodes(t *testing.T) {
	d := NewDecoder(nil)
	ctl := newControl(2, 8)
	ring := randomRing(rand.New(rand.NewPCG(2, 2)), 8, []uint32{9})
	_, _, err := d.Decode(Buffers{Control: ctl.bytes(), Ring: ring})
	require.NoError(t, err)
	assert.Empty(t, d.Telemetry().Windows)
	d.SetWindowOpcodes([]uint32{9})
	tel, _, err := d.Decode(Buffers{Control: ctl.bytes(), Ring: ring})
	require.NoError(t, err)
	assert.Equal(t, telemetryOf(ctl, ring, 9).Windows, tel.Windows)
	d.Reset()
	assert.Empty(t, d.Telemetry().Slots)
	var other RingTelemetry
	var scratch DecodeScratch
	require.NoError(t, d.DecodeRing(&other, &scratch, ctl.bytes(), ring))
	assert.Len(t, other.Slots, 8)
	assert.Empty(t, d.Telemetry().Slots, "DecodeRing writes dst, not the decoder's telemetry")
}
