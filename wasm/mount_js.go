//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/mount"
)

// installEmbedAPI adds panels and mount (wasm/mount) over the view.
func installEmbedAPI(a *app, obj js.Value) { mount.Install(obj, mountView{a.view}) }

// mountView is the view as wasm/mount's Dashboard.
type mountView struct{ v *view }

func (m mountView) Root() js.Value { return m.v.root() }
func (m mountView) Redraw()        { m.v.update(func(*ui.Dashboard) {}) }
