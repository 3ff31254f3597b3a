//go:build js && wasm

// Package browser is the page's I/O with the browser outside WebGPU and
// the dashboard's own DOM: downloads, reading the files a person chooses
// or drops, the capture bar's file and drop listeners, display frames
// (requestAnimationFrame), the ready Promise, User Timing marks and the
// clock. It uses gowebapi's typed bindings where a call runs once per
// action, and syscall/js where gowebapi has none.
//
// Every listener and js.Func it creates is registered in a Cleanup, whose
// Run removes and releases them all (the gio way); a test counts that
// each addition has its removal.
package browser
