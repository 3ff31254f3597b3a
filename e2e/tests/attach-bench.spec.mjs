// What attaching costs the host (issue 18's benchmark row): the host app of
// static/attach-host.html on a 65,536-slot ring, alone (ringscope not even
// loaded) and attached (the whole dashboard mounted, readback auto, which
// is summary on a GPU and full on a CPU adapter), side by side in one
// browser, alternating, one fresh page per window. A mode is alone, a
// readback (auto, full, summary), or a readback@budget: auto is attach's
// default main-thread budget (wasm/pace, 0.05), auto@1 no budget, pacing on
// display frames alone (ringscope before the budget). Two more modes say
// what ringscope costs standing, nothing attached: loaded (imported, its
// runner paused, not mounted) and mounted; a suffix :unmounted attaches
// without mounting the dashboard, :detached attaches (unmounted), reads
// three frames and detaches before the window; js-copy, js-scope, js-ring, js-dispatch
// and js-busy20 load no ringscope but disturb the host in plain JS with one
// part of an attached frame each (disturb, below); refused and attach0
// bisect an attach (below); gostepN[:keep][:full] steps a bare Go
// attachment N frames (no controller, session or dashboard), and the
// flag :norender attaches with the dashboard's renders held. RINGSCOPE_ATTACH_BENCH_MODES picks them
// (comma-separated; default alone,auto,auto@1), RINGSCOPE_ATTACH_BENCH_PACES
// the paces (default gpu,raf). RINGSCOPE_ATTACH_BENCH_TRACE=1 records a
// Chromium trace (toplevel, gpu) of 2 s after round 0's window of each
// mode, in the output directory as trace-<pace>-<mode>.json, for the
// GPU process's and the main thread's tasks. The host paces itself two ways:
// pace=gpu (its next frame once its last one's GPU work is done: the most
// frames it can make, so the copy and the decode on the shared main thread
// show up in full) and pace=raf (one frame per animation frame, as most
// apps do). It reports host frames per second and ringscope's frames read;
// it asserts nothing on time, only that every window was measured. Each
// attached row keeps ringscope's own pacing report (attachInfo().pacing).
//
//   cd e2e && npx playwright test tests/attach-bench.spec.mjs --workers=1
//
// Results: console and test-results/attach-bench.json (or
// RINGSCOPE_BENCH_OUT/attach-bench.json). bench/gpu-chromium.sh runs it
// on the H200 with the other @bench specs.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from './fixtures.mjs';

// The recorder's traces and screenshots would load the CPU being measured.
test.use({ trace: 'off', screenshot: 'off', video: 'off' });

const SLOTS = 65_536;
const WARMUP_MS = 2_000;
const WINDOW_MS = 6_000;
const ROUNDS = Number(process.env.RINGSCOPE_ATTACH_BENCH_ROUNDS || 2);
const MODES = (process.env.RINGSCOPE_ATTACH_BENCH_MODES || 'alone,auto,auto@1').split(',');
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

const attached = (mode) => !['alone', 'loaded', 'mounted', 'refused', 'attach0'].includes(mode) && !mode.startsWith('js-') && !mode.startsWith('gostep');

