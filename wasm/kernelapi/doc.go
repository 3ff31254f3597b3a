//go:build js && wasm

// Package kernelapi is the user kernel's part of the ringscope object
// (docs/OPCODES.md): readBuffer, and the worked examples the Kernel panel
// and embedders use (examples, example, publishWorkload, checkExample). It
// reaches the page's runner only through Ring, under the page's lock.
package kernelapi
