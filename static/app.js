// Loader for the ringscope page: loads wasm_exec.js (Go's wasm support),
// checks for WebGPU, then fetches and starts main.wasm. Every outcome shows in
// the status element ([data-testid="status"]):
//
//   loading     still starting
//   no-webgpu   navigator.gpu is missing or has no adapter; wasm is not started
//   (still loading once main.wasm runs: from then on the wasm owns the
//   element and sets ready, or error: …, when its first frame decides)
//   error: …    anything else, said plainly; and once main.wasm has
//               exited, with the reason (guard.js)
//
// No inline script or style anywhere: the server's CSP forbids them.
'use strict';

(() => {
  const statusEl = document.querySelector('[data-testid="status"]');

  function setStatus(state, text) {
    statusEl.dataset.state = state;
    statusEl.textContent = text ?? state;
  }

  // unavailable makes the page's failure visible to an embedder as well:
  // when main.wasm never ran, there is no ringscope object of its own, so
  // define one whose ready rejects with the reason (ringscope.ready's
  // documented contract), instead of leaving embedders a ReferenceError or
  // a Promise that never settles.
  function unavailable(reason) {
    if ('ringscope' in globalThis) return;
    const ready = Promise.reject(new Error(`ringscope: ${reason}`));
    ready.catch(() => {}); // not an unhandled rejection if nobody awaits it
    globalThis.ringscope = Object.freeze({ ready });
  }

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = src;
      s.onload = () => resolve();
      s.onerror = () => reject(new Error(`${src}: failed to load (run make build)`));
      document.head.append(s);
    });
  }

  async function hasWebGPU() {
    if (!navigator.gpu) return false;
    try {
      return (await navigator.gpu.requestAdapter()) !== null;
    } catch {
      return false;
    }
  }

  // compileWasm fetches and compiles main.wasm. start calls it first, so
  // the download and V8's streaming compile run while the adapter is
  // requested and the two helper scripts load, instead of after them.
  function compileWasm(signal) {
    return fetch('main.wasm', { signal }).then((resp) => {
      if (!resp.ok) {
        throw new Error(`main.wasm: HTTP ${resp.status} (run make build)`);
      }
      return WebAssembly.compileStreaming(resp);
    });
  }

  async function start() {
    setStatus('loading');
    const abort = new AbortController();
    const compiled = compileWasm(abort.signal);
    compiled.catch(() => {}); // settled below, or abandoned without WebGPU
    // render.js applies the DOM writes of the wasm's renderer (wasm/render).
    const scripts = Promise.all([loadScript('wasm_exec.js'), loadScript('render.js'), loadScript('guard.js')]);
    scripts.catch(() => {});
    if (!(await hasWebGPU())) {
      abort.abort();
      setStatus('no-webgpu');
      const note = document.querySelector('[data-testid="loader-note"]');
      if (note) {
        note.textContent = 'This browser offers no WebGPU adapter (navigator.gpu is missing or ' +
          'requestAdapter() returned null), so ringscope cannot run its kernels here. Use a ' +
          'Chromium-based browser with WebGPU enabled (headless or on Linux: --enable-unsafe-webgpu).';
      }
      unavailable('no-webgpu: this browser offers no WebGPU adapter');
      return;
    }
    await scripts;
    if (typeof globalThis.Go !== 'function') {
      throw new Error('wasm_exec.js: did not define Go');
    }
    const go = new globalThis.Go();
    // guard.js reports the program's exit (status, banner, rejections).
    const started = globalThis.ringscopeGuard.watch(go);
    const instance = await WebAssembly.instantiate(await compiled, go.importObject);
    // The wasm owns the status from here; it stays "loading" until then.
    started(go.run(instance));
  }

  start().catch((err) => {
    console.error('ringscope:', err);
    setStatus('error', `error: ${err?.message ?? err}`);
    unavailable(err?.message ?? String(err));
  });
})();
