package api_test

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/api"
)

func TestParseQueryReadback(t *testing.T) {
	for q, want := range map[string]string{"": ui.ReadbackAuto, "readback=summary": ui.ReadbackSummary,
		"readback=FULL": ui.ReadbackFull, "readback=auto&preset=stall": ui.ReadbackAuto} {
		v, _ := url.ParseQuery(q)
		cfg, err := api.ParseQuery(v)
		require.NoError(t, err, q)
		assert.Equal(t, want, cfg.Settings.Readback, q)
		back, err := api.ParseQuery(api.Query(cfg))
		require.NoError(t, err)
		assert.Equal(t, cfg, back, "a link reproduces the view: %s", q)
	}
	for q, want := range map[string]string{
		"readback=fast":                   `URL parameter readback="fast": want one of auto, summary, full`,
		"readback=summary&sketch=4x8192":  `URL parameter readback="summary": summary readback sketches on the GPU: at most 8 × 4,096`,
		"readback=summary&sketch=16x4096": "at most 8 × 4,096",
	} {
		v, _ := url.ParseQuery(q)
		_, err := api.ParseQuery(v)
		assert.ErrorContains(t, err, want, q)
	}
	v, _ := url.ParseQuery("sketch=16x128")
	_, err := api.ParseQuery(v)
	assert.NoError(t, err, "auto runs full where the summary cannot sketch")
}

func TestOptionParamErrorSummary(t *testing.T) {
	q, _ := url.ParseQuery("sketch=4x8192&readback=summary")
	err := api.OptionParamError(q, "Summary.Width", assert.AnError)
	assert.ErrorContains(t, err, `URL parameter sketch="4x8192"`)
}

func TestRingPolicy(t *testing.T) {
	var p api.RingPolicy
	read, _ := p.Next()
	assert.False(t, read, "nothing asked")
	for i := 0; i < 100; i++ {
		read, _ = p.Next()
		require.False(t, read, "nothing asked: summary frames only (frame %d)", i)
		p.Stepped(false)
	}

	p.Ask(api.RingInspect)
	p.Ask(api.RingBackPressure)
	read, why := p.Next()
	assert.True(t, read)
	assert.Equal(t, api.RingInspect|api.RingBackPressure, why)
	p.Stepped(false) // the Step did not read it (it failed): still asked
	read, _ = p.Next()
	assert.True(t, read)
	p.Stepped(true)
	read, _ = p.Next()
	assert.False(t, read, "a ring read answers every reason")

	// Back-pressure alone waits PressureEvery frames since the last read.
	p.Ask(api.RingBackPressure)
	for i := 1; i < api.DefaultPressureEvery; i++ {
		read, _ = p.Next()
		require.False(t, read, "frame %d", i)
		p.Stepped(false)
	}
	read, why = p.Next()
	assert.True(t, read)
	assert.Equal(t, api.RingBackPressure, why)
	p.Stepped(true)

	p.Ask(api.RingCapture)
	p.Reset()
	read, _ = p.Next()
	assert.False(t, read, "a new ring forgets")
}

func TestStaleBackPressure(t *testing.T) {
	slots := make([]decode.RingSlotSnapshot, 10)
	for i := range slots {
		slots[i].Status = decode.StatusClaimed
	}
	slots[2].Status = decode.StatusDone  // partition 1's slot at TAIL 4 (2 + 4 mod 2 = 2)
	slots[5].Status = decode.StatusEmpty // partition 2's slot at TAIL 1
	r := &decode.RingTelemetry{}
	r.Control.PriorityOffsets = [6]uint32{0, 2, 4, 6, 8, 10}
	r.Control.Tails = [5]uint32{3, 4, 1, 0, 0}
	r.Slots = slots
	assert.False(t, api.StaleBackPressure(r, 1), "a full decode: the host copy is fresh")
	r.StatusMap.SetSlots(slots)
	r.Slots = nil
	assert.False(t, api.StaleBackPressure(r, 0), "the next slot is still busy: real back-pressure")
	assert.True(t, api.StaleBackPressure(r, 1), "DONE on the GPU, busy in the host copy")
	assert.True(t, api.StaleBackPressure(r, 2))
	assert.False(t, api.StaleBackPressure(r, 3))
	assert.False(t, api.StaleBackPressure(r, 9))
	assert.False(t, api.StaleBackPressure(nil, 0))
}
