package domrender

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Coalesce takes every pending render request, so one render answers them,
// and reports an exit request among them as EventWait would.
func TestCoalesceTakesPendingRequests(t *testing.T) {
	r := &JSRenderer{eventWaitCh: make(chan bool, 64)}
	assert.True(t, r.Coalesce(), "nothing pending")
	for range 5 {
		r.eventWaitCh <- true
	}
	assert.True(t, r.Coalesce())
	assert.Empty(t, r.eventWaitCh, "all five taken")

	r.eventWaitCh <- true
	r.eventWaitCh <- false
	r.eventWaitCh <- true
	assert.False(t, r.Coalesce(), "an exit request among them")
}
