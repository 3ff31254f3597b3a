package capture

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
)

// spawnAt is a spawning ring's telemetry after seq submissions of one
// pass each: pass g drained 2^g items and spawned twice as many.
func spawnAt(seq int) *decode.SpawnTelemetry {
	sp := &decode.SpawnTelemetry{Generations: uint32(seq), RefusedFull: uint32(seq / 2), RefusedBad: 1}
	for g := range seq {
		sp.History = append(sp.History, decode.SpawnGeneration{Pass: uint32(g), Claimed: 1 << g, Spawned: 2 << g, Refused: uint32(g % 2)})
		sp.Spawned += 2 << g
	}
	sp.ByOpcode[16] = sp.Spawned
	return sp
}

// TestCaptureKeepsSpawnTelemetry: live frames of a spawning ring are
// recorded with their spawn telemetry (each its own copy, though the live
// frames share storage), written to a file, read back and replayed: every
// frame shows its generations, spawned per opcode, frontier per pass and
// refusals. A compact frame keeps the counters without the passes; a
// frame of a ring that does not spawn writes no "spawn" key.
func TestCaptureKeepsSpawnTelemetry(t *testing.T) {
	s := NewStudio("test", 2, 16)
	frames := liveFrames(t, 5)
	shared := new(decode.SpawnTelemetry) // the session's storage, reused
	for i, f := range frames {
		*shared = *spawnAt(i + 1)
		f.Spawn = shared
		s.Observe(f)
	}
	file, _, err := s.Export(ExportCapture, time.Unix(0, 0))
	require.NoError(t, err)
	c, err := Decode(file)
	require.NoError(t, err)
	require.Len(t, c.Frames, 5)
	r, err := NewReplay(c)
	require.NoError(t, err)
	var d Decoded
	var store frame.Store
	for i := range c.Frames {
		f, err := r.Frame(i, &d, &store, 2, 16)
		require.NoError(t, err)
		require.NotNilf(t, f.Spawn, "frame %d", i)
		assert.Equalf(t, *spawnAt(i + 1), *f.Spawn, "frame %d", i)
	}

	// A version this reader does not know is skipped; a malformed one fails.
	var m Meta
	require.NoError(t, decodeMeta([]byte(`{"spawn":{"version":2,"spawned":3}}`), &m))
	assert.Nil(t, m.Spawn)
	err = decodeMeta([]byte(`{"spawn":{"version":1,"byOpcode":[1,2]}}`), &m)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "byOpcode")
	b, err := encodeMeta(&Meta{Published: 3})
	require.NoError(t, err)
	assert.False(t, strings.Contains(string(b), "spawn"), "no key without spawn")

	// Evicted into the history, a frame keeps the counters alone.
	rec := NewRecorder(2, 1<<20)
	rec.KeepHistory(16, 1<<20)
	for i, f := range c.Frames {
		f.Meta.Spawn = spawnAt(i + 1)
		require.True(t, rec.Record(&f))
	}
	require.Equal(t, 3, rec.Compact())
	old := rec.At(0).Meta.Spawn
	require.NotNil(t, old)
	assert.EqualValues(t, 1, old.Generations)
	assert.Nil(t, old.History)
	assert.Equal(t, *spawnAt(5), *rec.At(4).Meta.Spawn)
}
