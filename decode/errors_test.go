package decode

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// TestErrorCatalogue pins the phrases of reference §5.9 that tools match on,
// for the failures this package can report, and that every message names
// the package and never suggests a CPU fallback.
func TestErrorCatalogue(t *testing.T) {
	backwards := snapshot(3, 1)
	_, healthErr := backwards.TryHealthSince(snapshot(4, 1))
	_, controlErr := tryDecode(make([]byte, 639), nil)
	_, shortErr := tryDecode(make([]byte, 4), nil)
	_, ringErr := tryDecode(newControl(0, 1).bytes(), make([]byte, abi.SlotBytes+1))
	_, sketchErr := NewCountMinSketch(0, 0)
	for _, tc := range []struct {
		name   string
		err    error
		phrase string
	}{
		{"misaligned control", controlErr, "control snapshot"},
		{"short control", shortErr, "control snapshot"},
		{"partial ring", ringErr, "whole ring slots"},
		{"done counter backwards", healthErr, "moved backwards"},
		{"sketch shape", sketchErr, "must be non-zero"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Error(t, tc.err)
			msg := tc.err.Error()
			assert.Contains(t, msg, tc.phrase)
			assert.True(t, strings.HasPrefix(msg, "decode: "), msg)
			assert.NotContains(t, strings.ToLower(msg), "cpu")
		})
	}
}
