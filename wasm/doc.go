//go:build js && wasm

// Command wasm is the ringscope page's WebAssembly module and its
// composition root: it finds a WebGPU adapter, opens a megakernel runner on
// the workload the URL names, mounts the Vugu dashboard, keeps publishing
// and draining epochs at display rate, and installs the global JavaScript
// API (ringscope.open, publish, setTenantMask, drain, snapshot).
//
// Build it with make build (GOOS=js GOARCH=wasm go build -o static/main.wasm ./wasm).
package main
