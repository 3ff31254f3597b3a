package jsontext

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// validCorpus is text for which Valid must agree with json.Valid, and
// Any with json.Unmarshal into an any.
var validCorpus = []string{
	`{}`, `[]`, `0`, `-0`, `1`, `-1.5e+3`, `1E-2`, `0.0`, `123456789012345678901234567890`, `1e400`, `-1e400`,
	`"x"`, `""`, `true`, `false`, `null`, ` { "a" : [ 1 , {"b":null} ] } `, "\t\r\n[1]\n",
	`{"a":1,"a":2}`, `{"":0}`, `"\u00e9\ud83d\ude00\/\"\\\b\f\n\r\t"`, `"\ud800"`, `"\udc00x"`, `"\ud800\u0041"`,
	`"\ud800\ud800\udc00"`, "\"\xff\xfe\"", "\"\xed\xa0\x80\"", `[[[[]]]]`, `{"a":{"b":{"c":[true,false]}}}`,
	// invalid:
	``, ` `, `{`, `[`, `]`, `}`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{"a" 1}`, `{a:1}`, `{'a':1}`,
	`01`, `-`, `--1`, `1.`, `.5`, `1e`, `1e+`, `+1`, `0x10`, `NaN`, `Infinity`, `tru`, `trUe`, `nul`, `nulll`,
	`"abc`, `"\x"`, `"\u12"`, `"\u12g4"`, "\"a\tb\"", "\"\x00\"", `"\`, `{} {}`, `1 2`, `[1]]`, `{"a":1}}`,
	"\v{}", "{}\x00", `[` + strings.Repeat(`1,`, 50) + `]`, "\u00a0{}",
}

func TestValidAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range validCorpus {
		assert.Equal(t, json.Valid([]byte(in)), Valid([]byte(in)), "%q", in)
	}
}

// anyOf reads b with Any and requires the whole text.
func anyOf(b []byte) (any, error) {
	d := NewDecoder(b)
	v := d.Any()
	if d.Err() == nil {
		if d.space(); d.i < len(b) {
			d.syntax("data after the value")
		}
	}
	return v, d.Err()
}

func TestAnyAgreesWithUnmarshal(t *testing.T) {
	for _, in := range validCorpus {
		var want any
		wantErr := json.Unmarshal([]byte(in), &want)
		got, err := anyOf([]byte(in))
		if wantErr != nil {
			assert.Error(t, err, "%q", in)
			continue
		}
		if assert.NoError(t, err, "%q", in) {
			assert.Equal(t, want, got, "%q", in)
		}
	}
}

func TestDepthLimit(t *testing.T) {
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	assert.True(t, Valid([]byte(ok)))
	deep := "[" + ok + "]"
	assert.False(t, Valid([]byte(deep)))
	_, err := anyOf([]byte(deep))
	assert.ErrorIs(t, err, ErrTooDeep)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, MaxDepth, e.Offset)
	obj := strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1)
	assert.ErrorIs(t, DecodeObject([]byte(obj), func(*Decoder, string) {}), ErrTooDeep)
}

type point struct {
	X, Y uint32
	Name string
}

func decodePoint(b []byte) (point, error) {
	var p point
	err := DecodeObject(b, func(d *Decoder, key string) {
		switch key {
		case "x":
			d.Uint32(&p.X)
		case "y":
			d.Uint32(&p.Y)
		case "name":
			d.String(&p.Name)
		}
	})
	return p, err
}

// DecodeObject's documented errors: each names the member and the offset.
func TestDecodeObjectErrors(t *testing.T) {
	for _, tc := range []struct{ in, err string }{
		{`[]`, "not a JSON object"},
		{``, "not a JSON object"},
		{`  `, "not a JSON object"},
		{`null`, "not a JSON object"},
		{`{"x":"1"}`, "x: want an unsigned integer, got a string at offset 5"},
		{`{"x":-1}`, "x: -1 is not an unsigned 32-bit integer at offset 5"},
		{`{"x":4294967296}`, "x: 4294967296 is out of range for an unsigned 32-bit integer at offset 5"},
		{`{"x":1.0}`, "x: 1.0 is not an unsigned 32-bit integer at offset 5"},
		{`{"name":7}`, "name: want a string, got a number at offset 8"},
		{`{"x":1} x`, "data after the object at offset 8"},
		{`{}}`, "data after the object at offset 2"},
		{`{} ]`, "data after the object at offset 3"},
		{`{"a":1,}`, `want a member's quoted key, found '}' at offset 7`},
		{`{"a":x}`, `invalid character 'x' looking for a value at offset 5`},
		{`{"x":x}`, `invalid character 'x' looking for a value at offset 5`},
		{`{"a":"\u00"}`, `invalid character '"' in a \u escape at offset 10`},
		{`{"a" 1}`, `want ':' after an object key at offset 5`},
		{`{"a":1 "b":2}`, `want ',' or '}' after an object member at offset 7`},
		{`{"a":[1 2]}`, `want ',' or ']' after an array element at offset 8`},
		{`{"a":[{"b":tx}]}`, `invalid character 'x' in literal true at offset 12`},
	} {
		_, err := decodePoint([]byte(tc.in))
		assert.EqualError(t, err, tc.err, "%q", tc.in)
	}
	for _, in := range []string{`{`, `{"x":1`, `{"x": `, `{"x"`, `{"name":"ab`, `{"a":[1,`, `{"a":tr`, `{"a":"\u12`, `{"a":-`} {
		_, err := decodePoint([]byte(in))
		assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "%q", in)
		assert.Equal(t, io.ErrUnexpectedEOF, err, "%q: bare, as a json.Decoder says it", in)
	}
}

