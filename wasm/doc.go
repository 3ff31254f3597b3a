//go:build js && wasm

// Command wasm is the ringscope page's WebAssembly module and its
// composition root: it finds a WebGPU adapter, opens a megakernel runner on
// the workload the URL names, mounts the Vugu dashboard, keeps publishing
// and draining epochs at display rate, and installs the global JavaScript
// API (ringscope.open, publish, setTenantMask, drain, snapshot).
//
// Layout: the session (wasm/session) owns the ring and assembles every
// frame; app (app_js.go) owns the device, the render loop and the lock
// that serialises the session with the API calls; each *_js.go file is
// one concern's JS adapter (the ring API, the live controls, capture,
// attach, recovery, push, mount), which parses its arguments
// (jsarg_js.go) and calls the session or the studio (wasm/capture).
//
// Where a worker would go: the session's inputs are method calls with
// plain Go values (open, publish, attach, step) and its output is one
// decode/frame.Frame per step, handed to Observers; neither holds a
// js.Value. Run in a dedicated worker, it would own the device and the
// runner, take those calls as messages and post each Frame (its
// telemetry and Raw bytes, transferable) to the page, which would keep
// the dashboard, the studio and the subscribers. The page keeps it on
// the main thread for now.
//
// Build it with make build (GOOS=js GOARCH=wasm go build -o static/main.wasm ./wasm).
package main
