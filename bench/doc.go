// Package bench holds ringscope's benchmark rows: `make bench` runs them
// and writes bench/results.md (bench/run.mjs drives it; bench/device.sh
// runs the GPU rows under Node + Dawn on another machine, and
// bench/gpu-chromium.sh the page's rows in Chromium carried there).
//
// Every row is a ratio of two things measured side by side in one run,
// reported with both sides' medians and p90s. Nothing here passes or fails
// on a wall-clock time: the tests only print rows, one JSON object per line
// prefixed with "BENCHROW ", and only when the -rows flag is given, so
// `go test ./...` runs none of them:
//
//	go test ./bench -run TestDecodeRow -v -args -rows                 # native
//	GOOS=js GOARCH=wasm go test -c -o bench.wasm ./bench              # then run
//	bench.wasm in Node + Dawn (bench/device.sh) or Chromium (bench/run.mjs)
//
// The files without build tags (decode rows, ring bytes, statistics) build
// natively and for js/wasm alike, so both sides of a row run the same code
// on the same bytes; the *_js_test.go files need a WebGPU adapter.
package bench
