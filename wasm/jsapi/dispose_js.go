//go:build js && wasm

package jsapi

import "syscall/js"

// installDispose adds dispose() to an instance's API object (never the
// page's window.ringscope, which lives as long as the page): dispose, the
// composition root's, ends the controller (the runner's buffers and
// ringscope's own device destroyed, an attachment detached) and stops the
// render loop; main then removes the listeners and releases the js.Funcs
// the page registered (after the last render, which uses them) and
// returns, so the Go program ends, its memory (the flight recorder's
// included) released with the instance. static/create-ringscope.mjs
// waits for that end and removes the dashboard.
func installDispose(obj js.Value, dispose func()) {
	Method(obj, "dispose", func([]js.Value) (any, error) {
		dispose()
		return nil, nil
	})
}
