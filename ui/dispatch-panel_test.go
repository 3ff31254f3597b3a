package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDecadeLabel(t *testing.T) {
	var got []string
	for v := 0.01; v < 10000*1.001; v *= 10 {
		got = append(got, decadeLabel(v))
	}
	assert.Equal(t, []string{"10µs", "100µs", "1ms", "10ms", "100ms", "1s", "10s"}, got)
}
