package render

// The instruction buffer: a sequence of ops, each one byte of code and its
// operands, ended by opEnd. Operands are little-endian uint32s (node ids,
// symbol numbers, flags) and strings (a uint32 byte length, then UTF-8).
// static/render.js reads the same table (its const OP); ops_test.go
// checks that the two agree.
const (
	opEnd       byte = iota // end of the buffer
	opSym                   // sym, string: define symbol sym
	opClearSyms             // forget every symbol
	opAdopt                 // id, selector, tag sym, ns sym: id is the mount element, emptied
	opElement               // id, tag sym: create an element
	opElementNS             // id, tag sym, ns sym: create an element in a namespace
	opText                  // id, string: create a text node
	opComment               // id, string: create a comment
	opSetAttr               // id, name sym, value
	opSetAttrNS             // id, ns sym, name sym, value
	opDelAttr               // id, name sym
	opDelAttrNS             // id, ns sym, name sym
	opContent               // id, html: the element's content (vg-content); plain text when it has no markup
	opSetText               // id, string: a text node's or comment's data
	opAppend                // parent id, child id
	opInsert                // parent id, child id, before id
	opRemove                // id: detach the node and forget it
	opFree                  // id: forget a node detached with its ancestor
	opListen                // id, slot, type sym, flags (1 capture, 2 passive)
	opUnlisten              // id, slot
	opCallback              // id: hand the node back to Go (vg-js-create/populate)
	opProp                  // id, name sym, JSON value: set a JS property
)

// opNames are the ops' names in render.js's table, by code.
var opNames = [...]string{
	opEnd: "END", opSym: "SYM", opClearSyms: "CLEAR_SYMS", opAdopt: "ADOPT",
	opElement: "ELEMENT", opElementNS: "ELEMENT_NS", opText: "TEXT", opComment: "COMMENT",
	opSetAttr: "SET_ATTR", opSetAttrNS: "SET_ATTR_NS", opDelAttr: "DEL_ATTR", opDelAttrNS: "DEL_ATTR_NS",
	opContent: "CONTENT", opSetText: "SET_TEXT", opAppend: "APPEND", opInsert: "INSERT",
	opRemove: "REMOVE", opFree: "FREE", opListen: "LISTEN", opUnlisten: "UNLISTEN",
	opCallback: "CALLBACK", opProp: "PROP",
}

// Listener flags of opListen.
const (
	flagCapture = 1
	flagPassive = 2
)

// maxSyms bounds the symbol table: names are a small closed set (tags,
// attribute names, event types), so reaching it means names are made at
// run time; the table then starts over rather than grow without end.
const maxSyms = 4096

// encoder writes one render's ops into buf, reused render after render.
// The zero value is ready; syms outlives a render, as render.js's table
// does.
type encoder struct {
	buf  []byte
	syms map[string]uint32
}

func (e *encoder) reset() { e.buf = e.buf[:0] }

func (e *encoder) u8(b byte) { e.buf = append(e.buf, b) }

// u32 appends v little-endian. Its own shifts, not encoding/binary's,
// which the page builds without inlining (the Makefile): an operand is
// written per node and attribute every frame.
func (e *encoder) u32(v uint32) { e.buf = append(e.buf, byte(v), byte(v>>8), byte(v>>16), byte(v>>24)) }

func (e *encoder) str(s string) {
	e.u32(uint32(len(s)))
	e.buf = append(e.buf, s...)
}

// sym returns s's symbol number, defining it first (an opSym before the op
// that uses it) when this is its first use. Call it before writing the op.
func (e *encoder) sym(s string) uint32 {
	if n, ok := e.syms[s]; ok {
		return n
	}
	if e.syms == nil || len(e.syms) >= maxSyms {
		if e.syms != nil {
			e.u8(opClearSyms)
		}
		e.syms = make(map[string]uint32, 64)
	}
	n := uint32(len(e.syms))
	e.syms[s] = n
	e.u8(opSym)
	e.u32(n)
	e.str(s)
	return n
}

// forget drops the symbol table (render.js lost its own: a new page state).
func (e *encoder) forget() { e.syms = nil }

// op1 writes an op with one id operand.
func (e *encoder) op1(code byte, id uint32) {
	e.u8(code)
	e.u32(id)
}

// end closes the buffer and returns it.
func (e *encoder) end() []byte {
	e.u8(opEnd)
	return e.buf
}
