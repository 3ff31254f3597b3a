//go:build js && wasm

package jsapi

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadOpenTraceCapacity: open's trace.capacity has one range, the
// runner's 1…4194304, whatever is wrong with the number, and the refusal
// prints it as given (no exponent).
func TestReadOpenTraceCapacity(t *testing.T) {
	for src, want := range map[string]uint32{
		"({trace: {capacity: 1}})":       1,
		"({trace: {capacity: 4194304}})": 4194304,
		"({trace: {capacity: 1e3}})":     1000,
		"({trace: {}})":                  DefaultTraceCapacity,
		"({trace: {capacity: null}})":    DefaultTraceCapacity,
	} {
		o, err := readOpen(val(src), openDefaults)
		require.NoError(t, err, src)
		assert.Equal(t, want, o.TraceCapacity, src)
	}
	const msg = "open: trace.capacity must be an integer 1…4194304, got "
	for src, got := range map[string]string{
		"({trace: {capacity: 0}})":           "0",
		"({trace: {capacity: -0}})":          "0",
		"({trace: {capacity: -1}})":          "-1",
		"({trace: {capacity: 1.5}})":         "1.5",
		"({trace: {capacity: NaN}})":         "NaN",
		"({trace: {capacity: Infinity}})":    "Infinity",
		"({trace: {capacity: 2 ** 40}})":     "1099511627776",
		"({trace: {capacity: 4194305}})":     "4194305",
		"({trace: {capacity: 2 ** 32 + 5}})": "4294967301",
	} {
		_, err := readOpen(val(src), openDefaults)
		assert.EqualError(t, err, msg+got, src)
	}
	_, err := readOpen(val("({trace: {capacity: '100'}})"), openDefaults)
	assert.EqualError(t, err, "open: trace: capacity must be a number, got string")
}
