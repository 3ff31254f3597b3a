package jsontext

import (
	"errors"
	"io"
	"strconv"
	"strings"
)

// MaxDepth bounds the nesting of arrays and objects Decoder reads, so
// that a hostile file cannot grow the (recursive) reader's stack without
// bound. The formats here nest at most three deep; unknown members may
// nest more, up to this.
const MaxDepth = 1000

// ErrTooDeep is wrapped by the error of text nested deeper than MaxDepth.
var ErrTooDeep = errors.New("nested deeper than " + strconv.Itoa(MaxDepth))

// Error is a syntax error (Path empty), or a member that does not fit its
// Go destination: a wrong type, an out-of-range number (Path names it,
// "dispatch.topology", "windowOpcodes[3]"). Offset is the byte offset in
// the text where the problem is.
type Error struct {
	Offset int
	Path   string
	Msg    string
	err    error
}

func (e *Error) Error() string {
	s := e.Msg + " at offset " + strconv.Itoa(e.Offset)
	if e.Path != "" {
		s = e.Path + ": " + s
	}
	return s
}

func (e *Error) Unwrap() error { return e.err }

// Decoder reads one JSON text as a cursor: the caller says what it
// expects next (Object, Uint64, String …) and the Decoder checks the text
// as it goes. A member a callback does not read is checked and skipped
// without allocating. After the first error every call does nothing; Err
// returns it. Text that ends inside a value is io.ErrUnexpectedEOF.
type Decoder struct {
	b     []byte
	i     int
	depth int
	path  []segment // the members and elements being read, for errors
	err   error
}

// NewDecoder returns a Decoder at the start of b.
func NewDecoder(b []byte) *Decoder { return &Decoder{b: b} }

// Err is the first error, or nil.
func (d *Decoder) Err() error { return d.err }

// Offset is the position of the cursor in the text.
func (d *Decoder) Offset() int { return d.i }

// Fail records err (with the path being read) as the Decoder's error
// unless it has one: a caller's own check of a value it read (an enum
// name, a range) then reads like the Decoder's.
func (d *Decoder) Fail(msg string) { d.fail(d.fieldErr(msg)) }

