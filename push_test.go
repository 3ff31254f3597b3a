package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The relay against a stand-in gateway that records what reaches it (the
// e2e test pushes through it to Debian's real prometheus-pushgateway).
func TestPushRelay(t *testing.T) {
	var mu sync.Mutex
	var got []string
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.Path+" "+r.Header.Get("Content-Type")+" "+string(b))
		mu.Unlock()
		if strings.Contains(string(b), "bad") {
			http.Error(w, "pushed metrics are invalid", http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer gw.Close()
	push, err := newPushRelay(gw.URL + "/base/")
	require.NoError(t, err)
	require.NoError(t, push.allowHosts(loopback8080, "127.0.0.1:8080"))
	h := withPush(newHandler(testTree(t)), push)

	send := func(method, path, body string, hdr map[string]string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		r.Host = "127.0.0.1:8080"
		for k, v := range hdr {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	page := map[string]string{"X-Ringscope-Push": "1", "Sec-Fetch-Site": "same-origin", "Content-Type": "text/plain; version=0.0.4"}
	w := send(http.MethodPut, "/pushgateway/metrics/job/e2e/instance/page-1", "x_total 1\n", page)
	assert.Equal(t, http.StatusOK, w.Code, w.Body.String())
	assert.Equal(t, "nosniff", w.Header().Get("X-Content-Type-Options"))
	w = send(http.MethodPost, "/pushgateway/metrics/job/e2e", "y 2\n", page)
	assert.Equal(t, http.StatusOK, w.Code)
	w = send(http.MethodPut, "/pushgateway/metrics/job/e2e", "bad\n", page)
	assert.Equal(t, http.StatusBadRequest, w.Code)
	assert.Contains(t, w.Body.String(), "pushed metrics are invalid", "the gateway's answer comes back")

	refused := []struct {
		name, method, path string
		hdr                map[string]string
		code               int
	}{
		{"GET", http.MethodGet, "/pushgateway/metrics/job/e2e", page, http.StatusMethodNotAllowed},
		{"no relay header", http.MethodPut, "/pushgateway/metrics/job/e2e", map[string]string{"Sec-Fetch-Site": "same-origin"}, http.StatusForbidden},
		{"another site", http.MethodPut, "/pushgateway/metrics/job/e2e", map[string]string{"X-Ringscope-Push": "1", "Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"no job", http.MethodPut, "/pushgateway/metrics/job/", page, http.StatusNotFound},
		{"other label", http.MethodPut, "/pushgateway/metrics/job/e2e/zone/a", page, http.StatusNotFound},
		{"slash in a label", http.MethodPut, "/pushgateway/metrics/job/a%2Fb", page, http.StatusBadRequest},
		{"dot dot", http.MethodPut, "/pushgateway/metrics/job/../../admin", page, http.StatusNotFound},
		{"job dot", http.MethodPut, "/pushgateway/metrics/job/.", page, http.StatusNotFound},
		{"job dot dot", http.MethodPut, "/pushgateway/metrics/job/..", page, http.StatusNotFound},
		{"instance dot", http.MethodPut, "/pushgateway/metrics/job/e2e/instance/.", page, http.StatusNotFound},
		{"instance dot dot", http.MethodPut, "/pushgateway/metrics/job/e2e/instance/..", page, http.StatusNotFound},
		{"other gateway path", http.MethodPut, "/pushgateway/api/v1/admin/wipe", page, http.StatusNotFound},
	}
	for _, tt := range refused {
		assert.Equal(t, tt.code, send(tt.method, tt.path, "z 1\n", tt.hdr).Code, tt.name)
	}
	big := send(http.MethodPut, "/pushgateway/metrics/job/e2e", strings.Repeat("x", maxPushBytes+1), page)
	assert.Equal(t, http.StatusRequestEntityTooLarge, big.Code)

	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{
		"PUT /base/metrics/job/e2e/instance/page-1 text/plain; version=0.0.4 x_total 1\n",
		"POST /base/metrics/job/e2e text/plain; version=0.0.4 y 2\n",
		"PUT /base/metrics/job/e2e text/plain; version=0.0.4 bad\n",
	}, got, "nothing refused reached the gateway")

	// Without -pushgateway the path is not special: a PUT is refused as
	// any non-GET is.
	w = httptest.NewRecorder()
	newHandler(testTree(t)).ServeHTTP(w, httptest.NewRequest(http.MethodPut, "/pushgateway/metrics/job/e2e", strings.NewReader("x 1\n")))
	assert.Equal(t, http.StatusMethodNotAllowed, w.Code)

	for _, bad := range []string{"ftp://h/", "http://", "http://h/?q=1", "http://u:p@h/", "::"} {
		_, err := newPushRelay(bad)
		assert.Error(t, err, bad)
	}
}

// loopback8080 is a server's listener address for the relay's Host rule.
var loopback8080 = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}

// A gateway (or whatever answers at its address) that redirects does not
// make the relay fetch, or re-send a push to, another URL: the 3xx comes
// back as the relay's answer and nothing reaches the second server.
func TestPushRelayDoesNotFollowRedirects(t *testing.T) {
	var mu sync.Mutex
	var reached []string
	secret := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		reached = append(reached, r.Method+" "+r.URL.Path)
		mu.Unlock()
		fmt.Fprint(w, "the secret")
	}))
	defer secret.Close()
	for _, code := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			http.Redirect(w, r, secret.URL+"/secret", code)
		}))
		push, err := newPushRelay(gw.URL)
		require.NoError(t, err)
		require.NoError(t, push.allowHosts(loopback8080, "127.0.0.1:8080"))
		r := httptest.NewRequest(http.MethodPut, "/pushgateway/metrics/job/e2e", strings.NewReader("x 1\n"))
		r.Host = "127.0.0.1:8080"
		r.Header.Set("X-Ringscope-Push", "1")
		w := httptest.NewRecorder()
		withPush(newHandler(testTree(t)), push).ServeHTTP(w, r)
		gw.Close()
		assert.Equal(t, code, w.Code, "the gateway's %d comes back as it is", code)
		assert.NotContains(t, w.Body.String(), "the secret", "%d", code)
		assert.Empty(t, w.Header().Get("Location"), "%d: the relay sends no Location of the gateway's", code)
	}
	mu.Lock()
	defer mu.Unlock()
	assert.Empty(t, reached, "nothing reached the redirect's target")
}

