package main

// Tests of the static server: the handler through httptest, and the
// http.Server limits, shutdown and a bounded load test over a real listener.
// Every listener is on 127.0.0.1. Run: go test -run . -v .

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	loadRequests    = flag.Int("load.n", 20000, "requests in TestLoad")
	loadConcurrency = flag.Int("load.c", 64, "concurrent connections in TestLoad")
	loadMaxDuration = flag.Duration("load.max", 6*time.Second, "TestLoad stops sending after this long, done or not")
)

const secret = "module secret.example/outside // must never be served\n"

// testTree makes root/go.mod (outside the served dir) and root/static with
// the files below, and returns root/static.
func testTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "static")
	files := map[string]string{
		"index.html":       "<!doctype html><title>t</title>" + strings.Repeat("<p>ringscope index</p>\n", 200),
		"app.js":           strings.Repeat("console.log('ringscope app');\n", 200),
		"mod.mjs":          strings.Repeat("export const x = 1;\n", 200),
		"style.css":        strings.Repeat("body { color: #fff; }\n", 200),
		"main.wasm":        "\x00asm\x01\x00\x00\x00" + strings.Repeat("\x01\x02\x03\x04wasm", 40000),
		"tiny.js":          "x",
		"data.bin":         "\x00\x01\x02\x03",
		"notes.unknownext": "plain",
		"pre.js":           "console.log('plain');\n",
		".env":             "TOKEN=secret",
		".git/config":      "[core]\n",
		"sub/index.html":   "<!doctype html><title>sub</title>",
		"sub/a.txt":        "a",
		"empty/a.bin":      "a",
		"a.d/.hidden":      "h",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "nothing"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte(secret), 0o644))
	// A precompressed pre.js.gz, distinguishable from gzipping pre.js.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pre.js.gz"), gzipBytes(t, "console.log('precompressed');\n"), 0o644))
	// A symlink that points out of the served dir.
	require.NoError(t, os.Symlink(filepath.Join(root, "go.mod"), filepath.Join(dir, "escape.js")))
	return dir
}

func gzipBytes(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, err := zw.Write([]byte(s))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return b.Bytes()
}

func gunzip(t *testing.T, b []byte) string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	require.NoError(t, err)
	out, err := io.ReadAll(zr)
	require.NoError(t, err)
	return string(out)
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	require.NoError(t, err)
	return string(b)
}

// do runs one request through h and returns the recorded response.
func do(h http.Handler, method, target string, hdr map[string]string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// rawRequest writes a request line and headers verbatim to addr, so that no
// client cleans or re-encodes the target, and reads the response.
func rawRequest(t *testing.T, addr, method, target string, extra string) (*http.Response, string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetDeadline(time.Now().Add(10*time.Second)))
	_, err = fmt.Fprintf(c, "%s %s HTTP/1.1\r\nHost: %s\r\n%sConnection: close\r\n\r\n", method, target, addr, extra)
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(body)
}

func TestContentType(t *testing.T) {
	h := newHandler(testTree(t))
	for _, tc := range []struct {
		name, path, want string
	}{
		{"wasm", "/main.wasm", "application/wasm"},
		{"js", "/app.js", "text/javascript; charset=utf-8"},
		{"mjs", "/mod.mjs", "text/javascript; charset=utf-8"},
		{"css", "/style.css", "text/css; charset=utf-8"},
		{"html", "/index.html", "text/html; charset=utf-8"},
		{"root is index.html", "/", "text/html; charset=utf-8"},
		{"unknown extension is not sniffed", "/notes.unknownext", "application/octet-stream"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, ae := range []string{"", "gzip"} {
				w := do(h, http.MethodGet, tc.path, map[string]string{"Accept-Encoding": ae})
				require.Equal(t, http.StatusOK, w.Code, "Accept-Encoding %q", ae)
				assert.Equal(t, tc.want, w.Header().Get("Content-Type"), "Accept-Encoding %q", ae)
			}
		})
	}
}

