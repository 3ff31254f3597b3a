package abi_test

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// Word, PutWord and AppendWord are the ABI's little-endian words, the
// bytes encoding/binary writes, at any word of a buffer.
func TestWordsAreLittleEndian(t *testing.T) {
	for _, v := range []uint32{0, 1, 0x01020304, 0x80000000, 0xFFFFFFFF, 0xDEADBEEF} {
		want := binary.LittleEndian.AppendUint32(nil, v)
		assert.Equal(t, want, abi.AppendWord(nil, v), "%#x", v)
		b := make([]byte, 3*abi.WordBytes)
		abi.PutWord(b, 2, v)
		assert.Equal(t, want, b[2*abi.WordBytes:], "%#x", v)
		assert.Equal(t, v, abi.Word(b, 2))
		assert.Equal(t, uint32(0), abi.Word(b, 1), "its neighbour is untouched")
	}
	assert.Panics(t, func() { abi.Word(make([]byte, 7), 1) }, "a partial word is out of range")
}
