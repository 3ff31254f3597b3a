//go:build js && wasm && ringscope_testhooks

package main

import (
	"syscall/js"

	"github.com/ringscope/ringscope/wasm/testhooks"
	"github.com/ringscope/ringscope/webgpu"
)

// testHooks is the e2e build's ringscope.__test (wasm/testhooks); the page
// a person opens has none (hooks_off_js.go).
var testHooks = func(a *app, obj js.Value) { testhooks.Install(obj, hookPage{a}) }

// hookPage is the page as wasm/testhooks' Page.
type hookPage struct{ a *app }

func (h hookPage) Device() *webgpu.Device { return h.a.liveDev.Load() }

func (h hookPage) HoldRecovery(on bool) { h.a.losses.Hold(on) }
