# ringscope: `make run` serves the page, `make test` runs every test tier.
# Every install step lives here, so a fresh machine needs nothing else:
# make run needs Go and Node/npm alone (no root: npm ci into e2e/ and Go
# modules); make test also apt-installs the browser and tools the tests
# use (setup-chromium, as root).

GO          ?= go
ADDR        ?= 127.0.0.1:8080
FUZZTIME    ?= 10s
GOROOT      := $(shell $(GO) env GOROOT)
WASM_EXEC   := $(GOROOT)/lib/wasm/wasm_exec.js
CHROMIUM    ?= /usr/bin/chromium
SWIFTSHADER := /usr/lib/chromium/vk_swiftshader_icd.json
NODE_DIR    := e2e/node_modules

# Go wasm tests run under Node with Dawn's WebGPU (shared/docs/BROWSER.md).
WASM_TEST_ENV := PATH="$(GOROOT)/lib/wasm:$$PATH" \
	NODE_OPTIONS=--import=$(CURDIR)/e2e/node/preload.mjs \
	VK_ICD_FILENAMES=$(SWIFTSHADER) XDG_RUNTIME_DIR=$(CURDIR)/.cache/xdg \
	GOOS=js GOARCH=wasm

.PHONY: run build package e2e-static setup setup-chromium setup-node test test-native test-types test-wasm test-e2e fuzz bench bench-node vet generate clean

run: setup-node build
	$(GO) run . -addr $(ADDR)

build: static/main.wasm static/main.wasm.gz static/wasm_exec.js static/kernel-panel.js

# The npm package "ringscope" as a tarball in dist/ (scripts/package.mjs):
# the library's static assets, types/ and the Playwright kit (pkg/).
package: static/main.wasm static/wasm_exec.js
	node scripts/package.mjs

# No inlining in code that runs per call, per event or per preset rather
# than per frame, or whose per-frame cost is its JavaScript calls: the
# generated ui components (their Build code would inline Vugu's AppendChild
# thousands of times), the JSON, reflection, formatting and time code, the
# capture studio, the API and its adapters, the settings, the controller and
# live loop, the WebGPU binding and the runner (a frame is a few dozen JS
# calls), the WGSL assembler and examples, the diagnosis, number formatting
# (numfmt, strconv: tens of numbers a frame), sync, and the Go runtime
# (frame rate side by side: bench/results-size.md), and strings (its
# inline bodies' tables cost 5 KB of the page; the frame rate side by side
# was the same, bench/results-size.md). syscall/js, decode, wgsl/host and
# wasm/render keep inlining: their loops are per-frame Go work (wgsl/host
# without it doubled FrameWaits). encoding/binary gives its inline bodies to no one:
# the decoders read words through wgsl/abi's Word, which inlines either
# way, and the other callers append or read a few words a frame. Sizes and
# the frame rates measured side by side: bench/results-size.md and
# bench/results-render.md ("wasm size as served").
RS := github.com/ringscope/ringscope
NOINLINE := ui wasm wasm/api wasm/browser wasm/capture wasm/controller wasm/devloss \
	wasm/jsapi wasm/pace wasm/session wasm/testhooks internal/jsontext settings webgpu \
	webgpu/megakernel wgsl wgsl/kerneldef wgsl/workload wgsl/examples decode/diagnose internal/numfmt
WASM_GCFLAGS := $(foreach p,$(NOINLINE),-gcflags=$(RS)/$(p)=-l) -gcflags=reflect=-l -gcflags=fmt=-l -gcflags=time=-l \
	-gcflags=runtime=-l -gcflags=strconv=-l -gcflags=sync=-l -gcflags=encoding/binary=-l \
	-gcflags=strings=-l

# The version captures record (wasm/capture_js.go).
VERSION := $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)

# wasmdata joins the linker's tens of thousands of data segments, which
# deflate badly, into a few (internal/wasmdata; bench/results-size.md).
WASMDATA := $(GO) run ./internal/cmd/wasmdata

static/main.wasm: $(shell find wasm ui webgpu wgsl decode internal -name '*.go' -o -name '*.wgsl' 2>/dev/null) go.mod
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w -X main.ringscopeVersion=$(VERSION)' $(WASM_GCFLAGS) -o $@ ./wasm
	$(WASMDATA) $@

# The server sends a fresh name.gz as it is (handler.go), so the first
# load after a start need not wait for it to gzip 6 MB (1-2 s here).
# zopfli writes the same gzip format as gzip -9, 4.5% smaller (1,532,432 ->
# 1,463,060 B here), in 20 s instead of 1 s; every browser inflates it.
static/main.wasm.gz: static/main.wasm
	@if command -v zopfli >/dev/null; then echo "zopfli $<"; zopfli -c $< > $@.tmp && mv $@.tmp $@; \
	else echo "zopfli not installed (make setup): gzip -9 $<"; gzip -9 -k -f $<; fi

