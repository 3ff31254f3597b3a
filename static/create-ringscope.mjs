// createRingscope: ringscope as a library (docs/EMBEDDING.md, the options
// in docs/OPTIONS.md). Each call makes an instance: a Go program of its
// own (its own Go object, wasm memory, device and flight recorder) with
// its own dashboard, mounted into the container the caller gives. Several
// instances live side by side; dispose() ends one and leaves the rest.
//
//   import { createRingscope } from 'ringscope';
//   const rs = await createRingscope({ container: el, open: { slots: 4096 } });
//   await rs.publish([{ opcode: 0x101, args: [100, 0] }]);
//   await rs.drain();
//   await rs.dispose();
//
// Importing this module starts nothing and sets no global but the ones
// Go's wasm support and its two helpers define (Go, ringscopeRender,
// ringscopeGuard); configuration comes from the options, never from the
// host page's URL unless options.query asks. Its assets are found with
// new URL('./…', import.meta.url), which bundlers follow; there is no
// worker and no eval, so a CSP of script-src 'self' 'wasm-unsafe-eval'
// suffices.
import './wasm_exec.js';
import './render.js';
import './guard.js';

// The options createRingscope reads: wasm/api's CreateOptions, which
// wasm/api/options_test.go keeps this list equal to.
const createOptions = ['container', 'wasmURL', 'open', 'attach', 'autostart', 'global', 'query'];

const defaultWasmURL = new URL('./main.wasm', import.meta.url);

// The compiled module, per URL: instances of one page share it.
const modules = new Map();
let instances = 0;

// An instance starts on a small idle ring (open() replaces it) unless
// the options ask for the page's own workload.
const instanceQuery = 'autostart=0&slots=1024';

function fail(msg) {
  return new TypeError(`createRingscope: ${msg}`);
}

// nearest suggests the known option closest to an unknown key, as the
// Go methods do (wasm/api's OptionTable.Suggest): the same but for case,
// or the nearest within an edit distance of a third of the key's length
// (at least 1).
function nearest(key) {
  const k = key.toLowerCase();
  let best, bestD = Math.floor(k.length / 3) + 1;
  for (const o of createOptions) {
    if (o.toLowerCase() === k) return o;
    const d = editDistance(k, o.toLowerCase());
    if (d <= bestD && (best === undefined || d < bestD)) [best, bestD] = [o, d];
  }
  return best;
}

// editDistance is the Levenshtein distance of a and b (short keys).
function editDistance(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

function checkOptions(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw fail(`options must be an object, got ${Array.isArray(options) ? 'array' : typeof options}`);
  }
  let keys;
  try {
    keys = Object.keys(options);
  } catch (e) {
    throw fail(`reading the options threw: ${e instanceof Error ? e.message : String(e)}`);
  }
  for (const key of keys) {
    if (createOptions.includes(key)) continue;
    const s = nearest(key);
    throw fail(s ? `unknown option "${key}" (did you mean "${s}"?)`
      : `unknown option "${key}"; the options are ${createOptions.join(', ')}`);
  }
  const o = options;
  if (o.container != null && !(o.container instanceof Element)) throw fail('container must be an Element');
  if (o.open != null && o.attach != null) throw fail('give open or attach, not both');
  if (o.autostart != null && typeof o.autostart !== 'boolean') throw fail('autostart must be a boolean');
  // fetch would take any value as a relative URL: 5 became "/5", and the
  // rejection an HTTP 404 of a URL nobody wrote.
  if (o.wasmURL != null && typeof o.wasmURL !== 'string' && !(o.wasmURL instanceof URL)) {
    throw fail(`wasmURL must be a string or URL, got ${Array.isArray(o.wasmURL) ? 'array' : typeof o.wasmURL}`);
  }
  if (o.global != null && typeof o.global !== 'boolean' && typeof o.global !== 'string') {
    throw fail('global must be a boolean or a name');
  }
  const name = globalName(o);
  if (name !== null) checkGlobal(name);
  return o;
}

// The globals the loader itself needs (wasm_exec.js, guard.js, render.js):
// an instance that took one would break every later createRingscope.
const loaderGlobals = ['Go', 'ringscopeGuard', 'ringscopeRender'];

