// The example host app of static/attach-host.html: a small WebGPU program
// with its own device, its own control and ring buffers in ringscope's ABI
// (docs/PROTOCOL.md) and its own kernel (attach-host.wgsl, not
// ringscope's megakernel), which it runs over them every frame. ringscope
// only watches: ringscope.attach({device, control, ring, log}) copies the
// buffers into its own staging at display rate and drives its dashboard.
// Plain JS, no ringscope runner. No inline script (CSP).
//
// URL parameters (besides ringscope's own, which configure its paused
// runner): slots (default 4096), wave (slots published per frame, default
// slots / 8), magic=0 (a vyre-layout ring: MAGIC 0, no v1 words),
// attach=0 (the host alone: ringscope is not even loaded), attach=load
// (ringscope loaded, its runner paused, nothing attached or mounted),
// attach=mount (loaded and mounted, nothing attached), mount=0 (attached,
// the dashboard left in ringscope's hidden holder), readback
// (attach's: auto, full or summary), attachBudget (attach's budget: the
// share of the main thread ringscope may take, 0.05 by default; budget is
// ringscope's own runner parameter), pace=gpu (the next frame once the
// last one's GPU work is done, instead of one per animation frame),
// stopAt=N (pause after frame N; host.playTo(n) moves it), trace=N (the
// kernel traces its claims into a trace buffer of N records in
// docs/TRACE.md's layout, which attach hands ringscope: its timeline panel
// shows them; the app starts the trace over every ⌊N / wave⌋ frames, before
// it can fill).
//
// window.host is the app's own handle, for people and tests: frame,
// running, pause(), resume(), runTo(n), readback() (the app's own copy of
// its buffers), summary() (what that copy says), hash(), traced:
// resetTrace() and traceCounts() (tasks per workgroup, from the app's
// copy), and attach() / detach() for ringscope.

const q = new URLSearchParams(location.search);
const int = (name, def) => (q.has(name) ? Number.parseInt(q.get(name), 10) : def);
const SLOTS = int('slots', 4096);
const WAVE = Math.max(1, int('wave', Math.floor(SLOTS / 8)));
const LEGACY = q.get('magic') === '0';
const PACE = q.get('pace') === 'gpu' ? 'gpu' : 'raf';
const TRACE = int('trace', 0); // trace records, 0: untraced
const OBSERVABLE = 8;
const LOG_CAPACITY = 64;
const MAGIC = 0x31435352;

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const say = (text) => { $('host-state').textContent = text; };

// ringscope's own runner stays paused: the host's ring is the one to
// watch (the wasm reads the query once it starts).
if (!q.has('autostart')) {
  q.set('autostart', '0');
  history.replaceState(null, '', `${location.pathname}?${q}`);
}

const adapter = await navigator.gpu?.requestAdapter();
if (!adapter) {
  say('no WebGPU adapter');
  throw new Error('attach-host: no WebGPU adapter');
}
const device = await adapter.requestDevice({ label: 'host app' });
const U = GPUBufferUsage;
const usage = U.STORAGE | U.COPY_SRC | U.COPY_DST;
const control = device.createBuffer({ label: 'host control', size: (160 + OBSERVABLE) * 4, usage });
const ring = device.createBuffer({ label: 'host ring', size: SLOTS * 64, usage });
const log = device.createBuffer({ label: 'host log', size: (4 + 4 * LOG_CAPACITY) * 4, usage });
const params = device.createBuffer({ label: 'host params', size: 16, usage: U.UNIFORM | U.COPY_DST });
// The trace buffer (docs/TRACE.md §1): header (cursor, capacity, clock,
// no parent table), then 8 words a record.
const trace = TRACE > 0 ? device.createBuffer({ label: 'host trace', size: (4 + 8 * TRACE) * 4, usage }) : null;
const traceHeader = new Uint32Array([0, TRACE, 0, 0]);
const traceEvery = Math.max(1, Math.floor(TRACE / WAVE)); // frames a wave's claims cannot overflow

// The control words the host owns (PROTOCOL §2): tenants 0–3 on, the
// default partitions (vyre's rule), and the v1 header unless legacy.
const init = new Uint32Array(160 + OBSERVABLE);
init[2] = 3; // TENANT_BASE
init.fill(1, 3, 7); // TENANT_MASK[0..3]
const base = Math.floor(SLOTS / 5);
const rem = SLOTS % 5;
let off = 0;
for (let p = 0; p <= 5; p++) {
  init[129 + p] = off;
  off += base + (p === 2 ? rem : 0);
}
init[134] = SLOTS;
if (!LEGACY) {
  init[141] = MAGIC;
  init[142] = 1; // ABI_VERSION
  init[143] = 1; // GENERATION
}
device.queue.writeBuffer(control, 0, init);
device.queue.writeBuffer(log, 0, new Uint32Array([0, LOG_CAPACITY, 0, 0]));
if (trace) device.queue.writeBuffer(trace, 0, traceHeader);

