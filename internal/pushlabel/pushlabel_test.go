package pushlabel

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The loop is the regexp it replaced, less "." and "..", byte for byte:
// every string of one and two bytes, and the lengths at the bound.
func TestValidMatchesTheRegexp(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,128}$`)
	check := func(s string) {
		want := re.MatchString(s) && s != "." && s != ".."
		if Valid(s) != want {
			t.Fatalf("Valid(%q) = %v, want %v", s, Valid(s), want)
		}
	}
	check("")
	for a := 0; a < 256; a++ {
		check(string([]byte{byte(a)}))
		for b := 0; b < 256; b++ {
			check(string([]byte{byte(a), byte(b)}))
		}
	}
	assert.True(t, Valid(strings.Repeat("a", MaxLen)))
	assert.False(t, Valid(strings.Repeat("a", MaxLen+1)))
	assert.False(t, Valid("é"))
	assert.True(t, Valid("ci-run_3.2:a"))
	assert.False(t, Valid("."), "a path segment, not a label")
	assert.False(t, Valid(".."), "a path segment, not a label")
	assert.True(t, Valid("..."))
}
