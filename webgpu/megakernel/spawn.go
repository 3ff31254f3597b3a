package megakernel

import (
	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/abi/spawn"
)

// A spawning kernel's runner (docs/PROTOCOL-SPAWN.md): the spawn state
// buffer bound after the user's buffers, the generations each submission
// runs, and what the GPU made.

// spawnStateName is the spawn state buffer's name among the bound
// buffers (ReadBuffer reads it by it).
const spawnStateName = "spawn_state"

// bindBuffers is the buffers k binds from abi.BindingFirstUser on: its
// own, then, when it spawns, the spawn state (at k.SpawnBinding()).
func bindBuffers(k *wgsl.Kernel) []wgsl.Buffer {
	if !k.Spawns() {
		return k.Buffers
	}
	return append(append([]wgsl.Buffer(nil), k.Buffers...), wgsl.Buffer{
		Name: spawnStateName, Access: wgsl.ReadWrite, Element: "atomic<u32>",
		Size: spawn.SpawnWords * abi.WordBytes, Init: spawnInit(),
	})
}

// spawnInit is a fresh spawn state: magic, version, FREE unset.
func spawnInit() []byte {
	w := make([]uint32, spawn.SpawnWords)
	w[spawn.SpawnWordMagic], w[spawn.SpawnWordVersion] = spawn.SpawnMagic, spawn.SpawnVersion
	for p := range abi.PriorityLevels {
		w[spawn.SpawnFree+p] = spawn.SpawnFreeUnset
	}
	return abi.Bytes(w)
}

// Bounds of the generations a submission runs.
const (
	// MaxGenerations is the most drain passes one submission runs.
	MaxGenerations = 64
	// firstGenerations is the passes of a ring's first submission: the
	// policy knows nothing of its frontier yet.
	firstGenerations = 8
)

// generationPolicy picks G, the drain passes of a spawning ring's next
// submission, and says why: Options.Generations when set; else 8 at
// first; then the passes the last submission used plus one when it ended
// with empty passes (the frontier died out before G: each empty pass
// still costs a scan and an empty drain), or twice G, up to
// MaxGenerations, when every pass found work and work is left (each
// submission is a host round trip).
type generationPolicy struct {
	next   uint32
	reason string
}

func (g *generationPolicy) reset(fixed uint32) {
	g.next, g.reason = firstGenerations, "first submission: 8 passes"
	if fixed != 0 {
		g.next, g.reason = min(fixed, MaxGenerations), "Options.Generations"
	}
}

// learn updates the choice from the passes the last submission ran
// (hist, the newest last) and whether work is left.
func (g *generationPolicy) learn(fixed uint32, ran uint32, hist []decode.SpawnGeneration, workLeft bool) {
	if fixed != 0 {
		return
	}
	busy := uint32(0) // passes that claimed something, of the last ran
	for i := len(hist) - int(min(ran, uint32(len(hist)))); i < len(hist); i++ {
		if hist[i].Claimed != 0 {
			busy++
		}
	}
	switch {
	case busy < ran:
		g.next, g.reason = max(busy+1, 1), "the last submission's frontier died out after its busy passes: their count + 1"
	case workLeft:
		g.next, g.reason = min(2*ran, MaxGenerations), "every pass of the last submission found work and work is left: twice as many"
	default:
		g.reason = "unchanged"
	}
}

// spawnFrontierBps is the launch policy's frontier density for a spawning
// ring: the widest frontier (items claimed) of the last submission's ran
// generations over the ring's slots, in basis points, at least 1 once a
// generation ran (0 is the policy's "unknown"), at most 10,000.
func spawnFrontierBps(hist []decode.SpawnGeneration, ran uint32, slots uint32) uint16 {
	widest := uint32(0)
	for i := len(hist) - int(min(ran, uint32(len(hist)))); i < len(hist); i++ {
		widest = max(widest, hist[i].Claimed)
	}
	if len(hist) == 0 || slots == 0 {
		return 0
	}
	return max(1, decode.FrontierDensityBps(uint64(widest), uint64(slots)))
}
