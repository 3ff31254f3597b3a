// Defects a new user hit (issue 34 item 5), each checked where the user
// meets it: the API, the page's header and panels.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test, expect, gotoReady, headerStat } from './fixtures.mjs';

test.describe.configure({ timeout: 120_000 });

// The device gets the adapter's maxStorageBuffersPerShaderStage: on
// SwiftShader (10) six user buffers open beside the drain's four, and a
// seventh is refused naming the device's real limit.
test('user buffers get what the adapter allows, and the refusal names it', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  const out = await page.evaluate(async () => {
    await ringscope.ready;
    const adapter = await navigator.gpu.requestAdapter();
    const most = adapter.limits.maxStorageBuffersPerShaderStage;
    const yours = most - 4;
    const names = Array.from({ length: yours }, (_, i) => `b${i}`);
    const wgsl = `fn fill(slot: u32, args: Args) -> Outcome {
${names.map((n, i) => `    ${n}[0] = args[0] + ${i}u;`).join('\n')}
    return done();
}`;
    const buffers = names.map((name) => ({ name, access: 'read_write', size: 4 }));
    const opened = await ringscope.open({ slots: 64, opcodes: [{ opcode: 0x10, name: 'fill', wgsl }], buffers })
      .then(() => 'opened', (e) => e.message);
    let last = null;
    if (opened === 'opened') {
      await ringscope.publish([{ opcode: 0x10, args: [100] }]);
      await ringscope.drain();
      last = new Uint32Array((await ringscope.readBuffer(names[yours - 1])).slice().buffer)[0];
    }
    const tooMany = await ringscope.open({ slots: 64, opcodes: [{ opcode: 0x10, name: 'fill', wgsl }],
      buffers: [...buffers, { name: 'extra', access: 'read_write', size: 4 }] }).then(() => 'opened', (e) => e.message);
    return { most, yours, opened, last, tooMany };
  });
  expect(out.most, "SwiftShader's adapter allows more than the default 8").toBeGreaterThan(8);
  expect(out.opened).toBe('opened');
  expect(out.last).toBe(100 + out.yours - 1);
  expect(out.tooMany).toBe(`open: kernel: buffers: ${out.yours + 1} buffers: the drain binds 4 storage buffers itself and the device allows ${out.most} per shader stage (maxStorageBuffersPerShaderStage, the adapter's own limit), so at most ${out.yours} are yours`);
});

// snapshot()'s and drain()'s per-opcode metrics name a user opcode, as the
// metrics export labels it.
test("the per-opcode metrics carry a user opcode's name", async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  const out = await page.evaluate(async () => {
    await ringscope.ready;
    await ringscope.open({ slots: 64, opcodes: [{ opcode: 0x10, name: 'tally', wgsl: `fn tally(slot: u32, args: Args) -> Outcome {
    observable_add(0u, 1u);
    return done();
}` }] });
    await ringscope.publish([{ opcode: 0x10 }, { opcode: 0x10 }, { opcode: 0 }]);
    const drained = (await ringscope.drain()).telemetry.control.metrics;
    const snap = (await ringscope.snapshot()).telemetry.control.metrics;
    return { drained, snap, metrics: await ringscope.exportMetrics() };
  });
  const want = [{ opcode: 0, count: 1 }, { opcode: 16, count: 2, name: 'tally' }];
  expect(out.snap).toEqual(want);
  expect(out.drained).toEqual(want);
  expect(out.metrics).toContain('ringscope_opcode_executions_total{opcode="16",name="tally"} 2');
});

// docs/EMBEDDING.md's log example, run as it is written: the records it
// shows are the ones drain() gives.
test("EMBEDDING.md's log example shows what the code gives", async ({ page }) => {
  const doc = readFileSync(fileURLToPath(new URL('../../docs/EMBEDDING.md', import.meta.url)), 'utf8');
  const section = doc.slice(doc.indexOf('### `publish(items, {allowUnknownOpcodes})` and the log'));
  const start = section.indexOf('```js\n') + 6;
  const block = section.slice(start, section.indexOf('\n```', start));
  const [code, shown] = block.split('\nlog.records;\n');
  expect(shown, 'the example ends with log.records and what it holds').toBeDefined();
  // The comment is a JS literal: evaluated here, in the test, not the page.
  const want = new Function(`return ${shown.replace(/^\/\/ ?/gm, '')};`)();
  await gotoReady(page, '?autostart=0');
  const got = await page.evaluate(`(async () => { await ringscope.ready;\n${code}\nreturn log.records; })()`);
  expect(got).toEqual(want);
});