func (d *Decoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

func (d *Decoder) syntax(msg string) {
	d.fail(&Error{Offset: d.i, Msg: msg})
}

// segment is one step of a path: a member's key, or an element's index.
type segment struct {
	key   string
	index int
	isKey bool
}

func (d *Decoder) fieldErr(msg string) error {
	var p strings.Builder
	for _, s := range d.path {
		switch {
		case !s.isKey:
			p.WriteString("[" + strconv.Itoa(s.index) + "]")
		case p.Len() > 0:
			p.WriteByte('.')
			fallthrough
		default:
			p.WriteString(s.key)
		}
	}
	return &Error{Offset: d.i, Path: p.String(), Msg: msg}
}

func (d *Decoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// peek skips white space and returns the next byte, or 0 (with the error
// set to io.ErrUnexpectedEOF) at the end of the text.
func (d *Decoder) peek() byte {
	if d.err != nil {
		return 0
	}
	d.space()
	if d.i >= len(d.b) {
		d.fail(io.ErrUnexpectedEOF)
		return 0
	}
	return d.b[d.i]
}

// kind names the JSON type of a value starting with c, for errors.
func kind(c byte) string {
	switch c {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// Object reads an object, calling member for each of its members with
// the cursor at the member's value; a value member does not read is
// skipped. It returns false, reading nothing more, at null (json.Unmarshal
// leaves the destination alone there) or after an error.
func (d *Decoder) Object(member func(key string)) bool { return d.container('{', member, nil) }

// Array reads an array, calling elem for each element with the cursor at
// it; an element elem does not read is skipped. It returns false at null
// (reading it) or after an error.
func (d *Decoder) Array(elem func(i int)) bool { return d.container('[', nil, elem) }

// container is Object (open '{', member) and Array (open '[', elem): one
// loop, not two, for the page's size.
func (d *Decoder) container(open byte, member func(string), elem func(int)) bool {
	end, want, after := byte('}'), "an object", "an object member"
	if open == '[' {
		end, want, after = ']', "an array", "an array element"
	}
	switch c := d.peek(); c {
	case 0:
		return false
	case 'n':
		d.literal("null")
		return false
	case open:
	default:
		d.wrongType(want, c)
		return false
	}
	if !d.enter() {
		return false
	}
	d.i++
	if d.peek() == end {
		d.i++
		d.depth--
		return true
	}
	for n := 0; d.err == nil; n++ {
		var key string
		if member != nil {
			if c := d.peek(); c != '"' {
				if c != 0 {
					d.syntax("want a member's quoted key, found " + strconv.QuoteRune(rune(c)))
				}
				return false
			}
			key = d.str()
			if d.peek() != ':' {
				if d.err == nil {
					d.syntax("want ':' after an object key")
				}
				return false
			}
			d.i++
		}
		if d.peek() == 0 {
			return false
		}
		d.path = append(d.path, segment{key, n, member != nil})
		at := d.i
		if member != nil {
			member(key)
		} else {
			elem(n)
		}
		if d.i == at {
			d.Skip()
		}
		d.path = d.path[:len(d.path)-1]
		switch d.peek() {
		case ',':
			d.i++
		case end:
			d.i++
			d.depth--
			return d.err == nil
		case 0:
		default:
			d.syntax("want ',' or '" + string(rune(end)) + "' after " + after)
		}
	}
	return false
}

func (d *Decoder) enter() bool {
	if d.depth >= MaxDepth {
		d.fail(&Error{Offset: d.i, Msg: ErrTooDeep.Error(), err: ErrTooDeep})
		return false
	}
	d.depth++
	return true
}

// Skip checks and passes over one value of any type.
func (d *Decoder) Skip() {
	switch c := d.peek(); c {
	case 0:
	case '{':
		d.Object(func(string) {})
	case '[':
		d.Array(func(int) {})
	case '"':
		d.str()
	case 't':
		d.literal("true")
	case 'f':
		d.literal("false")
	case 'n':
		d.literal("null")
	default:
		if !isValueStart(c) {
			d.syntax("invalid character " + strconv.QuoteRune(rune(c)) + " looking for a value")
			return
		}
		d.number()
	}
}

// literal reads the word lit, which the next byte starts.
func (d *Decoder) literal(lit string) {
	for k := 0; k < len(lit); k++ {
		switch {
		case d.i+k >= len(d.b):
			d.i += k
			d.fail(io.ErrUnexpectedEOF)
			return
		case d.b[d.i+k] != lit[k]:
			d.i += k
			d.syntax("invalid character " + strconv.QuoteRune(rune(d.b[d.i])) + " in literal " + lit)
			return
		}
	}
	d.i += len(lit)
}

// number reads a number (RFC 8259 §6) and returns its text, or nil.
func (d *Decoder) number() []byte {
	b, i := d.b, d.i
	digits := func() bool { // one or more
		if i >= len(b) {
			d.i = i
			d.fail(io.ErrUnexpectedEOF)
			return false
		}
		if b[i] < '0' || b[i] > '9' {
			d.i = i
			d.syntax("invalid character " + strconv.QuoteRune(rune(b[i])) + " in a number, want a digit")
			return false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return true
	}
	if b[i] == '-' {
		i++
	}
	if i < len(b) && b[i] == '0' {
		i++ // no leading zeros: "01" is 0 then data
	} else if !digits() {
		return nil
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return nil
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return nil
		}
	}
	lit := b[d.i:i]
	d.i = i
	return lit
}

func isValueStart(c byte) bool {
	return strings.IndexByte(`{["tfn-0123456789`, c) >= 0
}

// wrongType reports a value of another type than want, or a byte that
// starts no value.
func (d *Decoder) wrongType(want string, c byte) {
	if !isValueStart(c) {
		d.syntax("invalid character " + strconv.QuoteRune(rune(c)) + " looking for a value")
		return
	}
	d.Fail("want " + want + ", got " + kind(c))
}
