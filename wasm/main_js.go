//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/ringscope/ringscope/wasm/api"
)

// JS globals, looked up once.
var (
	jsGlobal = js.Global()
	jsObject = jsGlobal.Get("Object")
)

func main() {
	query := pageQuery()
	cfg, cfgErr := api.ParseQuery(query)
	a := newApp(cfg, query)
	installAPI(a)
	go a.ring.Start(cfgErr)
	a.view.run() // never returns: the page lives as long as the module
}

// pageQuery is the page's URL parameters (location.search). Malformed
// pairs are skipped, as url.ParseQuery skips them.
func pageQuery() map[string][]string {
	q, _ := api.ParseQueryString(trimQuery(jsGlobal.Get("location").Get("search").String()))
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
// would link the build-info parser (8 KB of main.wasm gzipped).
var ringscopeVersion = "unknown"
