//go:build js && wasm

// Package jsmethod turns Go functions into the ringscope object's JS
// methods: each call returns a Promise settled from a goroutine of its own
// (a JS callback must never block), its result converted to plain JS
// values (api.Plain), its error to an Error that carries what a tool needs
// (ErrorValue), and a panic in it to a rejection rather than the end of the
// Go program.
package jsmethod
