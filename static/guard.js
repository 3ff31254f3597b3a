// What the page does when its Go program ends. Both loaders (app.js and
// ringscope.mjs) load this file with wasm_exec.js and call
//
//   const started = ringscopeGuard.watch(go);   // before go.run
//   started(go.run(instance));                  // once main has installed the API
//
// The API catches what its callers pass and recovers a panic in any
// call (wasm/jsapi), but a bug elsewhere (the live
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
//     js.Func, so wasm/jsapi returns the TypeError for this file to
//     throw.
//
// No inline script or style: the CSP forbids them.
'use strict';

(() => {
  if (globalThis.ringscopeGuard) return;
  const TAIL_CHARS = 16384;
  const SYNC_METHODS = new Set(['subscribe']);

  // reasonOf names why the program ended from its last output.
  function reasonOf(tail, code) {
    const m = /^(panic: .*|fatal error: .*)$/m.exec(tail);
    const why = m ? `: ${m[1].trim()}` : '';
    return `main.wasm exited (code ${code ?? '?'})${why}`;
  }

  // showDead marks the program's dashboard: the page's, or an
  // instance's (scope, its container).
  function showDead(reason, scope) {
    for (const el of (scope ?? document).querySelectorAll('[data-testid="status"]')) {
      el.dataset.state = 'error';
      el.className = 'badge badge-bad';
      el.textContent = `error: ${reason}`;
      el.title = 'the ringscope Go program has exited; reload the page';
    }
    const root = scope ?? (globalThis.ringscopeRender?.root || document.getElementById('app') || document.body);
    if (!root || (scope ?? document).querySelector('[data-testid="frozen-banner"]')) return;
    const banner = document.createElement('div');
    banner.className = 'banner banner-bad';
    banner.dataset.testid = 'frozen-banner';
    banner.setAttribute('role', 'alert');
    banner.textContent = `ringscope stopped (${reason}). The telemetry shown is frozen at its last frame; ` +
      'reload the page to start again.';
    root.prepend(banner);
  }

  // Every watched program's output goes through the one fs.writeSync that
  // wasm_exec.js uses; each running program keeps the tail (the writer is
  // not known, so each keeps all of it: one program per page is the rule,
  // several instances of createRingscope the exception).
  const tails = new Set();
  function hookOutput(go) {
    go.ringscopeTail = '';
    tails.add(go);
    const fs = globalThis.fs;
    if (!fs || typeof fs.writeSync !== 'function' || fs.ringscopeWrapped) return;
    const write = fs.writeSync;
    const decoder = new TextDecoder();
    fs.writeSync = function (fd, buf) {
      const text = decoder.decode(buf, { stream: true });
      for (const g of tails) g.ringscopeTail = (g.ringscopeTail + text).slice(-TAIL_CHARS);
      return write.call(this, fd, buf);
    };
    fs.ringscopeWrapped = true;
  }

  // watch hooks go's output and exit before go.run; the function it
  // returns takes go.run's promise, once main has installed the API, and
  // the API object (window.ringscope when not given). options.scope is
  // the element an instance's dashboard lives in, or a function that
  // finds it when the program ends (mount() may have moved it; the page's
  // when absent);
  // options.disposed() says the program ended because it was asked to
  // (an instance's dispose()), which is no failure.
  function watch(go, options = {}) {
    hookOutput(go);
    const exit = go.exit;
    // An exited program's leftovers are made harmless: callbacks it had
    // asked for (a timer of its scheduler, an animation frame, a GPU
    // promise, a canvas's resize observer) would call into it and throw
    // "Go program has already exited" (wasm_exec.js) into the host page.
    // Its timers are cleared; a late callback returns nothing (the exit is
    // reported once, by die, or was asked for: an instance's dispose).
    go.exit = (code) => {
      go.ringscopeExitCode = code;
      exit.call(go, code);
      for (const t of go._scheduledTimeouts?.values() ?? []) clearTimeout(t);
      go._scheduledTimeouts?.clear();
    };
    const resume = go._resume;
    if (typeof resume === 'function') {
      go._resume = function () {
        if (this.exited) return;
        resume.call(this);
      };
    }
    let dead = null; // the reason, once the program has exited
    let failDead = () => {};
    const deadPromise = new Promise((_, reject) => {
      failDead = reject;
    });
    deadPromise.catch(() => {});

    const die = (reason) => {
      if (dead) return;
      dead = reason;
      if (options.disposed?.()) return;
      console.error(`ringscope: ${reason}; the telemetry is frozen and every API call now rejects`);
      failDead(new Error(`ringscope: ${reason}`));
      try {
        showDead(reason, typeof options.scope === 'function' ? options.scope() : options.scope);
      } catch (err) {
        console.error('ringscope: showing the exit:', err);
      }
    };
    const deadError = (name) => new Error(options.disposed?.()
      ? `${name}: this ringscope instance was disposed`
      : `${name}: ringscope is not running: ${dead}`);
    const exited = () => die(reasonOf(go.ringscopeTail, go.ringscopeExitCode));

    const wrap = (obj, prefix) => {
      for (const key of Object.keys(obj)) {
        const f = obj[key];
        if (key === '__test' && f && typeof f === 'object') {
          wrap(f, `${prefix}__test.`);
          continue;
        }
        if (typeof f !== 'function') continue;
        const name = prefix + key;
        const sync = SYNC_METHODS.has(name);
        // Once an instance's dispose has begun, its calls are refused as
        // disposed (its program is ending; Go would answer "not ready");
        // dispose itself goes through, to end the program.
        const refused = () => dead || (key !== 'dispose' && options.disposed?.());
        obj[key] = function (...args) {
          if (refused()) {
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
          if (go.exited) exited();
          if (sync && r instanceof Error) throw r;
          // A call that dispose overtook (from an option's getter, or
          // in flight) rejects as disposed, not with what Go said.
          if (!sync && r instanceof Promise && options.disposed && key !== 'dispose') {
            return r.catch((err) => { throw options.disposed() ? deadError(name) : err; });
          }
          return r;
        };
      }
    };

    return function started(run, api = globalThis.ringscope) {
      if (api && typeof api === 'object' && !api.ringscopeGuarded) {
        wrap(api, '');
        if (api.ready && typeof api.ready.then === 'function') {
          api.ready = Promise.race([api.ready, deadPromise]);
          api.ready.catch(() => {});
        }
        Object.defineProperty(api, 'ringscopeGuarded', { value: true });
        // The wasm memory's size, for tests of what a refused call costs
        // (it never shrinks).
        if (api.__test) api.__test.wasmMemoryBytes = () => go._inst.exports.mem.buffer.byteLength;
      }
      const ended = () => tails.delete(go);
      run.then(
        () => { ended(); exited(); },
        (err) => { ended(); die(`main.wasm: ${err?.message ?? err}`); },
      );
      return run;
    };
  }

  globalThis.ringscopeGuard = Object.freeze({ watch });
})();