let code = await (await fetch('attach-host.wgsl')).text();
if (trace) code = code.replace(/^(\s*)\/\/ @trace: /gm, '$1'); // the trace hooks are code
const module = device.createShaderModule({ label: 'host kernel', code });
const pipeline = await device.createComputePipelineAsync({ label: 'host frame', layout: 'auto', compute: { module, entryPoint: 'frame' } });
const bindGroup = device.createBindGroup({
  layout: pipeline.getBindGroupLayout(0),
  entries: [control, ring, log, params, trace].filter(Boolean).map((buffer, binding) => ({ binding, resource: { buffer } })),
});
const paramWords = new Uint32Array(4);
const logReset = new Uint32Array([0]);
const groups = Math.ceil(SLOTS / 64);

const host = {
  device, control, ring, log, slots: SLOTS, legacy: LEGACY,
  frame: 0, running: true, times: [], stopAt: int('stopAt', 0), trace, traceFrames: 0,
  // runFrame submits one frame: the params, a fresh log cursor, one
  // dispatch. All in one task, so nothing (ringscope's copy included) can
  // land between the writes and the dispatch.
  runFrame() {
    host.frame++;
    paramWords.set([host.frame, SLOTS, WAVE, LEGACY ? 1 : 0]);
    device.queue.writeBuffer(params, 0, paramWords);
    device.queue.writeBuffer(log, 0, logReset);
    if (trace && host.traceFrames++ % traceEvery === 0) host.resetTrace();
    const enc = device.createCommandEncoder({ label: 'host frame' });
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(groups);
    pass.end();
    device.queue.submit([enc.finish()]);
    host.times.push(performance.now());
    if (host.times.length > 4096) host.times.splice(0, 2048);
    $('host-frame').textContent = String(host.frame);
    if (host.stopAt > 0 && host.frame >= host.stopAt) host.running = false;
  },
  // resetTrace starts the trace over (the header rewritten: no records,
  // clock 0), as a host does between the runs it traces; ringscope's
  // window starts over with it. The next frame's records are the first.
  resetTrace() {
    device.queue.writeBuffer(trace, 0, traceHeader);
    host.traceFrames = 1;
  },
  pause() { host.running = false; },
  resume() {
    if (host.running) return;
    host.running = true;
    schedule();
  },
  // runTo runs until frame n, then pauses; it resolves once frame n's
  // work is done.
  async runTo(n) {
    host.running = false;
    while (host.frame < n) host.runFrame();
    await device.queue.onSubmittedWorkDone();
    return host.frame;
  },
  // playTo runs at the page's pace until frame n, then pauses; it
  // resolves once frame n's work is done.
  async playTo(n) {
    host.stopAt = n;
    host.resume();
    while (host.frame < n) await new Promise((r) => setTimeout(r, 5));
    await device.queue.onSubmittedWorkDone();
    return host.frame;
  },
  // readback is the app's own copy of its three buffers (its own MAP_READ
  // staging, as any WebGPU app reads results).
  async readback() {
    const out = {};
    const bufs = trace ? { control, ring, log, trace } : { control, ring, log };
    const enc = device.createCommandEncoder({ label: 'host readback' });
    const staging = {};
    for (const [name, b] of Object.entries(bufs)) {
      staging[name] = device.createBuffer({ size: b.size, usage: U.MAP_READ | U.COPY_DST });
      enc.copyBufferToBuffer(b, 0, staging[name], 0, b.size);
    }
    device.queue.submit([enc.finish()]);
    for (const [name, s] of Object.entries(staging)) {
      await s.mapAsync(GPUMapMode.READ);
      out[name] = new Uint32Array(s.getMappedRange().slice(0));
      s.destroy();
    }
    out.frame = host.frame;
    return out;
  },
  // summary is what the app's own readback says: the numbers ringscope's
  // panels must show for the same frame.
  async summary() {
    const r = await host.readback();
    const names = ['empty', 'published', 'claimed', 'done', 'waitIO', 'yield', 'requeue', 'fault'];
    const occupancy = Object.fromEntries(names.map((n) => [n, 0]));
    occupancy.unknown = 0;
    for (let s = 0; s < SLOTS; s++) {
      const st = r.ring[s * 16];
      if (st < names.length) occupancy[names[st]]++;
      else occupancy.unknown++;
    }
    const metrics = [];
    for (let op = 0; op < 32; op++) if (r.control[96 + op]) metrics.push({ opcode: op, count: r.control[96 + op] });
    return { frame: r.frame, observedFrame: r.control[160], doneCount: r.control[1], claims: r.control[145],
      faults: r.control[146], metrics, occupancy, logCursor: r.log[0] };
  },
  // traceCounts is the app's own reading of its trace buffer: the records
  // landed per workgroup, the cursor and the capacity.
  async traceCounts() {
    const t = (await host.readback()).trace;
    const groups = {};
    const n = Math.min(t[0], t[1]);
    for (let r = 0; r < n; r++) groups[t[4 + 8 * r + 2]] = (groups[t[4 + 8 * r + 2]] ?? 0) + 1;
    return { records: n, cursor: t[0], capacity: t[1], groups };
  },
  // hash is FNV-1a over the app's readback of its three buffers. The log's
  // records are hashed in sorted order: the kernel appends them through an
  // atomic cursor, so their order is the GPU's choice of lanes, run to run.
  async hash() {
    const r = await host.readback();
    const recs = [];
    for (let i = 0; i < Math.min(r.log[0], r.log[1]); i++) recs.push(Array.from(r.log.subarray(4 + 4 * i, 8 + 4 * i)));
    recs.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    const log = new Uint32Array([...r.log.subarray(0, 4), ...recs.flat()]);
    let h = 0x811c9dc5;
    for (const words of [r.control, r.ring, log]) {
      const bytes = new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
      for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
    }
    return h.toString(16).padStart(8, '0');
  },
  // fps is the frame rate over the last ms milliseconds.
  fps(ms) {
    const now = performance.now();
    const n = host.times.filter((t) => t > now - ms).length;
    return (n * 1000) / ms;
  },
  ringscope: null,
  // load loads ringscope (once) and waits until it is ready.
  async load() {
    host.ringscope ??= (await import('./ringscope.mjs')).default;
    await host.ringscope.ready;
    return host.ringscope;
  },
  // mount shows ringscope's dashboard in the page.
  async mount() {
    await host.load();
    await host.ringscope.mount(document.getElementById('ringscope'));
  },
  // attach loads ringscope (once), points it at the app's buffers and,
  // unless mount=0, mounts its dashboard.
  async attach(options = {}) {
    await host.load();
    // holdRender=1 (the e2e build's test hooks): the dashboard renders
    // nothing, so the attach benchmark tells a frame's cost from a render's.
    if (q.get('holdRender') === '1') await globalThis.ringscope.__test.holdRender(true);
    const budget = q.has('attachBudget') ? { budget: Number(q.get('attachBudget')) } : {};
    const traced = trace ? { trace } : {};
    const info = await host.ringscope.attach({ device, control, ring, log, readback: q.get('readback') ?? 'auto', ...budget, ...traced, ...options });
    if (q.get('mount') !== '0') await host.mount();
    return info;
  },
  async detach() { return host.ringscope.detach(); },
};
window.host = host;

