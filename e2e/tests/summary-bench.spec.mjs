// Summary vs full readback on the live page, side by side in one session
// (issue 5's "summary readback vs full-ring readback" row, as the page sees
// it): the default workload on a 65,536-slot ring in headless Chromium, one
// page per mode, measured one after the other in the same browser. It
// reports frames per second and bytes read back per frame (the summary
// frames alone, and the average with the on-demand ring reads); it asserts
// nothing on time, only that both were measured.
//
//   cd e2e && npx playwright test tests/summary-bench.spec.mjs --workers=1
//
// Results: console and test-results/summary-bench.json (or
// RINGSCOPE_BENCH_OUT/summary-bench.json).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect, headerStat, gotoReady, num } from './fixtures.mjs';

// The config's trace recording (DOM snapshots and screencast frames, kept
// on failure) and screenshots load the page's own CPU: a benchmark turns
// them off so that it measures the page, not the recorder.
test.use({ trace: 'off', screenshot: 'off', video: 'off' });

const SLOTS = 65_536;
const WARMUP_MS = 3_000;
const WINDOW_MS = 8_000;
const ROUNDS = 2; // summary, full, summary, full: drift shows up as a spread

const snapshot = (page) => page.evaluate(() => window.ringscope.snapshot());

async function measure(page, mode) {
  await gotoReady(page, `?readback=${mode}&slots=${SLOTS}`);
  await expect(headerStat(page, 'readback')).toHaveText(mode);
  // The header's frame counter, not snapshot(): a full-mode snapshot
  // converts every slot, and polling it would slow the page it measures.
  await expect.poll(async () => num(await headerStat(page, 'frame').textContent()), { timeout: 90_000 }).toBeGreaterThan(2);
  await page.waitForTimeout(WARMUP_MS);
  // Two snapshots bracket the window (a snapshot holds the page's lock
  // and converts the telemetry to JS: none is taken inside the window).
  const a = await snapshot(page);
  const ta = await page.evaluate(() => performance.now());
  await page.waitForTimeout(WINDOW_MS);
  const tb = await page.evaluate(() => performance.now());
  const b = await snapshot(page);
  const frames = b.report.dispatchCount - a.report.dispatchCount;
  const bytes = b.report.bytesReadBack - a.report.bytesReadBack;
  // After the window: the smallest last-frame bytes of a few frames is a
  // frame that read no ring (in full mode every frame is alike, and a
  // snapshot converts all 65,536 slots: slow).
  let minLast = Math.min(a.lastBytesReadBack, b.lastBytesReadBack);
  for (let i = 0; mode === 'summary' && i < 4; i++) {
    await page.waitForTimeout(150);
    minLast = Math.min(minLast, (await snapshot(page)).lastBytesReadBack);
  }
  return {
    mode,
    frames,
    fps: (frames * 1000) / (tb - ta),
    bytesPerFrameAvg: frames > 0 ? bytes / frames : null,
    bytesSummaryFrame: minLast,
    ringReads: b.ringReads - a.ringReads,
    done: b.telemetry.control.doneCount - a.telemetry.control.doneCount,
  };
}

test('summary vs full readback: fps and bytes per frame at 65,536 slots', { tag: '@bench' }, async ({ browser }) => {
  test.setTimeout(540_000);
  const rows = [];
  const fmt = (r) =>
    `${r.mode.padEnd(7)} round ${r.round}: ${r.fps.toFixed(1)} fps, ${Math.round(r.bytesPerFrameAvg)} B/frame average ` +
    `(${r.ringReads} ring reads in ${r.frames} frames), ${r.bytesSummaryFrame} B smallest frame, ` +
    `${r.done} items done`;
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of ['summary', 'full']) {
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      rows.push({ round, ...(await measure(page, mode)) });
      console.log(fmt(rows.at(-1)));
      await ctx.close();
    }
  }
  const out = process.env.RINGSCOPE_BENCH_OUT || path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test-results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'summary-bench.json'), JSON.stringify({ slots: SLOTS, windowMs: WINDOW_MS, rows }, null, 2));
  for (const r of rows) expect(r.frames, `${r.mode} measured frames`).toBeGreaterThan(0);
});
