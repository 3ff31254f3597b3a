//go:build js && wasm

// Package devloss is what the page knows of WebGPU device losses: how a
// device is acquired (and re-acquired), whether an error is a loss, and
// the record of losses and recoveries that snapshot() and the dashboard
// show. The recovery itself, which rebinds the runner, is the page's
// (wasm/controller/recover_js.go).
package devloss