function schedule() {
  if (!host.running) return;
  if (PACE === 'gpu') {
    device.queue.onSubmittedWorkDone().then(() => {
      if (!host.running) return;
      host.runFrame();
      schedule();
    });
  } else {
    requestAnimationFrame(() => {
      if (!host.running) return;
      host.runFrame();
      schedule();
    });
  }
}

device.lost.then((info) => say(`device lost: ${info.reason}`));
say('running');
host.runFrame();
schedule();
// record=1 (the attach benchmark's quiet windows): the frame count twice a
// second, so a harness can read one window afterwards instead of asking
// the page while it runs; readyAt is when ringscope was ready (attached,
// loaded or mounted; 0 alone), on the same clock.
host.samples = [];
host.readyAt = 0;
if (q.get('record') === '1') setInterval(() => host.samples.push([performance.now(), host.frame]), 500);
$('host-state').dataset.ready = '1';

if (q.get('attach') === 'load' || q.get('attach') === 'mount') {
  // The standing cost of ringscope on the page, nothing attached.
  try {
    await (q.get('attach') === 'mount' ? host.mount() : host.load());
    $('host-attached').textContent = q.get('attach') === 'mount' ? 'loaded and mounted' : 'loaded';
    host.readyAt = performance.now();
  } catch (err) {
    $('host-attached').textContent = err.message;
  }
} else if (q.get('attach') !== '0') {
  try {
    const info = await host.attach();
    $('host-attached').textContent = `${info.readback} readback, ${info.slots} slots`;
    say('running, attached');
    host.readyAt = performance.now();
  } catch (err) {
    $('host-attached').textContent = err.message;
  }
}
