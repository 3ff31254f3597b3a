package main

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// securityHeaders are sent on every response the handler writes. The CSP lets
// Go wasm run ('wasm-unsafe-eval') and nothing inline: static/ holds no inline
// script or style. COOP and COEP make the page cross-origin isolated, which
// gives performance.now() 5 µs resolution instead of 100 µs.
var securityHeaders = [...][2]string{
	{"Cross-Origin-Opener-Policy", "same-origin"},
	{"Cross-Origin-Embedder-Policy", "require-corp"},
	{"Cross-Origin-Resource-Policy", "same-origin"},
	{"Content-Security-Policy", "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
		"style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; worker-src 'self' blob:; " +
		"object-src 'none'; base-uri 'none'; frame-ancestors 'self'"},
	{"X-Content-Type-Options", "nosniff"},
	{"Referrer-Policy", "no-referrer"},
}

// contentTypes overrides mime.TypeByExtension, whose answer depends on the
// host's mime.types files. WebAssembly.instantiateStreaming needs
// application/wasm exactly.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".wasm": "application/wasm",
	".json": "application/json",
	".map":  "application/json",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ico":  "image/x-icon",
	".txt":  "text/plain; charset=utf-8",
	".wgsl": "text/plain; charset=utf-8",
}

// compressible lists the extensions served gzipped to clients that accept it.
var compressible = map[string]bool{
	".html": true, ".js": true, ".mjs": true, ".css": true, ".wasm": true,
	".json": true, ".map": true, ".svg": true, ".txt": true, ".wgsl": true,
}

// maxGzipSize bounds the files compressed in memory; larger ones are served
// as they are.
const maxGzipSize = 64 << 20

// handler serves the regular files under dir to GET and HEAD requests.
// See newHandler.
type handler struct {
	dir string

	mu  sync.Mutex
	gzc map[string]*gzEntry // by file name in dir; one entry per file
}

// gzEntry is the gzipped body of one version of one file, computed once.
type gzEntry struct {
	modTime time.Time
	size    int64
	once    sync.Once
	body    []byte // nil: not worth compressing, or compression failed
}

// newHandler returns the handler that serves dir: only GET and HEAD, only
// regular files, never a name with a segment that starts with a dot, never
// outside dir (files are opened through an os.Root, so symlinks cannot
// escape either), never a FIFO or device node (see open), no directory listings (a directory serves its index.html
// or 404). Files of compressible types are gzipped once per version (name,
// modification time, size) and kept in memory; a precompressed name.gz
// beside a file, no older than it, is served instead when present.
func newHandler(dir string) http.Handler {
	return &handler{dir: dir, gzc: make(map[string]*gzEntry)}
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	for _, kv := range securityHeaders {
		hdr.Set(kv[0], kv[1])
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hdr.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if r.ContentLength != 0 { // -1: chunked, length unknown
		// A GET body has no meaning here; refuse it rather than read it.
		hdr.Set("Connection", "close")
		http.Error(w, "request body not allowed", http.StatusRequestEntityTooLarge)
		return
	}
	name, status := fileName(r.URL.Path, r.URL.RawPath)
	if status != http.StatusOK {
		http.Error(w, http.StatusText(status), status)
		return
	}
	f, fi, err := h.open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	if fi.IsDir() {
		// "/sub" names a directory: send the browser to "/sub/" so relative
		// URLs in its index.html resolve, if there is an index.html.
		if h.isFile(path.Join(name, "index.html")) {
			// Relative ("./": a name with a colon is no scheme), escaped (a
			// name may hold ?, # or a space), and with the query kept: a
			// link's parameters are its view.
			to := "./" + url.PathEscape(path.Base(r.URL.Path)) + "/" + querySuffix(r.URL.RawQuery)
			http.Redirect(w, r, to, http.StatusMovedPermanently)
			return
		}
		http.NotFound(w, r)
		return
	}
	if !fi.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	h.serveFile(w, r, name, f, fi)
}

// fileName maps a request path to a file name relative to the served dir
// ("/" → "index.html", "/a/" → "a/index.html"). It answers 400 for paths no
// browser sends (encoded slashes, backslashes, NUL) and 404 for paths that
// would leave dir or name a dotfile.
func fileName(urlPath, rawPath string) (string, int) {
	raw := strings.ToLower(rawPath)
	if strings.Contains(raw, "%2f") || strings.Contains(raw, "%5c") ||
		strings.ContainsAny(urlPath, "\\\x00") {
		return "", http.StatusBadRequest
	}
	if !strings.HasPrefix(urlPath, "/") {
		return "", http.StatusBadRequest
	}
	name := urlPath[1:]
	if name == "" || strings.HasSuffix(name, "/") {
		name += "index.html"
	}
	if !fs.ValidPath(name) { // rejects "..", ".", empty segments
		return "", http.StatusNotFound
	}
	for seg := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(seg, ".") {
			return "", http.StatusNotFound
		}
	}
	return name, http.StatusOK
}

// errNotRegular refuses a name that is neither a regular file nor a
// directory.
var errNotRegular = errors.New("not a regular file")

