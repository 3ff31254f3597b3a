package jsontext

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzParse: the reader never panics, agrees with json.Valid on every
// input nested at most MaxDepth deep, reads what it accepts as
// json.Unmarshal does into an any, and what it reads re-encodes to text
// that both read back the same.
func FuzzParse(f *testing.F) {
	for _, s := range validCorpus {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d := NewDecoder(b)
		d.Skip()
		if d.space(); d.Err() == nil && d.i < len(b) {
			d.syntax("data after the value")
		}
		if errors.Is(d.Err(), ErrTooDeep) {
			return // encoding/json allows 10,000 levels
		}
		require.Equal(t, json.Valid(b), d.Err() == nil, "%q: %v", b, d.Err())
		require.Equal(t, d.Err() == nil, Valid(b), "%q", b)
		got, err := anyOf(b)
		var want any
		if json.Unmarshal(b, &want) != nil {
			assert.Error(t, err)
			return
		}
		require.NoError(t, err)
		require.Equal(t, want, got)
		var w Writer
		writeAny(&w, got)
		out, err := w.Bytes()
		require.NoError(t, err)
		back, err := anyOf(out)
		require.NoError(t, err)
		require.Equal(t, want, back)
		wantOut, err := json.Marshal(want)
		require.NoError(t, err)
		var fromJSON any
		require.NoError(t, json.Unmarshal(wantOut, &fromJSON))
		require.Equal(t, fromJSON, back)
	})
}

// writeAny writes v (what Any returns) in the order of a map's range: the
// reader must not depend on key order.
func writeAny(w *Writer, v any) {
	switch v := v.(type) {
	case map[string]any:
		w.BeginObject()
		for k, e := range v {
			w.Key(k)
			writeAny(w, e)
		}
		w.EndObject()
	case []any:
		w.BeginArray()
		for _, e := range v {
			writeAny(w, e)
		}
		w.EndArray()
	case string:
		w.String(v)
	case float64:
		w.Float(v)
	case bool:
		w.Bool(v)
	default:
		w.Null()
	}
}
