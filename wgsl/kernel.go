package wgsl

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// Kernel is the drain with the user's own work compiled into its dispatch
// (docs/OPCODES.md): user opcodes, each a WGSL function, and the named
// storage buffers they use, and whether the drain traces its tasks. The
// zero value is the built-in kernel.
type Kernel struct {
	Opcodes []Opcode
	Buffers []Buffer
	// Trace compiles the traced drain (docs/TRACE.md): a record per
	// claimed slot in a trace buffer bound at abi.BindingTrace.
	Trace bool
}

// Opcode is a user opcode: Value in [abi.UserOpcodeFirst,
// abi.UserOpcodeLast], and WGSL that declares
//
//	fn Name(slot: u32, args: Args) -> Outcome
//
// (plus any helpers it needs). The drain calls it for every claimed slot
// whose OPCODE is Value.
type Opcode struct {
	Value uint32
	Name  string
	WGSL  string
}

// Access is how the kernel may use a user buffer.
type Access uint8

const (
	// ReadOnly binds the buffer as var<storage, read>.
	ReadOnly Access = iota
	// ReadWrite binds it as var<storage, read_write>.
	ReadWrite
)

// String is the access's name in declarations: "read" or "read_write".
func (a Access) String() string {
	if a == ReadWrite {
		return "read_write"
	}
	return "read"
}

// Buffer is a user storage buffer: bound as `Name: array<Element>` at
// binding abi.BindingFirstUser + its index, Size bytes, the first
// len(Init) of them Init and the rest zero.
type Buffer struct {
	Name    string
	Access  Access
	Element string // one of Elements; "" means u32
	Size    uint64 // bytes, whole words, at least one
	Init    []byte // at most Size bytes, whole words
}

// Elements are the element types a user buffer may have; the atomic ones
// need ReadWrite.
var Elements = []string{"u32", "i32", "f32", "atomic<u32>", "atomic<i32>"}

// element is b's element type, u32 when unset.
func (b *Buffer) element() string {
	if b.Element == "" {
		return "u32"
	}
	return b.Element
}

// Limits bounding a declaration before any device is asked.
const (
	// MaxNameBytes is the longest opcode or buffer name.
	MaxNameBytes = 64
	// MaxOpcodeSourceBytes is the most WGSL one opcode may bring.
	MaxOpcodeSourceBytes = 64 << 10
)

// DeclError is a kernel declaration refused before any GPU work. Field
// names the declaration as the JS API spells it (opcodes[1].name,
// buffers[0].size), so the page and the API can point at it.
type DeclError struct {
	Field  string
	Reason string
	// Line is the line of the user's WGSL at fault (opcodes[i].wgsl),
	// 1-based; 0 when the refusal has none.
	Line int
}

func (e *DeclError) Error() string { return "kernel: " + e.Field + ": " + e.Reason }

