package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// coalesce takes every pending request, so one render answers them.
func TestCoalesceTakesPendingRequests(t *testing.T) {
	q := make(requests, 64)
	assert.True(t, q.coalesce(), "nothing pending")
	for range 5 {
		q <- true
	}
	assert.True(t, q.coalesce())
	assert.Empty(t, q, "all five taken")
	q <- true
	q <- false
	q <- true
	assert.False(t, q.coalesce(), "a stop among them")
}

func TestProp(t *testing.T) {
	s := map[string]any{"offsetX": 12.5, "target": map[string]any{"value": "3", "checked": true}}
	assert.Equal(t, 12.5, prop(s, []string{"offsetX"}))
	assert.Equal(t, "3", prop(s, []string{"target", "value"}))
	assert.Nil(t, prop(s, []string{"target", "value", "deeper"}))
	assert.Nil(t, prop(s, []string{"missing"}))
	assert.Nil(t, prop(nil, []string{"x"}))
	assert.Equal(t, s, prop(s, nil))
}
