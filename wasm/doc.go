//go:build js && wasm

// Command wasm is the ringscope page's WebAssembly module and its
// composition root: it reads the URL, makes the page's ring
// (wasm/controller: device, runner, session, attachment, recovery), the
// Vugu dashboard and the view that renders it on display frames
// (view_js.go), the studio (wasm/capture: recorder, replay, exports), and
// installs the global JavaScript API (ringscope).
//
// Layout: app_js.go wires the parts and hands the ringscope object
// (wasm/jsapi, the whole JS boundary: every method, every argument read)
// to the page or to createRingscope's instance; capture_js.go is the
// dashboard as that package's concerns see it (the capture bar, replayed
// frames, mount), view_js.go the dashboard's render loop, testhooks_js.go
// the e2e build's ringscope.__test (wasm/testhooks). Only this package
// holds the dashboard (ui). No package under wasm/ imports this one, and
// the data path runs one way: controller → Frame → dashboard, recorder
// and subscribers.
//
// Where a worker would go: the controller's inputs are method calls with
// plain Go values (Open, Publish, Attach, Step) and its output is one
// decode/frame.Frame per step, handed to its Observer and its Display;
// neither holds a DOM node. Run in a dedicated worker, it would own the
// device and the runner, take those calls as messages and post each Frame
// (its telemetry and Raw bytes, transferable) to the page, which would
// keep the dashboard, the studio and the subscribers. An attachment cannot
// move (the host's GPUDevice lives on the page's thread). The page keeps
// it all on the main thread for now.
//
// Build it with make build (GOOS=js GOARCH=wasm go build -o static/main.wasm ./wasm).
package main