func TestGzipNegotiation(t *testing.T) {
	dir := testTree(t)
	h := newHandler(dir)
	for _, tc := range []struct {
		name, path, acceptEncoding string
		wantGzip, wantVary         bool
	}{
		{"wasm gzip", "/main.wasm", "gzip", true, true},
		{"js gzip", "/app.js", "gzip, deflate, br", true, true},
		{"mjs gzip", "/mod.mjs", "br;q=1.0, gzip;q=0.8", true, true},
		{"css gzip", "/style.css", "gzip", true, true},
		{"html gzip", "/", "gzip", true, true},
		{"x-gzip", "/app.js", "x-gzip", true, true},
		{"star", "/app.js", "*", true, true},
		{"uppercase", "/app.js", "GZIP", true, true},
		{"no header", "/main.wasm", "", false, true},
		{"identity only", "/main.wasm", "identity", false, true},
		{"br only", "/app.js", "br", false, true},
		{"gzip refused with q=0", "/app.js", "gzip;q=0", false, true},
		{"gzip refused, star allowed", "/app.js", "gzip;q=0, *", false, true},
		{"star refused", "/app.js", "*;q=0", false, true},
		{"not worth compressing", "/tiny.js", "gzip", false, true},
		{"binary type never", "/data.bin", "gzip", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := do(h, http.MethodGet, tc.path, map[string]string{"Accept-Encoding": tc.acceptEncoding})
			require.Equal(t, http.StatusOK, w.Code)
			name := strings.TrimPrefix(tc.path, "/")
			if name == "" {
				name = "index.html"
			}
			want := readFile(t, dir, name)
			if tc.wantVary {
				assert.Equal(t, []string{"Accept-Encoding"}, w.Header().Values("Vary"))
			} else {
				assert.Empty(t, w.Header().Values("Vary"))
			}
			body := w.Body.Bytes()
			assert.Equal(t, fmt.Sprint(len(body)), w.Header().Get("Content-Length"))
			if tc.wantGzip {
				assert.Equal(t, "gzip", w.Header().Get("Content-Encoding"))
				assert.Less(t, len(body), len(want), "gzipped body is smaller")
				assert.Equal(t, want, gunzip(t, body))
			} else {
				assert.Empty(t, w.Header().Get("Content-Encoding"))
				assert.Equal(t, want, string(body))
			}
		})
	}
}

func TestGzipCache(t *testing.T) {
	dir := testTree(t)
	h := newHandler(dir).(*handler)
	get := func() []byte {
		w := do(h, http.MethodGet, "/app.js", map[string]string{"Accept-Encoding": "gzip"})
		require.Equal(t, "gzip", w.Header().Get("Content-Encoding"))
		return w.Body.Bytes()
	}
	cached := func() []byte {
		h.mu.Lock()
		defer h.mu.Unlock()
		require.Contains(t, h.gzc, "app.js")
		return h.gzc["app.js"].body
	}

	get()
	first := cached()
	require.NotNil(t, first)
	get()
	assert.Same(t, &first[0], &cached()[0], "the second request reuses the compressed bytes")

	// A new version (new size and modtime) is compressed again and replaces the old.
	p := filepath.Join(dir, "app.js")
	newBody := strings.Repeat("console.log('v2');\n", 300)
	require.NoError(t, os.WriteFile(p, []byte(newBody), 0o644))
	require.NoError(t, os.Chtimes(p, time.Now(), time.Now().Add(time.Hour)))
	assert.Equal(t, newBody, gunzip(t, get()))
	assert.NotSame(t, &first[0], &cached()[0])
	h.mu.Lock()
	assert.Len(t, h.gzc, 1)
	h.mu.Unlock()

	// Concurrent first requests compress once.
	h2 := newHandler(dir).(*handler)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() { do(h2, http.MethodGet, "/main.wasm", map[string]string{"Accept-Encoding": "gzip"}) })
	}
	wg.Wait()
	assert.Len(t, h2.gzc, 1)
}

func TestPrecompressed(t *testing.T) {
	dir := testTree(t)
	h := newHandler(dir)
	w := do(h, http.MethodGet, "/pre.js", map[string]string{"Accept-Encoding": "gzip"})
	require.Equal(t, http.StatusOK, w.Code)
	assert.Equal(t, "gzip", w.Header().Get("Content-Encoding"))
	assert.Equal(t, "console.log('precompressed');\n", gunzip(t, w.Body.Bytes()))

	w = do(h, http.MethodGet, "/pre.js", nil)
	assert.Empty(t, w.Header().Get("Content-Encoding"))
	assert.Equal(t, "console.log('plain');\n", w.Body.String())

	// A .gz older than its source is stale and ignored.
	old := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(dir, "pre.js.gz"), old, old))
	w = do(newHandler(dir), http.MethodGet, "/pre.js", map[string]string{"Accept-Encoding": "gzip"})
	assert.Empty(t, w.Header().Get("Content-Encoding"), "pre.js is too small to gzip on the fly")
	assert.Equal(t, "console.log('plain');\n", w.Body.String())
}

