package megakernel

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDrainStop(t *testing.T) {
	stall := DrainOptions{MaxSubmissions: 64, StallSubmissions: 3, StallGrace: 2}
	plain := DrainOptions{MaxSubmissions: 64}
	for _, tc := range []struct {
		name        string
		o           DrainOptions
		submissions int
		left, claim bool
		stalled     int
		settled     bool
		want        DrainOutcome
		stop        bool
	}{
		{name: "nothing left", o: stall, left: false, want: DrainEmpty, stop: true},
		{name: "nothing left, plain", o: plain, submissions: 3, want: DrainEmpty, stop: true},
		{name: "work to claim", o: stall, submissions: 1, left: true, claim: true},
		{name: "plain: parked work stops at once", o: plain, submissions: 1, left: true, want: DrainNoProgress, stop: true},
		{name: "stall: parked work is submitted again", o: stall, submissions: 1, left: true, stalled: 1, settled: true},
		{name: "stall of N, settled", o: stall, submissions: 4, left: true, stalled: 3, settled: true, want: DrainNoProgress, stop: true},
		{name: "stall of N, not settled", o: stall, submissions: 4, left: true, stalled: 3},
		{name: "stall of N+grace-1, not settled", o: stall, submissions: 5, left: true, stalled: 4},
		{name: "stall of N+grace", o: stall, submissions: 6, left: true, stalled: 5, want: DrainNoProgress, stop: true},
		{name: "a stall at the cap is no progress", o: DrainOptions{MaxSubmissions: 3, StallSubmissions: 3}, submissions: 3, left: true, stalled: 3, settled: true, want: DrainNoProgress, stop: true},
		{name: "the cap", o: stall, submissions: 64, left: true, claim: true, stalled: 2, want: DrainMaxSubmissions, stop: true},
		{name: "plain cap", o: plain, submissions: 64, left: true, claim: true, want: DrainMaxSubmissions, stop: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, stop := drainStop(&tc.o, tc.submissions, tc.left, tc.claim, tc.stalled, tc.settled)
			assert.Equal(t, tc.stop, stop)
			if tc.stop {
				assert.Equal(t, tc.want, got)
			}
		})
	}
}

func TestDrainOutcomeNames(t *testing.T) {
	assert.Equal(t, "empty", DrainEmpty.String())
	assert.Equal(t, "no-progress", DrainNoProgress.String())
	assert.Equal(t, "max-submissions", DrainMaxSubmissions.String())
	assert.Equal(t, "lost", DrainLost.String())
	assert.Equal(t, "drainOutcome(9)", DrainOutcome(9).String())
	b, err := DrainNoProgress.MarshalText()
	assert.NoError(t, err)
	assert.Equal(t, "no-progress", string(b))
}
