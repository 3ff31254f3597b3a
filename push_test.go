package main

import (
	"io"
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
	h := withPush(newHandler(testTree(t)), push)

	send := func(method, path, body string, hdr map[string]string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
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
