package wasmdata

import (
	"bytes"
	"compress/gzip"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// module builds a minimal module: the magic, a type section, the given
// data section body and a custom section after it.
func module(data []byte) []byte {
	m := append([]byte{}, magic...)
	m = append(m, 1, 1, 0) // type section: zero types
	m = append(m, sectionData)
	m = appendU32(m, uint32(len(data)))
	m = append(m, data...)
	return append(m, 0, 3, 1, 'x', 7) // custom section "x"
}

func TestMergeJoinsCloseSegmentsAndKeepsTheImage(t *testing.T) {
	segs := []Segment{
		{Offset: 300, Data: []byte{9, 9}},
		{Offset: 100, Data: []byte{1, 2, 3}},
		{Offset: 105, Data: []byte{4}},
		{Offset: 5000, Data: []byte{5, 6}},
	}
	in := module(Encode(segs))
	out, err := Merge(in, 200)
	require.NoError(t, err)

	_, start, end, err := dataSection(out)
	require.NoError(t, err)
	got, err := Segments(out[start:end])
	require.NoError(t, err)
	require.Equal(t, []Segment{
		{Offset: 100, Data: append([]byte{1, 2, 3, 0, 0, 4}, append(make([]byte, 194), 9, 9)...)},
		{Offset: 5000, Data: []byte{5, 6}},
	}, got)

	firstIn, imageIn, err := Image(in)
	require.NoError(t, err)
	firstOut, imageOut, err := Image(out)
	require.NoError(t, err)
	require.Equal(t, firstIn, firstOut)
	require.Equal(t, imageIn, imageOut)
	require.True(t, bytes.HasSuffix(out, []byte{0, 3, 1, 'x', 7}), "sections after the data section are kept")
}

func TestMergeRefusesWhatGoDoesNotEmit(t *testing.T) {
	cases := map[string][]byte{
		"bad magic":        []byte("\x00asm\x02\x00\x00\x00"),
		"no data section":  append(append([]byte{}, magic...), 1, 1, 0),
		"truncated":        module(Encode([]Segment{{Offset: 1, Data: []byte{1, 2}}}))[:14],
		"passive segment":  module([]byte{1, 1, 1, 7}),
		"overlap":          module(Encode([]Segment{{Offset: 10, Data: []byte{1, 2}}, {Offset: 11, Data: []byte{3}}})),
		"trailing bytes":   module(append(Encode([]Segment{{Offset: 1, Data: []byte{1}}}), 0xff)),
		"negative offset":  module([]byte{1, 0, opI32Const, 0x7f, opEnd, 1, 1}),
		"two instructions": module([]byte{1, 0, opI32Const, 1, opI32Const, 1, opEnd, 1, 1}),
		"count too large":  module([]byte{0xff, 0xff, 0xff, 0xff, 0x0f}),
	}
	withCount := append(append([]byte{}, magic...), sectionDataCount, 1, 0)
	cases["data count section"] = append(withCount, module(nil)[len(magic):]...)
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Merge(in, 512)
			require.Error(t, err)
			require.Contains(t, err.Error(), "wasmdata:")
		})
	}
}

func TestLEBRoundTrip(t *testing.T) {
	for _, v := range []int32{0, 1, 63, 64, 127, 128, 8191, 8192, 1<<31 - 1, -1, -64, -65, -1 << 31} {
		b := appendS32(nil, v)
		got, n, err := readS32(b, 0)
		require.NoError(t, err)
		require.Equal(t, v, got)
		require.Equal(t, len(b), n)
	}
	for _, v := range []uint32{0, 127, 128, 1<<32 - 1} {
		b := appendU32(nil, v)
		got, n, err := readU32(b, 0)
		require.NoError(t, err)
		require.Equal(t, v, got)
		require.Equal(t, len(b), n)
	}
}

// TestGoLinkerOutput merges a real js/wasm build: the memory image is the
// same, there are fewer segments, and the gzipped module is smaller.
func TestGoLinkerOutput(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	wasm := filepath.Join(t.TempDir(), "hello.wasm")
	build := exec.Command(goTool, "build", "-trimpath", "-ldflags=-s -w", "-o", wasm, "./testdata/hello")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	in, err := os.ReadFile(wasm)
	require.NoError(t, err)

	was := bytes.Clone(in)
	merged, err := Merge(in, 512)
	require.NoError(t, err)
	require.True(t, bytes.Equal(was, in), "Merge writes nothing into its input")
	firstIn, imageIn, err := Image(in)
	require.NoError(t, err)
	firstOut, imageOut, err := Image(merged)
	require.NoError(t, err)
	require.Equal(t, firstIn, firstOut)
	require.True(t, bytes.Equal(imageIn, imageOut), "the memory image changed")

	count := func(m []byte) int {
		_, s, e, err := dataSection(m)
		require.NoError(t, err)
		segs, err := Segments(m[s:e])
		require.NoError(t, err)
		return len(segs)
	}
	require.Less(t, count(merged), count(in)/10)
	require.Less(t, gzipLen(t, merged), gzipLen(t, in))
}

func gzipLen(t *testing.T, b []byte) int {
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	require.NoError(t, err)
	_, err = w.Write(b)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return buf.Len()
}

func FuzzMerge(f *testing.F) {
	f.Add(module(Encode([]Segment{{Offset: 8, Data: []byte{1}}, {Offset: 20, Data: []byte{2, 3}}})), uint32(16))
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x0b\x05\x01\x00\x41\x00\x0b"), uint32(0))
	f.Fuzz(func(t *testing.T, in []byte, gap uint32) {
		was := bytes.Clone(in)
		out, err := Merge(in, gap%4096)
		require.Equal(t, was, in, "Merge writes nothing into its input")
		if err != nil {
			return
		}
		firstIn, imageIn, err := Image(in)
		require.NoError(t, err)
		firstOut, imageOut, err := Image(out)
		require.NoError(t, err)
		require.Equal(t, firstIn, firstOut)
		require.True(t, bytes.Equal(imageIn, imageOut))
	})
}
