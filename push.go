package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
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
// back. Without the flag the path is a 404 that names the flag. The
// target is fixed by whoever starts the server, and label values are
// checked by pushlabel.Valid, so the relay reaches nothing else. Only the
// page's own fetches use it: a request must carry X-Ringscope-Push (which
// a cross-origin page cannot send without a preflight this server never
// grants) and, where the browser says, Sec-Fetch-Site: same-origin. Its
// Host must be an address this server serves (allowHosts), so a page of
// another name that DNS rebinding points at this server is refused. The
// relay never follows a redirect: the gateway's answer comes back as it is,
// so a gateway (or whatever answers at its address) cannot make the server
// fetch, or re-send a push to, another URL.

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

	// The addresses the server serves (allowHosts): its port, its IP
	// (nil: every IP, a listener on the unspecified address) and the
	// host name -addr gave, if any. Until allowHosts, no Host is served.
	port     string
	ip       net.IP
	name     string
	hostsSet bool
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
	client := &http.Client{
		Timeout: pushTimeout,
		// The gateway's answer, a 3xx included, is the relay's answer.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return &pushRelay{target: u, client: client}, nil
}

// allowHosts sets the Host values the relay answers to those of a server
// listening at ln, started with -addr flagAddr: ln's port with ln's IP
// (any IP literal where ln is on the unspecified address), "localhost"
// where ln is on loopback or every address, or the host name of flagAddr.
// A DNS-rebinding page reaches the server under its own name, which is
// none of these.
func (p *pushRelay) allowHosts(ln net.Addr, flagAddr string) error {
	host, port, err := net.SplitHostPort(ln.String())
	if err != nil {
		return fmt.Errorf("pushgateway relay: listen address %q: %w", ln, err)
	}
	p.port, p.ip, p.name, p.hostsSet = port, net.ParseIP(host), "", true
	if p.ip != nil && p.ip.IsUnspecified() {
		p.ip = nil
	}
	if h, _, err := net.SplitHostPort(flagAddr); err == nil && h != "" && net.ParseIP(h) == nil {
		p.name = strings.ToLower(h)
	}
	return nil
}

// servesHost reports whether a request's Host is an address this server
// serves (allowHosts).
func (p *pushRelay) servesHost(hostport string) bool {
	if !p.hostsSet {
		return false
	}
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, "80" // a Host without a port is port 80's
	}
	host = strings.ToLower(host)
	if port != p.port {
		return false
	}
	if ip := net.ParseIP(host); ip != nil {
		return p.ip == nil || p.ip.Equal(ip)
	}
	switch {
	case host == "localhost":
		return p.ip == nil || p.ip.IsLoopback()
	case p.name != "":
		return host == p.name
	}
	return false
}

// withPush serves the relay's path with push, everything else with h.
func withPush(h http.Handler, push *pushRelay) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, pushPrefix) {
			h.ServeHTTP(w, r)
			return
		}
		for _, kv := range securityHeaders {
			w.Header().Set(kv[0], kv[1])
		}
		if push == nil {
			// Not the static handler's 405: say what is missing (the
			// page's ?push names this answer on its console).
			http.Error(w, "no Pushgateway relay: start the server with -pushgateway http://HOST:9091", http.StatusNotFound)
			return
		}
		push.ServeHTTP(w, r)
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
	if !p.servesHost(r.Host) {
		http.Error(w, fmt.Sprintf("pushgateway relay: Host %q is not an address this server serves", r.Host), http.StatusMisdirectedRequest)
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
