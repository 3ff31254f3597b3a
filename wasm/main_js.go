//go:build js && wasm

package main

import (
	"syscall"
	"syscall/js"

	"github.com/ringscope/ringscope/wasm/api"
)

// JS globals, looked up once.
var (
	jsGlobal = js.Global()
	jsObject = jsGlobal.Get("Object")
)

func main() {
	b := readBoot()
	query := pageQuery(b)
	cfg, cfgErr := api.ParseQuery(query)
	a := newApp(cfg, query)
	a.boot = b
	a.installAPI()
	go a.ring.Start(cfgErr)
	helper, selector := js.Undefined(), "#app"
	if b.Truthy() {
		helper, selector = b.Get("renderer"), b.Get("selector").String()
	}
	a.view.run(helper, selector) // returns only on dispose()
	a.cleanup.Run()
}

// readBoot is what createRingscope (static/create-ringscope.mjs) hands
// an instance of its own: an object at the global it names in the
// program's environment (go.env, the only channel into a starting Go
// program), with the query that configures it, the mount selector, the
// instance's renderer (render.js's create()) and deliver(api), which
// takes the API object instead of window.ringscope. Undefined for the
// page's own program (index.html, ringscope.mjs).
func readBoot() js.Value {
	key, ok := syscall.Getenv("RINGSCOPE_BOOT")
	if !ok || key == "" {
		return js.Undefined()
	}
	return jsGlobal.Get(key)
}

// pageQuery is the configuration's URL parameters: the instance's own
// query, or the page's (location.search). Malformed pairs are skipped, as
// url.ParseQuery skips them.
func pageQuery(boot js.Value) map[string][]string {
	var search string
	if boot.Truthy() {
		search = boot.Get("query").String()
	} else {
		search = jsGlobal.Get("location").Get("search").String()
	}
	q, _ := api.ParseQueryString(trimQuery(search))
	return q
}

func trimQuery(search string) string {
	if len(search) > 0 && search[0] == '?' {
		return search[1:]
	}
	return search
}

// ringscopeVersion is the build's version, which captures record: the
// Makefile sets it to git describe's answer (revision, "-dirty" for
// uncommitted changes) with -X. Reading it from debug.ReadBuildInfo instead
// would link the build-info parser (bench/results-size.md).
var ringscopeVersion = "unknown"
