// What attaching costs the host (issue 18's benchmark row): the host app of
// static/attach-host.html on a 65,536-slot ring, alone (ringscope not even
// loaded) and attached, side by side in one browser, alternating, a fresh
// page per window. It reports the host's frames per second (and
// ringscope's frames read and pacing report); it asserts nothing on time,
// only that every window was measured. The host paces itself two ways:
// pace=gpu (its next frame once its last one's GPU work is done: the most
// frames it can make) and pace=raf (one frame per animation frame, as most
// apps do).
//
// Modes (RINGSCOPE_ATTACH_BENCH_MODES, comma-separated; default
// quiet:alone,quiet:auto,quiet:auto@1):
//   quiet:M       mode M measured without a word to the page while it runs
//                 (measureQuiet): on the H200 a harness that polls the
//                 page for seconds halves a GPU-paced host by itself
//                 (bench/results-attach.md), so these are the rows to report
//   alone         the host alone
//   R[@B][:F...]  attached with readback R (auto, full, summary) and main-
//                 thread budget B (wasm/pace; default 0.05, 1: none); flags:
//                 unmounted (the dashboard not mounted), detached (detached
//                 after three frames, before the window), norender (renders
//                 held, test hooks), slow (3 s of waiting first)
//   loaded, mounted   ringscope standing, nothing attached
//   refused, attach0  an attach refused; an attach detached at once
//   gostepN[:keep][:full][:gapMS][:raf]  a bare Go attachment stepped N
//                 frames (test hook __test.attachSteps)
//   js-*          ringscope not loaded, the host disturbed in plain JS
//                 (attach-disturb.mjs)
// RINGSCOPE_ATTACH_BENCH_PACES picks the paces (default gpu,raf),
// RINGSCOPE_ATTACH_BENCH_ROUNDS the rounds (default 2);
// RINGSCOPE_ATTACH_BENCH_TRACE=1 records a 2 s Chromium trace after round
// 0's window of each mode (trace-<pace>-<mode>.json in the output folder).
//
//   cd e2e && npx playwright test tests/attach-bench.spec.mjs --workers=1
//
// Results: console and test-results/attach-bench.json (or
// RINGSCOPE_BENCH_OUT/attach-bench.json). bench/gpu-chromium.sh runs it
// on the H200 with the other @bench specs; the bisect modes need the e2e
// build's test hooks there (its STATIC_DIR).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from './fixtures.mjs';
import { disturb } from './attach-disturb.mjs';
import { settle } from './settle.mjs';

// The recorder's traces and screenshots would load the CPU being measured.
test.use({ trace: 'off', screenshot: 'off', video: 'off' });

const SLOTS = 65_536;
const WARMUP_MS = 2_000;
const WINDOW_MS = 6_000;
const ROUNDS = Number(process.env.RINGSCOPE_ATTACH_BENCH_ROUNDS || 2);
const MODES = (process.env.RINGSCOPE_ATTACH_BENCH_MODES || 'quiet:alone,quiet:auto,quiet:auto@1').split(',');
const PACES = (process.env.RINGSCOPE_ATTACH_BENCH_PACES || 'gpu,raf').split(',');
const TRACE = process.env.RINGSCOPE_ATTACH_BENCH_TRACE === '1';
const OUT = process.env.RINGSCOPE_BENCH_OUT || path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test-results');

// query is the host page's URL query for mode.
function query(pace, mode) {
  const q = new URLSearchParams({ slots: String(SLOTS), pace });
  const standing = { alone: '0', loaded: 'load', mounted: 'mount', refused: 'load', attach0: 'load' }[mode] ??
    (mode.startsWith('js-') ? '0' : mode.startsWith('gostep') ? 'load' : undefined);
  if (standing) {
    q.set('attach', standing);
    return q;
  }
  const [spec, ...flags] = mode.split(':');
  const [readback, budget] = spec.split('@');
  q.set('attach', '1');
  q.set('readback', readback);
  if (budget) q.set('attachBudget', budget);
  if (flags.includes('unmounted') || flags.includes('detached')) q.set('mount', '0');
  if (flags.includes('norender')) q.set('holdRender', '1');
  return q;
}

const attached = (mode) => !mode.startsWith('quiet:alone') && !['alone', 'loaded', 'mounted', 'refused', 'attach0'].includes(mode) && !mode.startsWith('js-') && !mode.startsWith('gostep');

// keepWasmMemory notes the Go program's WebAssembly.Memory (its export
// mem) as the page instantiates it, so each window reports its size.
function keepWasmMemory() {
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = async (...args) => {
    const r = await instantiate.apply(WebAssembly, args);
    globalThis.__ringscopeBenchMem = (r.instance ?? r).exports.mem;
    return r;
  };
}

