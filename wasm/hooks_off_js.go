//go:build js && wasm && !ringscope_testhooks

package main

import "syscall/js"

// testHooks is nil in the page a person opens: ringscope.__test exists
// only in the e2e build (testhooks_js.go).
var testHooks func(a *app, obj js.Value)