func TestAcceptsGzip(t *testing.T) {
	for _, tc := range []struct {
		name, header string
		want         bool
	}{
		{"empty", "", false},
		{"gzip", "gzip", true},
		{"list", "deflate, gzip, br", true},
		{"spaces and q", "br ; q=1, gzip ; q=0.5", true},
		{"q zero", "gzip;q=0", false},
		{"q zero decimals", "gzip;q=0.000", false},
		{"bad q", "gzip;q=x", false},
		{"star", "*", true},
		{"star q zero", "*;q=0", false},
		{"explicit beats star", "*, gzip;q=0", false},
		{"gzip-like name", "gzipx", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, acceptsGzip(tc.header))
		})
	}
}

func TestSecurityHeaders(t *testing.T) {
	h := newHandler(testTree(t))
	want := map[string]string{
		"Cross-Origin-Opener-Policy":   "same-origin",
		"Cross-Origin-Embedder-Policy": "require-corp",
		"Cross-Origin-Resource-Policy": "same-origin",
		"Content-Security-Policy": "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
			"img-src 'self' data: blob:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; " +
			"base-uri 'none'; frame-ancestors 'self'",
		"X-Content-Type-Options": "nosniff",
		"Referrer-Policy":        "no-referrer",
	}
	for _, tc := range []struct {
		name, method, path string
		ae                 string
		code               int
	}{
		{"page", http.MethodGet, "/", "", http.StatusOK},
		{"gzipped wasm", http.MethodGet, "/main.wasm", "gzip", http.StatusOK},
		{"head", http.MethodHead, "/app.js", "", http.StatusOK},
		{"not found", http.MethodGet, "/missing.js", "", http.StatusNotFound},
		{"dotfile", http.MethodGet, "/.env", "", http.StatusNotFound},
		{"method not allowed", http.MethodPost, "/", "", http.StatusMethodNotAllowed},
		{"bad request", http.MethodGet, "/a%2fb", "", http.StatusBadRequest},
		{"redirect", http.MethodGet, "/sub", "", http.StatusMovedPermanently},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := do(h, tc.method, tc.path, map[string]string{"Accept-Encoding": tc.ae})
			require.Equal(t, tc.code, w.Code)
			for k, v := range want {
				assert.Equal(t, []string{v}, w.Header().Values(k), k)
			}
		})
	}
}

func TestMethodNotAllowed(t *testing.T) {
	h := newHandler(testTree(t))
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodOptions, http.MethodPatch, "TRACE", "CONNECT"} {
		t.Run(m, func(t *testing.T) {
			w := do(h, m, "/index.html", nil)
			assert.Equal(t, http.StatusMethodNotAllowed, w.Code)
			assert.Equal(t, "GET, HEAD", w.Header().Get("Allow"))
			assert.NotContains(t, w.Body.String(), "ringscope index")
		})
	}
}

func TestHead(t *testing.T) {
	dir := testTree(t)
	h := newHandler(dir)
	w := do(h, http.MethodHead, "/main.wasm", nil)
	require.Equal(t, http.StatusOK, w.Code)
	assert.Equal(t, fmt.Sprint(len(readFile(t, dir, "main.wasm"))), w.Header().Get("Content-Length"))
	assert.Equal(t, "application/wasm", w.Header().Get("Content-Type"))
	assert.Zero(t, w.Body.Len())
}

func TestConditional(t *testing.T) {
	h := newHandler(testTree(t))
	for _, ae := range []string{"", "gzip"} {
		t.Run("accept-encoding="+ae, func(t *testing.T) {
			w := do(h, http.MethodGet, "/app.js", map[string]string{"Accept-Encoding": ae})
			require.Equal(t, http.StatusOK, w.Code)
			etag := w.Header().Get("ETag")
			require.NotEmpty(t, etag)
			assert.Equal(t, "no-cache", w.Header().Get("Cache-Control"))
			w = do(h, http.MethodGet, "/app.js", map[string]string{"Accept-Encoding": ae, "If-None-Match": etag})
			assert.Equal(t, http.StatusNotModified, w.Code)
			assert.Zero(t, w.Body.Len())
		})
	}
	// The gzipped and identity representations have different ETags.
	a := do(h, http.MethodGet, "/app.js", nil).Header().Get("ETag")
	b := do(h, http.MethodGet, "/app.js", map[string]string{"Accept-Encoding": "gzip"}).Header().Get("ETag")
	assert.NotEqual(t, a, b)
}

