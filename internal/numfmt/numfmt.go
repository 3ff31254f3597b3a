// Package numfmt formats numbers for people: thousands separators, the
// one spelling the page, the settings' messages and the API's text share.
package numfmt

// Thousands formats n with comma thousands separators: 1048576 → "1,048,576".
func Thousands(n uint64) string {
	var buf [32]byte
	i := len(buf)
	digits := 0
	for {
		if digits > 0 && digits%3 == 0 {
			i--
			buf[i] = ','
		}
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
		digits++
		if n == 0 {
			break
		}
	}
	return string(buf[i:])
}
