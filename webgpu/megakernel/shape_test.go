package megakernel

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Runner's size and the package's longest function (issue 34): a
// Runner that keeps every responsibility grows past what one reading
// holds, so the pieces it owns (programs, resources, the watchdog, the
// tracer …) take their methods with them. Over a limit, move methods to
// the type whose state they use rather than raising it.
const (
	maxRunnerFields  = 25
	maxRunnerMethods = 45
	maxFuncLines     = 80
)

// packageShape counts, over the non-test files of this package (js and
// native alike), the fields of type Runner, the methods of Runner and
// *Runner, and the lines of each function.
type packageShape struct {
	fields, methods int
	funcLines       map[string]int
}

func shapeOf(t *testing.T, dir string) packageShape {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	fset := token.NewFileSet()
	s := packageShape{funcLines: map[string]int{}}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					if ts, ok := spec.(*ast.TypeSpec); ok && ts.Name.Name == "Runner" {
						for _, fld := range ts.Type.(*ast.StructType).Fields.List {
							s.fields += max(1, len(fld.Names)) // an embedded field counts once
						}
					}
				}
			case *ast.FuncDecl:
				name := d.Name.Name
				if d.Recv != nil {
					recv := d.Recv.List[0].Type
					if star, ok := recv.(*ast.StarExpr); ok {
						recv = star.X
					}
					if id, ok := recv.(*ast.Ident); ok {
						name = id.Name + "." + name
						if id.Name == "Runner" {
							s.methods++
						}
					}
				}
				s.funcLines[e.Name()+": "+name] = fset.Position(d.End()).Line - fset.Position(d.Pos()).Line + 1
			}
		}
	}
	return s
}

func TestRunnerShape(t *testing.T) {
	s := shapeOf(t, ".")
	require.NotZero(t, s.fields, "type Runner not found")
	t.Logf("Runner: %d fields, %d methods", s.fields, s.methods)
	assert.LessOrEqual(t, s.fields, maxRunnerFields, "fields of Runner")
	assert.LessOrEqual(t, s.methods, maxRunnerMethods, "methods of Runner")
	for fn, n := range s.funcLines {
		assert.LessOrEqualf(t, n, maxFuncLines, "%s is %d lines; split it along its phases", fn, n)
	}
}

// TestShapeCounts checks the counting on a package of known shape.
func TestShapeCounts(t *testing.T) {
	dir := t.TempDir()
	long := "func long() {\n" + strings.Repeat("\t_ = 0\n", maxFuncLines-1) + "}\n"
	src := "package p\n\ntype Runner struct {\n\tEmbedded\n\ta, b int\n\tc string\n}\n\ntype Embedded struct{}\n\n" +
		"func (r *Runner) M1() {}\nfunc (r Runner) m2() {}\nfunc (e *Embedded) X() {}\nfunc f() {}\n" + long
	require.NoError(t, os.WriteFile(dir+"/p.go", []byte(src), 0o600))
	require.NoError(t, os.WriteFile(dir+"/p_test.go", []byte("package p\n\nfunc (r *Runner) T() {}\n"), 0o600))
	s := shapeOf(t, dir)
	assert.Equal(t, 4, s.fields)
	assert.Equal(t, 2, s.methods)
	assert.Equal(t, maxFuncLines+1, s.funcLines["p.go: long"])
	assert.Equal(t, 1, s.funcLines["p.go: Embedded.X"])
}
