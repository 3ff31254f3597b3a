//go:build js && wasm

// Package controller is the page's ring: it owns the WebGPU device, the
// megakernel runner, the live loop's session (wasm/session), the
// attachment to a host page's ring when there is one, the record of device
// losses and their recovery, and the lock that serialises the frame loop
// with the API's calls. Its exported methods are what the ringscope
// object's ring methods do once the JS package (wasm/jsapi) has read their
// arguments into Go values: Open (an OpenRequest), Publish,
// SetTenantMask, Drain, Snapshot, Run, Stop, Step, SetShutdown, Attach
// (an AttachRequest, whose Host wraps the host's GPU objects), Detach, Do.
// It imports no syscall/js (deps_test.go): the browser it reaches through
// webgpu and wasm/browser only. It publishes what the
// page shows as one value, State (status, running, stale and why,
// recoveries, the settings and their refusal, readback, pacing), beside
// each frame through Display: it never touches the DOM or the view, and
// imports no ui. The run settings it applies are package settings'.
//
// Data runs one way: runner or attachment → session (one decode/frame.Frame
// per step) → the session's Observer (the recorder, the subscribers) and
// Display (package main maps State onto the dashboard in one place).
package controller
