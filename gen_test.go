package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUIGeneratedFilesAreFresh regenerates the Vugu components' Go code
// (ui/*_gen.go) in a scratch copy of ui/, with the steps of ui/gen.go's
// //go:generate lines, and fails when a committed file differs: edit the
// .vugu file, then run go generate ./ui.
func TestUIGeneratedFilesAreFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vugugen: not in -short")
	}
	for _, tool := range []string{"sh", "sed", "perl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("ui/gen.go's steps need %s: %v", tool, err)
		}
	}
	scratch := t.TempDir()
	vugugen := filepath.Join(scratch, "vugugen")
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	build := exec.Command(goTool, "build", "-o", vugugen, "github.com/vugu/vugu/cmd/vugugen")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "building vugugen: %s", out)

	dir := filepath.Join(scratch, "ui")
	require.NoError(t, os.Mkdir(dir, 0o755))
	sources, err := filepath.Glob("ui/*")
	require.NoError(t, err)
	var committed []string
	for _, src := range sources {
		name := filepath.Base(src)
		switch {
		case strings.HasSuffix(name, "_gen.go"):
			committed = append(committed, name)
		case strings.HasSuffix(name, ".vugu"), strings.HasSuffix(name, ".go"):
			b, err := os.ReadFile(src)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o644))
		}
	}
	require.NotEmpty(t, committed)

	// PATH leads with the Go that runs this test, for the steps' gofmt.
	env := append(os.Environ(), "PATH="+filepath.Join(runtime.GOROOT(), "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, step := range generateSteps(t, "ui/gen.go") {
		args := strings.Fields(step)
		var cmd *exec.Cmd
		switch {
		case strings.HasPrefix(step, "go tool vugugen "):
			cmd = exec.Command(vugugen, args[3:]...)
		case strings.HasPrefix(step, "go run ./"):
			// A tool of the module, run from ui/ on the scratch copy.
			cmd = exec.Command(goTool, append(args[1:], dir)...)
			cmd.Dir = "ui"
		case strings.HasPrefix(step, "sh -c "):
			cmd = exec.Command("sh", "-c", unquote(t, strings.TrimPrefix(step, "sh -c ")))
		default:
			t.Fatalf("ui/gen.go: a step this test cannot run: %s", step)
		}
		if cmd.Dir == "" {
			cmd.Dir = dir
		}
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s: %s", step, out)
	}
	for _, name := range committed {
		want, err := os.ReadFile(filepath.Join(dir, name))
		if !assert.NoError(t, err, "%s is committed but not generated", name) {
			continue
		}
		got, err := os.ReadFile(filepath.Join("ui", name))
		require.NoError(t, err)
		assert.Truef(t, bytes.Equal(got, want), "ui/%s is stale: run go generate ./ui", name)
	}
}

// generateSteps returns the commands of file's //go:generate lines.
func generateSteps(t *testing.T, file string) []string {
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	var steps []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if step, ok := strings.CutPrefix(sc.Text(), "//go:generate "); ok {
			steps = append(steps, step)
		}
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, steps)
	return steps
}

// unquote undoes go generate's quoting of one argument (Go syntax).
func unquote(t *testing.T, s string) string {
	u, err := strconv.Unquote(s)
	require.NoError(t, err, "a quoted argument: %s", s)
	return u
}
