package render

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

// parseSummary reads what json.Unmarshal reads, to the same map, and
// nothing else.
func TestParseSummaryAgreesWithUnmarshal(t *testing.T) {
	for _, in := range []string{
		`{}`, `{"type":"input","timeStamp":1234.5,"isTrusted":true,"target":{"value":"a\"b\u00e9","checked":false,"valueAsNumber":-0.25}}`,
		`{"key":"<","keyCode":60,"target":{}}`, `{"a":{"b":{"c":[1,"x",null]}}}`, `{"a":1,"a":2}`,
		`[]`, `null`, `"x"`, ``, `{"a":}`, `{"a":1} {}`, `{"a":1e999}`, `{"target":{"value":"`,
	} {
		var want map[string]any
		if err := json.Unmarshal([]byte(in), &want); err != nil || want == nil {
			assert.Nil(t, parseSummary(in), "%q", in)
			continue
		}
		assert.Equal(t, want, parseSummary(in), "%q", in)
	}
	assert.Equal(t, "a", prop(parseSummary(`{"target":{"value":"a"}}`), []string{"target", "value"}))
}
