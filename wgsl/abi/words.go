package abi

import "encoding/binary"

// Bytes is ws as every ABI buffer stores words: little-endian, WordBytes
// each. It is nil for no words.
func Bytes(ws []uint32) []byte {
	if len(ws) == 0 {
		return nil
	}
	b := make([]byte, WordBytes*len(ws))
	for i, w := range ws {
		binary.LittleEndian.PutUint32(b[WordBytes*i:], w)
	}
	return b
}

// Words reads b's little-endian words; a trailing partial word is
// dropped. It is nil for fewer than WordBytes bytes.
func Words(b []byte) []uint32 {
	if len(b) < WordBytes {
		return nil
	}
	out := make([]uint32, len(b)/WordBytes)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[WordBytes*i:])
	}
	return out
}

// Word is word i of an ABI buffer (CtrlDoneCount of a control buffer,
// say). It panics, as a slice index does, when b holds no word i.
func Word(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[WordBytes*i:]) }

// PutWord sets word i of an ABI buffer to v.
func PutWord(b []byte, i int, v uint32) { binary.LittleEndian.PutUint32(b[WordBytes*i:], v) }
