package jsontext

import (
	"io"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// str reads a string, the cursor at its opening quote. Invalid UTF-8 and
// unpaired surrogate escapes read as U+FFFD, as in encoding/json.
func (d *Decoder) str() string {
	b := d.b
	start := d.i + 1
	i := start
	// The common case: no escapes, valid UTF-8: one allocation.
	for i < len(b) && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20 && b[i] < utf8.RuneSelf {
		i++
	}
	if i < len(b) && b[i] == '"' {
		d.i = i + 1
		return string(b[start:i])
	}
	out := append([]byte(nil), b[start:i]...)
	for {
		if i >= len(b) {
			d.i = i
			d.fail(io.ErrUnexpectedEOF)
			return ""
		}
		c := b[i]
		switch {
		case c == '"':
			d.i = i + 1
			return string(out)
		case c < 0x20:
			d.i = i
			d.syntax("control character " + strconv.QuoteRune(rune(c)) + " in a string")
			return ""
		case c == '\\':
			var ok bool
			if out, i, ok = d.escape(out, i); !ok {
				return ""
			}
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			out = utf8.AppendRune(out, r) // RuneError for invalid bytes
			i += size
		}
	}
}

// escape appends the escape at b[i] (a backslash) and returns the index
// after it.
func (d *Decoder) escape(out []byte, i int) ([]byte, int, bool) {
	b := d.b
	if i+1 >= len(b) {
		d.i = len(b)
		d.fail(io.ErrUnexpectedEOF)
		return out, i, false
	}
	switch c := b[i+1]; {
	case c == 'u':
	case c < utf8.RuneSelf && unescape[c] != 0:
		return append(out, unescape[c]), i + 2, true
	default:
		d.i = i + 1
		d.syntax("invalid escape " + strconv.QuoteRune(rune(c)) + " in a string")
		return out, i, false
	}
	r, ok := d.hex4(i + 2)
	if !ok {
		return out, i, false
	}
	i += 6
	if utf16.IsSurrogate(r) {
		// A pair is two escapes; anything else is U+FFFD, and what follows
		// the lone half is read on its own.
		if i+1 < len(b) && b[i] == '\\' && b[i+1] == 'u' {
			r2, ok := d.hex4(i + 2)
			if !ok {
				return out, i, false
			}
			if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
				return utf8.AppendRune(out, pair), i + 6, true
			}
		}
		r = utf8.RuneError
	}
	return utf8.AppendRune(out, r), i, true
}

// unescape maps the byte after a backslash to what it stands for; 0 is
// no escape (\u is read apart).
var unescape = [utf8.RuneSelf]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// hex4 reads the four hex digits of a \u escape at b[i:].
func (d *Decoder) hex4(i int) (rune, bool) {
	var r rune
	for k := i; k < i+4; k++ {
		if k >= len(d.b) {
			d.i = len(d.b)
			d.fail(io.ErrUnexpectedEOF)
			return 0, false
		}
		c := d.b[k]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			d.i = k
			d.syntax("invalid character " + strconv.QuoteRune(rune(c)) + " in a \\u escape")
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