func TestRequestBodyRefused(t *testing.T) {
	h := newHandler(testTree(t))
	for _, tc := range []struct {
		name    string
		body    io.Reader
		chunked bool
	}{
		{"content-length", strings.NewReader("x=1"), false},
		{"chunked", strings.NewReader("x=1"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/", tc.body)
			if tc.chunked {
				r.ContentLength = -1
				r.TransferEncoding = []string{"chunked"}
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			assert.Equal(t, http.StatusRequestEntityTooLarge, w.Code)
			assert.NotContains(t, w.Body.String(), "ringscope index")
		})
	}
}

func TestPaths(t *testing.T) {
	dir := testTree(t)
	// A directory whose name holds a space and a question mark.
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "e f?g"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "e f?g", "index.html"), []byte("odd"), 0o644))
	ts := httptest.NewServer(newHandler(dir))
	defer ts.Close()
	addr := ts.Listener.Addr().String()
	for _, tc := range []struct {
		name, target string
		codes        []int  // any of these
		want         string // body, when 200
		location     string // when 301
	}{
		{"index", "/", []int{200}, readFile(t, dir, "index.html"), ""},
		{"file", "/app.js", []int{200}, readFile(t, dir, "app.js"), ""},
		{"query ignored", "/app.js?v=1", []int{200}, readFile(t, dir, "app.js"), ""},
		{"subdir index", "/sub/", []int{200}, readFile(t, dir, "sub/index.html"), ""},
		{"subdir file", "/sub/a.txt", []int{200}, "a", ""},
		{"subdir without slash redirects", "/sub", []int{301}, "", "/sub/"},
		{"redirect keeps the query", "/sub?preset=stall&slots=4096", []int{301}, "", "/sub/?preset=stall&slots=4096"},
		{"redirect escapes the name", "/e%20f%3Fg", []int{301}, "", "/e%20f%3Fg/"},
		{"escaped name's index", "/e%20f%3Fg/", []int{200}, "odd", ""},
		{"dir without index", "/empty/", []int{404}, "", ""},
		{"dir without index or slash", "/empty", []int{404}, "", ""},
		{"empty dir", "/nothing/", []int{404}, "", ""},
		{"missing", "/missing.wasm", []int{404}, "", ""},
		{"dotdot", "/../go.mod", []int{400, 404}, "", ""},
		{"dotdot deep", "/static/../../go.mod", []int{400, 404}, "", ""},
		{"etc passwd", "/static/../../etc/passwd", []int{400, 404}, "", ""},
		{"encoded dots", "/%2e%2e/go.mod", []int{400, 404}, "", ""},
		{"encoded dots upper", "/%2E%2E/%2E%2E/go.mod", []int{400, 404}, "", ""},
		{"encoded slash", "/..%2fgo.mod", []int{400, 404}, "", ""},
		{"encoded slash lower", "/sub%2fa.txt", []int{400, 404}, "", ""},
		{"encoded backslash", "/..%5cgo.mod", []int{400, 404}, "", ""},
		{"backslash", "/..\\go.mod", []int{400, 404}, "", ""},
		{"double encoded", "/%252e%252e/go.mod", []int{400, 404}, "", ""},
		{"dot segment", "/./index.html", []int{400, 404}, "", ""},
		{"double slash", "//index.html", []int{400, 404}, "", ""},
		{"nul", "/index.html%00.js", []int{400, 404}, "", ""},
		{"absolute form", "http://evil.example/../go.mod", []int{400, 404}, "", ""},
		{"symlink out of dir", "/escape.js", []int{404}, "", ""},
		{"dotenv", "/.env", []int{404}, "", ""},
		{"git config", "/.git/config", []int{404}, "", ""},
		{"git dir", "/.git/", []int{404}, "", ""},
		{"hidden in subdir", "/a.d/.hidden", []int{404}, "", ""},
		{"encoded dotfile", "/%2eenv", []int{404}, "", ""},
		{"precompressed twin is not hidden", "/pre.js.gz", []int{200}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := rawRequest(t, addr, http.MethodGet, tc.target, "")
			assert.Contains(t, tc.codes, resp.StatusCode)
			assert.NotContains(t, body, "secret")
			assert.NotContains(t, body, "TOKEN")
			assert.NotContains(t, body, "[core]")
			assert.NotContains(t, body, "<pre>", "no directory listing")
			assert.NotContains(t, body, "a.bin", "no directory listing")
			if resp.StatusCode == http.StatusOK && tc.want != "" {
				assert.Equal(t, tc.want, body)
			}
			if tc.location != "" {
				assert.Equal(t, tc.location, resp.Header.Get("Location"))
			}
		})
	}
}

