package jsontext

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The oracle of the writer is json.Marshal: the same bytes, so a format
// written by hand keeps the wire form it had.
func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestAppendStringMatchesMarshal(t *testing.T) {
	corpus := []string{"", "plain", `"quoted" \back\slash/`, "<a href='x'>&amp;</a>", "tab\tnl\ncr\rbs\bff\f",
		"\x00\x01\x1f\x7f", "é ü 中文 😀", "\u2028\u2029", "bad \xff\xfe utf8 \xc3", "\xed\xa0\x80 surrogate bytes",
		"\U0010ffff", "trailing \xe2\x82"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = byte(rng.IntN(256))
			if rng.IntN(3) == 0 {
				const special = "\"\\<>&\n\x00 a\xe2\x80\xa8"
				b[i] = special[rng.IntN(len(special))]
			}
		}
		corpus = append(corpus, string(b))
	}
	for _, s := range corpus {
		got := string(AppendString(nil, s))
		require.Equal(t, marshal(t, s), got, "%q", s)
		require.True(t, utf8.ValidString(got), "%q", s)
	}
}

func TestAppendFloatMatchesMarshal(t *testing.T) {
	corpus := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, 123456789012345678901234.0,
		math.MaxFloat64, math.SmallestNonzeroFloat64, -5e-324, 1.5e-10, 3.3, 2.5e+300, 1 << 53, 0.000001234}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		f := math.Float64frombits(rng.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		corpus = append(corpus, f, rng.Float64()*math.Pow(10, float64(rng.IntN(60)-30)))
	}
	for _, f := range corpus {
		got, err := AppendFloat(nil, f)
		require.NoError(t, err)
		require.Equal(t, marshal(t, f), string(got), "%v", f)
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := AppendFloat(nil, f)
		assert.ErrorIs(t, err, ErrNonFinite, "%v", f)
	}
}

func TestWriterStructure(t *testing.T) {
	var w Writer
	w.BeginObject()
	w.Key("a")
	w.BeginArray()
	w.Uint(1)
	w.Int(-2)
	w.BeginObject()
	w.EndObject()
	w.BeginArray()
	w.EndArray()
	w.Null()
	w.EndArray()
	w.Key("b<")
	w.Bool(true)
	w.Key("c")
	w.Float(0.5)
	w.Key("d")
	w.Raw([]byte(`{"x":[1]}`))
	w.Key("e")
	w.String("s")
	w.Key("f")
	w.Uint32s(nil)
	w.Key("g")
	w.Uint32s([]uint32{})
	w.Key("h")
	w.Uint32s([]uint32{0, 1<<32 - 1})
	w.EndObject()
	b, err := w.Bytes()
	require.NoError(t, err)
	assert.Equal(t, `{"a":[1,-2,{},[],null],"b\u003c":true,"c":0.5,"d":{"x":[1]},"e":"s","f":null,"g":[],"h":[0,4294967295]}`, string(b))
	assert.True(t, json.Valid(b))
}

// A non-finite number fails the whole text but leaves it valid JSON, and
// the first error is the one kept.
func TestWriterNonFinite(t *testing.T) {
	var w Writer
	w.BeginArray()
	w.Float(math.NaN())
	w.Float(1)
	w.Fail(assert.AnError)
	w.EndArray()
	b, err := w.Bytes()
	assert.ErrorIs(t, err, ErrNonFinite)
	assert.Equal(t, `[0,1]`, string(b))
}
