package spawn_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/abi/spawn"
)

// TestAgreesWithABI pins what the extension's numbers must keep with
// ABI v1's: fault codes past PROTOCOL §5's and below the user codes, a
// magic no v1 buffer has, per-partition blocks that do not overlap, a
// history after the header.
func TestAgreesWithABI(t *testing.T) {
	for _, c := range []uint32{spawn.FaultSpawnOpcode, spawn.FaultSpawnTenant, spawn.FaultSpawnPriority} {
		assert.Greater(t, c, uint32(abi.FaultUserFault))
		assert.Less(t, c, uint32(abi.FaultUserFirst))
	}
	assert.NotEqual(t, abi.Magic, spawn.SpawnMagic)
	assert.NotEqual(t, abi.SummaryMagic, spawn.SpawnMagic)
	blocks := [][2]int{
		{spawn.SpawnWordMagic, 1}, {spawn.SpawnWordVersion, 1}, {spawn.SpawnGenerations, 1},
		{spawn.SpawnRefusedFull, 1}, {spawn.SpawnRefusedBad, 1}, {spawn.SpawnTotal, 1}, {spawn.SpawnRefusedSeen, 1},
		{spawn.SpawnReserve, abi.PriorityLevels}, {spawn.SpawnFree, abi.PriorityLevels},
		{spawn.SpawnHeadStart, abi.PriorityLevels}, {spawn.SpawnOpcodeCounts, spawn.SpawnMetricOpcodes},
		{spawn.SpawnHistoryFirst, spawn.SpawnHistory * spawn.SpawnEntryWords},
	}
	used := make([]bool, spawn.SpawnWords)
	for _, b := range blocks {
		for w := b[0]; w < b[0]+b[1]; w++ {
			assert.Falsef(t, used[w], "word %d is taken twice", w)
			used[w] = true
		}
	}
	assert.Equal(t, abi.MetricOpcodes, spawn.SpawnMetricOpcodes, "SPAWNED[op] counts the opcodes OPCODE_METRICS does")
	assert.Equal(t, 4, spawn.SpawnEntryWords)
}
