package api

import (
	"errors"
	"strconv"
	"strings"
)

// MaxQueryParams is the most parameters ParseQueryString reads, as
// net/url's default (GODEBUG urlmaxqueryparams unset).
const MaxQueryParams = 10000

// ParseQueryString parses a URL query (location.search without its '?')
// into its parameters as url.ParseQuery does: pairs split on '&', a pair
// holding ';' or a bad %-escape skipped with an error (the first one
// returned), '+' read as a space. The page parses its URL with it rather
// than with net/url, which would link net/netip and package unique into
// the wasm module for this one call (bench/results-size.md: the page's
// wasm has a size budget). A url.Values is a
// map[string][]string, so the result is one.
func ParseQueryString(query string) (map[string][]string, error) {
	m := map[string][]string{}
	if strings.Count(query, "&")+1 > MaxQueryParams {
		return m, errors.New("number of URL query parameters exceeded limit")
	}
	var err error
	for query != "" {
		var pair string
		pair, query, _ = strings.Cut(query, "&")
		if strings.Contains(pair, ";") {
			err = errors.New("invalid semicolon separator in query")
			continue
		}
		if pair == "" {
			continue
		}
		key, value, _ := strings.Cut(pair, "=")
		key, err1 := queryUnescape(key)
		if err1 == nil {
			value, err1 = queryUnescape(value)
		}
		if err1 != nil {
			if err == nil {
				err = err1
			}
			continue
		}
		m[key] = append(m[key], value)
	}
	return m, err
}

// queryUnescape is url.QueryUnescape; its error has the text of a
// url.EscapeError.
func queryUnescape(s string) (string, error) {
	n, plus := 0, false
	for i := 0; i < len(s); {
		switch s[i] {
		case '%':
			if i+2 >= len(s) || unhex(s[i+1]) < 0 || unhex(s[i+2]) < 0 {
				bad := s[i:]
				if len(bad) > 3 {
					bad = bad[:3]
				}
				return "", errors.New("invalid URL escape " + strconv.Quote(bad))
			}
			n++
			i += 3
		case '+':
			plus = true
			i++
		default:
			i++
		}
	}
	if n == 0 && !plus {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s) - 2*n)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '%':
			b.WriteByte(byte(unhex(s[i+1])<<4 | unhex(s[i+2])))
			i += 2
		case '+':
			b.WriteByte(' ')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), nil
}

// unhex is the value of a hex digit, or -1.
func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}

// first is url.Values.Get: the first value of key, or "".
func first(q map[string][]string, key string) string {
	if v := q[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}
