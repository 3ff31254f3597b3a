// The in-page half of the API fuzz (api-robust.spec.mjs; not a spec file).
// fuzzBatch runs in the page through page.evaluate, so it is one
// self-contained function: Playwright sends its source, and the values it
// makes (BigInts, Proxies, throwing getters, huge sparse arrays, detached
// buffers, DOM nodes) cannot cross the protocol anyway.
//
// It makes `calls` calls of random ringscope methods with random arguments
// from a seeded generator (mulberry32), each bounded in time, and returns
// the counts and the problems: a method other than subscribe that threw
// synchronously or did not return a Promise, a call that did not settle in
// time, a rejection the API did not foresee ("internal error": a recovered
// panic), a rejection that does not name its method, or a dead program.

export async function fuzzBatch({ seed, calls }) {
  let s = seed >>> 0;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (a) => a[Math.floor(rand() * a.length)];

  const KEYS = ['slots', 'tenants', 'masks', 'observable', 'logCapacity', 'budget', 'workgroupSize', 'workerGroups',
    'windowOpcodes', 'watchdogIntervals', 'readback', 'maxSubmissions', 'allowUnknownOpcodes', 'log', 'control',
    'ring', 'name', 'bytes', 'panels', 'opcode', 'tenant', 'priority', 'args', 'format', 'job', 'instance', 'length',
    'constructor', 'buffer', 'byteLength', 'byteOffset', 'then', 'toString', 'valueOf'];
  const NUMBERS = [0, -0, 1, -1, 2, 3, 4, 5, 12, 13, 28, 29, 64, 100, 256, 4096, 0.5, 1e-9, 2 ** 31, 2 ** 32, 2 ** 53,
    -(2 ** 31), NaN, Infinity, -Infinity, 0x100, 0x101, 0xffffffff, 0xfff5, 1e8];
  const STRINGS = ['', 'fast', 'full', 'summary', 'auto', '64', '0x100', 'slotmap', 'nope', '\u0000', 'x'.repeat(300),
    'prometheus', 'openmetrics', 'http://127.0.0.1:1/', '/push'];
  const body = document.body;
  const longString = 'x'.repeat(1e7);

  const throwing = () => {
    const o = {};
    Object.defineProperty(o, pick(KEYS), { get() { throw new Error('getter'); }, enumerable: true });
    return o;
  };
  const proxy = () =>
    new Proxy({}, {
      get(_, k) {
        if (rand() < 0.5) throw new RangeError(`trap ${String(k)}`);
        return value(1);
      },
      getPrototypeOf() { throw new Error('proto trap'); },
      ownKeys() { throw new Error('keys trap'); },
    });
  const detached = () => {
    const b = new ArrayBuffer(64);
    structuredClone(b, { transfer: [b] });
    return b;
  };
  const bytes = () => pick([
    () => new Uint8Array(0), () => new Uint8Array(64), () => new Uint8Array(640), () => new Uint32Array(160),
    () => new Uint8Array(100), () => new DataView(new ArrayBuffer(640)), () => new ArrayBuffer(640),
    () => new Float64Array(80), () => new Uint8Array(new ArrayBuffer(700), 60, 640), detached,
    () => new Uint8Array(new SharedArrayBuffer(640)),
    () => { const u = new Uint8Array(640); Object.defineProperty(u, 'byteLength', { get() { throw new Error('own'); } }); return u; },
  ])();
  function obj(depth) {
    const o = {};
    const n = Math.floor(rand() * 4);
    for (let i = 0; i < n; i++) o[pick(KEYS)] = value(depth + 1);
    return o;
  }
  function arr(depth) {
    return pick([
      () => [], () => new Array(1e8), () => new Array(2 ** 30), () => [value(depth + 1)],
      () => Array.from({ length: Math.floor(rand() * 6) }, () => value(depth + 1)),
      () => Array.from({ length: Math.floor(rand() * 8) }, () => item(depth + 1)),
      () => { const a = [1, 2]; Object.defineProperty(a, 0, { get() { throw new Error('index'); } }); return a; },
      () => new Proxy([1, 2, 3], { get(t, k) { if (k === 'length') throw new Error('length trap'); return t[k]; } }),
    ])();
  }
  function item(depth) {
    const it = { opcode: pick([0, 2, 3, 0x101, 9, 0xfff5, 0x80000001, 2 ** 32]), tenant: pick([0, 1, 3, 29]),
      priority: pick([0, 2, 4, 5]) };
    if (rand() < 0.5) it.args = [1, 160 + Math.floor(rand() * 64)];
    if (rand() < 0.3) it[pick(['opcode', 'tenant', 'priority', 'args'])] = value(depth + 1);
    return it;
  }
  function value(depth = 0) {
    const r = rand();
    if (depth > 2 || r < 0.35) {
      return pick([undefined, null, true, false, pick(NUMBERS), pick(NUMBERS), pick(STRINGS), 4096n, 0n, -1n,
        Symbol('s'), () => {}, () => { throw new Error('cb'); }, longString,
        () => { throw new Proxy({}, { get() { throw new Error('thrown proxy'); } }); }]);
    }
    if (r < 0.55) return obj(depth);
    if (r < 0.7) return arr(depth);
    if (r < 0.8) return bytes();
    return pick([throwing, proxy, () => Object.create(null), () => ({ constructor: null }),
      () => ({ length: 2 ** 32 }), () => new Date(0), () => new Map(), () => Promise.resolve(1),
      () => document.createElement('div'), () => body, () => Proxy.revocable({}, {}).proxy,
      () => { const p = Proxy.revocable({}, {}); p.revoke(); return p.proxy; }])();
  }

  const METHODS = ['open', 'publish', 'setTenantMask', 'drain', 'snapshot', 'status', 'start', 'stop', 'step', 'setShutdown', 'setIOService',
    'decode', 'subscribe', 'mount', 'exportCapture', 'importCapture', 'exportTrace', 'exportMetrics', 'captureInfo',
    'captureFrame', 'setRecording', 'replay', 'live', 'pushMetrics', 'readBuffer', 'examples', 'example',
    'publishWorkload', 'checkExample'].filter((m) => typeof ringscope[m] === 'function');
  const timeoutMs = 20_000;
  const problems = [];
  let rejected = 0;
  let resolved = 0;
  const unsubscribes = [];
  for (let i = 0; i < calls; i++) {
    const name = pick(METHODS);
    const args = Array.from({ length: Math.floor(rand() * 4) }, () => value());
    // A valid drain of a ring whose items YIELD forever runs to its cap:
    // keep the cap small so a batch stays bounded.
    if (name === 'drain' && args[0] && typeof args[0] === 'object' && !Array.isArray(args[0])) {
      try {
        if (typeof args[0].maxSubmissions === 'number') args[0].maxSubmissions = Math.min(args[0].maxSubmissions, 32);
      } catch {
        // a Proxy or a getter: left as it is
      }
    }
    const where = `#${i} ${name}(${args.map((a) => typeof a).join(', ')})`;
    let r;
    try {
      r = ringscope[name](...args);
    } catch (e) {
      if (name === 'subscribe' && e instanceof TypeError && /^subscribe: /.test(e.message)) {
        rejected++;
      } else {
        problems.push(`${where} threw synchronously: ${e?.message ?? e}`);
      }
      continue;
    }
    if (name === 'subscribe') {
      if (typeof r === 'function') {
        unsubscribes.push(r);
        resolved++;
      } else {
        problems.push(`${where} returned ${typeof r}, not a function`);
      }
      continue;
    }
    if (!(r instanceof Promise)) {
      problems.push(`${where} returned ${typeof r}, not a Promise`);
      continue;
    }
    let timer;
    const outcome = await Promise.race([
      r.then(() => ({ ok: true }), (e) => ({ ok: false, msg: String(e?.message ?? e) })),
      new Promise((res) => { timer = setTimeout(() => res({ hung: true }), timeoutMs); }),
    ]);
    clearTimeout(timer);
    if (outcome.hung) {
      problems.push(`${where} did not settle in ${timeoutMs} ms`);
      break;
    }
    if (outcome.ok) {
      resolved++;
      continue;
    }
    rejected++;
    if (/internal error|not running/.test(outcome.msg)) problems.push(`${where}: ${outcome.msg}`);
    else if (!outcome.msg.startsWith(`${name}: `) && !/^(capture|replay|publish|open|ringscope): /.test(outcome.msg)) {
      problems.push(`${where}: the rejection does not name its method: ${outcome.msg}`);
    }
  }
  for (const u of unsubscribes) u();
  return { calls, rejected, resolved, problems };
}
