package jsontext

import (
	"errors"
	"strconv"
)

// The typed readers below read the value at the cursor into dst. As
// json.Unmarshal does, null leaves dst as it is; a value of another type,
// or a number dst cannot hold exactly, is an error naming the member.

// null reads a null at the cursor and reports whether there was one.
func (d *Decoder) null() bool {
	if d.peek() != 'n' {
		return false
	}
	d.literal("null")
	return true
}

// IsNull reads a null at the cursor, if that is what is there, and says
// so: the caller then sets a pointer or slice to nil, as json.Unmarshal
// does.
func (d *Decoder) IsNull() bool { return d.null() }

// numberFor reads a number for a destination of type what, or returns nil
// (null, an error).
func (d *Decoder) numberFor(what string) []byte {
	switch c := d.peek(); {
	case c == 0 || d.null():
		return nil
	case c != '-' && (c < '0' || c > '9'):
		d.wrongType(what, c)
		return nil
	}
	return d.number()
}

// Uint64 reads an integer 0 … 2^64-1.
func (d *Decoder) Uint64(dst *uint64) {
	if v, ok := d.uint(64); ok {
		*dst = v
	}
}

// Uint32 reads an integer 0 … 2^32-1.
func (d *Decoder) Uint32(dst *uint32) {
	if v, ok := d.uint(32); ok {
		*dst = uint32(v)
	}
}

// Uint16 reads an integer 0 … 2^16-1.
func (d *Decoder) Uint16(dst *uint16) {
	if v, ok := d.uint(16); ok {
		*dst = uint16(v)
	}
}

func (d *Decoder) uint(bits int) (uint64, bool) {
	at := d.i
	lit := d.numberFor("an unsigned integer")
	if lit == nil {
		return 0, false
	}
	v, err := strconv.ParseUint(string(lit), 10, bits)
	if err != nil {
		d.i = at
		d.Fail(numberErr(lit, "an unsigned "+strconv.Itoa(bits)+"-bit integer", err))
		return 0, false
	}
	return v, true
}

// Int reads an integer that fits a Go int.
func (d *Decoder) Int(dst *int) {
	at := d.i
	lit := d.numberFor("an integer")
	if lit == nil {
		return
	}
	v, err := strconv.ParseInt(string(lit), 10, strconv.IntSize)
	if err != nil {
		d.i = at
		d.Fail(numberErr(lit, "an integer", err))
		return
	}
	*dst = int(v)
}

// Float64 reads a number that a float64 holds (any number short of
// ±1.8e308; the rest round to the nearest float64).
func (d *Decoder) Float64(dst *float64) {
	at := d.i
	lit := d.numberFor("a number")
	if lit == nil {
		return
	}
	v, err := strconv.ParseFloat(string(lit), 64)
	if err != nil {
		d.i = at
		d.Fail(numberErr(lit, "a float64", err))
		return
	}
	*dst = v
}

func numberErr(lit []byte, what string, err error) string {
	if errors.Is(err, strconv.ErrRange) {
		return string(lit) + " is out of range for " + what
	}
	return string(lit) + " is not " + what
}

// Bool reads true or false.
func (d *Decoder) Bool(dst *bool) {
	switch c := d.peek(); c {
	case 0:
	case 't':
		if d.literal("true"); d.err == nil {
			*dst = true
		}
	case 'f':
		if d.literal("false"); d.err == nil {
			*dst = false
		}
	case 'n':
		d.literal("null")
	default:
		d.wrongType("a boolean", c)
	}
}

// String reads a string.
func (d *Decoder) String(dst *string) {
	switch c := d.peek(); c {
	case 0:
	case '"':
		if s := d.str(); d.err == nil {
			*dst = s
		}
	case 'n':
		d.literal("null")
	default:
		d.wrongType("a string", c)
	}
}

// Text reads a string and hands it to parse (an enum's UnmarshalText),
// as json.Unmarshal does for an encoding.TextUnmarshaler; parse's error
// is the member's. It takes a func, not an interface with an
// UnmarshalText method: a call through such an interface makes the linker
// keep every UnmarshalText of every type the program converts to an
// interface, time.Time's parser among them (bench/results-render.md, "On
// main: under the budget").
func (d *Decoder) Text(parse func([]byte) error) {
	var s string
	if d.peek() != '"' {
		d.String(&s) // null, or the type error
		return
	}
	at := d.i
	if d.String(&s); d.err != nil {
		return
	}
	if err := parse([]byte(s)); err != nil {
		d.i = at
		d.Fail(err.Error())
	}
}

// Any reads any value as json.Unmarshal does into an `any`: objects as
// map[string]any, arrays as []any, numbers as float64.
func (d *Decoder) Any() any {
	switch c := d.peek(); c {
	case '{':
		m := map[string]any{}
		d.Object(func(key string) { m[key] = d.Any() })
		return m
	case '[':
		a := []any{}
		d.Array(func(int) { a = append(a, d.Any()) })
		return a
	case '"':
		var s string
		d.String(&s)
		return s
	case 't', 'f':
		var b bool
		d.Bool(&b)
		return b
	case 'n':
		d.literal("null")
	case 0:
	default:
		var f float64
		d.Float64(&f)
		return f
	}
	return nil
}

// ErrNotObject is DecodeObject's error for a text that is not an object.
var ErrNotObject = errors.New("not a JSON object")

// DecodeObject reads b, which must hold one JSON object and nothing after
// it but white space, calling member for each member with the cursor at
// its value (a value member does not read is skipped). Its error is
// ErrNotObject, io.ErrUnexpectedEOF, or an *Error ("data after the
// object" for trailing data).
func DecodeObject(b []byte, member func(d *Decoder, key string)) error {
	d := NewDecoder(b)
	d.space()
	if d.i >= len(b) || b[d.i] != '{' {
		return ErrNotObject
	}
	d.Object(func(key string) { member(d, key) })
	if d.err != nil {
		return d.err
	}
	d.space()
	if d.i < len(b) {
		d.syntax("data after the object")
	}
	return d.err
}

// Valid reports whether b is one JSON text nested at most MaxDepth deep.
func Valid(b []byte) bool {
	d := NewDecoder(b)
	d.Skip()
	d.space()
	return d.err == nil && d.i == len(b)
}
