package ui

import (
	"math"
	"strconv"

	"github.com/ringscope/ringscope/internal/numfmt"
)

// Thousands formats n with comma thousands separators: 1048576 → "1,048,576".
func Thousands(n uint64) string { return numfmt.Thousands(n) }

// SignedThousands is Thousands for signed values: -1234 → "-1,234".
func SignedThousands(n int64) string {
	if n < 0 {
		return "-" + Thousands(uint64(-n))
	}
	return Thousands(uint64(n))
}

// Bytes formats a byte count in binary units with three significant
// digits: 512 → "512 B", 1536 → "1.50 KiB", 64<<20 → "64.0 MiB".
func Bytes(n uint64) string {
	if n < 1024 {
		return strconv.FormatUint(n, 10) + " B"
	}
	units := [...]string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v := float64(n) / 1024
	u := 0
	for v >= 1023.995 && u < len(units)-1 {
		v /= 1024
		u++
	}
	return sig3(v) + " " + units[u]
}

// sig3 prints v ≥ 1 with three significant digits (1.50, 15.0, 150).
func sig3(v float64) string {
	switch {
	case v < 9.995:
		return strconv.FormatFloat(v, 'f', 2, 64)
	case v < 99.95:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// Bps formats basis points (1/10000) as a percentage: 7500 → "75.00 %".
func Bps(bps uint32) string {
	return strconv.FormatFloat(float64(bps)/100, 'f', 2, 64) + " %"
}

// PPM formats parts per million as a percentage: 250000 → "25.00 %".
func PPM(ppm uint32) string {
	return strconv.FormatFloat(float64(ppm)/10000, 'f', 2, 64) + " %"
}

// Percent formats part/total as a percentage with one decimal; a zero total
// reads "–".
func Percent(part, total uint64) string {
	if total == 0 {
		return "–"
	}
	return strconv.FormatFloat(float64(part)*100/float64(total), 'f', 1, 64) + " %"
}

// MS formats a duration in milliseconds with a precision that suits its
// size: 0.0042 → "4.2 µs", 0.231 → "0.231 ms", 2.345 → "2.35 ms",
// 23.45 → "23.4 ms", 234.5 → "235 ms", 12345 → "12.3 s". NaN or a
// negative value reads "–".
func MS(ms float64) string {
	switch {
	case math.IsNaN(ms) || ms < 0 || math.IsInf(ms, 0):
		return "–"
	case ms == 0:
		return "0 ms"
	case ms < 0.01:
		return strconv.FormatFloat(ms*1000, 'f', 1, 64) + " µs"
	case ms < 1:
		return strconv.FormatFloat(ms, 'f', 3, 64) + " ms"
	case ms < 10:
		return strconv.FormatFloat(ms, 'f', 2, 64) + " ms"
	case ms < 100:
		return strconv.FormatFloat(ms, 'f', 1, 64) + " ms"
	case ms < 10000:
		return strconv.FormatFloat(ms, 'f', 0, 64) + " ms"
	}
	return strconv.FormatFloat(ms/1000, 'f', 1, 64) + " s"
}

// Hex32 formats v as 0x-prefixed upper-case hex, at least four digits:
// 0xFFFE, 0x00000007 → "0x0007".
func Hex32(v uint32) string {
	s := strconv.FormatUint(uint64(v), 16)
	for len(s) < 4 {
		s = "0" + s
	}
	return "0x" + upper(s)
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'f' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// Rate formats a per-second rate with an SI suffix: 1234567 → "1.23 M/s".
func Rate(perSecond float64) string {
	switch {
	case math.IsNaN(perSecond) || math.IsInf(perSecond, 0) || perSecond < 0:
		return "–"
	case perSecond < 1000:
		return strconv.FormatFloat(perSecond, 'f', 0, 64) + " /s"
	case perSecond < 1e6:
		return sig3(perSecond/1e3) + " k/s"
	case perSecond < 1e9:
		return sig3(perSecond/1e6) + " M/s"
	}
	return sig3(perSecond/1e9) + " G/s"
}

// YesNo formats a boolean as "yes" or "no".
func YesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
