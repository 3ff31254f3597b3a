package jsontext

import (
	"errors"
	"math"
	"strconv"
	"unicode/utf8"
)

// ErrNonFinite is the error of writing NaN or an infinity.
var ErrNonFinite = errors.New("jsontext: NaN and infinities have no JSON form")

// Writer appends one JSON text to Buf. It tracks only whether the next
// value needs a comma, not the nesting: the encoders that use it are
// written by hand and tested against encoding/json, which checks the
// structure. The first error (a non-finite number) is kept and returned
// by Bytes; the writes after it still happen, so no caller checks each.
type Writer struct {
	Buf   []byte
	comma bool
	err   error
}

// Bytes returns the text written, or the first error.
func (w *Writer) Bytes() ([]byte, error) { return w.Buf, w.err }

// Err is the first error, or nil.
func (w *Writer) Err() error { return w.err }

// Fail records err as the Writer's error unless it has one, so that an
// encoder reports a value it refuses (an unknown enum) as Bytes' error.
func (w *Writer) Fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

func (w *Writer) sep() {
	if w.comma {
		w.Buf = append(w.Buf, ',')
	}
	w.comma = true
}

// BeginObject starts an object value.
func (w *Writer) BeginObject() { w.sep(); w.Buf = append(w.Buf, '{'); w.comma = false }

// EndObject ends it.
func (w *Writer) EndObject() { w.Buf = append(w.Buf, '}'); w.comma = true }

// BeginArray starts an array value.
func (w *Writer) BeginArray() { w.sep(); w.Buf = append(w.Buf, '['); w.comma = false }

// EndArray ends it.
func (w *Writer) EndArray() { w.Buf = append(w.Buf, ']'); w.comma = true }

// Key writes an object member's key; the member's value follows.
func (w *Writer) Key(k string) {
	w.sep()
	w.Buf = AppendString(w.Buf, k)
	w.Buf = append(w.Buf, ':')
	w.comma = false
}

// String writes a string value.
func (w *Writer) String(s string) { w.sep(); w.Buf = AppendString(w.Buf, s) }

// Int writes an integer value.
func (w *Writer) Int(v int64) { w.sep(); w.Buf = strconv.AppendInt(w.Buf, v, 10) }

// Uint writes an unsigned integer value.
func (w *Writer) Uint(v uint64) { w.sep(); w.Buf = strconv.AppendUint(w.Buf, v, 10) }

// Uint32s writes an array of numbers, or null for a nil slice, as
// json.Marshal writes a []uint32.
func (w *Writer) Uint32s(v []uint32) {
	if v == nil {
		w.Null()
		return
	}
	w.BeginArray()
	for _, x := range v {
		w.Uint(uint64(x))
	}
	w.EndArray()
}

// Bool writes true or false.
func (w *Writer) Bool(v bool) { w.sep(); w.Buf = strconv.AppendBool(w.Buf, v) }

// Null writes null.
func (w *Writer) Null() { w.sep(); w.Buf = append(w.Buf, "null"...) }

// Float writes a number; NaN and the infinities write 0 and set the error.
func (w *Writer) Float(v float64) {
	w.sep()
	var err error
	if w.Buf, err = AppendFloat(w.Buf, v); err != nil {
		w.Fail(err)
		w.Buf = append(w.Buf, '0') // the text stays valid JSON
	}
}

// Raw writes b, which must be one valid JSON value, as the next value.
func (w *Writer) Raw(b []byte) { w.sep(); w.Buf = append(w.Buf, b...) }

// AppendFloat appends v as encoding/json formats a float64 (the shortest
// text that reads back as v; exponent form below 1e-6 and from 1e21, as
// JavaScript's Number.prototype.toString does), or returns ErrNonFinite.
func AppendFloat(dst []byte, v float64) ([]byte, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return dst, ErrNonFinite
	}
	abs := math.Abs(v)
	if abs == 0 || (abs >= 1e-6 && abs < 1e21) {
		return strconv.AppendFloat(dst, v, 'f', -1, 64), nil
	}
	dst = strconv.AppendFloat(dst, v, 'e', -1, 64)
	// strconv writes a two-digit exponent ("1e-07"); JSON writers, JS and
	// encoding/json among them, write "1e-7".
	if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
		dst[n-2] = dst[n-1]
		dst = dst[:n-1]
	}
	return dst, nil
}

const hex = "0123456789abcdef"

// escapes[c] is how AppendString escapes the ASCII byte c: 'u' as \u00XX,
// another byte as backslash and that byte, 0 not at all (or, below 0x20,
// as \u00XX). A table and one branch rather than a switch of appends:
// each append is its own copy of the growth code in the wasm.
var escapes = [utf8.RuneSelf]byte{'"': '"', '\\': '\\', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't',
	'<': 'u', '>': 'u', '&': 'u'}

// AppendString appends s as a JSON string. Besides what RFC 8259 must
// escape (the quote, the backslash, control characters) it escapes <, >
// and & (the text can sit in a <script> or an HTML attribute), U+2028 and
// U+2029 (line ends to JavaScript before ES2019), and writes invalid UTF-8
// as U+FFFD, all as encoding/json does.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0 // s[start:i] is yet to be copied
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			e := escapes[c]
			if e == 0 && c >= 0x20 {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			if e == 0 || e == 'u' {
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			} else {
				dst = append(dst, '\\', e)
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