func declErr(field, format string, args ...any) error {
	return &DeclError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// IsZero reports whether k declares no user opcode or buffer (traced or
// not: tracing adds none).
func (k *Kernel) IsZero() bool { return len(k.Opcodes) == 0 && len(k.Buffers) == 0 }

// Clone returns a deep copy of k (Init bytes included).
func (k Kernel) Clone() Kernel {
	k.Opcodes = slices.Clone(k.Opcodes)
	k.Buffers = slices.Clone(k.Buffers)
	for i := range k.Buffers {
		k.Buffers[i].Init = slices.Clone(k.Buffers[i].Init)
	}
	return k
}

// Equal reports whether k and o compile and bind the same (Init included).
func (k *Kernel) Equal(o *Kernel) bool {
	return k.SameProgram(o) && slices.EqualFunc(k.Buffers, o.Buffers, func(a, b Buffer) bool {
		return string(a.Init) == string(b.Init)
	})
}

// SameProgram reports whether k and o compile to the same drain and bind
// the same buffers, whatever their initial bytes: one compiled module and
// its pipelines serve both.
func (k *Kernel) SameProgram(o *Kernel) bool {
	return k.Trace == o.Trace && slices.Equal(k.Opcodes, o.Opcodes) && slices.EqualFunc(k.Buffers, o.Buffers, func(a, b Buffer) bool {
		return a.Name == b.Name && a.Access == b.Access && a.element() == b.element() && a.Size == b.Size
	})
}

// Validate reports the first declaration a runner cannot compile: an
// opcode outside the user range or taken twice, a name that is not a WGSL
// identifier, is taken twice or is the kernel's own, WGSL that does not
// declare the opcode's function or declares a binding or an override
// (checkSnippet), or a buffer of no words, of partial
// words, with too many initial bytes or an unknown element type. Device
// limits (buffer sizes, binding counts) are megakernel.Options.Validate's.
func (k *Kernel) Validate() error {
	names := map[string]string{} // name → the field that took it
	claim := func(field, name string) error {
		if err := checkName(field, name); err != nil {
			return err
		}
		if prev, ok := names[name]; ok {
			return declErr(field, "%q is already the name of %s", name, prev)
		}
		names[name] = field
		return nil
	}
	for i, op := range k.Opcodes {
		field := fmt.Sprintf("opcodes[%d]", i)
		if !abi.IsUserOpcode(op.Value) {
			return declErr(field+".opcode", "%#x is not a user opcode: user opcodes are %#x…%#x (the rest belong to the built-in kernel)",
				op.Value, abi.UserOpcodeFirst, abi.UserOpcodeLast)
		}
		for j := range i {
			if k.Opcodes[j].Value == op.Value {
				return declErr(field+".opcode", "%#x is already opcodes[%d] (%s)", op.Value, j, k.Opcodes[j].Name)
			}
		}
		if err := claim(field+".name", op.Name); err != nil {
			return err
		}
		if slices.Contains(callScopeNames(), op.Name) {
			return declErr(field+".name", "%q is declared by the kernel where it calls the opcode (execute's op, pre and slot): "+
				"the call would name that, not your function; pick another name", op.Name)
		}
		switch {
		case strings.TrimSpace(op.WGSL) == "":
			return declErr(field+".wgsl", "is empty: write fn %s(slot: u32, args: Args) -> Outcome", op.Name)
		case len(op.WGSL) > MaxOpcodeSourceBytes:
			return declErr(field+".wgsl", "is %d bytes, more than %d", len(op.WGSL), MaxOpcodeSourceBytes)
		case !declaresFn(op.WGSL, op.Name):
			return declErr(field+".wgsl", "declares no function %s: write fn %s(slot: u32, args: Args) -> Outcome", op.Name, op.Name)
		}
		if err := checkSnippet(field+".wgsl", op); err != nil {
			return err
		}
	}
	for i, b := range k.Buffers {
		field := fmt.Sprintf("buffers[%d]", i)
		if err := claim(field+".name", b.Name); err != nil {
			return err
		}
		el := b.element()
		switch {
		case !slices.Contains(Elements, el):
			return declErr(field+".element", "%q: want one of %s", b.Element, strings.Join(Elements, ", "))
		case b.Access != ReadOnly && b.Access != ReadWrite:
			return declErr(field+".access", "Access(%d): want read or read_write", b.Access)
		case strings.HasPrefix(el, "atomic") && b.Access != ReadWrite:
			return declErr(field+".access", "an %s buffer must be read_write (atomics write)", el)
		case b.Size == 0 || b.Size%abi.WordBytes != 0:
			return declErr(field+".size", "%d bytes: want whole words (a multiple of %d), at least one", b.Size, abi.WordBytes)
		case uint64(len(b.Init)) > b.Size:
			return declErr(field+".bytes", "%d initial bytes do not fit the buffer's %d", len(b.Init), b.Size)
		case len(b.Init)%abi.WordBytes != 0:
			return declErr(field+".bytes", "%d initial bytes are not whole words (a multiple of %d)", len(b.Init), abi.WordBytes)
		}
	}
	return nil
}

// checkName accepts a WGSL identifier of at most MaxNameBytes bytes that is
// neither a WGSL keyword nor declared by the kernel itself.
func checkName(field, name string) error {
	switch {
	case name == "":
		return declErr(field, "is empty: want a WGSL identifier (letters, digits, _)")
	case len(name) > MaxNameBytes:
		return declErr(field, "%q is %d bytes, more than %d", name, len(name), MaxNameBytes)
	case !isIdent(name):
		return declErr(field, "%q is not a WGSL identifier: want a letter or _, then letters, digits or _", name)
	case strings.HasPrefix(name, "__"):
		return declErr(field, "%q: names starting with __ are reserved by WGSL", name)
	case slices.Contains(wgslKeywords, name):
		return declErr(field, "%q is a WGSL keyword or type", name)
	case slices.Contains(kernelNames(), name):
		return declErr(field, "%q is declared by the kernel itself (docs/OPCODES.md lists its names)", name)
	}
	return nil
}

func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return s != "" && s != "_"
}

// declaresFn reports whether src has "fn name(" (any spaces before the
// parenthesis) outside comments, at the start of a line or after a space.
func declaresFn(src, name string) bool {
	code := stripLineComments(src)
	for rest := code; ; {
		i := strings.Index(rest, "fn ")
		if i < 0 {
			return false
		}
		before := i == 0 || rest[i-1] == ' ' || rest[i-1] == '\n' || rest[i-1] == '\t' || rest[i-1] == '}'
		after := strings.TrimLeft(rest[i+3:], " \t")
		if id, tail := cutIdent(after); before && id == name && strings.HasPrefix(strings.TrimLeft(tail, " \t\n"), "(") {
			return true
		}
		rest = rest[i+3:]
	}
}

func stripLineComments(src string) string {
	var b strings.Builder
	for line := range strings.Lines(src) {
		if i := strings.Index(line, "//"); i >= 0 {
			b.WriteString(line[:i])
			b.WriteByte('\n')
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}

// cutIdent splits s after its leading identifier.
func cutIdent(s string) (id, rest string) {
	n := 0
	for n < len(s) && isWordByte(s[n]) {
		n++
	}
	return s[:n], s[n:]
}

// wgslKeywords are the WGSL keywords and predeclared type names a user
// name may not take (WGSL §15, the ones a person is likely to try).
var wgslKeywords = []string{
	"alias", "array", "atomic", "bitcast", "bool", "break", "case", "const", "const_assert", "continue",
	"continuing", "default", "diagnostic", "discard", "else", "enable", "f16", "f32", "false", "fn", "for",
	"i32", "if", "let", "loop", "mat2x2", "mat3x3", "mat4x4", "override", "ptr", "requires", "return",
	"sampler", "struct", "switch", "true", "u32", "var", "vec2", "vec3", "vec4", "while",
}
