// ringscope as an ES module: one import gives a host page the ringscope
// API object (docs/EMBEDDING.md).
//
//   import ringscope from './ringscope.mjs';
//   await ringscope.ready;               // rejects without WebGPU
//   ringscope.subscribe((f) => console.log(f.doneCount));
//   await ringscope.mount(document.querySelector('#panel'), { panels: ['slotmap'] });
//
// It loads wasm_exec.js (Go's wasm support), render.js (which applies the
// DOM writes of the wasm's renderer, wasm/render) and main.wasm from the module's own directory, starts the wasm and resolves to
// the global ringscope object it installs. The wasm starts even without
// WebGPU: decode, importCapture, the exports and mount work then, and
// ringscope.ready rejects with the reason. No inline script or style.
//
// The wasm renders its dashboard into an element of the host page marked
// data-ringscope, in place of that element's content; without one, into a
// hidden container of the module's own. ringscope.mount moves the
// dashboard where the host wants it. The host's #app is never taken: it
// is where the host's own app (Vue and others) lives, and the dashboard's
// first render would empty it. The page's URL query configures the wasm
// as on index.html (?preset=…, ?autostart=0, …).

const base = new URL('.', import.meta.url);
let loading = null;

function loadScript(name) {
  const src = new URL(name, base).href;
  if ([...document.scripts].some((s) => s.src === src)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.onload = () => resolve();
    s.onerror = () => reject(new Error(`ringscope: ${src}: failed to load (run make build)`));
    document.head.append(s);
  });
}

// mountPoint makes the element the dashboard renders into (see the
// file's comment). Vugu replaces the mount point's attributes on its first
// render, so it is a fresh element: inside the host's marked one, or
// inside a hidden holder (which carries the hidden attribute).
function mountPoint() {
  const el = document.createElement('div');
  const marked = document.querySelector('[data-ringscope]');
  if (marked) {
    marked.replaceChildren(el);
    return el;
  }
  const holder = document.createElement('div');
  holder.hidden = true;
  holder.className = 'ringscope-holder';
  holder.append(el);
  document.body.append(holder);
  return el;
}

async function waitForAPI(timeoutMs) {
  const t0 = performance.now();
  while (!(globalThis.ringscope && typeof globalThis.ringscope.decode === 'function')) {
    if (performance.now() - t0 > timeoutMs) {
      throw new Error('ringscope: main.wasm started but did not install the ringscope object');
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  return globalThis.ringscope;
}

async function start() {
  if (globalThis.ringscope && typeof globalThis.ringscope.decode === 'function') {
    return globalThis.ringscope; // already loaded (index.html's app.js, or an earlier import)
  }
  if (document.readyState === 'loading') {
    await new Promise((r) => document.addEventListener('DOMContentLoaded', r, { once: true }));
  }
  const mountEl = mountPoint();
  // The download and streaming compile of main.wasm run while the two
  // helper scripts load.
  const compiled = fetch(new URL('main.wasm', base)).then((resp) => {
    if (!resp.ok) {
      throw new Error(`ringscope: main.wasm: HTTP ${resp.status} (run make build)`);
    }
    return WebAssembly.compileStreaming(resp);
  });
  compiled.catch(() => {}); // awaited below, after the scripts
  await Promise.all([loadScript('wasm_exec.js'), loadScript('render.js'), loadScript('guard.js')]);
  if (typeof globalThis.Go !== 'function') {
    throw new Error('ringscope: wasm_exec.js did not define Go');
  }
  // The page's program renders with window.ringscopeRender, found by the
  // selector #app unless it was given its element: this module gives it
  // one (mountPoint), so that a host's own #app is left alone.
  const renderer = globalThis.ringscopeRender.create(mountEl);
  globalThis.ringscopeRender = renderer;
  const go = new globalThis.Go();
  // guard.js reports the program's exit (console, status, banner) and
  // makes every method reject with its reason from then on.
  const started = globalThis.ringscopeGuard.watch(go);
  const instance = await WebAssembly.instantiate(await compiled, go.importObject);
  started(go.run(instance));
  const api = await waitForAPI(10_000);
  // mount resolves once the dashboard has rendered in the element: the
  // wasm's mount moves the renderer's root, which is there before the
  // first render.
  const goMount = api.mount;
  api.mount = async function (...args) {
    const out = await goMount.apply(this, args);
    await renderer.rendered();
    return out;
  };
  // A page that never awaits ready must not log an unhandled rejection.
  api.ready?.catch?.(() => {});
  return api;
}

/** load starts ringscope once and resolves to the ringscope object. */
export function load() {
  loading ??= start();
  return loading;
}

/** The ringscope object (top-level await: importing waits for the wasm). */
const ringscope = await load();
export { ringscope };
export default ringscope;
