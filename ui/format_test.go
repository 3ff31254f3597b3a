package ui

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestThousands(t *testing.T) {
	for in, want := range map[uint64]string{
		0: "0", 7: "7", 999: "999", 1000: "1,000", 65536: "65,536",
		1048576: "1,048,576", math.MaxUint64: "18,446,744,073,709,551,615",
	} {
		assert.Equal(t, want, Thousands(in), "%d", in)
	}
	assert.Equal(t, "-1,234", SignedThousands(-1234))
	assert.Equal(t, "12", SignedThousands(12))
}

func TestBytes(t *testing.T) {
	for in, want := range map[uint64]string{
		0: "0 B", 512: "512 B", 1023: "1023 B", 1024: "1.00 KiB", 1536: "1.50 KiB",
		640: "640 B", 4 << 20: "4.00 MiB", 64 << 20: "64.0 MiB", 1 << 30: "1.00 GiB",
		1048575: "1.00 MiB", 900 << 20: "900 MiB",
	} {
		assert.Equal(t, want, Bytes(in), "%d", in)
	}
}

func TestPercentages(t *testing.T) {
	assert.Equal(t, "75.00 %", Bps(7500))
	assert.Equal(t, "100.00 %", Bps(10000))
	assert.Equal(t, "0.01 %", Bps(1))
	assert.Equal(t, "25.00 %", PPM(250000))
	assert.Equal(t, "33.3 %", Percent(1, 3))
	assert.Equal(t, "–", Percent(1, 0))
}

func TestMS(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{
		{0, "0 ms"}, {0.0042, "4.2 µs"}, {0.231, "0.231 ms"}, {2.345, "2.35 ms"},
		{23.45, "23.4 ms"}, {234.5, "234 ms"}, {12345, "12.3 s"}, {-1, "–"}, {math.NaN(), "–"},
	} {
		assert.Equal(t, c.want, MS(c.in), "%v", c.in)
	}
}

func TestHexRateYesNo(t *testing.T) {
	assert.Equal(t, "0xFFFE", Hex32(0xFFFE))
	assert.Equal(t, "0x0007", Hex32(7))
	assert.Equal(t, "0xFFFFFFFF", Hex32(0xFFFFFFFF))
	assert.Equal(t, "512 /s", Rate(512))
	assert.Equal(t, "1.23 M/s", Rate(1234567))
	assert.Equal(t, "20.0 G/s", Rate(2e10))
	assert.Equal(t, "yes", YesNo(true))
	assert.Equal(t, "no", YesNo(false))
}
