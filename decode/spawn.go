package decode

import (
	"fmt"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/abi/spawn"
)

// SpawnTelemetry is the spawn state buffer of a spawning kernel
// (docs/PROTOCOL-SPAWN.md §2) decoded: what the GPU made, refused and
// drained, pass by pass.
type SpawnTelemetry struct {
	// Generations is the drain passes run with the extension, all
	// submissions of this ring.
	Generations uint32
	// Spawned is every item spawned and published; RefusedFull the spawns
	// a full partition refused, RefusedBad those refused for a bad opcode,
	// tenant or priority (each also a SPAWN_* log record).
	Spawned, RefusedFull, RefusedBad uint32
	// ByOpcode is spawned items per opcode, opcodes below 32.
	ByOpcode [spawn.SpawnMetricOpcodes]uint32
	// History is the newest passes, oldest first (at most
	// spawn.SpawnHistory).
	History []SpawnGeneration
}

// SpawnGeneration is one drain pass: the frontier it drained (items
// claimed), the items it spawned (the next frontier's GPU-made part) and
// the spawns it refused.
type SpawnGeneration struct {
	Pass                      uint32 // 0-based, of the ring's passes
	Claimed, Spawned, Refused uint32
}

// DecodeSpawn decodes a spawn state buffer. It refuses a buffer of the
// wrong length, magic or version, never panics, and reuses dst's history.
func DecodeSpawn(b []byte, dst *SpawnTelemetry) error {
	if len(b) != spawn.SpawnWords*abi.WordBytes {
		return fmt.Errorf("decode: spawn state is %d bytes, want %d", len(b), spawn.SpawnWords*abi.WordBytes)
	}
	w := func(i int) uint32 { return abi.Word(b, i) }
	if w(spawn.SpawnWordMagic) != spawn.SpawnMagic || w(spawn.SpawnWordVersion) != spawn.SpawnVersion {
		return fmt.Errorf("decode: spawn state: magic %#x version %d, want %#x version %d",
			w(spawn.SpawnWordMagic), w(spawn.SpawnWordVersion), spawn.SpawnMagic, spawn.SpawnVersion)
	}
	h := dst.History[:0]
	*dst = SpawnTelemetry{
		Generations: w(spawn.SpawnGenerations),
		Spawned:     w(spawn.SpawnTotal),
		RefusedFull: w(spawn.SpawnRefusedFull),
		RefusedBad:  w(spawn.SpawnRefusedBad),
	}
	for op := range dst.ByOpcode {
		dst.ByOpcode[op] = w(spawn.SpawnOpcodeCounts + op)
	}
	n := min(dst.Generations, spawn.SpawnHistory)
	for g := dst.Generations - n; g != dst.Generations; g++ {
		e := spawn.SpawnHistoryFirst + int(g%spawn.SpawnHistory)*spawn.SpawnEntryWords
		if w(e+spawn.SpawnEntryPass) != g+1 {
			continue // not written (a buffer the host reset)
		}
		h = append(h, SpawnGeneration{Pass: g, Claimed: w(e + spawn.SpawnEntryClaimed),
			Spawned: w(e + spawn.SpawnEntrySpawned), Refused: w(e + spawn.SpawnEntryRefused)})
	}
	dst.History = h
	return nil
}

// Frontier is the items the newest pass left for the next (its spawned
// items), or 0 with no history.
func (s *SpawnTelemetry) Frontier() uint32 {
	if len(s.History) == 0 {
		return 0
	}
	return s.History[len(s.History)-1].Spawned
}
