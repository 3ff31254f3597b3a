package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
)

func TestGenerationsPanel(t *testing.T) {
	p := GenerationsPanel{Names: Names{0x10: "bfs"}}
	assert.False(t, p.On(), "no frame")
	p.Frame = &frame.Frame{}
	assert.False(t, p.On(), "a ring that does not spawn")
	sp := &decode.SpawnTelemetry{Generations: 3, Spawned: 9, RefusedFull: 2, History: []decode.SpawnGeneration{
		{Pass: 0, Claimed: 1, Spawned: 3}, {Pass: 1, Claimed: 3, Spawned: 6, Refused: 2}, {Pass: 2, Claimed: 6}}}
	sp.ByOpcode[0x10] = 9
	p.Frame = &frame.Frame{Spawn: sp, Report: &decode.MegakernelReport{PublishedItems: 1}}
	require.True(t, p.On())
	assert.Equal(t, "3 generations · 9 spawned / 1 published · 2 refused", p.Sub())
	assert.Equal(t, "spawned per opcode: bfs 9", p.ByOpcode())
	rows := p.Rows()
	require.Len(t, rows, 3)
	assert.Equal(t, "2", rows[0].Pass, "newest first")
	assert.Equal(t, "6", rows[0].Claimed)
	assert.Len(t, []rune(rows[0].Bar), barCells, "the widest frontier fills the bar")
	assert.Len(t, []rune(rows[2].Bar), barCells/6)
	assert.Equal(t, "row-fault", rows[1].Class, "a generation that refused spawns")
}
