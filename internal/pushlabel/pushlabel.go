package pushlabel

// MaxLen is the longest job or instance name a push may carry.
const MaxLen = 128

// Valid reports whether s may be a Pushgateway grouping label
// (job or instance) as ringscope pushes them: 1 to MaxLen of
// [A-Za-z0-9_.:-], other than "." and ".." (a gateway, or anything between,
// may resolve them as path segments: /metrics/job/.. is not a group). Plain
// label values only: the gateway's @base64 form and
// escapes are not needed for the names a fleet of test runs gives itself.
// The page checks it before a push and the server's relay again before it
// forwards one. It is a loop, not a regexp, because regexp and the unicode
// tables it pulls in would grow the page's gzipped wasm, whose size has a
// budget (bench/results-size.md).
func Valid(s string) bool {
	if len(s) == 0 || len(s) > MaxLen || s == "." || s == ".." {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '_', c == '.', c == ':', c == '-':
		default:
			return false
		}
	}
	return true
}
