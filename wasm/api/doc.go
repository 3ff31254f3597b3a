// Package api holds the pure-Go half of the page's JavaScript API (the
// global ringscope object): names in lowerCamelCase, the conversion of Go
// telemetry values into plain JSON-shaped values that syscall/js can hand
// to JavaScript, and the validation of what JavaScript passes in (numbers
// that must be unsigned 32-bit integers, publish items).
//
// It has no syscall/js dependency, so all of it is tested natively; the
// wasm entry point only moves values across the boundary.
package api
