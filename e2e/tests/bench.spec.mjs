// An e2e benchmark of the live page (issue 4's acceptance): the default
// workload on a 65,536-slot ring, in headless Chromium on SwiftShader. It
// reports numbers (console and e2e/test-results/bench.json) and asserts
// nothing on wall-clock time; it only checks that it measured something.
//
//   cd e2e && npx playwright test --grep @bench --workers=1
//
// Run alone (as above) for numbers not shared with a parallel test worker.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect, headerStat, gotoReady, num } from './fixtures.mjs';

const SLOTS = 65_536;
const WARMUP_MS = 2_000;
const WINDOW_MS = 5_000;

test('live page: frames per second and time to the first telemetry frame', { tag: '@bench' }, async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  // From the first byte of the document: when the dashboard first shows a
  // decoded frame (done count no longer the dash), when the status turns
  // ready, every change of the header's frame counter (a rendered frame),
  // and display frames (requestAnimationFrame: is the page responsive?).
  // performance.now() counts from navigation start, at 5 µs resolution on
  // this cross-origin isolated page.
  await page.addInitScript(() => {
    const b = (window.__bench = { firstFrameMs: null, readyMs: null, frameText: null, renders: [], rafs: 0 });
    const frameEl = () => {
      for (const s of document.querySelectorAll('.hstat')) {
        if (s.querySelector('.hstat-label')?.textContent.trim().toLowerCase() === 'frame') return s.lastElementChild;
      }
      return null;
    };
    new MutationObserver(() => {
      const now = performance.now();
      if (b.readyMs === null && document.querySelector('[data-testid="status"]')?.textContent === 'ready') b.readyMs = now;
      const done = document.querySelector('[data-testid="done-count"]')?.textContent;
      if (b.firstFrameMs === null && done && done !== '–') b.firstFrameMs = now;
      const f = frameEl()?.textContent;
      if (f && f !== b.frameText) {
        b.frameText = f;
        b.renders.push([now, Number(f.replace(/,/g, ''))]);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    const raf = () => {
      b.rafs++;
      requestAnimationFrame(raf);
    };
    requestAnimationFrame(raf);
  });

  await gotoReady(page, `?slots=${SLOTS}`);
  await expect(page.getByTestId('occupancy-total')).toHaveText(SLOTS.toLocaleString('en-US'));
  await expect.poll(() => page.evaluate(() => window.__bench.firstFrameMs), { timeout: 30_000 }).not.toBeNull();
  await page.waitForTimeout(WARMUP_MS);

  const sample = () =>
    page.evaluate(() => ({ t: performance.now(), renders: window.__bench.renders.length, rafs: window.__bench.rafs }));
  const frameNow = async () => num(await headerStat(page, 'frame').textContent());
  const a = await sample();
  const fa = await frameNow();
  await page.waitForTimeout(WINDOW_MS);
  const b = await sample();
  const fb = await frameNow();
  const bench = await page.evaluate(() => window.__bench);
  const nav = await page.evaluate(() => {
    const n = performance.getEntriesByType('navigation')[0];
    const wasm = performance.getEntriesByType('resource').find((r) => r.name.endsWith('/main.wasm'));
    return {
      domContentLoadedMs: n?.domContentLoadedEventEnd ?? null,
      wasmFetchedMs: wasm?.responseEnd ?? null,
      wasmTransferBytes: wasm?.transferSize ?? null,
      wasmDecodedBytes: wasm?.decodedBodySize ?? null,
    };
  });
  const seconds = (b.t - a.t) / 1000;
  const result = {
    url: `/?slots=${SLOTS}`,
    preset: await headerStat(page, 'preset').textContent(),
    slots: SLOTS,
    windowSeconds: +seconds.toFixed(3),
    // Frames decoded by the page (the header's FRAME: one publish + one
    // submission + readback + decode each).
    framesPerSecond: +((fb - fa) / seconds).toFixed(2),
    // Changes of the shown frame counter: frames that reached the screen.
    renderedPerSecond: +((b.renders - a.renders) / seconds).toFixed(2),
    // requestAnimationFrame callbacks: how often the browser could paint.
    animationFramesPerSecond: +((b.rafs - a.rafs) / seconds).toFixed(2),
    rateShown: await headerStat(page, 'rate').textContent(),
    roundTripShown: await headerStat(page, 'round trip').textContent(),
    navigationToFirstFrameMs: +bench.firstFrameMs.toFixed(1),
    navigationToReadyMs: bench.readyMs === null ? null : +bench.readyMs.toFixed(1),
    ...nav,
    parallelWorkers: testInfo.config.workers,
    at: new Date().toISOString(),
  };
  console.log(`ringscope bench: ${JSON.stringify(result)}`);
  // e2e/test-results/bench.json, wherever --output points the artifacts.
  const out = fileURLToPath(new URL('../test-results/bench.json', import.meta.url));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  await testInfo.attach('bench.json', { path: out, contentType: 'application/json' });

  // It measured something; how fast is reported above, not judged.
  expect(fb).toBeGreaterThan(fa);
  expect(result.navigationToFirstFrameMs).toBeGreaterThan(0);
});
