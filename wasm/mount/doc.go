//go:build js && wasm

// Package mount is ringscope.mount(element, {panels}): it moves the page's
// one dashboard into an element of the host page, showing all of it or
// the named panels in the host's layout (static/capture.css hides the
// rest).
package mount
