// What attaching costs the host (issue 18's benchmark row): the host app of
// static/attach-host.html on a 65,536-slot ring, alone (ringscope not even
// loaded) and attached (the whole dashboard mounted, readback auto, which
// is summary on a GPU and full on a CPU adapter), side by side in one
// browser, alternating, one fresh page per window. A mode is alone, a
// readback (auto, full, summary), or a readback@budget: auto is attach's
// default main-thread budget (wasm/pace, 0.05), auto@1 no budget, pacing on
// display frames alone (ringscope before the budget). RINGSCOPE_ATTACH_BENCH_MODES
// picks them (comma-separated; default alone,auto,auto@1). The host paces itself two ways:
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
const PACES = ['gpu', 'raf'];

async function measure(page, pace, mode) {
  const attach = mode === 'alone' ? '0' : '1';
  const [readback, budget] = mode.split('@');
  const q = `slots=${SLOTS}&pace=${pace}&attach=${attach}&readback=${readback}` + (budget ? `&attachBudget=${budget}` : '');
  await page.goto(`/attach-host.html?${q}`);
  await expect(page.getByTestId('host-state')).toHaveAttribute('data-ready', '1', { timeout: 60_000 });
  if (mode !== 'alone') {
    await expect(page.getByTestId('host-attached')).not.toHaveText('not attached', { timeout: 90_000 });
    await expect.poll(() => page.evaluate(() => ringscope.attachInfo().then((i) => i.frames)), { timeout: 60_000 }).toBeGreaterThan(2);
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
  return {
    pace, mode, seconds: s,
    hostFps: (b.frame - a.frame) / s,
    ringscopeFps: a.rs && b.rs ? (b.rs.frames - a.rs.frames) / s : 0,
    readback: b.rs?.readback ?? null,
    pacing: b.rs?.pacing ?? null,
  };
}

test('attach: host frame rate alone vs attached at 65,536 slots', { tag: '@bench' }, async ({ browser }) => {
  test.setTimeout(900_000);
  const rows = [];
  for (const pace of PACES) {
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of MODES) {
        const ctx = await browser.newContext();
        const page = await ctx.newPage();
        rows.push({ round, ...(await measure(page, pace, mode)) });
        const r = rows.at(-1);
        console.log(`pace ${pace} round ${round} ${mode.padEnd(7)}: host ${r.hostFps.toFixed(1)} frames/s` +
          (r.readback ? `, ringscope ${r.ringscopeFps.toFixed(1)} frames/s (${r.readback} readback)` : '') +
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
  const out = process.env.RINGSCOPE_BENCH_OUT || path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test-results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'attach-bench.json'), JSON.stringify({ slots: SLOTS, windowMs: WINDOW_MS, rows, summary }, null, 2));
  for (const r of rows) expect(r.hostFps, `${r.pace} ${r.mode}: host frames measured`).toBeGreaterThan(0);
});