static/wasm_exec.js: $(WASM_EXEC)
	cp $< $@

# The e2e tests' page: static/ with a main.wasm built with the test hooks
# (-tags ringscope_testhooks: ringscope.__test, fault injection), which
# the page a person opens does not have. gzip -6: the tests do not measure
# its size, and zopfli would add 20 s to every build.
E2E_STATIC := .cache/e2e-static
# The rest of static/ is copied every time (it changes without main.wasm).
e2e-static: build $(E2E_STATIC)/main.wasm.gz
	cp -r $(filter-out static/main.wasm static/main.wasm.gz,$(wildcard static/*)) $(E2E_STATIC)/
$(E2E_STATIC)/main.wasm.gz: static/main.wasm
	@mkdir -p $(E2E_STATIC)
	GOOS=js GOARCH=wasm $(GO) build -tags ringscope_testhooks -trimpath -ldflags='-s -w -X main.ringscopeVersion=$(VERSION)' $(WASM_GCFLAGS) -o $(E2E_STATIC)/main.wasm ./wasm
	$(WASMDATA) $(E2E_STATIC)/main.wasm
	gzip -6 -k -f $(E2E_STATIC)/main.wasm

# The Kernel panel (static/src/kernel-panel) with CodeMirror and its WGSL
# grammar, bundled by esbuild from the npm packages e2e/package.json pins
# (NODE_PATH: the sources live under static/, the packages under e2e/).
KERNEL_PANEL_SRC := $(wildcard static/src/kernel-panel/*.mjs)
static/kernel-panel.js: $(KERNEL_PANEL_SRC) $(NODE_DIR)/.installed
	NODE_PATH=$(CURDIR)/$(NODE_DIR) $(NODE_DIR)/.bin/esbuild static/src/kernel-panel/kernel-panel.mjs \
		--bundle --minify --format=iife --target=es2022 --legal-comments=none --log-level=warning --outfile=$@

setup: setup-chromium setup-node

# Chromium brings SwiftShader, the CPU WebGPU adapter both test tiers use;
# Dawn under Node needs the Vulkan loader to find it; zopfli compresses the
# served main.wasm.gz; prometheus (its promtool) lints the metrics export,
# and prometheus-pushgateway is the gateway the push test pushes to (the
# e2e tests start both on loopback ports of their own).
APT_PACKAGES := chromium libvulkan1 zopfli prometheus prometheus-pushgateway

setup-chromium:
	@dpkg -s $(APT_PACKAGES) >/dev/null 2>&1 || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $(APT_PACKAGES); }

setup-node: $(NODE_DIR)/.installed

$(NODE_DIR)/.installed: e2e/package.json e2e/package-lock.json
	cd e2e && npm ci --no-audit --no-fund
	touch $@

generate:
	$(GO) generate ./...

vet:
	@unformatted="$$("$$($(GO) env GOROOT)/bin/gofmt" -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './e2e/node_modules/*'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./...

test: setup vet test-native test-types fuzz test-wasm test-e2e

test-native:
	$(GO) test -count=1 ./...

# The TypeScript declarations (types/ringscope.d.ts) compile a typed
# consumer under tsc --noEmit --strict, and refuse a wrong option
# (e2e/types/check.mjs).
test-types: setup-node
	cd e2e && node types/check.mjs

# Packages with wasm-only tests against a real WebGPU adapter.
WASM_PKGS ?= $(shell GOOS=js GOARCH=wasm $(GO) list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ./webgpu/... ./wasm/... 2>/dev/null)

test-wasm: setup build
	@mkdir -p .cache/xdg && chmod 700 .cache/xdg
	$(WASM_TEST_ENV) $(GO) test -count=1 -timeout 10m $(WASM_PKGS)

# The @bench specs measure rather than check; make bench runs them.
test-e2e: setup e2e-static
	cd e2e && npx playwright test --grep-invert @bench

fuzz:
	FUZZTIME=$(FUZZTIME) ./scripts/fuzz.sh

# The benchmark rows of issue 5 (bench/doc.go): native Go, the Go wasm test
# binary of ./bench in headless Chromium, and the page through Playwright;
# writes bench/results.md (raw output in bench/.out). BENCH_FLAGS=--quick
# checks the harness with few repetitions.
bench: setup build
	node bench/run.mjs $(BENCH_FLAGS)

# The GPU rows under Node + Dawn, as bench/device.sh runs them elsewhere:
# make bench-node [NODE=node WEBGPU_DIR=e2e/node_modules/webgpu].
bench-node: setup
	VK_ICD_FILENAMES=$(SWIFTSHADER) XDG_RUNTIME_DIR=$(CURDIR)/.cache/xdg ./bench/device.sh $(BENCH_FLAGS)

clean:
	rm -rf dist static/main.wasm static/main.wasm.gz static/wasm_exec.js static/kernel-panel.js .cache e2e/test-results e2e/playwright-report