// globalName is the global options.global asks for, or null.
function globalName(o) {
  if (o.global === true) return 'ringscope';
  return typeof o.global === 'string' ? o.global : null;
}

// checkGlobal refuses a global name that the instance could not set, or
// could not give back on dispose: the loader's own, and a property of the
// page that is not a plain writable one (location, window, document …).
function checkGlobal(name) {
  if (name === '') throw fail('global must be a non-empty name');
  if (loaderGlobals.includes(name)) throw fail(`global "${name}" is the loader's own (${loaderGlobals.join(', ')} are taken)`);
  const d = Object.getOwnPropertyDescriptor(globalThis, name);
  if (d && !(d.configurable && d.writable)) throw fail(`global "${name}" is a property of the page that cannot be replaced`);
}

// The instances' APIs that dispose() ended: a global that held one is not
// given back to it.
const disposedAPIs = new WeakSet();

function queryOf(o) {
  if (o.query === true) return location.search.replace(/^\?/, '');
  if (o.query instanceof URLSearchParams) return o.query.toString();
  if (typeof o.query === 'string') return o.query.replace(/^\?/, '');
  if (o.query != null) throw fail('query must be a string, URLSearchParams or true');
  // No query: the instance's own defaults; autostart (with neither open
  // nor attach) runs the page's default workload.
  return o.autostart && o.open == null && o.attach == null ? '' : instanceQuery;
}

function compile(url) {
  const key = String(url);
  let m = modules.get(key);
  if (!m) {
    m = fetch(url).then((resp) => {
      if (!resp.ok) throw new Error(`createRingscope: wasmURL ${key}: HTTP ${resp.status}`);
      return WebAssembly.compileStreaming(resp);
    });
    m.catch(() => modules.delete(key));
    modules.set(key, m);
  }
  return m;
}

// refuseUnready makes the calls of an instance whose ready rejected (no
// WebGPU) say why. It has no runner, so the Go methods that need one
// reject with api.ErrNotReady, whose text points at the page's global
// ringscope.ready and guesses at WebGPU; an instance knows the reason.
// The calls that need no GPU (decode, importCapture, the exports, mount)
// still work.
function refuseUnready(api, why) {
  const reason = String(why?.message ?? why).replace(/^ringscope: /, '');
  for (const name of Object.keys(api)) {
    const method = api[name];
    if (typeof method !== 'function' || name === 'subscribe') continue; // subscribe is synchronous
    api[name] = function (...args) {
      return Promise.resolve(method.apply(this, args)).catch((err) => {
        if (!String(err?.message).includes('ringscope: not ready:')) throw err;
        throw new Error(`${name}: ringscope is not ready: ${reason}`);
      });
    };
  }
}

// mount (wasm/jsapi/mount_js.go) marks the host's element: the class
// rs-mount, rs-show-<panel> per panel, data-rs-panels. markOf keeps what
// the element had of them before, unmark gives it back (the element's
// other classes and attributes were never touched).
const isMountClass = (c) => c === 'rs-mount' || c.startsWith('rs-show-');

function markOf(el) {
  if (!(el instanceof Element)) return null; // mount refuses it
  return { classes: [...el.classList].filter(isMountClass), panels: el.getAttribute('data-rs-panels') };
}

function unmark({ el, before }) {
  el.classList.remove(...[...el.classList].filter(isMountClass));
  el.classList.add(...before.classes);
  if (before.panels === null) el.removeAttribute('data-rs-panels');
  else el.setAttribute('data-rs-panels', before.panels);
}

/**
 * createRingscope makes an instance (see the file's comment); it resolves
 * once the Go program has started and its ready has settled (its device
 * and runner are open, or it is known that they cannot be: ready rejects
 * without WebGPU, and the calls that need the GPU then reject with that
 * reason), and, with open or attach, once that is done.
 */
