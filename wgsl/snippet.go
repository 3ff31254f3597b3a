package wgsl

import (
	"fmt"
	"strings"
)

// checkSnippet refuses what a user opcode's WGSL must not declare, at its
// line: a binding (@group or @binding: the kernel binds every buffer, and
// a binding the layout lacks compiles but makes no pipeline) and an
// override (one without a default compiles but makes no pipeline; the
// kernel sets its own overrides only). A const does what an override
// would. Comments are skipped, so a commented-out binding is no refusal.
func checkSnippet(field string, op Opcode) error {
	code := blankComments(op.WGSL)
	line := 1
	for i := 0; i < len(code); i++ {
		c := code[i]
		if c == '\n' {
			line++
			continue
		}
		if i > 0 && isWordByte(code[i-1]) {
			continue
		}
		var what string
		switch {
		case c == '@':
			switch id, _ := cutIdent(strings.TrimLeft(code[i+1:], " \t")); id {
			case "group", "binding":
				what = "@" + id + ": a user opcode declares no bindings (the kernel binds each of buffers at @binding(8 + its index)); declare a buffer in buffers and use it by name"
			}
		case c == 'o':
			if id, _ := cutIdent(code[i:]); id == "override" {
				what = "override: the kernel sets its own pipeline overrides only; use a const"
			}
		}
		if what != "" {
			return &DeclError{Field: field, Line: line,
				Reason: fmt.Sprintf("line %d of %s: %s", line, op.Name, what)}
		}
	}
	return nil
}

// blankComments blanks WGSL's line and block comments (block comments
// nest), keeping every newline so that lines keep their numbers.
func blankComments(src string) string {
	b := []byte(src)
	depth := 0
	for i := 0; i < len(b); i++ {
		switch {
		case depth == 0 && b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			depth++
			b[i], b[i+1] = ' ', ' '
			i++
		case depth > 0 && b[i] == '*' && i+1 < len(b) && b[i+1] == '/':
			depth--
			b[i], b[i+1] = ' ', ' '
			i++
		case depth > 0 && b[i] != '\n':
			b[i] = ' '
		}
	}
	return string(b)
}
