package ui

import (
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
)

func TestStatusColoursMatchCSS(t *testing.T) {
	css, err := os.ReadFile("../static/dashboard.css")
	require.NoError(t, err)
	for _, s := range StatusOrder {
		c := StatusColor(s)
		want := fmt.Sprintf("--st-%s: #%02x%02x%02x;", StatusKey(s), c[0], c[1], c[2])
		assert.Contains(t, string(css), want, "static/dashboard.css must declare the slot-map colour of %s", s)
	}
}

func TestNames(t *testing.T) {
	assert.Equal(t, "PRINTF", Names(nil).Opcode(0xFFFE))
	assert.Equal(t, "SHUTDOWN", Names(nil).Opcode(0xFFFFFFFF))
	assert.Equal(t, "USER(0x200)", Names(nil).Opcode(0x200))
	assert.Equal(t, "SYS(0xFFF9)", Names(nil).Opcode(0xFFF9))
	assert.Equal(t, "IDLE", PriorityName(4))
	assert.Equal(t, "P7?", PriorityName(7))
	assert.Equal(t, "wait-io", StatusKey(decode.StatusWaitIO))
	assert.Equal(t, "unknown", StatusKey(42))
	assert.Contains(t, StatusMeaning(42), "UNKNOWN")
	o := decode.RingOccupancy{decode.StatusDone: 3, decode.StatusUnknown: 2}
	assert.EqualValues(t, 3, o.Of(decode.StatusDone))
	assert.EqualValues(t, 2, o.Of(99))
	assert.Len(t, StatusOrder, int(decode.StatusUnknown)+1, "every status, then unknown")
}
