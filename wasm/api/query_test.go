package api_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ringscope/ringscope/wasm/api"
)

func TestParseQueryStringIsURLParseQuery(t *testing.T) {
	for _, q := range []string{
		"", "a", "a=", "=b", "&", "&&a=1&&", "a=1&a=2&b=3", "preset=stall&slots=8192&wg=256",
		"windows=0x100,7", "a+b=c+d", "a%20b=%41%62%2b", "a=%zz&b=2", "a=%4&b=2", "a=%&b=2", "a%=1",
		"a=1;b=2&c=3", "a=b=c", "%E2%82%AC=%e2%82%ac", "k=%00", "sketch=4x128&readback=summary&autostart=0",
		strings.Repeat("a=1&", 9999) + "z=1", strings.Repeat("a=1&", 10000) + "z=1",
	} {
		want, wantErr := url.ParseQuery(q)
		got, err := api.ParseQueryString(q)
		assert.Equal(t, map[string][]string(want), got, "%.40q", q)
		if wantErr == nil {
			assert.NoError(t, err, "%.40q", q)
		} else if assert.Error(t, err, "%.40q", q) {
			assert.Equal(t, wantErr.Error(), err.Error(), "%.40q", q)
		}
	}
}

func TestQueryRoundTripsThroughURLEncoding(t *testing.T) {
	cfg, err := api.ParseQuery(map[string][]string{})
	assert.NoError(t, err)
	q, err := api.ParseQueryString(url.Values(api.Query(cfg)).Encode())
	assert.NoError(t, err)
	back, err := api.ParseQuery(q)
	assert.NoError(t, err)
	assert.Equal(t, cfg, back)
}
