package api_test

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wasm/api"
)

// parsed is what JSON.parse makes of an Encode result, read the way
// js.ValueOf reads Plain's: objects as maps, arrays as slices, numbers as
// float64.
func parsed(t *testing.T, v any) any {
	t.Helper()
	raw, ok := api.Encode(v).(api.RawJSON)
	require.True(t, ok, "Encode gave no JSON")
	var out any
	require.NoError(t, json.Unmarshal(raw, &out), "%s", raw)
	return out
}

// Encode's JSON parses to exactly Plain's value, for the API's result types
// and for every kind plain handles.
func TestEncodeParsesToPlain(t *testing.T) {
	type inner struct {
		B    []byte
		Nil  []uint32
		Ptr  *decode.RingOccupancy
		Mode decode.ExecutionMode
	}
	type every struct {
		Err      error
		NoErr    error
		Text     string
		Neg      int64
		Big      uint64
		Frac     float64
		NegZero  float64
		F32      float32
		Flag     bool
		Tags     map[string]uint32
		ByNumber map[uint32]string
		Inner    inner
		Any      any
		hidden   int
	}
	v := every{
		Err: errors.New(`lost: "device" \ again`), Text: "tab\tnew\nline \x01 é ✓ \u2028",
		Neg: -5, Big: math.MaxUint64, Frac: 1.0 / 3, NegZero: math.Copysign(0, -1), F32: 0.1, Flag: true,
		Tags: map[string]uint32{"a": 1, "b": 2}, ByNumber: map[uint32]string{7: "seven"},
		Inner: inner{B: []byte{1, 255}, Ptr: &decode.RingOccupancy{decode.StatusDone: 3}, Mode: decode.ModeJIT},
		Any:   []any{1.5e-7, 1e21, "x", nil}, hidden: 9,
	}
	assert.Equal(t, api.Plain(v), parsed(t, v))

	rng := rand.New(rand.NewPCG(5, 6))
	tel := decode.RingTelemetry{
		Control: decode.ControlSnapshot{DoneCount: 77, Metrics: []decode.Metric{{Opcode: 1, Count: 3}, {Opcode: 16, Count: 2, Name: "tally"}}},
		Windows: []decode.WindowTelemetry{{Ticket: 9, Required: 2, Done: 1}},
	}
	for i := range 2048 {
		tel.Slots = append(tel.Slots, decode.RingSlotSnapshot{Index: uint32(i), Status: decode.Status(rng.IntN(12)),
			Opcode: rng.Uint32(), Tenant: uint32(rng.IntN(32)), Args: [3]uint32{rng.Uint32(), 0, math.MaxUint32}})
	}
	assert.Equal(t, api.Plain(&tel), parsed(t, &tel))
	// A json:",omitempty" string is left out when empty (a built-in
	// opcode's metric has no name).
	assert.Equal(t, []any{map[string]any{"opcode": 1.0, "count": 3.0}, map[string]any{"opcode": 16.0, "count": 2.0, "name": "tally"}},
		api.Plain(tel.Control.Metrics))
	assert.Equal(t, api.Plain(decode.MegakernelTelemetry{ExecutionMode: decode.ModeJIT}),
		parsed(t, decode.MegakernelTelemetry{ExecutionMode: decode.ModeJIT}))
}

// Where JSON cannot carry a value (NaN, ±Inf), Encode gives Plain's form,
// which hands them to JS as numbers.
func TestEncodeFallsBackForNaN(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		v := struct{ P50 float64 }{f}
		m, ok := api.Encode(v).(map[string]any)
		require.True(t, ok, "%v: want Plain's map", f)
		got := m["p50"].(float64)
		assert.True(t, got == f || math.IsNaN(f) && math.IsNaN(got), "%v", got)
	}
	assert.Nil(t, api.Encode(nil))
}