// open opens name in dir if it is a regular file or a directory. Opening
// a FIFO for reading blocks until a writer comes, and opening a device
// node can have effects of its own, so open looks before it opens (Stat,
// following symlinks inside dir only), opens with O_NONBLOCK where the
// system has it (a FIFO swapped in between then fails the second check
// instead of holding the request's goroutine and its thread for good),
// and checks what it opened.
func (h *handler) open(name string) (*os.File, fs.FileInfo, error) {
	root, err := os.OpenRoot(h.dir)
	if err != nil {
		return nil, nil, err
	}
	defer root.Close()
	fi, err := root.Stat(name)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		return nil, nil, errNotRegular
	}
	f, err := root.OpenFile(name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, nil, err
	}
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() && !fi.IsDir() {
		f.Close()
		return nil, nil, cmp.Or(err, errNotRegular)
	}
	return f, fi, nil
}

// isFile reports whether name is a regular file in dir.
func (h *handler) isFile(name string) bool {
	f, fi, err := h.open(name)
	if err != nil {
		return false
	}
	f.Close()
	return fi.Mode().IsRegular()
}

func (h *handler) serveFile(w http.ResponseWriter, r *http.Request, name string, f *os.File, fi fs.FileInfo) {
	hdr := w.Header()
	ext := strings.ToLower(path.Ext(name))
	ctype, ok := contentTypes[ext]
	if !ok {
		if ctype = mime.TypeByExtension(ext); ctype == "" {
			ctype = "application/octet-stream" // set, so ServeContent does not sniff
		}
	}
	hdr.Set("Content-Type", ctype)
	// main.wasm keeps its name across builds: always revalidate.
	hdr.Set("Cache-Control", "no-cache")
	etag := fmt.Sprintf(`"%x-%x`, fi.Size(), fi.ModTime().UnixNano())

	if compressible[ext] {
		hdr.Add("Vary", "Accept-Encoding")
		// A Range request gets identity bytes: ranges of the gzipped
		// representation are legal but no client here needs them.
		if r.Header.Get("Range") == "" && acceptsGzip(r.Header.Get("Accept-Encoding")) {
			if body, ok := h.gzipped(name, fi); ok {
				hdr.Set("Content-Encoding", "gzip")
				hdr.Set("ETag", etag+`-gz"`)
				// ServeContent leaves Content-Length out when Content-Encoding
				// is set; without a Range it serves all of body, so say so.
				hdr.Set("Content-Length", strconv.Itoa(len(body)))
				http.ServeContent(w, r, "", fi.ModTime(), bytes.NewReader(body))
				return
			}
		}
	}
	hdr.Set("ETag", etag+`"`)
	http.ServeContent(w, r, "", fi.ModTime(), f)
}

// gzipped returns the gzipped body of this version of name: a precompressed
// name.gz if there is a fresh one, else the file compressed once and cached.
// ok is false when the file is not worth compressing or cannot be read.
func (h *handler) gzipped(name string, fi fs.FileInfo) (body []byte, ok bool) {
	if fi.Size() > maxGzipSize {
		return nil, false
	}
	h.mu.Lock()
	e := h.gzc[name]
	if e == nil || e.size != fi.Size() || !e.modTime.Equal(fi.ModTime()) {
		e = &gzEntry{modTime: fi.ModTime(), size: fi.Size()}
		h.gzc[name] = e // drops the previous version
	}
	h.mu.Unlock()
	e.once.Do(func() { e.body = h.compress(name, fi) })
	return e.body, e.body != nil
}

// compress reads name.gz when it is fresh, else gzips name. It returns nil
// when the gzipped form is no smaller, or on any error (the caller then
// serves the file as it is).
func (h *handler) compress(name string, fi fs.FileInfo) []byte {
	if gz, gzfi, err := h.open(name + ".gz"); err == nil {
		defer gz.Close()
		if gzfi.Mode().IsRegular() && !gzfi.ModTime().Before(fi.ModTime()) && gzfi.Size() <= maxGzipSize {
			if b, err := io.ReadAll(gz); err == nil {
				return b
			}
		}
	}
	f, _, err := h.open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	var buf bytes.Buffer
	buf.Grow(int(fi.Size() / 3))
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	// Read exactly the size the cache entry is keyed by.
	n, err := io.Copy(zw, io.LimitReader(f, fi.Size()))
	if err != nil || n != fi.Size() || zw.Close() != nil {
		return nil
	}
	if int64(buf.Len()) >= fi.Size() {
		return nil
	}
	return bytes.Clone(buf.Bytes())
}

// acceptsGzip reports whether an Accept-Encoding header value admits gzip:
// gzip (or x-gzip, or *) listed with a q-value above zero.
func acceptsGzip(header string) bool {
	star := false
	for part := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				} else {
					q = 0
				}
			}
		}
		switch coding {
		case "gzip", "x-gzip":
			return q > 0
		case "*":
			star = q > 0
		}
	}
	return star
}

// querySuffix is "?" and the query, or "" for none.
func querySuffix(q string) string {
	if q == "" {
		return ""
	}
	return "?" + q
}
