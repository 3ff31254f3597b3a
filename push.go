package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ringscope/ringscope/internal/pushlabel"
)

// The Pushgateway relay. A page cannot push its metrics to a Prometheus
// Pushgateway itself: the page's CSP allows connections to its own origin
// only, and the gateway answers no CORS preflight (a PUT needs one). So with
// -pushgateway URL the server relays the page's pushes to that one gateway:
//
//	PUT|POST|DELETE /pushgateway/metrics/job/<job>[/instance/<instance>]
//
// goes to URL/metrics/job/<job>[/instance/<instance>] with the body
// (Prometheus text, at most maxPushBytes) and the gateway's status comes
// back. Without the flag the path is a 404, as any other non-file. The
// target is fixed by whoever starts the server, and label values are
// checked by pushlabel.Valid, so the relay reaches nothing else. Only the
// page's own fetches use it: a request must carry X-Ringscope-Push (which
// a cross-origin page cannot send without a preflight this server never
// grants) and, where the browser says, Sec-Fetch-Site: same-origin.

// pushPrefix is the relay's path.
const pushPrefix = "/pushgateway/"

// maxPushBytes bounds a pushed body: the page's metrics are a few KB.
const maxPushBytes = 1 << 20

// pushTimeout bounds one relayed request to the gateway.
const pushTimeout = 10 * time.Second

// pushRelay forwards pushes to target.
type pushRelay struct {
	target *url.URL
	client *http.Client
}

// newPushRelay checks the -pushgateway URL: http or https, a host, no
// query or fragment.
func newPushRelay(raw string) (*pushRelay, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("-pushgateway %q: %w", raw, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, fmt.Errorf("-pushgateway %q: want http://host:port[/path] of a Pushgateway", raw)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	return &pushRelay{target: u, client: &http.Client{Timeout: pushTimeout}}, nil
}

// withPush serves the relay's path with push, everything else with h.
func withPush(h http.Handler, push *pushRelay) http.Handler {
	if push == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, pushPrefix) {
			for _, kv := range securityHeaders {
				w.Header().Set(kv[0], kv[1])
			}
			push.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// groupPath checks the grouping key of a relay path and returns the
// gateway's path for it.
func groupPath(p string) (string, bool) {
	parts := strings.Split(strings.TrimPrefix(p, pushPrefix), "/")
	switch {
	case len(parts) == 3 && parts[0] == "metrics" && parts[1] == "job":
	case len(parts) == 5 && parts[0] == "metrics" && parts[1] == "job" && parts[3] == "instance":
		if !pushlabel.Valid(parts[4]) {
			return "", false
		}
	default:
		return "", false
	}
	if !pushlabel.Valid(parts[2]) {
		return "", false
	}
	return "/" + strings.Join(parts, "/"), true
}

func (p *pushRelay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPut, http.MethodPost, http.MethodDelete:
	default:
		w.Header().Set("Allow", "PUT, POST, DELETE")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if r.Header.Get("X-Ringscope-Push") == "" || (r.Header.Get("Sec-Fetch-Site") != "" && r.Header.Get("Sec-Fetch-Site") != "same-origin") {
		http.Error(w, "pushgateway relay: only the page's own pushes are relayed", http.StatusForbidden)
		return
	}
	if r.URL.RawPath != "" {
		http.Error(w, "pushgateway relay: escaped path", http.StatusBadRequest)
		return
	}
	gp, ok := groupPath(r.URL.Path)
	if !ok {
		http.Error(w, "pushgateway relay: want /pushgateway/metrics/job/<job>[/instance/<instance>], labels of [A-Za-z0-9_.:-]", http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxPushBytes))
	if err != nil {
		http.Error(w, fmt.Sprintf("pushgateway relay: body: %v (at most %d bytes)", err, maxPushBytes), http.StatusRequestEntityTooLarge)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), pushTimeout)
	defer cancel()
	target := *p.target
	target.Path += gp
	req, err := http.NewRequestWithContext(ctx, r.Method, target.String(), bytes.NewReader(body))
	if err != nil {
		http.Error(w, "pushgateway relay: "+err.Error(), http.StatusInternalServerError)
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		http.Error(w, "pushgateway relay: "+err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(resp.StatusCode)
	w.Write(msg)
}
