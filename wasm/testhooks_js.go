//go:build js && wasm && ringscope_testhooks

package main

import (
	"syscall/js"

	"github.com/ringscope/ringscope/wasm/jsapi"
	"github.com/ringscope/ringscope/wasm/testhooks"
)

// testHooks is the e2e build's ringscope.__test (wasm/testhooks) over the
// controller; the page a person opens has none (hooks_off_js.go).
// holdRender(on) adds to them: while on, the dashboard skips its renders.
var testHooks = func(a *app, obj js.Value) {
	testhooks.Install(obj, a.ring)
	jsapi.Method(obj.Get("__test"), "holdRender", func(args []js.Value) (any, error) {
		on := jsapi.Truthy(jsapi.Arg(args, 0))
		a.view.held.Store(on)
		return on, nil
	})
}
