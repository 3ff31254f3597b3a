package kerneldef

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func randDefinition(t *testing.T, rng *rand.Rand) Definition {
	strs := []string{"", "histogram", "fn f(x: u32) -> u32 { return x & 3u; }\n", "atomic<u32>", "read_write", "é\"\\\t"}
	str := func() string { return strs[rng.IntN(len(strs))] }
	words := func() []uint32 {
		if rng.IntN(3) == 0 {
			return nil
		}
		w := make([]uint32, rng.IntN(4))
		for i := range w {
			w[i] = rng.Uint32()
		}
		return w
	}
	d := Definition{Format: Format, Title: str(), Slots: rng.Uint32N(3) * 512, Tenants: rng.Uint32N(3), Data: words(),
		Example: str(), Workload: Workload{Opcode: rng.Uint32(), Count: rng.Uint32(), Tenants: rng.Uint32N(5), Priorities: rng.Uint32N(5)}}
	for range rng.IntN(3) {
		d.Opcodes = append(d.Opcodes, Opcode{Opcode: rng.Uint32(), Name: str(), WGSL: str()})
	}
	for range rng.IntN(3) {
		d.Buffers = append(d.Buffers, Buffer{Name: str(), Access: str(), Element: str(), Size: rng.Uint64(), Words: words()})
	}
	if rng.IntN(3) > 0 {
		srcs := []string{"64*i", "min(64, 4000 - 64*i)", "(i*7)%n", "3"}[:rng.IntN(4)]
		args, err := Args(srcs)
		require.NoError(t, err)
		d.Workload.Args = args
	}
	return d
}

// AppendJSON writes what json.Marshal writes, and appends.
func TestAppendJSONIsMarshals(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 300 {
		d := randDefinition(t, rng)
		want, err := json.Marshal(d)
		require.NoError(t, err)
		got, err := d.AppendJSON([]byte("x"))
		require.NoError(t, err)
		require.Equal(t, "x"+string(want), string(got))
	}
}