// measureQuiet (modes quiet:alone, quiet:<readback>[:unmounted]) asks
// nothing of the page while it runs: the host page records its frame
// count twice a second (record=1) and attaches by itself, and the harness
// waits QUIET_MS without a word, then reads the samples once. Its window
// is WINDOW_MS from WARMUP_MS after ringscope was ready (after the page
// started, alone). No harness traffic can put the page into the slow
// state (settle, above).
const QUIET_MS = 20_000;
async function measureQuiet(page, pace, mode) {
  const q = query(pace, mode.slice('quiet:'.length));
  q.set('record', '1');
  await page.goto(`/attach-host.html?${q}`);
  await page.waitForTimeout(QUIET_MS);
  const got = await page.evaluate(async () => ({
    samples: window.host.samples, readyAt: window.host.readyAt, attached: document.querySelector('[data-testid=host-attached]')?.textContent,
    rs: window.ringscope?.attachInfo ? await window.ringscope.attachInfo() : null,
  }));
  const from = (got.readyAt || got.samples[0][0]) + WARMUP_MS;
  const inWindow = got.samples.filter(([t]) => t >= from && t <= from + WINDOW_MS);
  if (inWindow.length < 2) throw new Error(`${mode}: ${inWindow.length} samples in the window (ready at ${got.readyAt} ms: ${got.attached})`);
  const [a, b] = [inWindow[0], inWindow.at(-1)];
  const s = (b[0] - a[0]) / 1000;
  return { pace, mode, seconds: s, hostFps: (b[1] - a[1]) / s, ringscopeFps: got.rs?.pacing?.rate ?? 0, readback: got.rs?.readback ?? null, pacing: got.rs?.pacing ?? null, wasmMiB: null, jsHeapMiB: null };
}