func TestFileName(t *testing.T) {
	for _, tc := range []struct {
		name, path, raw string
		want            string
		code            int
	}{
		{"root", "/", "", "index.html", 200},
		{"file", "/a.js", "", "a.js", 200},
		{"dir", "/a/", "", "a/index.html", 200},
		{"dotdot", "/../a", "", "", 404},
		{"dot", "/./a", "", "", 404},
		{"empty segment", "/a//b", "", "", 404},
		{"dotfile", "/a/.b", "", "", 404},
		{"dotdir", "/.a/b", "", "", 404},
		{"encoded slash", "/a/b", "/a%2Fb", "", 400},
		{"backslash", "/a\\b", "", "", 400},
		{"nul", "/a\x00", "", "", 400},
		{"relative", "a", "", "", 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, code := fileName(tc.path, tc.raw)
			assert.Equal(t, tc.code, code)
			assert.Equal(t, tc.want, got)
		})
	}
}

// startServer runs serve with srv on 127.0.0.1:0 until the returned stop is
// called; stop returns serve's error.
func startServer(t *testing.T, srv *http.Server) (addr string, stop func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, ln, srv) }()
	var once sync.Once
	var serr error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case serr = <-done:
			case <-time.After(shutdownTimeout + 5*time.Second):
				serr = errors.New("serve did not return")
			}
		})
		return serr
	}
	t.Cleanup(func() { _ = stop() })
	return ln.Addr().String(), stop
}

func TestServerLimits(t *testing.T) {
	srv := newServer(http.NotFoundHandler())
	for _, tc := range []struct {
		name string
		got  time.Duration
	}{
		{"ReadHeaderTimeout", srv.ReadHeaderTimeout},
		{"ReadTimeout", srv.ReadTimeout},
		{"WriteTimeout", srv.WriteTimeout},
		{"IdleTimeout", srv.IdleTimeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Positive(t, tc.got)
			assert.LessOrEqual(t, tc.got, 2*time.Minute)
		})
	}
	assert.LessOrEqual(t, srv.ReadHeaderTimeout, srv.ReadTimeout)
	assert.Equal(t, 16<<10, srv.MaxHeaderBytes)
}

func TestOversizedHeaders(t *testing.T) {
	addr, _ := startServer(t, newServer(newHandler(testTree(t))))
	for _, tc := range []struct {
		name string
		size int
		code int
	}{
		{"small", 1 << 10, http.StatusOK},
		{"64 KiB", 64 << 10, http.StatusRequestHeaderFieldsTooLarge},
		{"1 MiB", 1 << 20, http.StatusRequestHeaderFieldsTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := rawRequest(t, addr, http.MethodGet, "/", "X-Big: "+strings.Repeat("a", tc.size)+"\r\n")
			assert.Equal(t, tc.code, resp.StatusCode)
			if tc.code != http.StatusOK {
				assert.NotContains(t, body, "ringscope index")
			}
		})
	}
}

func TestReadHeaderTimeout(t *testing.T) {
	// newServer's own timeout is seconds long; shorten it so that the test
	// checks that serve keeps it in force without waiting that long.
	srv := newServer(newHandler(testTree(t)))
	require.Equal(t, readHeaderTimeout, srv.ReadHeaderTimeout)
	srv.ReadHeaderTimeout = 200 * time.Millisecond
	addr, _ := startServer(t, srv)
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer c.Close()
	// Half a request, then nothing: the server must hang up.
	_, err = io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n")
	require.NoError(t, err)
	require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
	_, err = io.ReadAll(c) // ends when the server closes the connection
	require.NoError(t, err, "the server kept a stalled connection open past its read-header timeout")
}

func TestRangeIsIdentity(t *testing.T) {
	dir := testTree(t)
	w := do(newHandler(dir), http.MethodGet, "/app.js", map[string]string{"Accept-Encoding": "gzip", "Range": "bytes=0-9"})
	require.Equal(t, http.StatusPartialContent, w.Code)
	assert.Empty(t, w.Header().Get("Content-Encoding"))
	assert.Equal(t, readFile(t, dir, "app.js")[:10], w.Body.String())
}

