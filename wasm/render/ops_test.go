package render

import (
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// render.js's op table is the other half of ops.go's: the two must agree.
func TestOpTableMatchesRenderJS(t *testing.T) {
	src, err := os.ReadFile("../../static/render.js")
	require.NoError(t, err)
	table := regexp.MustCompile(`(?s)const OP = \{(.*?)\};`).FindSubmatch(src)
	require.NotNil(t, table, "render.js declares const OP = {...}")
	got := map[string]int{}
	for _, m := range regexp.MustCompile(`([A-Z_]+): (\d+)`).FindAllSubmatch(table[1], -1) {
		n, _ := strconv.Atoi(string(m[2]))
		got[string(m[1])] = n
	}
	want := map[string]int{}
	for code, name := range opNames {
		require.NotEmpty(t, name, "op %d has no name", code)
		want[name] = code
	}
	assert.Equal(t, want, got)
}

func TestSymbolsAreDefinedOnce(t *testing.T) {
	var e encoder
	a := e.sym("class")
	n := len(e.buf)
	assert.Equal(t, a, e.sym("class"))
	assert.Equal(t, n, len(e.buf), "a known symbol writes nothing")
	assert.NotEqual(t, a, e.sym("title"))
}

func TestSymbolTableStartsOver(t *testing.T) {
	var e encoder
	for i := range maxSyms {
		e.sym(strconv.Itoa(i))
	}
	e.reset()
	assert.Equal(t, uint32(0), e.sym("one more"))
	assert.Equal(t, opClearSyms, e.buf[0])
}