// The Kernel panel: renaming an opcode renames its fn; the user buffers'
// words can be read in a format; after Publish & drain the frame cost is
// the drain's, not 0 ms.
test('kernel panel: rename, buffer contents, the drain\'s frame cost', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  await page.getByTestId('kernel-toggle').click();
  await expect(page.getByTestId('kernel-apply')).toBeVisible({ timeout: 30_000 });
  const name = page.getByTestId('kernel-opcode-name');
  await name.fill('sq');
  await name.press('Tab');
  await expect(page.locator('[data-testid="kernel-editor"] .cm-content')).toContainText('fn sq(slot: u32, args: Args) -> Outcome');
  await page.getByTestId('kernel-apply').click();
  await expect(page.getByTestId('kernel-status')).toHaveText(/^applied: generation \d+, sq \(0x10\)$/);

  await page.getByTestId('kernel-publish').click();
  await expect(page.getByTestId('kernel-status')).toHaveText('published 16 items; drained: DONE_COUNT 16, FAULTS 0');
  const cost = (label) => page.locator('.kv-row', { has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd').first();
  for (const label of ['dispatch', 'readback', 'round trip']) {
    await expect(cost(label), `frame cost ${label}`).not.toHaveText(/^(0 ms|–)$/);
  }

  await expect(page.getByTestId('kernel-view-buffer')).toHaveValue('out');
  await page.getByTestId('kernel-view-read').click();
  const words = page.getByTestId('kernel-view-words');
  await expect(words.locator('tr').first()).toHaveText('00149162536' + '49');
  await expect(page.getByTestId('kernel-view-note')).toHaveText('16 words');
  await page.getByTestId('kernel-view-format').selectOption('hex');
  await expect(words.locator('tr').nth(1).locator('td').last()).toHaveText('0x000000e1'); // 15 * 15
  await page.getByTestId('kernel-view-format').selectOption('f32');
  await expect(words.locator('tr').first().locator('td').nth(1)).toHaveText('1.401298464324817e-45');
});

// boxes gives the viewport boxes of the elements sel matches.
function boxes(page, sel) {
  return page.evaluate((s) => [...document.querySelectorAll(s)].filter((e) => e.getClientRects().length > 0)
    .map((e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height, text: e.textContent.trim().slice(0, 40) }; }), sel);
}

const overlap = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

// The page's layout: the Kernel button covers no value, at the top or
// scrolled to the bottom; the round-trip histogram's axis labels do not
// overlap one another.
test('the Kernel button covers no value; the histogram axis labels do not overlap', async ({ page }) => {
  await gotoReady(page);
  await expect.poll(async () => (await boxes(page, '.panel-dispatch .plot-axis span')).length, { timeout: 30_000 }).toBeGreaterThan(2);
  for (const scroll of ['top', 'bottom']) {
    await page.evaluate((s) => window.scrollTo(0, s === 'top' ? 0 : document.body.scrollHeight), scroll);
    const [button] = await boxes(page, '[data-testid="kernel-toggle"]');
    const [header] = await boxes(page, '.rs-header');
    // A panel scrolled under the sticky header is hidden by it, not by the button.
    const values = [...await boxes(page, '.hstat span'), ...(await boxes(page, '.panel dd, .panel td, .panel th, .panel-title, .panel .num, .plot-axis span, .capture-bar *'))
      .filter((v) => v.y >= header.y + header.h)];
    const covered = values.filter((v) => overlap(button, v));
    expect(covered, `values under the Kernel button, scrolled to the ${scroll}`).toEqual([]);
  }
  const ticks = await boxes(page, '.panel-dispatch .plot-axis span');
  for (let i = 1; i < ticks.length; i++) {
    expect(ticks[i].x, `tick "${ticks[i].text}" starts after "${ticks[i - 1].text}" ends`).toBeGreaterThanOrEqual(ticks[i - 1].x + ticks[i - 1].w + 8);
  }
});

// While attached the header says what it watches, not the preset of the
// page's own ring; detached, the preset again.
test('the header shows what is attached', async ({ page }) => {
  await page.goto('/attach-host.html?slots=256');
  await expect(page.getByTestId('host-state')).toHaveAttribute('data-ready', '1', { timeout: 30_000 });
  await expect(headerStat(page, 'attached')).toHaveText('host\'s ring "host ring" (256 slots), full readback', { timeout: 60_000 });
  await expect(page.locator('.hstat-label', { hasText: /^preset$/i })).toHaveCount(0);
  await page.evaluate(() => ringscope.detach());
  await expect(headerStat(page, 'preset')).toBeVisible();
  await expect(page.locator('.hstat-label', { hasText: /^attached$/i })).toHaveCount(0);
});

// "budget" and "epoch" each mean one thing on the page: every use says
// which, the lane (claim) budget, the device-memory budget or the main
// thread's; the GPU's EPOCH (BATCH_FENCEs) or the host's epoch.
test('every budget and epoch on the page says which', async ({ page }) => {
  await gotoReady(page);
  await expect.poll(async () => (await boxes(page, '.panel-log tbody tr.log-fault, .panel-log tbody tr')).length, { timeout: 30_000 }).toBeGreaterThan(0);
  const vague = await page.evaluate(() => {
    const said = new Set();
    for (const e of document.querySelectorAll('body *')) {
      // A log message is the API's record text, "OPCODE at epoch N:"
      // (docs/EMBEDDING.md), kept as it is; its row's title says which.
      if (e.closest('[data-testid="kernel-panel"]') || e.closest('.log-msg')) continue;
      for (const s of [e.getAttribute('title') ?? '', e.childElementCount === 0 ? e.textContent : '']) if (s) said.add(s.trim());
    }
    const out = [];
    for (const s of said) {
      for (const m of s.matchAll(/\bbudget\b/gi)) {
        const before = s.slice(Math.max(0, m.index - 16), m.index).toLowerCase();
        // An identifier (params.budget) names itself.
        if (!/((lane|claim|device-memory|main-thread) |\.)$/.test(before)) out.push(`budget: ${s}`);
      }
      for (const m of s.matchAll(/\bepoch\b/gi)) {
        const before = s.slice(Math.max(0, m.index - 8), m.index).toLowerCase();
        if (m[0] !== 'EPOCH' && !/((fence|host) |\.)$/.test(before)) out.push(`epoch: ${s}`);
      }
    }
    return out;
  });
  expect(vague).toEqual([]);
});
