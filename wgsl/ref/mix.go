package ref

// Spin is the result of a SPIN slot: rounds rounds of an integer mix
// starting from seed (the slot's a2). One round, in uint32 arithmetic
// (mod 2^32), the WGSL kernel computing the same bits:
//
//	x += 0x9E3779B9
//	x ^= x >> 16; x *= 0x21F0AAAD
//	x ^= x >> 15; x *= 0x735A2D97
//	x ^= x >> 15
//
// (a golden-ratio increment, so 0 is no fixed point, then Wellons'
// lowbias32-style finaliser). Spin(seed, 0) is seed.
func Spin(seed, rounds uint32) uint32 {
	x := seed
	for i := uint32(0); i < rounds; i++ {
		x += 0x9E3779B9
		x ^= x >> 16
		x *= 0x21F0AAAD
		x ^= x >> 15
		x *= 0x735A2D97
		x ^= x >> 15
	}
	return x
}

// FNV-1a 32-bit parameters.
const (
	fnvOffset uint32 = 0x811C9DC5
	fnvPrime  uint32 = 0x01000193
)

// Hash is the result of a HASH slot: FNV-1a-32 of b, which is the data
// words' little-endian bytes, word a0 first and each word's low byte
// first. It equals hash/fnv.New32a over b. Per byte:
//
//	h = 0x811C9DC5 initially; h ^= byte; h *= 0x01000193 (mod 2^32)
//
// so for a word w the WGSL kernel folds w & 0xFF, (w >> 8) & 0xFF,
// (w >> 16) & 0xFF, then w >> 24. Zero words hash to 0x811C9DC5.
func Hash(b []byte) uint32 {
	h := fnvOffset
	for _, c := range b {
		h ^= uint32(c)
		h *= fnvPrime
	}
	return h
}
