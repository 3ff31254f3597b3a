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
func Word(b []byte, i int) uint32 {
	b = b[WordBytes*i:]
	_ = b[3]
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// PutWord sets word i of an ABI buffer to v.
func PutWord(b []byte, i int, v uint32) {
	b = b[WordBytes*i:]
	_ = b[3]
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

// AppendWord appends v to b as an ABI buffer stores it.
func AppendWord(b []byte, v uint32) []byte {
	return append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}
