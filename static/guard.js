// What the page does when its Go program ends. Both loaders (app.js and
// ringscope.mjs) load this file with wasm_exec.js and call
//
//   const started = ringscopeGuard.watch(go);   // before go.run
//   started(go.run(instance));                  // once main has installed the API
//
// The API catches what its callers pass (wasm/jsarg) and recovers a
// panic in any call (wasm/jsmethod), but a bug elsewhere (the live
// loop, the renderer) can still end the Go program: main.wasm then stops
// answering, the dashboard stops changing, and wasm_exec makes every call
// into the program throw "Go program has already exited". So that nobody
// mistakes a dead page for a quiet one, guard:
//
//   - keeps the tail of the program's output, to name the reason (the
//     runtime prints "panic: …" or "fatal error: …" before it exits);
//   - on exit, logs the reason at error level, sets every status element to
//     "error: <reason>" and puts a banner on the dashboard saying that its
//     telemetry is frozen;
//   - makes every ringscope method reject with the reason (subscribe, the
//     one synchronous method, throws it), and ready reject if it had not
//     settled;
//   - throws subscribe's refusals: Go cannot throw into the caller of a
//     js.Func, so wasm/captureapi returns the TypeError for this file to
//     throw.
//
// No inline script or style: the CSP forbids them.
'use strict';

(() => {
  if (globalThis.ringscopeGuard) return;
  const TAIL_CHARS = 16384;
  const SYNC_METHODS = new Set(['subscribe']);

  let dead = null; // the reason, once the program has exited
  let failDead = () => {};
  const deadPromise = new Promise((_, reject) => {
    failDead = reject;
  });
  deadPromise.catch(() => {});

  // reasonOf names why the program ended from its last output.
  function reasonOf(tail, code) {
    const m = /^(panic: .*|fatal error: .*)$/m.exec(tail);
    const why = m ? `: ${m[1].trim()}` : '';
    return `main.wasm exited (code ${code ?? '?'})${why}`;
  }

  function showDead(reason) {
    for (const el of document.querySelectorAll('[data-testid="status"]')) {
      el.dataset.state = 'error';
      el.className = 'badge badge-bad';
      el.textContent = `error: ${reason}`;
      el.title = 'the ringscope Go program has exited; reload the page';
    }
    const root = globalThis.ringscopeRender?.root || document.getElementById('app') || document.body;
    if (!root || document.querySelector('[data-testid="frozen-banner"]')) return;
    const banner = document.createElement('div');
    banner.className = 'banner banner-bad';
    banner.dataset.testid = 'frozen-banner';
    banner.setAttribute('role', 'alert');
    banner.textContent = `ringscope stopped (${reason}). The telemetry shown is frozen at its last frame; ` +
      'reload the page to start again.';
    root.prepend(banner);
  }

  function die(reason) {
    if (dead) return;
    dead = reason;
    console.error(`ringscope: ${reason}; the telemetry is frozen and every API call now rejects`);
    failDead(new Error(`ringscope: ${reason}`));
    try {
      showDead(reason);
    } catch (err) {
      console.error('ringscope: showing the exit:', err);
    }
  }

  function deadError(name) {
    return new Error(`${name}: ringscope is not running: ${dead}`);
  }

  function wrap(go, obj, prefix) {
    for (const key of Object.keys(obj)) {
      const f = obj[key];
      if (key === '__test' && f && typeof f === 'object') {
        wrap(go, f, `${prefix}__test.`);
        continue;
      }
      if (typeof f !== 'function') continue;
      const name = prefix + key;
      const sync = SYNC_METHODS.has(name);
      obj[key] = function (...args) {
        if (dead) {
          if (sync) throw deadError(name);
          return Promise.reject(deadError(name));
        }
        let r;
        try {
          r = f.apply(this, args);
        } catch (err) {
          if (!dead) die(go.exited ? reasonOf(go.ringscopeTail, go.ringscopeExitCode) : `${name} threw: ${err?.message ?? err}`);
          if (sync) throw deadError(name);
          return Promise.reject(deadError(name));
        }
        if (go.exited) die(reasonOf(go.ringscopeTail, go.ringscopeExitCode));
        if (sync && r instanceof Error) throw r;
        return r;
      };
    }
  }

  // watch hooks go's output and exit before go.run; the function it
  // returns takes go.run's promise, once main has installed the API.
  function watch(go) {
    go.ringscopeTail = '';
    const fs = globalThis.fs;
    if (fs && typeof fs.writeSync === 'function' && !fs.ringscopeWrapped) {
      const write = fs.writeSync;
      const decoder = new TextDecoder();
      fs.writeSync = function (fd, buf) {
        go.ringscopeTail = (go.ringscopeTail + decoder.decode(buf, { stream: true })).slice(-TAIL_CHARS);
        return write.call(this, fd, buf);
      };
      fs.ringscopeWrapped = true;
    }
    const exit = go.exit;
    go.exit = (code) => {
      go.ringscopeExitCode = code;
      exit.call(go, code);
    };
    return function started(run) {
      const api = globalThis.ringscope;
      if (api && typeof api === 'object' && !api.ringscopeGuarded) {
        wrap(go, api, '');
        if (api.ready && typeof api.ready.then === 'function') {
          api.ready = Promise.race([api.ready, deadPromise]);
          api.ready.catch(() => {});
        }
        Object.defineProperty(api, 'ringscopeGuarded', { value: true });
        // The wasm memory's size, for tests of what a refused call costs
        // (it never shrinks).
        if (api.__test) api.__test.wasmMemoryBytes = () => go._inst.exports.mem.buffer.byteLength;
      }
      run.then(
        () => die(reasonOf(go.ringscopeTail, go.ringscopeExitCode)),
        (err) => die(`main.wasm: ${err?.message ?? err}`),
      );
      return run;
    };
  }

  globalThis.ringscopeGuard = Object.freeze({ watch });
})();