// Unknown members of any shape are skipped; null and absent members leave
// the destination alone; the last of duplicate keys wins; keys match
// exactly.
func TestDecodeObjectSemantics(t *testing.T) {
	p, err := decodePoint([]byte(` {"x": 1, "later": {"deep": [1, {"x": "no"}, null]}, "y": 2, "name": null, "X": 9, "x": 3} `))
	require.NoError(t, err)
	assert.Equal(t, point{X: 3, Y: 2}, p)
	var path string
	err = DecodeObject([]byte(`{"a":{"b":[0,{"c":true}]}}`), func(d *Decoder, key string) {
		d.Object(func(string) {
			d.Array(func(i int) {
				if i == 1 {
					d.Object(func(string) { var u uint16; d.Uint16(&u) })
				}
			})
		})
		path = "read"
	})
	assert.EqualError(t, err, "a.b[1].c: want an unsigned integer, got a boolean at offset 18")
	assert.Equal(t, "read", path)
}

type enum uint8

func (e *enum) UnmarshalText(b []byte) error {
	if string(b) != "one" {
		return errors.New("unknown enum " + string(b))
	}
	*e = 1
	return nil
}

func TestTypedReaders(t *testing.T) {
	var (
		i   = 5
		f   float64
		b   = true
		e   enum
		u64 uint64
	)
	err := DecodeObject([]byte(`{"i":-12,"f":2.5e-3,"b":false,"e":"one","u":18446744073709551615,"n":null}`), func(d *Decoder, key string) {
		switch key {
		case "i":
			d.Int(&i)
		case "f":
			d.Float64(&f)
		case "b":
			d.Bool(&b)
		case "e":
			d.Text(e.UnmarshalText)
		case "u":
			d.Uint64(&u64)
		case "n":
			assert.True(t, d.IsNull())
		}
	})
	require.NoError(t, err)
	assert.Equal(t, []any{-12, 2.5e-3, false, enum(1), uint64(1<<64 - 1)}, []any{i, f, b, e, u64})
	for in, msg := range map[string]string{
		`{"e":"two"}`: "e: unknown enum two at offset 5",
		`{"e":2}`:     "e: want a string, got a number at offset 5",
		`{"f":1e999}`: "f: 1e999 is out of range for a float64 at offset 5",
		`{"b":1}`:     "b: want a boolean, got a number at offset 5",
		`{"i":[]}`:    "i: want an integer, got an array at offset 5",
	} {
		err := DecodeObject([]byte(in), func(d *Decoder, key string) {
			switch key {
			case "e":
				d.Text(e.UnmarshalText)
			case "f":
				d.Float64(&f)
			case "b":
				d.Bool(&b)
			case "i":
				d.Int(&i)
			}
		})
		assert.EqualError(t, err, msg, in)
	}
}
