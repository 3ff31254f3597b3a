//go:build js && wasm

// Package jsapi is ringscope's JavaScript boundary: the ringscope object
// (docs/EMBEDDING.md, docs/OPTIONS.md), every method of it and every
// argument it reads. The rest of wasm/ takes Go values: the controller
// (wasm/controller) gets an OpenRequest or an AttachRequest, the studio
// (wasm/capture) bytes, and the dashboard stays in package main, the
// composition root, which New reaches only through CapturePage and
// Dashboard.
//
// One file per concern of the API: ring_js.go (open, publish,
// setTenantMask, drain, snapshot, status) with open_js.go (open's
// options), live_js.go, attach_js.go (attach's options, the host's device
// and buffers wrapped), capture_js.go, capturein_js.go, metrics_js.go and
// subscribe_js.go (decode, exports, import, replay, subscribe, and the
// files picked or dropped), kernel_js.go (readBuffer and the worked
// examples), mount_js.go, push_js.go (pushMetrics, ?push=),
// dispose_js.go.
//
// Beneath them, two layers every method shares:
//
//   - Arguments (args_js.go, opt_js.go, keys_js.go, items_js.go,
//     words_js.go) read whatever a caller passes: a BigInt, a Proxy whose
//     traps throw, an object with a throwing getter, an array of 2^30
//     holes. Every read goes through Reflect.get or Reflect.apply called
//     with Invoke (which wasm_exec wraps in try/catch), types come from
//     TypeName (js.Value.Type panics on a BigInt), and lengths and byte
//     sizes are checked before anything is allocated or copied. Errors
//     name the argument and say why, in the words a JS caller uses
//     ("open: slots must be a number, got bigint"); an options object's
//     unknown key is refused by name against its table (wasm/api's
//     OptionTable, Known).
//   - Methods (method_js.go) turn Go functions into JS methods: each call
//     returns a Promise settled from a goroutine of its own (a JS
//     callback must never block), its result converted to plain JS
//     values (api.Plain), its error to an Error that carries what a tool
//     needs (ErrorValue), and a panic in it to a rejection rather than
//     the end of the Go program.
//
// make test-wasm WASM_PKGS=./wasm/jsapi runs its tests on real JavaScript
// values under Node.
package jsapi
