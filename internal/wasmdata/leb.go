package wasmdata

import "errors"

var errLEB = errors.New("malformed or truncated LEB128 number")

// readU32 reads an unsigned LEB128 number of at most 5 bytes at b[at:].
func readU32(b []byte, at int) (v uint32, n int, err error) {
	var x uint64
	for shift := 0; shift < 35; shift += 7 {
		if at+n >= len(b) {
			return 0, 0, errLEB
		}
		c := b[at+n]
		n++
		x |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			if x > 1<<32-1 {
				return 0, 0, errLEB
			}
			return uint32(x), n, nil
		}
	}
	return 0, 0, errLEB
}

// readS32 reads a signed LEB128 number of at most 5 bytes at b[at:].
func readS32(b []byte, at int) (v int32, n int, err error) {
	var x int64
	shift := 0
	for shift < 35 {
		if at+n >= len(b) {
			return 0, 0, errLEB
		}
		c := b[at+n]
		n++
		x |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if c&0x40 != 0 {
				x |= -1 << shift
			}
			if x < -1<<31 || x > 1<<31-1 {
				return 0, 0, errLEB
			}
			return int32(x), n, nil
		}
	}
	return 0, 0, errLEB
}

func appendU32(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func appendS32(b []byte, v int32) []byte {
	x := int64(v)
	for {
		c := byte(x & 0x7f)
		x >>= 7
		if (x == 0 && c&0x40 == 0) || (x == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
