#!/usr/bin/env bash
# bench/device.sh: the GPU rows of make bench (decode in wasm, megakernel
# drain vs one dispatch per item, summary vs full readback) under Node +
# Dawn, on whatever GPU Dawn finds: for a real GPU machine without Chromium
# or Go (shared/docs/BROWSER.md, "A real GPU").
#
#   bench/device.sh [--quick]                       # here: builds the wasm, runs it
#   NODE=/path/node WEBGPU_DIR=/path/webgpu bench/device.sh
#   BENCH_WASM=bench/.out/bench.wasm WASM_EXEC_DIR=bench/.out/wasm ... # no Go there
#
#   NODE          the node binary (default: node on PATH)
#   WEBGPU_DIR    the npm "webgpu" package dir: index.js, package.json and
#                 dist/<platform>/dawn.node (default e2e/node_modules/webgpu)
#   BENCH_WASM    a prebuilt `GOOS=js GOARCH=wasm go test -c ./bench`; built
#                 here (and wasm_exec*.js copied beside it) when Go is present
#   WASM_EXEC_DIR where wasm_exec_node.js and wasm_exec.js are (default: the
#                 Go root's lib/wasm, or the BENCH_WASM's folder/wasm)
#
# On a machine without a GPU, Dawn needs VK_ICD_FILENAMES pointing at
# Chromium's SwiftShader (make bench-node sets it). On the device tool's
# H200, a fresh machine needs the Vulkan loader and libglvnd (libvulkan1,
# libglvnd0, libglx0, libegl1, libgl1, libopengl0, libgles2: the debs of
# the tool's README, unpacked into /) and VK_DRIVER_FILES naming NVIDIA's
# ICD; with libvulkan1 alone Dawn's vkCreateInstance finds no driver
# (bench/results-h200.md has the command).
#
# Timestamps and clocks (row 6 compares passes of tens of microseconds):
# Dawn quantizes timestamp queries by default (to 65 µs on the H200), so the
# preload creates the GPU with DAWN_FLAGS, by default
# 'disable-dawn-features=timestamp_quantization' (npm webgpu's create()
# takes Dawn's command-line toggles); DAWN_FLAGS= (empty) keeps Dawn's
# default. A GPU idle between repetitions drops its clock (the H200 to
# 345 MHz), so every measured submission of rows 1 and 6 follows 150 ms of
# GPU work (bench/warm.wgsl; the test binary's -warm flag, WARM here); the
# clocks are never locked, so the machine's settings stay as they are.
#
# Prints the BENCHROW lines, then the same markdown rows as bench/results.md
# (bench/run.mjs --format). Raw log: bench/.out/device.log.
set -euo pipefail
cd "$(dirname "$0")/.."
NODE=${NODE:-node}
WEBGPU_DIR=$(cd "${WEBGPU_DIR:-e2e/node_modules/webgpu}" && pwd)
OUT=bench/.out
mkdir -p "$OUT"
QUICK=()
[[ "${1:-}" == --quick ]] && QUICK=(-quick)
DAWN_FLAGS=${DAWN_FLAGS-disable-dawn-features=timestamp_quantization}
DAWN_JS="[$([[ -n "$DAWN_FLAGS" ]] && printf "'%s'" "$DAWN_FLAGS")]"
WARM=${WARM:-150ms}

if [[ -z "${BENCH_WASM:-}" ]]; then
	BENCH_WASM=$OUT/bench.wasm
	GOOS=js GOARCH=wasm go test -c -o "$BENCH_WASM" ./bench
	mkdir -p "$OUT/wasm"
	cp "$(go env GOROOT)"/lib/wasm/wasm_exec{,_node}.js "$OUT/wasm/"
fi
WASM_EXEC_DIR=${WASM_EXEC_DIR:-$(dirname "$BENCH_WASM")/wasm}

# The preload gives Node navigator.gpu from the given package, and keeps the
# GPU object referenced for the whole run (if V8 collects it, Dawn crashes).
PRELOAD=$(cd "$OUT" && pwd)/device-preload.mjs
cat >"$PRELOAD" <<JS
import { createRequire } from 'node:module';
const { create, globals } = createRequire('$WEBGPU_DIR/')('$WEBGPU_DIR/index.js');
Object.assign(globalThis, globals);
globalThis.__ringscopeGPU = create(${DAWN_JS});
globalThis.navigator = { gpu: globalThis.__ringscopeGPU };
JS

mkdir -p "${XDG_RUNTIME_DIR:=$PWD/.cache/xdg}" && chmod 700 "$XDG_RUNTIME_DIR" && export XDG_RUNTIME_DIR
ARGS=(-test.run "${ROWS:-^(TestDecodeRow|TestDispatchRow|TestReadbackRow|TestRingRow)\$}" -test.v -test.timeout 25m -rows -warm "$WARM" "${QUICK[@]}" ${BENCH_ARGS:-})
CMD="NODE_OPTIONS=--import=<preload> $NODE $WASM_EXEC_DIR/wasm_exec_node.js bench.wasm ${ARGS[*]}"
echo "bench/device.sh: node $("$NODE" --version), webgpu $WEBGPU_DIR, create($DAWN_JS), warm $WARM" >&2
RINGSCOPE_BENCH_HOST="Node $("$NODE" --version) + Dawn" NODE_OPTIONS="--import=$PRELOAD" \
	"$NODE" "$WASM_EXEC_DIR/wasm_exec_node.js" "$BENCH_WASM" "${ARGS[@]}" | tee "$OUT/device.log"
echo
RINGSCOPE_BENCH_CMD="\`$CMD\` (bench/device.sh)" "$NODE" bench/run.mjs --format "$OUT/device.log"
