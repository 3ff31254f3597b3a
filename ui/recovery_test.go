package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
)

func TestDashboardStaleUntilNextFrame(t *testing.T) {
	d := &Dashboard{}
	assert.Contains(t, d.StaleText(), "no snapshot yet")
	d.Apply(&frame.Frame{Seq: 41, Ring: &decode.RingTelemetry{Control: decode.ControlSnapshot{DoneCount: 1234}}})
	d.Stale, d.StaleReason = true, "device lost (destroyed); recovering"
	assert.Equal(t, "STALE: device lost (destroyed); recovering; showing the last good snapshot (frame 41, DONE_COUNT 1,234) until a new frame arrives.", d.StaleText())
	assert.Equal(t, uint64(41), d.Frame().Seq, "the last good frame stays shown")

	d.Apply(&frame.Frame{Seq: 42})
	assert.False(t, d.Stale, "a new frame is not stale")
	assert.Empty(t, d.StaleReason)
}

func TestDashboardRecoveries(t *testing.T) {
	d := &Dashboard{}
	assert.Equal(t, "0", d.RecoveriesText())
	assert.Empty(t, d.RecoveriesClass())
	d.Recoveries = 2
	assert.Equal(t, "2", d.RecoveriesText())
	assert.Equal(t, "num-warn", d.RecoveriesClass())
}
