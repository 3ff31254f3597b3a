//go:build js && wasm

// Package openopts reads the options of ringscope.open from JS: the
// runner's (megakernel.Options: ring size, masks, budget, kernel,
// data) and the page's own (the watchdog's N, the readback mode), each
// bad field refused with an error that names it before any GPU work.
package openopts
