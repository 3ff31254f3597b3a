package wgsl

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A user opcode's WGSL may declare no binding and no override: each would
// compile and then make no pipeline (issue 35). Refused at its line.
func TestSnippetRefusesBindingsAndOverrides(t *testing.T) {
	for name, tc := range map[string]struct {
		wgsl string
		line int
		want string
	}{
		"group 1":               {"@group(1) @binding(0) var<storage, read> x: array<u32>;\n" + countFn, 1, "@group: a user opcode declares no bindings"},
		"binding 9":             {"\n\n@binding(9) @group(0) var<storage, read_write> x: array<u32>;\n" + countFn, 3, "@binding: a user opcode declares no bindings"},
		"spaced attribute":      {countFn + "@ group (0)\n", 6, "@group"},
		"override":              {"override k: u32;\n" + countFn, 1, "override: the kernel sets its own"},
		"override with default": {countFn + "\n@id(3) override k: u32 = 2u;\n", 7, "override"},
	} {
		t.Run(name, func(t *testing.T) {
			k := userKernel().Clone()
			k.Opcodes[0].WGSL = tc.wgsl
			err := k.Validate()
			var de *DeclError
			require.True(t, errors.As(err, &de), "%v", err)
			assert.Equal(t, "opcodes[0].wgsl", de.Field)
			assert.Equal(t, tc.line, de.Line)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "of count", "the opcode is named")
		})
	}
	for name, src := range map[string]string{
		"line comment":         "// @group(1) @binding(9) override\n" + countFn,
		"block comment":        "/* @binding(9)\n override k: u32; */\n" + countFn,
		"nested block comment": "/* a /* @group(1) */ override */\n" + countFn,
		"identifier suffix":    "const no_override = 1u;\nconst overrides = 2u;\n" + countFn,
		"other attributes":     "@must_use fn two() -> u32 { return 2u; }\n" + countFn,
	} {
		k := userKernel().Clone()
		k.Opcodes[0].WGSL = src
		assert.NoError(t, k.Validate(), name)
	}
}

func TestBlankCommentsKeepsLines(t *testing.T) {
	src := "a // b\n/* c\n d /* e */ f\n*/ g\nh"
	got := blankComments(src)
	assert.Equal(t, "a     \n    \n"+strings.Repeat(" ", len(" d /* e */ f"))+"\n   g\nh", got)
}
