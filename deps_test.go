package main

// This file is a statement of policy: which package of ringscope may
// import which (shared/docs/STYLE.md, "Layout shows the architecture"),
// written as a test so that it cannot rot, as go/build/deps_test.go is for
// the standard library. DO NOT CHANGE THESE RULES TO FIX A BUILD: a
// failure here means an import goes against the design; move the code,
// or change the design first and the rule with it.
//
// Three kinds of rule:
//
//   - projectRules: the project packages each package may import, the
//     dependency direction abi ← decode ← runner ← wasm, ui beside it;
//   - jsBoundary: syscall/js and the packages that are only syscall/js
//     under another name (Vugu's vugu/js, gowebapi's core/js) are the JS
//     boundary, which only webgpu, ui and wasm touch;
//   - thirdPartyRules: the modules outside the standard library each
//     package may import, with testify for tests only.
//
// Every rule must match a package that exists (TestNoDeadRules).

import (
	"go/build"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/ringscope/ringscope"

// projectRules: for each package (its path in the module; "x/" stands for
// the packages below x, and the longest key wins), the project packages its
// non-test files may import. A package no key matches may import none.
// Tests may import any project package (to check against a twin), but
// not the JS boundary or a module the rules below do not allow.
var projectRules = map[string][]string{
	"wgsl/abi":         {},
	"decode":           {"wgsl/abi"},
	"decode/frame":     {"decode", "decode/diagnose", "wgsl/abi"},
	"decode/diagnose":  {"decode", "wgsl/abi"},
	"decode/tasktrace": {"decode", "wgsl/abi"},
	"wgsl":             {"wgsl/abi", "wgsl/"},
	"wgsl/":            {"wgsl", "wgsl/"},
	"webgpu":           {},
	"webgpu/":          {"webgpu", "webgpu/", "wgsl", "wgsl/", "decode", "decode/tasktrace"},
	"settings":         {"decode", "wgsl/abi", "wgsl/host", "wgsl/workload"}, // workload: the presets catalogue
	"ui":               {"decode", "decode/diagnose", "decode/frame", "decode/tasktrace", "settings", "wgsl/abi"},
	"wasm":             {"*"}, // the composition root
	// Inside wasm/, the live loop and what it reports run natively, and no
	// import runs back up: session and capture know no controller, the
	// controller no JS package (jsapi), and only the composition root the
	// dashboard (ui).
	"wasm/api":        {"decode", "decode/", "settings", "wasm/capture", "webgpu", "wgsl/abi", "wgsl/host"},
	"wasm/capture":    {"decode", "decode/", "wgsl/abi"},
	"wasm/pace":       {},
	"wasm/session":    {"decode", "decode/", "wasm/api", "webgpu/megakernel", "wgsl/abi", "wgsl/host", "wgsl/workload"},
	"wasm/browser":    {},
	"wasm/devloss":    {"wasm/api", "webgpu"},
	"wasm/render":     {},
	"wasm/jsapi":      {"decode", "decode/", "wasm/api", "wasm/browser", "wasm/capture", "wasm/controller", "wasm/pace", "webgpu", "webgpu/", "wgsl", "wgsl/"},
	"wasm/testhooks":  {"decode", "wasm/api", "wasm/browser", "wasm/jsapi", "webgpu", "webgpu/"},
	"wasm/controller": {"decode", "decode/", "settings", "wasm/api", "wasm/browser", "wasm/capture", "wasm/devloss", "wasm/pace", "wasm/session", "webgpu", "webgpu/", "wgsl", "wgsl/"},
	".":               {},
	"internal/":       {},
}

// leafPackages import nothing of the project, so any package may import
// them.
var leafPackages = []string{"internal/heapsort", "internal/nocompare", "internal/runsort", "internal/jsontext", "internal/loghist", "internal/numfmt", "internal/pushlabel", "internal/wasmdata", "wgsl/abi/spawn"}

// jsBoundary are the packages through which Go calls JavaScript.
var jsBoundary = []string{"syscall/js", "github.com/vugu/vugu/js", "github.com/gowebapi/webapi/core/js"}

// mayTouchJS are the packages (and those below them) that may import the
// JS boundary: the WebGPU binding, the components and the composition
// root. Everything else is plain Go and runs natively.
var mayTouchJS = []string{"webgpu", "ui", "wasm"}

// plainWasm are the packages of wasm/ that stay plain Go, tested
// natively: they import neither the JS boundary nor Vugu nor gowebapi
// (nor ui: projectRules).
var plainWasm = []string{"wasm/api", "wasm/capture", "wasm/pace", "wasm/session"}

// noJSWasm are the packages of wasm/ that run in the page but do not
// call JavaScript themselves: the controller takes plain Go values (the
// JS package, wasm/jsapi, reads the caller's arguments and wraps the
// host's GPU objects) and reaches the browser through webgpu and
// wasm/browser only.
var noJSWasm = []string{"wasm/controller"}

// thirdPartyRules: for each module outside the standard library, the
// packages (and those below them) whose non-test files may import it.
// Vugu renders the components and gowebapi types the DOM at their edges;
// WebGPU has no gowebapi bindings, so webgpu stays on syscall/js.
var thirdPartyRules = map[string][]string{
	"github.com/vugu/vugu":       {"ui", "wasm"},
	"github.com/gowebapi/webapi": {"ui", "wasm"},
}

// testOnlyModules may be imported by tests, of any package, only.
var testOnlyModules = []string{"github.com/stretchr/testify"}

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
				if msg := checkImport(rel, imp, false); msg != "" {
					t.Errorf("%s (%s): %s", rel, ctx.GOOS, msg)
				}
			}
			for _, imp := range append(slices.Clip(p.TestImports), p.XTestImports...) {
				if msg := checkImport(rel, imp, true); msg != "" {
					t.Errorf("%s (%s, tests): %s", rel, ctx.GOOS, msg)
				}
			}
		}
	}
}

