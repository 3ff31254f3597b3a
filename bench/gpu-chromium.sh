#!/usr/bin/env bash
# bench/gpu-chromium.sh: the page rows of make bench (4: whole frame vs
# platform floor; 5: startup) in headless Chromium on a real GPU, for a
# machine that has a GPU but no Chromium, Node, Go or network (the device
# tool's H200). This machine's Chromium, its libraries, Node, Playwright,
# the server and the built page travel there in chunks of at most 60 MiB,
# since one call of the device tool carries 64 MiB; each chunk is staged
# outside the repository there, and the last call runs the specs.
#
#   bench/gpu-chromium.sh pack              # here: writes .device/gpu-chromium/c1..cN
#   bench/gpu-chromium.sh stage cK          # there, once per chunk (carry .device/gpu-chromium/cK)
#   bench/gpu-chromium.sh run [bench|profile]  # there, after the last stage: results in $OUT
#   bench/gpu-chromium.sh run exec CMD...      # there: CMD with Chromium set up (bench/ab.mjs)
#
# The H200 image may lack the Vulkan loader and GLVND libraries; without
# them Chromium silently falls back to SwiftShader (probe: fallback true).
# Carry .gl (the device tool's README: apt-get download libvulkan1 libegl1
# libglvnd0 libopengl0 libgl1 libglx0 libgles2) and begin the run call
# with: for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
#
# run starts Chromium with Vulkan on the GPU (GPU_FLAGS below), checks
# that the adapter is not the fallback one, and runs the @bench specs of
# e2e/ (the page's whole frame, startup, summary vs full readback).
# bench/run.mjs --page DIR turns the JSON they write into rows 4 and 5 of
# the results table.
set -euo pipefail
cd "$(dirname "$0")/.."
PACK=.device/gpu-chromium
STAGE=${RINGSCOPE_STAGE:-/root/ringscope-stage}
CHUNK=$((60 << 20))
# The flags that gave Chromium 156 the H200 as its WebGPU adapter, headless:
# ANGLE and Chromium's own Vulkan on the native driver, no Vulkan surface
# and no GPU compositing (without the last two the GPU process crashes or
# vkCreateInstance fails, and WebGPU falls back to SwiftShader).
GPU_FLAGS="--use-angle=vulkan --use-vulkan=native --enable-features=Vulkan --disable-gpu-sandbox --ignore-gpu-blocklist --disable-vulkan-surface --disable-gpu-compositing"

pack() {
	rm -rf "$PACK" && mkdir -p "$PACK/tmp/root/chromium/locales"
	local tmp=$PACK/tmp root=$PACK/tmp/root
	make build >/dev/null
	CGO_ENABLED=0 go build -o "$root/ringscope" .
	# The libraries Chromium links that are not glibc's; run links only
	# those the other machine lacks.
	mkdir -p "$root/libs"
	ldd /usr/lib/chromium/chromium | awk '$3 ~ /^\// {print $3}' |
		grep -vE '/(libc|libm|libpthread|libresolv|libdl|librt)\.so' | xargs -I{} cp -L {} "$root/libs/"
	cp -L /usr/lib/x86_64-linux-gnu/libwayland-client.so.0 /usr/lib/x86_64-linux-gnu/libxcb-dri3.so.0 "$root/libs/"
	mkdir -p "$root/fonts" && cp -L "$(fc-match -f '%{file}' sans)" "$root/fonts/"
	cp -L "$(command -v node)" "$root/node"
	local f
	for f in chromium chrome_crashpad_handler icudtl.dat resources.pak chrome_100_percent.pak \
		snapshot_blob.bin v8_context_snapshot.bin libvulkan.so.1 libvk_swiftshader.so \
		vk_swiftshader_icd.json libEGL.so libGLESv2.so locales/en-US.pak; do
		ln -s "/usr/lib/chromium/$f" "$root/chromium/$f"
	done
	mkdir -p "$root/static" "$root/node_modules"
	for f in main.wasm main.wasm.gz wasm_exec.js; do ln -s "$PWD/static/$f" "$root/static/$f"; done
	for f in @playwright playwright playwright-core; do ln -s "$PWD/e2e/node_modules/$f" "$root/node_modules/$f"; done
	tar chf - -C "$root" . | xz -T0 -9 >"$tmp/all.tar.xz"
	sha256sum "$tmp/all.tar.xz" | cut -d' ' -f1 >"$tmp/sha256"
	split -b "$CHUNK" -d -a 1 "$tmp/all.tar.xz" "$tmp/part."
	local i=1 p
	for p in "$tmp"/part.*; do
		mkdir -p "$PACK/c$i" && mv "$p" "$PACK/c$i/" && cp "$tmp/sha256" "$PACK/c$i/"
		i=$((i + 1))
	done
	rm -rf "$tmp"
	ls -l "$PACK"/c*/
}

