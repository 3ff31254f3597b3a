package main

import (
	"go/build"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/ringscope/ringscope"

// allowedProjectImports is the dependency direction of shared/docs/STYLE.md:
// for each package (by its path in the module, longest prefix wins), the
// project packages it may import. A package not listed may import nothing of
// the project.
var allowedProjectImports = map[string][]string{
	"wgsl/abi":        {},
	"decode":          {"wgsl/abi"},
	"wgsl":            {"wgsl/abi", "wgsl/"},
	"wgsl/":           {"wgsl", "wgsl/"},
	"webgpu":          {},
	"webgpu/":         {"webgpu", "webgpu/", "wgsl", "wgsl/", "decode"},
	"ui":              {"decode", "wgsl/abi", "ui/"},
	"wasm":            {"*"},
	"wasm/":           {"*"},
	".":               {},
	"internal/tools/": {"wgsl/abi", "wgsl", "decode"},
	"internal/":       {},
}

// leafPackages import nothing of the project, so any package may import them.
var leafPackages = []string{"internal/heapsort"}

// mayImportSyscallJS lists the packages allowed to touch syscall/js.
var mayImportSyscallJS = []string{"webgpu", "wasm"}

func TestDependencyDirection(t *testing.T) {
	pkgs := projectPackages(t)
	require.NotEmpty(t, pkgs)
	for _, ctx := range []build.Context{nativeContext(), wasmContext()} {
		for _, dir := range pkgs {
			p, err := ctx.ImportDir(dir, 0)
			if _, ok := err.(*build.NoGoError); ok {
				continue
			}
			require.NoError(t, err, dir)
			rel := filepath.ToSlash(dir)
			for _, imp := range p.Imports {
				if imp == "syscall/js" {
					assert.Truef(t, underAny(rel, mayImportSyscallJS), "%s (%s) imports syscall/js; only webgpu and wasm may", rel, ctx.GOOS)
					continue
				}
				target, ok := strings.CutPrefix(imp, module+"/")
				if !ok {
					continue
				}
				assert.Truef(t, allowed(rel, target), "%s (%s) must not import %s (shared/docs/STYLE.md)", rel, ctx.GOOS, target)
			}
		}
	}
}

func allowed(from, to string) bool {
	if slices.Contains(leafPackages, to) {
		return true
	}
	rule, ok := ruleFor(from)
	if !ok {
		return false
	}
	for _, a := range rule {
		if a == "*" || a == to || (strings.HasSuffix(a, "/") && strings.HasPrefix(to, a)) {
			return true
		}
	}
	return false
}

// ruleFor finds the rule of the longest matching key: "x" matches x itself,
// "x/" matches packages below x.
func ruleFor(pkg string) ([]string, bool) {
	best, bestLen, found := []string(nil), -1, false
	for key, rule := range allowedProjectImports {
		match := key == pkg || (strings.HasSuffix(key, "/") && strings.HasPrefix(pkg, key))
		if match && len(key) > bestLen {
			best, bestLen, found = rule, len(key), true
		}
	}
	return best, found
}

func underAny(pkg string, roots []string) bool {
	for _, r := range roots {
		if pkg == r || strings.HasPrefix(pkg, r+"/") {
			return true
		}
	}
	return false
}

func projectPackages(t *testing.T) []string {
	var dirs []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		base := path.Base(p)
		if p != "." && (strings.HasPrefix(base, ".") || base == "node_modules" || base == "testdata" || base == "e2e" || base == "static" || base == "bench") {
			return filepath.SkipDir
		}
		dirs = append(dirs, p)
		return nil
	})
	require.NoError(t, err)
	return dirs
}

func nativeContext() build.Context { return build.Default }

func wasmContext() build.Context {
	c := build.Default
	c.GOOS, c.GOARCH = "js", "wasm"
	return c
}

func TestRuleTable(t *testing.T) {
	assert.True(t, allowed("decode", "wgsl/abi"))
	assert.False(t, allowed("decode", "webgpu"))
	assert.False(t, allowed("wgsl/abi", "decode"))
	assert.True(t, allowed("wgsl/ref", "wgsl/abi"))
	assert.False(t, allowed("wgsl/ref", "decode"))
	assert.True(t, allowed("webgpu/megakernel", "decode"))
	assert.False(t, allowed("webgpu", "decode"))
	assert.False(t, allowed("ui", "webgpu"))
	assert.False(t, allowed("decode", "wasm"))
	assert.False(t, underAny("decode", mayImportSyscallJS))
	assert.True(t, underAny("webgpu/megakernel", mayImportSyscallJS))
	assert.True(t, allowed("decode", "internal/heapsort"))
	assert.False(t, allowed("internal/heapsort", "decode"))
}
