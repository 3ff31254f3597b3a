// bench/trace-phases.mjs: where a page's time went, from Chromium traces
// (the JSON of Playwright's browser.startTracing, such as the attach
// bench's RINGSCOPE_ATTACH_BENCH_TRACE=1 files). Per trace it prints each
// busy thread's share of the traced span (its top-level tasks) and, for
// the renderer's main thread, the rendering phases per frame (style,
// layout, pre-paint, paint, layerize, commit) and the longest tasks.
//
//   node bench/trace-phases.mjs e2e/test-results/trace-gpu-alone.json ...
import fs from 'node:fs';
import zlib from 'node:zlib';

const TASKS = new Set(['ThreadControllerImpl::RunTask', 'ThreadPool_RunTask']);
const PHASES = ['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit'];

function load(file) {
  let raw = fs.readFileSync(file);
  if (file.endsWith('.gz')) raw = zlib.gunzipSync(raw);
  const d = JSON.parse(raw);
  return Array.isArray(d) ? d : d.traceEvents;
}

function report(file) {
  const events = load(file);
  const proc = new Map();
  const thread = new Map();
  for (const e of events) {
    if (e.ph !== 'M') continue;
    if (e.name === 'process_name') proc.set(e.pid, e.args.name);
    if (e.name === 'thread_name') thread.set(`${e.pid}:${e.tid}`, e.args.name);
  }
  const name = (e) => `${proc.get(e.pid) ?? e.pid}/${thread.get(`${e.pid}:${e.tid}`) ?? e.tid}`;
  let t0 = Infinity;
  let t1 = -Infinity;
  const busy = new Map();
  const phases = new Map();
  const longest = [];
  let frames = 0;
  for (const e of events) {
    if (e.ph !== 'X') continue;
    t0 = Math.min(t0, e.ts);
    t1 = Math.max(t1, e.ts + (e.dur ?? 0));
    const who = name(e);
    if (TASKS.has(e.name)) {
      const b = busy.get(who) ?? { us: 0, n: 0 };
      b.us += e.dur ?? 0;
      b.n++;
      busy.set(who, b);
      if (who.endsWith('/CrRendererMain')) longest.push(e);
    }
    if (who.endsWith('/CrRendererMain') && PHASES.includes(e.name)) {
      phases.set(e.name, (phases.get(e.name) ?? 0) + (e.dur ?? 0));
      if (e.name === 'Layerize') frames++;
    }
  }
  const span = (t1 - t0) / 1e6;
  console.log(`== ${file}: ${span.toFixed(2)} s traced`);
  for (const [who, b] of [...busy].sort((a, b) => b[1].us - a[1].us).slice(0, 8)) {
    console.log(`  ${who.padEnd(44)} ${((b.us / 1e4) / span).toFixed(1).padStart(5)}% busy, ${b.n} tasks`);
  }
  const per = PHASES.map((p) => `${p} ${((phases.get(p) ?? 0) / Math.max(frames, 1) / 1e3).toFixed(2)}`);
  const total = [...phases.values()].reduce((a, x) => a + x, 0);
  console.log(`  main thread per frame (${frames} frames, ms): ${per.join(', ')}; all ${(total / Math.max(frames, 1) / 1e3).toFixed(2)}`);
  longest.sort((a, b) => b.dur - a.dur);
  const src = (e) => e.args?.src_func ?? e.args?.src_file ?? '';
  console.log(`  longest main-thread tasks (ms): ${longest.slice(0, 8).map((e) => `${(e.dur / 1e3).toFixed(1)} ${src(e)}`).join(', ')}`);
}

for (const f of process.argv.slice(2)) report(f);
