// Package webgpu is a small typed binding to navigator.gpu for compute work:
// adapters, devices, buffers, shader modules, compute pipelines, bind groups,
// command encoding, queue submission, buffer readback, error scopes and
// timestamp queries.
//
// The binding itself lives in *_js.go files and exists only for js/wasm; on
// other platforms the package holds just its pure-Go parts (error types,
// flags, limits, timestamp decoding), so `go vet ./...` and native tests keep
// working.
//
// # The JS boundary
//
// This package and the wasm entry point are the only code that imports
// syscall/js. Every JS exception and Promise rejection becomes a Go error
// here: a thrown exception or rejection keeps its reason as a *JSError;
// shader compilation errors are a *ShaderError with line:col; error scopes
// give *ValidationError, *OutOfMemoryError or *InternalError; anything done
// on a lost device fails with an error that matches ErrDeviceLost. Messages
// start with "webgpu: " and wrap their cause with %w.
//
// JS callbacks never block: they send on a buffered channel or start a
// goroutine, and every js.Func is released (LiveFuncs counts the ones still
// held). Functions that take a context.Context wait for a Promise; they must
// be called from an ordinary goroutine, never from inside a JS callback
// (an event handler, a requestAnimationFrame callback, a js.FuncOf body):
// there the JS event loop cannot run, so the Promise never settles and the
// program deadlocks.
//
// WrapDevice and WrapBuffer wrap a GPUDevice and GPUBuffers that JavaScript
// created (a host page's own): their properties are read through the
// classes' brand-checked getters via Call, so no JS value can crash the
// program, and a wrapped buffer is borrowed (Destroy leaves it alone).
//
// Uploads pass writeBuffer the Go slice where it lies in the program's
// memory (no copy before Dawn's own; goMemory finds that memory), or,
// where it cannot be found, go through one reused staging Uint8Array per
// queue and js.CopyBytesToJS; readback maps the buffer and copies with
// js.CopyBytesToGo into a slice the caller reuses, so the steady state does
// not allocate in proportion to the bytes moved.
package webgpu
