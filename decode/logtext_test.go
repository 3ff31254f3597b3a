package decode

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFormatPrintf(t *testing.T) {
	f := map[uint32]string{1: "lane %d saw 0x%x (100%%)", 2: "a=%d b=%d c=%d"}
	assert.Equal(t, "lane 7 saw 0xff (100%)", FormatPrintf(1, 7, 255, f))
	assert.Equal(t, "a=1 b=2 c=?", FormatPrintf(2, 1, 2, f))
	assert.Equal(t, "fmt#9 a=1 b=2", FormatPrintf(9, 1, 2, f))
}
