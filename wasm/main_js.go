//go:build js && wasm

package main

import (
	"github.com/ringscope/ringscope/wasm/api"
)

func main() {
	cfg, cfgErr := api.ParseQuery(pageQuery())
	a := newApp(cfg)
	installAPI(a)
	go a.start(cfgErr)
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
