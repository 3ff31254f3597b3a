//go:build js && wasm

package ui

import (
	gjs "github.com/gowebapi/webapi/core/js"
	js "github.com/vugu/vugu/js"
)

// The components get elements as vugu/js values (vg-js-create) and set
// the DOM up through gowebapi, whose core/js is syscall/js itself in a
// browser; these convert between the two.

func webValue(v js.Value) gjs.Value  { return gjs.Value(v) }
func vuguValue(v gjs.Value) js.Value { return js.Value(v) }