async function measure(page, pace, mode, round) {
  if (mode.startsWith('quiet:')) return measureQuiet(page, pace, mode);
  await page.addInitScript(keepWasmMemory);
  await page.goto(`/attach-host.html?${query(pace, mode)}`);
  await expect(page.getByTestId('host-state')).toHaveAttribute('data-ready', '1', { timeout: 60_000 });
  if (mode === 'loaded' || mode === 'mounted') {
    await expect(page.getByTestId('host-attached')).toHaveText(/^loaded/, { timeout: 90_000 });
  } else if (mode.startsWith('js-')) {
    await disturb(page, mode.slice(3));
  } else if (mode === 'refused' || mode === 'attach0') {
    // refused: an attach that wraps the host's device and buffers, then
    // refuses (a ring without COPY_SRC); attach0: an attach detached at
    // once, before its frames.
    await expect(page.getByTestId('host-attached')).toHaveText(/^loaded/, { timeout: 90_000 });
    const said = await settle(page, async (mode) => {
      const { device, control, ring, log } = window.host;
      try {
        if (mode === 'refused') {
          const bad = device.createBuffer({ size: ring.size, usage: GPUBufferUsage.STORAGE });
          await ringscope.attach({ device, control, ring: bad, log });
          return 'attached?';
        }
        await ringscope.attach({ device, control, ring, log });
        await ringscope.detach();
        return 'attached and detached';
      } catch (err) {
        return err.message;
      }
    }, mode);
    console.log(`${mode}: ${said}`);
  } else if (mode.startsWith('gostep')) {
    // gostepN[:keep][:full]: a bare Go attachment (the e2e build's
    // __test.attachSteps: megakernel.Attach and N Steps, no controller,
    // session or dashboard), detached unless :keep.
    await expect(page.getByTestId('host-attached')).toHaveText(/^loaded/, { timeout: 90_000 });
    const [spec, ...flags] = mode.split(':');
    const gap = flags.find((f) => f.startsWith('gap'));
    const said = await settle(page, async ({ frames, keep, full, gapMS, raf }) => {
      const { device, control, ring, log } = window.host;
      try {
        const n = await ringscope.__test.attachSteps({ device, control, ring, log, frames, detach: !keep, gapMS, raf, ...(full ? { readback: 'full' } : {}) });
        return `${n} frames read${keep ? ', kept' : ', detached'}`;
      } catch (err) {
        return err.message;
      }
    }, { frames: Number(spec.slice('gostep'.length) || 1), keep: flags.includes('keep'), full: flags.includes('full'), gapMS: gap ? Number(gap.slice(3)) : 0, raf: flags.includes('raf') });
    console.log(`${mode}: ${said}`);
  } else if (mode !== 'alone') {
    await expect(page.getByTestId('host-attached')).not.toHaveText('not attached', { timeout: 90_000 });
    await expect.poll(() => settle(page, () => ringscope.attachInfo().then((i) => i.frames)), { timeout: 60_000 }).toBeGreaterThan(2);
    if (mode.split(':').includes('detached')) await settle(page, () => window.host.detach());
    // :slow, then a 3 s timeout awaited in the page: what puts a host alone
    // into Chromium's slow callback state (js-timeout3000), so the two are
    // compared in one state.
    if (mode.split(':').includes('slow')) await settle(page, () => new Promise((r) => setTimeout(r, 3000)));
  }
  await page.waitForTimeout(WARMUP_MS);
  const read = () => settle(page, async () => ({
    t: performance.now(), frame: window.host.frame,
    rs: window.ringscope?.attachInfo ? await window.ringscope.attachInfo() : null,
    wasmMiB: (globalThis.__ringscopeBenchMem?.buffer.byteLength ?? 0) / 2 ** 20,
    jsHeapMiB: (performance.memory?.usedJSHeapSize ?? 0) / 2 ** 20,
  }));
  const a = await read();
  await page.waitForTimeout(WINDOW_MS);
  const b = await read();
  const s = (b.t - a.t) / 1000;
  if (TRACE && round === 0) {
    const file = path.join(OUT, `trace-${pace}-${mode.replace(/[^a-z0-9@.]/gi, '_')}.json`);
    await page.context().browser().startTracing(page, { path: file, categories: ['toplevel', 'gpu', 'viz', 'devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    await page.waitForTimeout(2_000);
    await page.context().browser().stopTracing();
  }
  return {
    pace, mode, seconds: s,
    hostFps: (b.frame - a.frame) / s,
    ringscopeFps: a.rs && b.rs ? ((b.rs.frames ?? 0) - (a.rs.frames ?? 0)) / s : 0,
    readback: b.rs?.readback ?? null,
    wasmMiB: b.wasmMiB, jsHeapMiB: b.jsHeapMiB,
    pacing: b.rs?.pacing ?? null,
  };
}

test('attach: host frame rate alone vs attached at 65,536 slots', { tag: '@bench' }, async ({ browser }) => {
  test.setTimeout(900_000);
  fs.mkdirSync(OUT, { recursive: true });
  const rows = [];
  for (const pace of PACES) {
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of MODES) {
        const ctx = await browser.newContext();
        const page = await ctx.newPage();
        rows.push({ round, ...(await measure(page, pace, mode, round)) });
        const r = rows.at(-1);
        console.log(`pace ${pace} round ${round} ${mode.padEnd(7)}: host ${r.hostFps.toFixed(1)} frames/s` +
          (r.wasmMiB === null ? '' : `, wasm ${r.wasmMiB.toFixed(0)} MiB, JS heap ${r.jsHeapMiB.toFixed(0)} MiB`) +
          (attached(r.mode) && r.readback ? `, ringscope ${r.ringscopeFps.toFixed(1)} frames/s (${r.readback} readback)` : '') +
          (r.pacing ? `, pacing: budget ${r.pacing.budget} share ${r.pacing.share.toFixed(3)} cost ${r.pacing.costMS.toFixed(1)} ms${r.pacing.throttled ? ' throttled' : ''}${r.pacing.atFloor ? ' at floor' : ''}` : ''));
        await ctx.close();
      }
    }
  }
  const mean = (pace, mode, f = (r) => r.hostFps) => {
    const xs = rows.filter((r) => r.pace === pace && r.mode === mode).map(f);
    return xs.reduce((x, y) => x + y, 0) / xs.length;
  };
  const summary = [];
  for (const pace of PACES) {
    for (const mode of MODES.filter((m) => m !== 'alone' && m !== 'quiet:alone')) {
      // A quiet window compares with the quiet alone.
      const alone = mean(pace, mode.startsWith('quiet:') ? 'quiet:alone' : 'alone');
      const att = mean(pace, mode);
      const rs = mean(pace, mode, (r) => r.ringscopeFps);
      const share = mean(pace, mode, (r) => r.pacing?.share ?? 0);
      summary.push({ pace, mode, aloneFps: alone, attachedFps: att, ratio: att / alone, ringscopeFps: rs, share });
      console.log(`pace ${pace}: attached (${mode}) ÷ alone = ${(att / alone).toFixed(3)} (${att.toFixed(1)} vs ${alone.toFixed(1)} frames/s); ` +
        `ringscope ${rs.toFixed(1)} frames/s, ${(share * 100).toFixed(1)}% of the main thread`);
    }
  }
  fs.writeFileSync(path.join(OUT, 'attach-bench.json'), JSON.stringify({ slots: SLOTS, windowMs: WINDOW_MS, rows, summary }, null, 2));
  for (const r of rows) expect(r.hostFps, `${r.pace} ${r.mode}: host frames measured`).toBeGreaterThan(0);
});
