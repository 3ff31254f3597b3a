package api_test

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wasm/api"
)

func TestParseQueryReadback(t *testing.T) {
	for q, want := range map[string]decode.Readback{"": decode.ReadbackAuto, "readback=summary": decode.ReadbackSummary,
		"readback=FULL": decode.ReadbackFull, "readback=auto&preset=stall": decode.ReadbackAuto} {
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
	for i := 0; i < 100; i++ {
		read, _ := p.Next()
		require.False(t, read, "nothing asked: summary frames only (frame %d)", i)
		p.Stepped(false)
	}
	p.Ask(api.RingInspect)
	p.Ask(api.RingInspect)
	read, why := p.Next()
	assert.True(t, read)
	assert.Equal(t, api.RingInspect, why)
	p.Stepped(false) // the Step did not read it (it failed): still asked
	read, _ = p.Next()
	assert.True(t, read)
	p.Stepped(true)
	read, _ = p.Next()
	assert.False(t, read, "a ring read answers every reason")

	p.Ask(api.RingInspect)
	p.Reset()
	read, _ = p.Next()
	assert.False(t, read, "a new ring forgets")
}

// TestReadbackModesAreTheRunners: the form's and the URL's modes are the
// ones the runner's policy reads (decode.ParseReadback).
func TestReadbackModesAreTheRunners(t *testing.T) {
	for _, m := range decode.PageReadbacks() {
		got, ok := decode.ParseReadback(m.String())
		require.True(t, ok, m)
		assert.Equal(t, m, got)
	}
}
