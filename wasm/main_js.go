//go:build js && wasm

package main

import (
	"net/url"

	"github.com/ringscope/ringscope/wasm/api"
)

func main() {
	query, _ := url.ParseQuery(trimQuery(jsGlobal.Get("location").Get("search").String()))
	cfg, cfgErr := api.ParseQuery(query)
	a := newApp(cfg)
	installAPI(a)
	go a.start(cfgErr)
	a.renderLoop() // never returns: the page lives as long as the module
}

func trimQuery(search string) string {
	if len(search) > 0 && search[0] == '?' {
		return search[1:]
	}
	return search
}