export async function createRingscope(options) {
  const o = checkOptions(options);
  const query = queryOf(o);
  // The module first: a wasmURL that fails (a 404, not wasm) rejects
  // before the instance puts anything in the page.
  const module = await compile(o.wasmURL ?? defaultWasmURL);
  const n = ++instances;
  // The dashboard's mount point, inside a holder of the instance's own:
  // the container's, or a hidden one until mount() moves the dashboard.
  const holder = document.createElement('div');
  holder.className = 'ringscope-instance';
  holder.dataset.ringscopeInstance = String(n);
  const mountPoint = document.createElement('div');
  mountPoint.id = `ringscope-${n}`;
  holder.append(mountPoint);
  if (o.container) {
    o.container.append(holder);
  } else {
    holder.hidden = true;
    document.body.append(holder);
  }

  const go = new globalThis.Go();
  let disposed = false;
  // The frozen banner goes on the dashboard wherever it is when the
  // program ends: mount() may have moved it out of the holder.
  const scope = () => (renderer.root?.isConnected ? renderer.root : holder);
  const started = globalThis.ringscopeGuard.watch(go, { scope, disposed: () => disposed });
  // The boot object reaches the Go program through the global its
  // environment names (wasm/main_js.go's readBoot), removed once it
  // delivered the API.
  const bootKey = `__ringscopeBoot${n}`;
  let api = null;
  // The instance's renderer: its root is the dashboard, wherever mount()
  // moved it.
  const renderer = globalThis.ringscopeRender.create(mountPoint);
  globalThis[bootKey] = {
    query,
    selector: `#${mountPoint.id}`,
    renderer,
    deliver(obj) { api = obj; },
  };
  go.env = { RINGSCOPE_BOOT: bootKey };
  let run;
  try {
    const instance = await WebAssembly.instantiate(module, go.importObject);
    run = go.run(instance); // main runs until its first wait: the API is delivered by then
  } catch (err) {
    holder.remove(); // a failed create leaves nothing in the page
    throw err;
  } finally {
    delete globalThis[bootKey];
  }
  if (!api) {
    holder.remove();
    throw new Error('ringscope: main.wasm started but did not deliver its API');
  }
  started(run, api);
  api.ready.catch(() => {}); // a host that never awaits ready logs no unhandled rejection
  // Until ready settles the instance has no runner, and open, publish,
  // start … would reject as not ready: the instance is handed over once
  // it has settled, so that its calls work at once.
  const unready = await api.ready.then(() => null, (err) => err);
  if (unready) refuseUnready(api, unready);

  // The element mount() last put the dashboard in, with what it had
  // before (markOf): a mount elsewhere, or dispose(), gives it back.
  let host = null;
  const goMount = api.mount;
  api.mount = async function (el, ...rest) {
    let before = null;
    try {
      before = host?.el === el ? host.before : markOf(el);
    } catch {
      // el's classList or attributes threw: mount refuses it by name, below.
    }
    const out = await goMount.call(this, el, ...rest); // a refusal changes nothing
    if (host && host.el !== el) unmark(host);
    host = before && { el, before };
    await renderer.rendered(() => disposed); // resolves once the dashboard renders in el
    return out;
  };

  let global = null; // {name, had, before}: what dispose gives back
  const name = globalName(o);
  if (name !== null) {
    global = { name, had: Object.hasOwn(globalThis, name), before: globalThis[name] };
    globalThis[name] = api;
  }

  const endProgram = api.dispose;
  Object.defineProperty(api, 'dispose', {
    value: async () => {
      if (disposed) return;
      disposed = true;
      disposedAPIs.add(api);
      // The global goes back to what it held before, unless something
      // else (a later instance) has taken it since.
      if (global !== null && globalThis[global.name] === api) {
        if (global.had && !disposedAPIs.has(global.before)) globalThis[global.name] = global.before;
        else delete globalThis[global.name];
      }
      await endProgram.call(api).catch(() => {}); // fails only when the program is already dead
      await run.catch(() => {}); // guard.js quiets what the program left
      // mount() moved the dashboard (the renderer's root) out of the
      // holder: remove it where it is, and give its host element back.
      renderer.root?.remove();
      if (host) unmark(host);
      host = null;
      holder.remove();
    },
  });

  if (o.open != null || o.attach != null || o.autostart) {
    try {
      if (unready) throw unready;
      if (o.open != null) await api.open(o.open);
      if (o.attach != null) await api.attach(o.attach);
      if (o.autostart) await api.start();
    } catch (err) {
      await api.dispose();
      throw err;
    }
  }
  return api;
}

export default createRingscope;