func TestGracefulShutdown(t *testing.T) {
	entered := make(chan struct{})
	release := make(chan struct{})
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		io.WriteString(w, "done")
	})
	addr, stop := startServer(t, newServer(slow))

	type result struct {
		body string
		err  error
	}
	got := make(chan result, 1)
	go func() {
		resp, err := http.Get("http://" + addr + "/")
		if err != nil {
			got <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		got <- result{string(b), err}
	}()
	<-entered

	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	// Shutdown waits for the in-flight request, and refuses new connections.
	select {
	case err := <-stopped:
		t.Fatalf("serve returned (%v) before the in-flight request finished", err)
	case <-time.After(100 * time.Millisecond):
	}
	_, err := net.DialTimeout("tcp", addr, time.Second)
	assert.Error(t, err, "listener closed during shutdown")

	close(release)
	r := <-got
	require.NoError(t, r.err)
	assert.Equal(t, "done", r.body)
	assert.NoError(t, <-stopped)
}

// TestLoad sends -load.n requests over -load.c keep-alive connections to a
// real listener on 127.0.0.1 and requires every one to succeed. It stops
// early after -load.max (a busy CI machine must not make it run long). It
// logs throughput and latency; it asserts no time.
func TestLoad(t *testing.T) {
	n, c := *loadRequests, *loadConcurrency
	if testing.Short() {
		n /= 10
	}
	dir := testTree(t)
	addr, _ := startServer(t, newServer(newHandler(dir)))
	tr := &http.Transport{
		MaxIdleConns:        c,
		MaxIdleConnsPerHost: c,
		MaxConnsPerHost:     c,
		DisableCompression:  true, // we ask for gzip ourselves and read it raw
	}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}

	targets := []struct{ path, ae string }{
		{"/", "gzip"},
		{"/app.js", "gzip"},
		{"/style.css", "gzip"},
		{"/main.wasm", "gzip"},
		{"/main.wasm", ""},
		{"/missing.js", ""}, // 404 is a correct answer too
	}
	var (
		next, errs, bytesRead atomic.Int64
		firstErr              atomic.Value
		mu                    sync.Mutex
		lat                   = make([]time.Duration, 0, n)
		wg                    sync.WaitGroup
	)
	fail := func(err error) {
		errs.Add(1)
		firstErr.CompareAndSwap(nil, err)
	}
	start := time.Now()
	deadline := start.Add(*loadMaxDuration)
	for range c {
		wg.Go(func() {
			mine := make([]time.Duration, 0, n/c+1)
			defer func() {
				mu.Lock()
				lat = append(lat, mine...)
				mu.Unlock()
			}()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) || time.Now().After(deadline) {
					return
				}
				tg := targets[i%int64(len(targets))]
				req, err := http.NewRequest(http.MethodGet, "http://"+addr+tg.path, nil)
				if err != nil {
					fail(err)
					continue
				}
				if tg.ae != "" {
					req.Header.Set("Accept-Encoding", tg.ae)
				}
				t0 := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					fail(err)
					continue
				}
				m, err := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				mine = append(mine, time.Since(t0))
				bytesRead.Add(m)
				if err == nil && resp.ContentLength != m {
					err = fmt.Errorf("%s: Content-Length %d, body %d bytes", tg.path, resp.ContentLength, m)
				}
				wantCode := http.StatusOK
				if tg.path == "/missing.js" {
					wantCode = http.StatusNotFound
				}
				if err != nil {
					fail(err)
				} else if resp.StatusCode != wantCode {
					fail(fmt.Errorf("%s: status %d", tg.path, resp.StatusCode))
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)

	require.Zero(t, errs.Load(), "first error: %v", firstErr.Load())
	require.NotEmpty(t, lat)
	if len(lat) < n {
		t.Logf("stopped after -load.max=%v with %d of %d requests done", *loadMaxDuration, len(lat), n)
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(float64(len(lat))*p))] }
	t.Logf("%d requests, %d connections, %v: %.0f req/s, %.1f MB/s; latency p50 %v, p99 %v, max %v; errors %d",
		len(lat), c, elapsed.Round(time.Millisecond), float64(len(lat))/elapsed.Seconds(),
		float64(bytesRead.Load())/elapsed.Seconds()/1e6,
		pct(0.50).Round(time.Microsecond), pct(0.99).Round(time.Microsecond), lat[len(lat)-1].Round(time.Microsecond), errs.Load())
}
