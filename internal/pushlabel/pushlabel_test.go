package pushlabel

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The loop is the regexp it replaced, byte for byte: every string of one
// and two bytes, and the lengths at the bound.
func TestValidMatchesTheRegexp(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,128}$`)
	check := func(s string) {
		if Valid(s) != re.MatchString(s) {
			t.Fatalf("Valid(%q) = %v, the regexp says %v", s, Valid(s), re.MatchString(s))
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
}
