//go:build js && wasm && ringscope_testhooks

package main

import (
	"syscall/js"

	"github.com/ringscope/ringscope/wasm/testhooks"
)

// testHooks is the e2e build's ringscope.__test (wasm/testhooks) over the
// controller; the page a person opens has none (hooks_off_js.go).
var testHooks = func(a *app, obj js.Value) { testhooks.Install(obj, a.ring) }