// disturb (the js-* modes, ringscope not loaded) does on the host's own
// device, three times a second, one part of what an attached frame does,
// in plain JS: copy (control and log into a MAP_READ staging, mapped and
// read), scope (the same inside a validation error scope, as attach's
// encode), ring (the whole ring copied and mapped), dispatch (a small
// compute pass reading the ring, then copy), busy20 (20 ms of main-thread
// work, no GPU). Which one costs the host its frames says where an
// attachment's cost is.
async function disturb(page, kind) {
  await page.evaluate(async (kind) => {
    const { device, control, ring, log } = window.host;
    const U = GPUBufferUsage;
    if (kind.startsWith('canvas')) {
      // The dashboard's canvases (sizes as it draws them at 65,536 slots),
      // in a hidden holder, each drawn once by putImageData; -wrf asks
      // for willReadFrequently (a canvas the CPU keeps).
      const holder = document.createElement('div');
      holder.hidden = true;
      document.body.append(holder);
      for (const [w, h] of [[440, 150], [440, 28], [1024, 256], [297, 90], [297, 90], [297, 90], [297, 90]]) {
        const c = document.createElement('canvas');
        holder.append(c);
        c.width = w;
        c.height = h;
        const ctx = c.getContext('2d', kind.endsWith('-wrf') ? { willReadFrequently: true } : undefined);
        const img = ctx.createImageData(w, h);
        img.data.fill(200);
        ctx.putImageData(img, 0, 0);
      }
      return;
    }
    if (kind.startsWith('raf')) {
      // raf: an animation frame asked for three times a second, as
      // ringscope's pacing does; raf-once: three, then none.
      if (kind === 'raf-once') {
        for (let i = 0; i < 3; i++) await new Promise((r) => requestAnimationFrame(r));
        return;
      }
      setInterval(() => requestAnimationFrame(() => {}), 333);
      return;
    }
    if (kind === 'getters') {
      // What wrapping the host's device and buffers reads, once.
      device.lost.then(() => {});
      void [device.queue, device.limits, device.features, device.label, device.adapterInfo?.vendor];
      for (const b of [control, ring, log]) void [b.size, b.usage, b.label, b.mapState];
      return;
    }
    if (kind.startsWith('mimic')) {
      // An attached frame's calls in full readback as ringscope makes them
      // (its own staging of control, log and ring at offsets 16, 688,
      // 1728; a validation scope around the encode; the map from offset
      // 16), three times a second; mimic-once: three frames, then the
      // staging destroyed (detach); -noscope and -nooffset leave one part
      // out.
      const size = 16 + control.size + 16 + log.size + ring.size;
      const at = [16, 16 + control.size + 16, 16 + control.size + 16 + log.size];
      const staging = [0, 1].map((i) => device.createBuffer({ label: `mimic ${i}`, size, usage: U.MAP_READ | U.COPY_DST }));
      const scoped = !kind.includes('noscope');
      const from = kind.includes('nooffset') ? 0 : 16;
      const dst = new Uint8Array(size);
      let n = 0;
      const frame = async () => {
        const stage = staging[n++ % 2];
        void [control.mapState, ring.mapState, log.mapState];
        if (scoped) device.pushErrorScope('validation');
        const enc = device.createCommandEncoder({ label: 'mimic' });
        enc.copyBufferToBuffer(control, 0, stage, at[0], control.size);
        enc.copyBufferToBuffer(log, 0, stage, at[1], log.size);
        enc.copyBufferToBuffer(ring, 0, stage, at[2], ring.size);
        device.queue.submit([enc.finish()]);
        const pop = scoped ? device.popErrorScope() : null;
        await stage.mapAsync(GPUMapMode.READ, from, size - from);
        dst.set(new Uint8Array(stage.getMappedRange(from, size - from)), from);
        stage.unmap();
        await pop;
      };
      if (kind === 'mimic-once') {
        for (let i = 0; i < 3; i++) await frame();
        for (const s of staging) s.destroy();
        return;
      }
      let busy = false;
      setInterval(async () => {
        if (busy) return;
        busy = true;
        await frame();
        busy = false;
      }, 333);
      return;
    }
    const bytes = kind === 'ring' ? ring.size : control.size + log.size;
    const staging = [0, 1].map(() => device.createBuffer({ size: bytes, usage: U.MAP_READ | U.COPY_DST }));
    let pipeline;
    let bind;
    const out = device.createBuffer({ size: 4096, usage: U.STORAGE | U.COPY_SRC });
    if (kind === 'dispatch') {
      const code = `@group(0) @binding(0) var<storage, read> ring: array<u32>;
        @group(0) @binding(1) var<storage, read_write> out: array<atomic<u32>>;
        @compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3u) {
          if (g.x < arrayLength(&ring) / 16u) { atomicAdd(&out[ring[g.x * 16u] & 7u], 1u); }
        }`;
      pipeline = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code }), entryPoint: 'main' } });
      bind = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: ring } }, { binding: 1, resource: { buffer: out } }] });
    }
    let n = 0;
    let busy = false;
    setInterval(async () => {
      if (kind === 'busy20') {
        const t = performance.now();
        while (performance.now() - t < 20);
        return;
      }
      if (busy) return;
      busy = true;
      const stage = staging[n++ % 2];
      if (kind === 'scope') device.pushErrorScope('validation');
      const enc = device.createCommandEncoder();
      if (kind === 'dispatch') {
        const pass = enc.beginComputePass();
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, bind);
        pass.dispatchWorkgroups(Math.ceil(ring.size / 64 / 256));
        pass.end();
      }
      if (kind === 'ring') enc.copyBufferToBuffer(ring, 0, stage, 0, ring.size);
      else {
        enc.copyBufferToBuffer(control, 0, stage, 0, control.size);
        enc.copyBufferToBuffer(log, 0, stage, control.size, log.size);
      }
      device.queue.submit([enc.finish()]);
      const scoped = kind === 'scope' ? device.popErrorScope() : null;
      await stage.mapAsync(GPUMapMode.READ);
      new Uint8Array(stage.getMappedRange()).slice();
      stage.unmap();
      await scoped;
      busy = false;
    }, 333);
  }, kind);
}

async function measure(page, pace, mode, round) {
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
    const said = await page.evaluate(async (mode) => {
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
    const said = await page.evaluate(async ({ frames, keep, full }) => {
      const { device, control, ring, log } = window.host;
      try {
        const n = await ringscope.__test.attachSteps({ device, control, ring, log, frames, detach: !keep, ...(full ? { readback: 'full' } : {}) });
        return `${n} frames read${keep ? ', kept' : ', detached'}`;
      } catch (err) {
        return err.message;
      }
    }, { frames: Number(spec.slice('gostep'.length) || 1), keep: flags.includes('keep'), full: flags.includes('full') });
    console.log(`${mode}: ${said}`);
  } else if (mode !== 'alone') {
    await expect(page.getByTestId('host-attached')).not.toHaveText('not attached', { timeout: 90_000 });
    await expect.poll(() => page.evaluate(() => ringscope.attachInfo().then((i) => i.frames)), { timeout: 60_000 }).toBeGreaterThan(2);
    if (mode.split(':').includes('detached')) await page.evaluate(() => window.host.detach());
  }
  await page.waitForTimeout(WARMUP_MS);
  const read = () => page.evaluate(async () => ({
    t: performance.now(), frame: window.host.frame,
    rs: window.ringscope?.attachInfo ? await window.ringscope.attachInfo() : null,
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
    const alone = mean(pace, 'alone');
    for (const mode of MODES.filter((m) => m !== 'alone')) {
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
