//go:build unix

package main

// Special files under the served dir: a FIFO (opening one for reading
// waits for a writer) or a device node must be refused without being
// opened, so a request for one cannot hold a goroutine and its thread.

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stuck bounds the wait for a request that should answer at once: a
// handler that opened the FIFO would never answer (no writer comes), so
// this detects a hang, it does not time anything.
const stuck = 10 * time.Second

func TestSpecialFilesAreNotOpened(t *testing.T) {
	dir := testTree(t)
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "fifo.js"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "pipe"), 0o755))
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "pipe", "index.html"), 0o644))
	paths := []string{"/fifo.js", "/pipe/", "/pipe"}
	// A character device (1, 3 is /dev/null): needs CAP_MKNOD.
	dev := filepath.Join(dir, "null.wasm")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o644, 1<<8|3); err == nil {
		paths = append(paths, "/null.wasm")
	} else if !errors.Is(err, syscall.EPERM) {
		require.NoError(t, err)
	} else {
		t.Logf("mknod: %v: the device-node case is skipped, the FIFO cases run", err)
	}
	// A symlink to a FIFO inside the dir is the FIFO.
	require.NoError(t, os.Symlink("fifo.js", filepath.Join(dir, "link.js")))
	paths = append(paths, "/link.js")

	h := newHandler(dir)
	for _, p := range paths {
		for _, gz := range []string{"", "gzip"} {
			done := make(chan int, 1)
			go func() {
				done <- do(h, http.MethodGet, p, map[string]string{"Accept-Encoding": gz}).Code
			}()
			select {
			case code := <-done:
				assert.Equal(t, http.StatusNotFound, code, "%s (Accept-Encoding %q)", p, gz)
			case <-time.After(stuck):
				t.Fatalf("GET %s (Accept-Encoding %q) did not answer: the handler opened the special file", p, gz)
			}
		}
	}
	// Regular files beside them are served as before.
	assert.Equal(t, http.StatusOK, do(h, http.MethodGet, "/app.js", nil).Code)
	assert.Equal(t, http.StatusOK, do(h, http.MethodGet, "/sub/", nil).Code)
}

// A FIFO named like a precompressed body (name.gz) is skipped: the file
// is served gzipped from memory instead.
func TestSpecialPrecompressedIsSkipped(t *testing.T) {
	dir := testTree(t)
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "app.js.gz"), 0o644))
	done := make(chan int, 1)
	go func() {
		done <- do(newHandler(dir), http.MethodGet, "/app.js", map[string]string{"Accept-Encoding": "gzip"}).Code
	}()
	select {
	case code := <-done:
		assert.Equal(t, http.StatusOK, code)
	case <-time.After(stuck):
		t.Fatal("GET /app.js did not answer: the handler opened app.js.gz, a FIFO")
	}
}