stage() {
	mkdir -p "$STAGE"
	cp "$PACK/$1"/* "$STAGE/"
	ls -l "$STAGE"
}

# unpack joins the staged chunks and unpacks them (once per machine).
unpack() {
	local root=$1
	[[ -f "$root/.unpacked" ]] && return
	rm -rf "$root" && mkdir -p "$root"
	cat "$STAGE"/part.* >"$STAGE/all.tar.xz"
	[[ "$(sha256sum "$STAGE/all.tar.xz" | cut -d' ' -f1)" == "$(cat "$STAGE/sha256")" ]] ||
		{ echo "gpu-chromium: the staged chunks do not make the packed file (a chunk missing?)" >&2; exit 1; }
	xz -dc -T0 "$STAGE/all.tar.xz" | tar xf - -C "$root"
	touch "$root/.unpacked"
}

# run sets Chromium up from the staged chunks, then runs the page's
# benchmarks (bench, the default), a CPU profile of the live page (profile;
# PROFILE_DIR names the static folder to serve, by default the packed one,
# whose wasm has no function names) or a command (exec CMD...).
run() {
	local what=$1
	local out=${OUT:-bench/.out/gpu-chromium}
	mkdir -p "$out"
	local root=$STAGE/root
	unpack "$root"
	cp "$root/static/"* static/ && mkdir -p e2e/node_modules && cp -r "$root/node_modules/"* e2e/node_modules/
	# STATIC_DIR: a newer build of the page than the packed one (carried).
	[[ -z "${STATIC_DIR:-}" ]] || { rm -f static/main.wasm.gz && cp "$STATIC_DIR"/* static/; }

	# Link only the libraries this machine lacks.
	mkdir -p "$root/missing"
	for _ in 1 2 3 4 5 6 7 8; do
		LD_LIBRARY_PATH=$root/missing ldd "$root/chromium/chromium" | awk '/not found/ {print $1}' | while read -r l; do
			ln -sf "$root/libs/$l" "$root/missing/$l"
		done
	done
	echo "gpu-chromium: linked $(ls "$root/missing" | wc -l) libraries: $(ls "$root/missing" | tr '\n' ' ')"
	LD_LIBRARY_PATH=$root/missing ldd "$root/chromium/chromium" | grep 'not found' && exit 1

	mkdir -p "$root/fontconf" && cat >"$root/fontconf/fonts.conf" <<-XML
		<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
		<fontconfig><dir>$root/fonts</dir><cachedir>$root/fontcache</cachedir></fontconfig>
	XML
	export LD_LIBRARY_PATH=$root/missing FONTCONFIG_FILE=$root/fontconf/fonts.conf
	export CHROMIUM=$root/chromium/chromium RINGSCOPE_SERVER=$root/ringscope PATH=$root:$PATH
	export XDG_RUNTIME_DIR=$root/xdg && mkdir -p -m 700 "$XDG_RUNTIME_DIR"
	export VK_ICD_FILENAMES=${VK_ICD_FILENAMES:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
	"$CHROMIUM" --version | tee "$out/chromium-version.txt"
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt" || true

	export RINGSCOPE_CHROMIUM_ARGS=$GPU_FLAGS
	case $what in
	profile)
		node bench/profile-page.mjs --dir "${PROFILE_DIR:-static}" --out "$out/page.cpuprofile" | tee "$out/profile.txt"
		return ;;
	exec) # any command in this setup, such as node bench/ab.mjs --a DIR --b DIR
		shift && "$@"
		return ;;
	esac
	# The page must run on the GPU, not on the fallback adapter.
	timeout 60 node bench/probe-adapter.mjs | tee "$out/probe.txt"
	grep -q '"fallback":false' "$out/probe.txt" ||
		{ echo "gpu-chromium: Chromium gave no GPU adapter with: $GPU_FLAGS" >&2; exit 1; }
	(cd e2e && RINGSCOPE_STATIC=static RINGSCOPE_BENCH_OUT=$(cd .. && realpath "$out") RINGSCOPE_BENCH_LOADS=${LOADS:-5} \
		node node_modules/@playwright/test/cli.js test --grep @bench --project=webgpu --workers=1 --reporter=list \
		--output="$root/pw") 2>&1 | tee "$out/playwright.log"
	# The device tool brings back 8 files at most: the JSON in one archive.
	tar czf "$out/page-json.tar.gz" -C "$out" $(cd "$out" && ls *.json)
}

case "${1:-}" in
pack) pack ;;
stage) stage "$2" ;;
run) shift && run "${@:-bench}" ;;
*) sed -n 2,18p "$0" >&2 && exit 2 ;;
esac
