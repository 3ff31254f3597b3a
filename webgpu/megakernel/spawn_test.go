package megakernel

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ringscope/ringscope/decode"
)

// TestGenerationPolicy: the passes of the next submission follow the
// frontier of the last.
func TestGenerationPolicy(t *testing.T) {
	var g generationPolicy
	g.reset(0)
	assert.EqualValues(t, 8, g.next)
	busy := func(n, of int) []decode.SpawnGeneration {
		h := make([]decode.SpawnGeneration, of)
		for i := range n {
			h[i].Claimed = 5
		}
		return h
	}
	g.learn(0, 8, busy(3, 8), false)
	assert.EqualValues(t, 4, g.next, "the frontier died after 3 passes: 3 + 1")
	assert.Contains(t, g.reason, "died out")
	g.learn(0, 4, busy(4, 4), true)
	assert.EqualValues(t, 8, g.next, "every pass found work and work is left: twice")
	g.next = 40
	g.learn(0, 40, busy(40, 40), true)
	assert.EqualValues(t, MaxGenerations, g.next)
	g.reset(5)
	g.learn(5, 5, busy(1, 5), false)
	assert.EqualValues(t, 5, g.next, "Options.Generations is kept")
	assert.Equal(t, "Options.Generations", g.reason)
}

// TestSpawnFrontierBps: the policy's frontier is the widest generation of
// the last submission, never 0 once one ran.
func TestSpawnFrontierBps(t *testing.T) {
	h := []decode.SpawnGeneration{{Claimed: 900}, {Claimed: 10}, {Claimed: 50}, {Claimed: 0}}
	assert.EqualValues(t, 0, spawnFrontierBps(nil, 0, 1000))
	assert.EqualValues(t, 500, spawnFrontierBps(h, 3, 1000), "the last 3: widest 50 of 1,000 slots")
	assert.EqualValues(t, 9000, spawnFrontierBps(h, 4, 1000))
	assert.EqualValues(t, 1, spawnFrontierBps(h[3:], 1, 1000), "a generation ran: known, not 0")
}
