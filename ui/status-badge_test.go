package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBusyStatus(t *testing.T) {
	s := BusyStatus(1234, 10000, []string{"spin_forever", "count"})
	assert.Equal(t, "busy: waiting on the GPU for 1.2 s (spin_forever, count in flight; a runaway at 10 s)", s)
	assert.Equal(t, "busy: waiting on the GPU for 0.8 s (a runaway at 2.5 s)", BusyStatus(750, 2500, nil))
	b := StatusBadge{Status: s}
	assert.True(t, IsBusy(s))
	assert.True(t, IsBusy(BusyLostStatus))
	assert.False(t, IsBusy(StatusReady))
	assert.Equal(t, "warn", b.State())
	assert.Equal(t, "badge badge-warn", b.Class())
	assert.Contains(t, b.Title(), "runaway")
}
