//go:build !(js && wasm)

package ui

import (
	gjs "github.com/gowebapi/webapi/core/js"
	js "github.com/vugu/vugu/js"
)

// Outside a browser (native tests) there is no DOM: both packages' values
// are stand-ins that are never passed between them.

func webValue(js.Value) gjs.Value  { return gjs.Value{} }
func vuguValue(gjs.Value) js.Value { return js.Value{} }
