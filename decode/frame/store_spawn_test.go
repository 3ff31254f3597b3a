package frame

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
)

// TestAssembleCopiesSpawn: a frame keeps its own copy of the spawn state
// (the producer reuses its), and a frame without one has none.
func TestAssembleCopiesSpawn(t *testing.T) {
	var s Store
	var ring decode.RingTelemetry
	sp := decode.SpawnTelemetry{Generations: 2, Spawned: 3, History: []decode.SpawnGeneration{{Pass: 0, Claimed: 1, Spawned: 3}, {Pass: 1, Claimed: 3}}}
	f := s.Assemble(&Parts{Ring: &ring, Spawn: &sp})
	require.NotNil(t, f.Spawn)
	sp.History[0].Claimed, sp.Spawned = 99, 99
	assert.EqualValues(t, 1, f.Spawn.History[0].Claimed)
	assert.EqualValues(t, 3, f.Spawn.Spawned)
	assert.Nil(t, s.Assemble(&Parts{Ring: &ring}).Spawn)
}
