package kerneldef

import (
	"fmt"
	"strconv"
	"strings"
)

// Expr is an argument expression of the workload form: integers (decimal
// or 0x hex), the item index i, the item count n, + - * / %, min(a, b),
// max(a, b) and parentheses, evaluated in uint32 arithmetic (wrapping, as the kernel's
// words do). "64*i", "min(64, 4000 - 64*i)" and "(i*7)%n" are expressions.
type Expr struct {
	src  string
	code []term // postfix
}

type termKind uint8

const (
	termConst termKind = iota
	termIndex
	termCount
	termOp
)

type term struct {
	kind termKind
	val  uint32 // termConst's value; termOp's operator byte
}

// maxExprBytes bounds an expression's source: the form's fields are short.
const maxExprBytes = 256

// ParseExpr parses src; the error says where it stops making sense.
func ParseExpr(src string) (Expr, error) {
	if len(src) > maxExprBytes {
		return Expr{}, fmt.Errorf("%d bytes: at most %d", len(src), maxExprBytes)
	}
	p := exprParser{src: src}
	p.skip()
	if p.pos == len(src) {
		return Expr{}, fmt.Errorf("empty: want a number or an expression of i (the item's index) and n (the count)")
	}
	if err := p.sum(0); err != nil {
		return Expr{}, err
	}
	if p.pos != len(src) {
		return Expr{}, p.errorf("unexpected %q", src[p.pos])
	}
	return Expr{src: src, code: p.code}, nil
}

// String is the source the expression was parsed from.
func (e Expr) String() string { return e.src }

// Eval is the expression's value for item i of n. A division by zero is 0,
// as in WGSL's u32 arithmetic, so no expression can fail at run time.
func (e Expr) Eval(i, n uint32) uint32 {
	var stack [maxExprBytes]uint32
	sp := 0
	for _, t := range e.code {
		switch t.kind {
		case termConst:
			stack[sp] = t.val
		case termIndex:
			stack[sp] = i
		case termCount:
			stack[sp] = n
		case termOp:
			sp -= 2
			stack[sp] = apply(byte(t.val), stack[sp], stack[sp+1])
		}
		sp++
	}
	if sp == 0 {
		return 0
	}
	return stack[0]
}

func apply(op byte, a, b uint32) uint32 {
	switch op {
	case '+':
		return a + b
	case '-':
		return a - b
	case '*':
		return a * b
	case '/':
		if b == 0 {
			return 0
		}
		return a / b
	case '%':
		if b == 0 {
			return 0
		}
		return a % b
	case '<':
		return min(a, b)
	default: // '>'
		return max(a, b)
	}
}

// exprParser is a recursive-descent parser that emits postfix code.
type exprParser struct {
	src  string
	pos  int
	code []term
}

// maxDepth bounds nesting, so a hostile "((((…" cannot grow the stack;
// every term pushes at most one value, and the source is at most
// maxExprBytes, so Eval's fixed stack always suffices.
const maxDepth = 32

func (p *exprParser) errorf(format string, args ...any) error {
	return fmt.Errorf("column %d: %s", p.pos+1, fmt.Sprintf(format, args...))
}

func (p *exprParser) skip() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

// levels are the binary operators by precedence, loosest first:
//
//	sum     := product (("+" | "-") product)*
//	product := atom (("*" | "/" | "%") atom)*
var levels = [...]string{"+-", "*/%"}

// sum parses a sum, the loosest level.
func (p *exprParser) sum(depth int) error { return p.binary(0, depth) }

// binary parses the operators of levels[level] and tighter ones.
func (p *exprParser) binary(level, depth int) error {
	operand := func() error {
		if level+1 < len(levels) {
			return p.binary(level+1, depth)
		}
		return p.atom(depth)
	}
	if err := operand(); err != nil {
		return err
	}
	for p.pos < len(p.src) && strings.IndexByte(levels[level], p.src[p.pos]) >= 0 {
		op := p.src[p.pos]
		p.pos++
		p.skip()
		if err := operand(); err != nil {
			return err
		}
		p.code = append(p.code, term{kind: termOp, val: uint32(op)})
	}
	return nil
}

// atom := number | "i" | "n" | ("min" | "max") "(" sum "," sum ")" | "(" sum ")"
func (p *exprParser) atom(depth int) error {
	if p.pos == len(p.src) {
		return p.errorf("the expression ends: want a number, i, n or (")
	}
	c := p.src[p.pos]
	switch {
	case c == '(':
		if depth == maxDepth {
			return p.errorf("nested deeper than %d", maxDepth)
		}
		p.pos++
		p.skip()
		if err := p.sum(depth + 1); err != nil {
			return err
		}
		if err := p.expect(')', "want )"); err != nil {
			return err
		}
	case c >= 'a' && c <= 'z':
		start := p.pos
		for p.pos < len(p.src) && p.src[p.pos] >= 'a' && p.src[p.pos] <= 'z' {
			p.pos++
		}
		switch name := p.src[start:p.pos]; name {
		case "i":
			p.code = append(p.code, term{kind: termIndex})
		case "n":
			p.code = append(p.code, term{kind: termCount})
		case "min", "max":
			if err := p.call(name, depth); err != nil {
				return err
			}
		default:
			p.pos = start
			return p.errorf("unknown name %q: want i, n, min( or max(", name)
		}
	case c >= '0' && c <= '9':
		start := p.pos
		for p.pos < len(p.src) && isNumberByte(p.src[p.pos]) {
			p.pos++
		}
		v, err := strconv.ParseUint(p.src[start:p.pos], 0, 32)
		if err != nil {
			p.pos = start
			return p.errorf("%q is not a u32", p.src[start:start+numberLen(p.src[start:])])
		}
		p.code = append(p.code, term{kind: termConst, val: uint32(v)})
	default:
		return p.errorf("unexpected %q: want a number, i, n or (", c)
	}
	p.skip()
	return nil
}

// call parses the parenthesised arguments of min or max.
func (p *exprParser) call(name string, depth int) error {
	p.skip()
	if err := p.expect('(', "want ( after "+name); err != nil {
		return err
	}
	if depth == maxDepth {
		return p.errorf("nested deeper than %d", maxDepth)
	}
	if err := p.sum(depth + 1); err != nil {
		return err
	}
	if err := p.expect(',', "want , between "+name+"'s two arguments"); err != nil {
		return err
	}
	if err := p.sum(depth + 1); err != nil {
		return err
	}
	if err := p.expect(')', "want ) after "+name+"'s arguments"); err != nil {
		return err
	}
	op := byte('<')
	if name == "max" {
		op = '>'
	}
	p.code = append(p.code, term{kind: termOp, val: uint32(op)})
	return nil
}

// expect consumes c and the blanks after it, or fails with msg.
func (p *exprParser) expect(c byte, msg string) error {
	if p.pos == len(p.src) || p.src[p.pos] != c {
		return p.errorf("%s", msg)
	}
	p.pos++
	p.skip()
	return nil
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == 'x' || c == 'X' || c == '_'
}

func numberLen(s string) int {
	n := 0
	for n < len(s) && isNumberByte(s[n]) {
		n++
	}
	return n
}
