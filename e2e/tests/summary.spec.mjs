// Summary readback (?readback=summary): the page reads control, log, the
// GPU summary and the 4-bit status map each frame, and the full ring only
// on demand (wasm/controller/readback_js.go). These tests check that the panels agree
// with each other in that mode, that the slot inspector shows a slot from
// the page's copy of the ring with no ring read, and that a summary page
// reads back fewer bytes per frame than a full one (bytes, never time).
import { test, expect, headerStat, gotoReady, readNum, num } from './fixtures.mjs';

const SLOTS = 16_384;

// panelNumbers reads, in one evaluation (one rendered frame), the
// occupancy rows, the total and the active counts per priority.
function panelNumbers(page) {
  return page.evaluate(() => {
    const n = (el) => Number((el?.textContent ?? '').trim().replace(/,/g, ''));
    const occ = {};
    for (const el of document.querySelectorAll('[data-testid^="occupancy-"]')) {
      occ[el.dataset.testid.slice('occupancy-'.length)] = n(el);
    }
    let activeByPriority = 0;
    for (const el of document.querySelectorAll('[data-testid^="active-priority-"]')) activeByPriority += n(el);
    return { occ, activeByPriority };
  });
}

const snapshot = (page) => page.evaluate(() => window.ringscope.snapshot());

test('summary readback: header, settings, consistent panels, inspector without a ring read', async ({ page }) => {
  test.setTimeout(90_000);
  await gotoReady(page, `?readback=summary&slots=${SLOTS}`);
  await expect(headerStat(page, 'readback')).toHaveText('summary');
  await expect(headerStat(page, 'readback').locator('..')).toHaveAttribute('title', /readback=summary/);
  await expect(page.getByTestId('setting-readback')).toHaveValue('summary');
  await expect(page.getByTestId('occupancy-total')).toHaveText(SLOTS.toLocaleString('en-US'));
  await expect(page.locator('.panel-slotmap .panel-sub')).toContainText('16,384 slots');

  // Every status row sums to the total, and the active counts per
  // priority to the active statuses, in the same frame.
  const { occ, activeByPriority } = await panelNumbers(page);
  const { total, ...rows } = occ;
  expect(total).toBe(SLOTS);
  expect(Object.values(rows).reduce((a, b) => a + b, 0)).toBe(SLOTS);
  const active = rows.published + rows.claimed + rows['wait-io'] + rows.yield + rows.requeue;
  expect(activeByPriority).toBe(active);

  // The work progresses.
  const done0 = await readNum(headerStat(page, 'done'));
  await expect.poll(async () => readNum(headerStat(page, 'done')), { timeout: 20_000 }).toBeGreaterThan(done0);

  // The dispatch panel's run times add up the live frames (they read 0
  // ms when the live loop's report took only the counters).
  const kv = (label) => page.locator('.kv-row').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd');
  await expect(kv('run wall time')).not.toHaveText(/^(0 ms|–)$/);
  const timestamps = await page.evaluate(async () => (await navigator.gpu.requestAdapter()).features.has('timestamp-query'));
  if (timestamps) {
    await expect(kv('GPU time')).not.toHaveText(/^(0 ms|–)$/);
    await expect(kv('run GPU time')).not.toHaveText(/^(0 ms|–)$/);
  }

  const snap = await snapshot(page);
  expect(snap.readback).toBe('summary');
  expect(snap.telemetry.occupancy.empty + snap.telemetry.occupancy.done).toBeLessThanOrEqual(SLOTS);

  // Hover: what the status map knows. Click: the next frames bring the
  // slot from the page's copy of the ring (it follows the status map), so
  // the inspector shows the slot's words with no ring read.
  const canvas = page.locator('.slotmap-host canvas');
  const box = await canvas.boundingBox();
  await canvas.hover({ position: { x: 3, y: 3 } });
  await expect(page.locator('.slot-tip')).toContainText(/slot [\d,]+ · \w+/);
  const readsBefore = (await snapshot(page)).ringReads;
  await canvas.click({ position: { x: box.width / 2, y: box.height / 2 } });
  const inspector = page.getByTestId('slot-inspector');
  await expect(inspector).toBeVisible();
  await expect(inspector).toContainText(/opcode/, { timeout: 20_000 });
  await expect(inspector).toContainText(/tenant/);
  await expect(inspector).toContainText(/partition/);
  const slot = num((await inspector.locator('.inspector-title').textContent()).replace('slot ', ''));
  expect(slot).toBeGreaterThan(0);
  expect(slot).toBeLessThan(SLOTS);
  // The index row is the clicked slot's.
  await expect(inspector.locator('.kv-row').filter({ has: page.locator('dt', { hasText: /^index$/ }) })).toContainText(slot.toLocaleString('en-US'));
  await expect(page.getByTestId('slot-inspector-note')).toContainText(/page's copy of the ring/);
  await expect(page.getByTestId('slot-refresh')).toHaveCount(0);
  expect((await snapshot(page)).ringReads).toBe(readsBefore);
});

test('summary readback reads back fewer bytes per frame than full readback', async ({ page, context }) => {
  test.setTimeout(180_000);
  // The header's frame counter gates the measurement, not snapshot(): a
  // full-mode snapshot converts every slot to JS, and polling it starves
  // the page on a loaded machine.
  const measure = async (p, mode) => {
    await gotoReady(p, `?readback=${mode}&slots=${SLOTS}`);
    await expect(headerStat(p, 'readback')).toHaveText(mode);
    await expect.poll(async () => num(await headerStat(p, 'frame').textContent()), { timeout: 60_000 }).toBeGreaterThan(12);
    // The smallest last-frame bytes over a few samples: a summary frame
    // that read no ring (full frames are all alike: one sample).
    let minLast = Infinity;
    for (let i = 0; i < (mode === 'summary' ? 8 : 1); i++) {
      minLast = Math.min(minLast, (await snapshot(p)).lastBytesReadBack);
      await p.waitForTimeout(100);
    }
    const s = await snapshot(p);
    return { minLast, perFrame: s.report.bytesReadBack / s.report.dispatchCount, ringReads: s.ringReads, frames: s.report.dispatchCount };
  };
  const summary = await measure(page, 'summary');
  const fullPage = await context.newPage();
  const full = await measure(fullPage, 'full');
  console.log(`bytes read back per frame at ${SLOTS} slots: summary ${summary.minLast} (average with ring reads ${Math.round(summary.perFrame)}, ${summary.ringReads} ring reads in ${summary.frames} frames), full ${full.minLast} (average ${Math.round(full.perFrame)})`);
  expect(summary.minLast).toBeGreaterThan(0);
  expect(summary.minLast).toBeLessThan(full.minLast / 8); // 16,384 slots: ~22 KB vs ~1 MB
  expect(summary.perFrame).toBeLessThan(full.perFrame);
  expect(summary.ringReads).toBeLessThan(summary.frames);
  expect(full.ringReads).toBe(full.frames);
});
