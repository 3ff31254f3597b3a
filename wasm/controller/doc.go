//go:build js && wasm

// Package controller is the page's ring: it owns the WebGPU device, the
// megakernel runner, the live loop's session (wasm/session), the
// attachment to a host page's ring when there is one, the record of device
// losses and their recovery, and the lock that serialises the frame loop
// with the API's calls. Its exported methods are what the ringscope
// object's ring methods do once the page's JS adapters (package main) have
// read their arguments: Open, Publish, SetTenantMask, Drain, Snapshot,
// Run, Stop, Step, SetShutdown, Attach, Detach, Do. It shows everything
// through Display, so it never touches the DOM or the view itself.
//
// Data runs one way: runner or attachment → session (one decode/frame.Frame
// per step) → the session's Observer (the recorder, the subscribers) and
// Display (the dashboard).
package controller
