//go:build js && wasm

package jsapi

import (
	"errors"
	"fmt"
	"github.com/ringscope/ringscope/internal/nocompare"
	"syscall/js"
	"time"

	"github.com/ringscope/ringscope/internal/pushlabel"
	"github.com/ringscope/ringscope/wasm/api"
)

// Pushing the metrics to a Prometheus Pushgateway, so that a fleet of
// pages (many headless test runs) feeds one dashboard:
//
//	pushMetrics(url, {job, instance})   PUTs exportMetrics({format:
//	                                    "prometheus"}) to url/metrics/job/
//	                                    <job>[/instance/<instance>];
//	                                    resolves to {url, status, bytes}
//	?push=URL&job=J&instance=I          the page pushes every pushInterval
//
// The page's CSP allows connections to its own origin only, and a
// Pushgateway sends no CORS headers, so url is normally the page server's
// relay, "/pushgateway" (go run . -pushgateway http://host:9091; push.go).
// A PUT replaces the group's metrics, so a family that disappeared from the
// page disappears from the gateway too.

// pushInterval is how often ?push= pushes: about one scrape interval.
const pushInterval = 2 * time.Second

// Metrics is what a push sends: the Prometheus text of the page's
// metrics now (the studio's exportMetrics).
type Metrics func() ([]byte, error)

// pusher is the push concern: what it pushes.
type pusher struct{ metrics Metrics }

// installPush adds pushMetrics to obj and, when the page's URL parameters
// (query) name ?push=, starts pushing every pushInterval.
func installPush(obj js.Value, metrics Metrics, query map[string][]string) {
	p := &pusher{metrics: metrics}
	Method(obj, "pushMetrics", p.apiPushMetrics)
	if target := first(query["push"]); target != "" {
		go p.loop(target, first(query["job"]), first(query["instance"]))
	}
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

// PushResult is what pushMetrics resolves to.
type PushResult struct {
	_ nocompare.T

	URL    string
	Status int
	Bytes  int
}

// apiPushMetrics: pushMetrics(url, {job, instance}).
func (p *pusher) apiPushMetrics(args []js.Value) (any, error) {
	const what = "pushMetrics"
	u, err := String(Arg(args, 0), what+": url (the page server's relay, \"/pushgateway\")", MaxText)
	if err != nil {
		return nil, err
	}
	o := Arg(args, 1)
	if err := Known(o, &api.PushMetricsOptions, ""); err != nil {
		return nil, err
	}
	job, err := optLabel(o, what, "job", "ringscope")
	if err != nil {
		return nil, err
	}
	instance, err := optLabel(o, what, "instance", "")
	if err != nil {
		return nil, err
	}
	return p.push(u, job, instance)
}

// optLabel reads a grouping label: a string pushlabel.Valid accepts, def when
// absent.
func optLabel(o js.Value, what, name, def string) (string, error) {
	v, err := OptProp(o, what, name)
	if err != nil || v.IsUndefined() || v.IsNull() {
		return def, err
	}
	s, err := String(v, what+": "+name, MaxName)
	if err != nil || !pushlabel.Valid(s) {
		return "", fmt.Errorf("%s: %s must be a string of 1…128 of A-Z a-z 0-9 _ . : -, got %s", what, name, Describe(v))
	}
	return s, nil
}

// push PUTs the Prometheus text of the current capture to base's group.
func (p *pusher) push(base, job, instance string) (PushResult, error) {
	var res PushResult
	loc := jsGlobal.Get("location").Get("href")
	var u js.Value
	if err := Catch(func() { u = jsGlobal.Get("URL").New(base, loc) }); err != nil {
		return res, fmt.Errorf("pushMetrics: url %q: %w", base, err)
	}
	if p := u.Get("protocol").String(); p != "http:" && p != "https:" {
		return res, fmt.Errorf("pushMetrics: url %q: want http or https, got %s", base, p)
	}
	path := u.Get("pathname").String()
	for len(path) > 0 && path[len(path)-1] == '/' {
		path = path[:len(path)-1]
	}
	path += "/metrics/job/" + job
	if instance != "" {
		path += "/instance/" + instance
	}
	u.Set("pathname", path)
	res.URL = u.Get("href").String()
	body, err := p.metrics()
	if err != nil {
		return res, fmt.Errorf("pushMetrics: %w", err)
	}
	res.Bytes = len(body)
	init := map[string]any{"method": "PUT", "body": string(body), "credentials": "same-origin", "cache": "no-store",
		"headers": map[string]any{"Content-Type": "text/plain; version=0.0.4; charset=utf-8", "X-Ringscope-Push": "1"}}
	var pending js.Value
	if err := Catch(func() { pending = jsGlobal.Call("fetch", res.URL, init) }); err != nil {
		return res, fmt.Errorf("pushMetrics: %s: %w", res.URL, err)
	}
	resp, err := awaitJS(pending)
	if err != nil {
		return res, fmt.Errorf("pushMetrics: %s: %w (the page may connect to its own origin only: push through the server's relay, /pushgateway)", res.URL, err)
	}
	res.Status = resp.Get("status").Int()
	if !resp.Get("ok").Bool() {
		text, _ := awaitJS(resp.Call("text"))
		msg := ""
		if text.Type() == js.TypeString {
			msg = text.String()
		}
		return res, fmt.Errorf("pushMetrics: %s: HTTP %d: %s", res.URL, res.Status, msg)
	}
	return res, nil
}

// loop pushes every pushInterval for the page's ?push= parameter,
// reporting failures on the console (once per distinct message).
func (p *pusher) loop(target, job, instance string) {
	if job == "" {
		job = "ringscope"
	}
	if !pushlabel.Valid(job) || (instance != "" && !pushlabel.Valid(instance)) {
		jsGlobal.Get("console").Call("error", "ringscope: ?push: job and instance must be 1…128 of A-Z a-z 0-9 _ . : -")
		return
	}
	last := ""
	for {
		msg := ""
		if _, err := p.push(target, job, instance); err != nil {
			msg = err.Error()
		}
		if msg != last && msg != "" {
			jsGlobal.Get("console").Call("error", "ringscope: ?push: "+msg)
		}
		last = msg
		time.Sleep(pushInterval)
	}
}

// awaitJS waits for a JS promise from a goroutine (never from a callback).
func awaitJS(p js.Value) (js.Value, error) {
	ch := make(chan js.Value, 1)
	errc := make(chan error, 1)
	ok := js.FuncOf(func(_ js.Value, args []js.Value) any { ch <- Arg(args, 0); return nil })
	fail := js.FuncOf(func(_ js.Value, args []js.Value) any { errc <- errors.New(Text(Arg(args, 0))); return nil })
	defer ok.Release()
	defer fail.Release()
	p.Call("then", ok, fail)
	select {
	case v := <-ch:
		return v, nil
	case err := <-errc:
		return js.Undefined(), err
	}
}
