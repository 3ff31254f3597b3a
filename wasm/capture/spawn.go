package capture

import (
	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/internal/jsontext"
	"github.com/ringscope/ringscope/wgsl/abi/spawn"
)

// A spawning kernel's frames carry its spawn telemetry in their meta
// (Meta.Spawn, docs/CAPTURE.md §1.3): generations, items spawned per
// opcode, the frontier each pass drained, what it spawned and refused.
// The key is absent for a ring that does not spawn, so other captures are
// byte for byte as before and a reader that does not know the key skips
// it.

// SpawnMetaVersion is the version of a frame meta's "spawn" object (its
// "version" key). A reader skips a spawn object of another version, and
// the frame reads as one without spawn telemetry.
const SpawnMetaVersion = 1

func writeSpawn(w *jsontext.Writer, sp *decode.SpawnTelemetry) {
	w.BeginObject()
	for _, f := range [...]struct {
		k string
		v uint32
	}{{"version", SpawnMetaVersion}, {"generations", sp.Generations}, {"spawned", sp.Spawned},
		{"refusedFull", sp.RefusedFull}, {"refusedBad", sp.RefusedBad}} {
		w.Key(f.k)
		w.Uint(uint64(f.v))
	}
	w.Key("byOpcode")
	w.Uint32s(sp.ByOpcode[:])
	// Each pass as [pass, claimed (its frontier), spawned, refused].
	w.Key("history")
	w.BeginArray()
	for _, g := range sp.History {
		w.Uint32s([]uint32{g.Pass, g.Claimed, g.Spawned, g.Refused})
	}
	w.EndArray()
	w.EndObject()
}

// decodeSpawn reads a meta's "spawn" object: nil for null or another
// version; a malformed one fails d naming the field.
func decodeSpawn(d *jsontext.Decoder) *decode.SpawnTelemetry {
	if d.IsNull() {
		return nil
	}
	sp, version := new(decode.SpawnTelemetry), uint32(0)
	d.Object(func(key string) {
		switch key {
		case "version":
			d.Uint32(&version)
		case "generations":
			d.Uint32(&sp.Generations)
		case "spawned":
			d.Uint32(&sp.Spawned)
		case "refusedFull":
			d.Uint32(&sp.RefusedFull)
		case "refusedBad":
			d.Uint32(&sp.RefusedBad)
		case "byOpcode":
			if vs := uint32s(d); len(vs) == len(sp.ByOpcode) {
				copy(sp.ByOpcode[:], vs)
			} else {
				d.Fail("want 32 counts, one an opcode")
			}
		case "history":
			d.Array(func(i int) {
				if i >= spawn.SpawnHistory {
					d.Fail("more passes than the spawn state keeps (64)")
					return
				}
				if g := uint32s(d); len(g) == 4 {
					sp.History = append(sp.History, decode.SpawnGeneration{Pass: g[0], Claimed: g[1], Spawned: g[2], Refused: g[3]})
				} else {
					d.Fail("want [pass, claimed, spawned, refused]")
				}
			})
		}
	})
	if version != SpawnMetaVersion {
		return nil
	}
	return sp
}

// cloneSpawn is a copy of sp that shares no storage with it (nil for
// nil): a recorded frame keeps its own, as frame.Store's frames do.
func cloneSpawn(sp *decode.SpawnTelemetry) *decode.SpawnTelemetry {
	if sp == nil {
		return nil
	}
	c := *sp
	c.History = append([]decode.SpawnGeneration(nil), sp.History...)
	return &c
}