// checkImport says why package from may not import imp ("" if it may).
func checkImport(from, imp string, test bool) string {
	if underAny(from, plainWasm) && (slices.Contains(jsBoundary, imp) || within(imp, "github.com/vugu/vugu") || within(imp, "github.com/gowebapi/webapi")) {
		return "imports " + imp + "; " + from + " is plain Go (plainWasm)"
	}
	if slices.Contains(noJSWasm, from) && slices.Contains(jsBoundary, imp) {
		return "imports " + imp + "; " + from + " takes Go values, the JS package reads JavaScript's (noJSWasm)"
	}
	if slices.Contains(jsBoundary, imp) && !underAny(from, mayTouchJS) {
		return "imports " + imp + ", the JS boundary; only " + strings.Join(mayTouchJS, ", ") + " may"
	}
	if target, ok := strings.CutPrefix(imp, module+"/"); ok {
		if !test && !allowed(from, target) {
			return "must not import " + target + " (shared/docs/STYLE.md)"
		}
		return ""
	}
	if imp == module || !isThirdParty(imp) {
		return ""
	}
	for _, m := range testOnlyModules {
		if within(imp, m) {
			if !test {
				return "imports " + imp + " outside a test"
			}
			return ""
		}
	}
	for m, users := range thirdPartyRules {
		if within(imp, m) {
			if test || underAny(from, users) {
				return ""
			}
			return "imports " + imp + "; only " + strings.Join(users, ", ") + " may"
		}
	}
	return "imports " + imp + ", a module no rule allows (deps_test.go: thirdPartyRules)"
}

// isThirdParty reports whether an import path names another module: its
// first element has a dot, as the standard library's never do.
func isThirdParty(imp string) bool {
	first, _, _ := strings.Cut(imp, "/")
	return strings.Contains(first, ".")
}

// within reports whether imp is module m or a package of it.
func within(imp, m string) bool { return imp == m || strings.HasPrefix(imp, m+"/") }

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
	for key, rule := range projectRules {
		if matchKey(key, pkg) && len(key) > bestLen {
			best, bestLen, found = rule, len(key), true
		}
	}
	return best, found
}

