package capture

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzDecodeCapture feeds arbitrary bytes to Decode. It must never panic;
// whatever it accepts must re-encode, decode to the same frames, and
// export as a trace and as OpenMetrics. Seeds: testdata/fuzz, the sample
// capture, a dump and a capture of ring patches.
func FuzzDecodeCapture(f *testing.F) {
	b, err := Encode(sample())
	require.NoError(f, err)
	f.Add(b)
	dump, err := FromDump(control(-1, 4, 2, 0), ring(4, 1, 3), nil)
	require.NoError(f, err)
	b, err = Encode(dump)
	require.NoError(f, err)
	f.Add(b)
	b, err = Encode(patched(evolving(rand.New(rand.NewPCG(3, 4)), 8, true)))
	require.NoError(f, err)
	f.Add(b)
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Decode(data)
		if err != nil {
			var fe *FormatError
			require.ErrorAs(t, err, &fe)
			assert.GreaterOrEqual(t, fe.Offset, int64(0))
			assert.LessOrEqual(t, fe.Offset, int64(len(data)))
			return
		}
		again, err := Encode(c)
		require.NoError(t, err)
		c2, err := Decode(again)
		require.NoError(t, err)
		require.Equal(t, c.Frames, c2.Frames)
		_, err = Trace(c)
		require.NoError(t, err)
		_, err = OpenMetrics(c)
		require.NoError(t, err)
	})
}