// The relay answers only the Host values of the addresses the server
// serves: a page under another name (DNS rebinding) is refused before
// anything reaches the gateway.
func TestPushRelayHost(t *testing.T) {
	var mu sync.Mutex
	reached := 0
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		reached++
		mu.Unlock()
	}))
	defer gw.Close()
	push, err := newPushRelay(gw.URL)
	require.NoError(t, err)
	status := func(host string) int {
		r := httptest.NewRequest(http.MethodDelete, "/pushgateway/metrics/job/e2e", nil)
		r.Host = host
		r.Header.Set("X-Ringscope-Push", "1")
		r.Header.Set("Sec-Fetch-Site", "same-origin")
		w := httptest.NewRecorder()
		withPush(newHandler(testTree(t)), push).ServeHTTP(w, r)
		if w.Code == http.StatusMisdirectedRequest {
			assert.Contains(t, w.Body.String(), "is not an address this server serves")
		}
		return w.Code
	}
	assert.Equal(t, http.StatusMisdirectedRequest, status("127.0.0.1:8080"), "no Host is served before allowHosts")

	require.NoError(t, push.allowHosts(loopback8080, "127.0.0.1:8080"))
	for host, want := range map[string]int{
		"127.0.0.1:8080":        http.StatusOK,
		"localhost:8080":        http.StatusOK,
		"LOCALHOST:8080":        http.StatusOK,
		"evil.example:8080":     http.StatusMisdirectedRequest,
		"127.0.0.1:9999":        http.StatusMisdirectedRequest,
		"10.0.0.1:8080":         http.StatusMisdirectedRequest,
		"127.0.0.1":             http.StatusMisdirectedRequest,
		"":                      http.StatusMisdirectedRequest,
		"localhost.evil:8080":   http.StatusMisdirectedRequest,
		"127.0.0.1.nip.io:8080": http.StatusMisdirectedRequest,
	} {
		assert.Equal(t, want, status(host), "Host %q", host)
	}

	// On every address: any IP literal and localhost; a host name only
	// where -addr named it.
	require.NoError(t, push.allowHosts(&net.TCPAddr{IP: net.IPv4zero, Port: 80}, "ci-box:80"))
	for host, want := range map[string]int{
		"10.0.0.1":        http.StatusOK,
		"[::1]:80":        http.StatusOK,
		"localhost":       http.StatusOK,
		"ci-box":          http.StatusOK,
		"evil.example":    http.StatusMisdirectedRequest,
		"evil.example:80": http.StatusMisdirectedRequest,
		"10.0.0.1:8080":   http.StatusMisdirectedRequest,
	} {
		assert.Equal(t, want, status(host), "Host %q", host)
	}
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, 7, reached, "only the served Hosts reached the gateway")
}

// Without -pushgateway the relay's path is a 404 that names the flag,
// whatever the method: the static handler's 405 said nothing of it.
func TestPushWithoutARelayNamesTheFlag(t *testing.T) {
	h := withPush(newHandler(testTree(t)), nil)
	for _, m := range []string{http.MethodPut, http.MethodPost, http.MethodGet} {
		r := httptest.NewRequest(m, "/pushgateway/metrics/job/ci", strings.NewReader("x 1\n"))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		assert.Equal(t, http.StatusNotFound, w.Code, m)
		assert.Contains(t, w.Body.String(), "-pushgateway", m)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/", nil))
	assert.Equal(t, http.StatusOK, w.Code, "the rest is served as before")
}