func matchKey(key, pkg string) bool {
	return key == pkg || (strings.HasSuffix(key, "/") && strings.HasPrefix(pkg, key))
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

// TestNoDeadRules: a rule for a package that does not exist, or that
// allows what nothing could import, is noise that hides the real policy.
func TestNoDeadRules(t *testing.T) {
	var pkgs []string
	for _, dir := range projectPackages(t) {
		if hasGo(dir) {
			pkgs = append(pkgs, filepath.ToSlash(dir))
		}
	}
	exists := func(key string) bool {
		return slices.ContainsFunc(pkgs, func(p string) bool { return matchKey(key, p) })
	}
	for key, targets := range projectRules {
		assert.Truef(t, exists(key), "projectRules[%q] matches no package", key)
		for _, to := range targets {
			assert.Truef(t, to == "*" || exists(to), "projectRules[%q] allows %q, which matches no package", key, to)
		}
	}
	for _, p := range slices.Concat(leafPackages, mayTouchJS, noJSWasm) {
		assert.Truef(t, exists(p), "%q names no package", p)
	}
	for m, users := range thirdPartyRules {
		assert.Truef(t, requires(t, m), "thirdPartyRules[%q]: go.mod does not require it", m)
		for _, u := range users {
			assert.Truef(t, exists(u), "thirdPartyRules[%q] allows %q, which names no package", m, u)
		}
	}
	for _, m := range testOnlyModules {
		assert.Truef(t, requires(t, m), "testOnlyModules: go.mod does not require %s", m)
	}
}

func hasGo(dir string) bool {
	matches, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	return len(matches) > 0
}

func requires(t *testing.T, m string) bool {
	mod, err := os.ReadFile("go.mod")
	require.NoError(t, err)
	return strings.Contains(string(mod), "\t"+m+" ") || strings.Contains(string(mod), "require "+m+" ")
}

// The rules say no where the design says no.
func TestRuleTable(t *testing.T) {
	for _, c := range []struct {
		from, imp string
		test, ok  bool
	}{
		{"decode", module + "/wgsl/abi", false, true},
		{"decode", module + "/webgpu", false, false},
		{"wgsl/abi", module + "/decode", false, false},
		{"wgsl/ref", module + "/wgsl/abi", false, true},
		{"wgsl/ref", module + "/decode", false, false},
		{"webgpu/megakernel", module + "/decode", false, true},
		{"webgpu", module + "/decode", false, false},
		{"ui", module + "/webgpu", false, false},
		{"decode", module + "/wasm", false, false},
		{"decode", module + "/internal/heapsort", false, true},
		{"internal/heapsort", module + "/decode", false, false},
		{"decode", "syscall/js", false, false},
		{"decode", "github.com/vugu/vugu/js", false, false},
		{"wgsl", "github.com/gowebapi/webapi/core/js", false, false},
		{"webgpu/megakernel", "syscall/js", false, true},
		{"ui", "github.com/vugu/vugu/js", false, true},
		{"ui", "github.com/gowebapi/webapi/html/canvas", false, true},
		{"webgpu", "github.com/gowebapi/webapi/dom", false, false},
		{"decode", "github.com/vugu/vugu", false, false},
		{"wasm/render", "github.com/vugu/vugu", false, true},
		{"decode", "github.com/stretchr/testify/assert", false, false},
		{"decode", "github.com/stretchr/testify/assert", true, true},
		{"wasm", "github.com/example/other", false, false},
		{"decode", "encoding/binary", false, true},
		{"wasm/session", module + "/ui", false, false},
		{"wasm/session", module + "/wasm/controller", false, false},
		{"wasm/session", "syscall/js", false, false},
		{"wasm/api", module + "/ui", false, false},
		{"wasm/capture", "github.com/vugu/vugu", false, false},
		{"wasm/pace", "github.com/gowebapi/webapi/dom", false, false},
		{"wasm/controller", module + "/ui", false, false},
		{"wasm/controller", module + "/wasm/session", false, true},
		{"wasm/controller", "syscall/js", false, false},
		{"wasm/controller", "github.com/gowebapi/webapi/core/js", false, false},
		{"wasm/jsapi", module + "/ui", false, false},
		{"wasm/jsapi", module + "/wasm/controller", false, true},
		{"wasm/controller", module + "/wasm/jsapi", false, false},
		{"wasm/capture", module + "/wasm/jsapi", false, false},
		{"wasm", module + "/ui", false, true},
		{"settings", module + "/ui", false, false},
		{"ui", module + "/settings", false, true},
	} {
		msg := checkImport(c.from, c.imp, c.test)
		assert.Equalf(t, c.ok, msg == "", "%s → %s (test %v): %q", c.from, c.imp, c.test, msg)
	}
}

// TestTestHooksOnlyInTheE2EBuild: ringscope.__test (fault injection: lose
// the device, crash the program) is in the e2e build only (make
// e2e-static, -tags ringscope_testhooks), never in the page a person
// opens (make build).
func TestTestHooksOnlyInTheE2EBuild(t *testing.T) {
	files := func(tags ...string) []string {
		c := wasmContext()
		c.BuildTags = tags
		p, err := c.ImportDir("wasm", 0)
		require.NoError(t, err)
		return p.GoFiles
	}
	require.NotContains(t, files(), "testhooks_js.go")
	require.Contains(t, files(), "hooks_off_js.go")
	require.Contains(t, files("ringscope_testhooks"), "testhooks_js.go")
	require.NotContains(t, files("ringscope_testhooks"), "hooks_off_js.go")
}
