package api_test

import (
	"errors"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/settings"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/webgpu"
)

func TestParseQueryDefaults(t *testing.T) {
	cfg, err := api.ParseQuery(url.Values{})
	require.NoError(t, err)
	assert.Equal(t, settings.DefaultSettings(), cfg.Settings)
	assert.True(t, cfg.Autostart)
}

func TestParseQueryPresetThenOverrides(t *testing.T) {
	q, _ := url.ParseQuery("preset=stall&slots=8192&wg=256&sketch=3x64&autostart=0&windows=0x100,7&seed=9")
	cfg, err := api.ParseQuery(q)
	require.NoError(t, err)
	assert.Equal(t, "stall", cfg.Settings.Preset)
	assert.Equal(t, 8192, cfg.Settings.RingSlots)
	assert.Equal(t, 256, cfg.Settings.WorkgroupSizeX)
	assert.Equal(t, []int{3, 64}, []int{cfg.Settings.SketchDepth, cfg.Settings.SketchWidth})
	assert.Equal(t, []uint32{7, 0x100}, cfg.Settings.WindowOpcodeList())
	assert.False(t, cfg.Autostart)
	assert.Equal(t, uint64(9), cfg.Seed)

	back, err := api.ParseQuery(api.Query(cfg))
	require.NoError(t, err)
	assert.Equal(t, cfg, back, "a link reproduces the view")
}

// A backlog preset's link with a smaller ring and no budget runs the
// preset's budget fitted to the ring; a ring too small for any budget is
// refused, naming the smallest that works.
func TestParseQueryFitsABacklogPresetsBudgetToTheRing(t *testing.T) {
	q, _ := url.ParseQuery("preset=skewed-tenants&slots=2048")
	cfg, err := api.ParseQuery(q)
	require.NoError(t, err)
	assert.Equal(t, 2, cfg.Settings.Budget)
	back, err := api.ParseQuery(api.Query(cfg))
	require.NoError(t, err)
	assert.Equal(t, cfg, back, "a link reproduces the view")

	q, _ = url.ParseQuery("preset=skewed-tenants")
	cfg, err = api.ParseQuery(q)
	require.NoError(t, err)
	assert.Equal(t, 16, cfg.Settings.Budget, "the preset's own ring keeps its own budget")

	q, _ = url.ParseQuery("preset=skewed-tenants&slots=2048&budget=16")
	cfg, err = api.ParseQuery(q)
	require.NoError(t, err)
	assert.Equal(t, 16, cfg.Settings.Budget, "a budget the link gives is kept")

	q, _ = url.ParseQuery("preset=priority-inversion&slots=1024")
	_, err = api.ParseQuery(q)
	assert.ErrorContains(t, err, `URL parameter slots="1024": priority-inversion needs at least 1,032 slots`)
}

func TestParseQueryErrors(t *testing.T) {
	for q, want := range map[string]string{
		"preset=bogus": `preset="bogus": unknown preset`,
		"slots=many":   `slots="many": not an integer`,
		"slots=0":      `URL parameter slots="0": ring slots must be`,
		"budget=0":     `URL parameter budget="0": budget must be`,
		"wg=100":       `URL parameter wg="100": workgroup width must be 64, 128 or 256`,
		"tenants=40":   `URL parameter tenants="40": tenants must be`,
		"workers=-1":   `URL parameter workers="-1": worker cap`,
		"sketch=0x4":   `URL parameter sketch="0x4": sketch depth`,
		"sketch=4":     "want DEPTHxWIDTH",
		"autostart=2":  "want 0 or 1",
		"windows=0xZZ": `URL parameter windows="0xZZ": window opcode`,
		"seed=-1":      "not an unsigned integer",
		// An integer too large is out of range, not "not an integer".
		"slots=99999999999999999999":     `slots="99999999999999999999": out of range`,
		"seed=18446744073709551616":      `seed="18446744073709551616": out of range`,
		"push=/pushgateway&job=..":       `URL parameter job="..": want 1…128 of`,
		"push=/pushgateway&instance=a/b": `URL parameter instance="a/b": want 1…128 of`,
	} {
		v, _ := url.ParseQuery(q)
		_, err := api.ParseQuery(v)
		assert.ErrorContains(t, err, want, q)
	}
}

func TestAdapter(t *testing.T) {
	a := api.Adapter(webgpu.AdapterInfo{Vendor: "google", Architecture: "swiftshader"}, true, true,
		webgpu.Limits{MaxStorageBufferBindingSize: 1 << 27, MaxComputeWorkgroupsPerDimension: 65535}, []string{"timestamp-query"})
	assert.True(t, a.Software())
	assert.Contains(t, a.Limits, settings.Limit{Name: "maxStorageBufferBindingSize", Value: 1 << 27})
	assert.Contains(t, a.Limits, settings.Limit{Name: "maxComputeWorkgroupsPerDimension", Value: 65535})
	assert.Equal(t, []string{"timestamp-query"}, a.Features)
}

func TestOptionParamError(t *testing.T) {
	q, _ := url.ParseQuery("windows=1,2,3&slots=64")
	cause := errors.New("megakernel: option WindowOpcodes = 65: at most 64 window opcodes")
	err := api.OptionParamError(q, "WindowOpcodes", cause)
	assert.EqualError(t, err, `URL parameter windows="1,2,3": megakernel: option WindowOpcodes = 65: at most 64 window opcodes`)
	assert.ErrorIs(t, err, cause)
	assert.EqualError(t, api.OptionParamError(q, "Budget", cause), "URL parameters: "+cause.Error(), "budget came from a preset")
	assert.Contains(t, api.OptionParamError(q, "Slots", cause).Error(), `URL parameter slots="64"`)
}

// TestParseQueryLogCapacity: the log panel asks to raise the log
// capacity, and a link can.
func TestParseQueryLogCapacity(t *testing.T) {
	cfg, err := api.ParseQuery(url.Values{"log": {"65536"}})
	require.NoError(t, err)
	assert.Equal(t, 65536, cfg.Settings.LogCapacity)
	back, err := api.ParseQuery(api.Query(cfg))
	require.NoError(t, err)
	assert.Equal(t, cfg, back, "a link reproduces the log capacity")

	for _, v := range []string{"-1", "2000000"} {
		_, err = api.ParseQuery(url.Values{"log": {v}})
		require.Error(t, err, v)
		assert.Equal(t, `URL parameter log="`+v+`": log capacity must be 0…1,048,576 records`, err.Error())
	}
	_, err = api.ParseQuery(url.Values{"log": {"many"}})
	assert.EqualError(t, err, `URL parameter log="many": not an integer`)
}
