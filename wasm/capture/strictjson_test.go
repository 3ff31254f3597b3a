package capture

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

// decoderJSON is strictJSON as it was written with a json.Decoder: the
// oracle for the errors strictJSON reports.
func decoderJSON(b []byte, v any) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return errors.New("not a JSON object")
	}
	d := json.NewDecoder(bytes.NewReader(b))
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return errors.New("data after the object")
	}
	return nil
}

func TestStrictJSONMatchesDecoder(t *testing.T) {
	for _, in := range []string{
		`{}`, ` {"published": 3} `, `{"published": 3, "later": [1, {"x": null}]}`,
		`{"timings": {"publishMs": 1.5}}`, `{"published": -1}`, `{"published": "x"}`,
		`{"published": 1`, `{"published": `, `{"published"`, `{`, `{"a":1,}`, `{"a":x}`,
		`{} x`, `{} {}`, `{}  [`, `[]`, ``, `  `, `null`, `{"a":"\u00"}`, "{\"a\":\"\xff\"}",
	} {
		var got, want Meta
		err, wantErr := strictJSON([]byte(in), &got), decoderJSON([]byte(in), &want)
		if wantErr == nil {
			assert.NoError(t, err, "%q", in)
			assert.Equal(t, want, got, "%q", in)
			continue
		}
		if assert.Error(t, err, "%q", in) {
			assert.Equal(t, wantErr.Error(), err.Error(), "%q", in)
		}
	}
}

// A json.Decoder's More reports false before a closing bracket, so the old
// code took `{}}` as one object; trailing data is refused now.
func TestStrictJSONRefusesTrailingBracket(t *testing.T) {
	for _, in := range []string{`{}}`, `{} ]`} {
		assert.EqualError(t, strictJSON([]byte(in), &Meta{}), "data after the object", "%q", in)
	}
}
