// The verdict of every preset (docs/DIAGNOSIS.md, "What the presets show"):
// the health and first cause a person reading the preset's definition
// would name, in the header, the watchdog panel and the API; and no false
// alarm from nop-flood over a minute, sampled every frame (default-mix:
// five minutes in recorder-history.spec).
import { readFile } from 'node:fs/promises';
import { test, expect, gotoReady, headerStat } from './fixtures.mjs';

// watch collects every live frame's health and causes (subscribe).
async function watch(page) {
  await page.evaluate(() => {
    window.__verdicts = [];
    window.__unwatch = ringscope.subscribe((f) => window.__verdicts.push({ seq: f.seq, health: f.health, causes: f.causes || [] }));
  });
}

const seen = (page) => page.evaluate(() => window.__verdicts);

// verdict is snapshot()'s diagnosis.
const verdict = (page) => page.evaluate(async () => (await ringscope.snapshot()).diagnosis);

// settle waits until the live verdict's first cause is kind.
async function firstCause(page, kind, timeout = 45_000) {
  await expect
    .poll(async () => (await seen(page)).at(-1)?.causes?.[0], { timeout, message: `first cause ${kind}` })
    .toBe(kind);
}

test('stall: stalled, masked-tenant naming tenant 0 and its queued slots; the hang hunter keeps it', async ({ page }) => {
  // trace=4096: the live ring traces, so the hang hunter has a window.
  await gotoReady(page, '?preset=stall&trace=4096');
  await watch(page);
  await firstCause(page, 'masked-tenant');
  await expect.poll(async () => (await seen(page)).at(-1).health).toBe('stalled');
  // The preset publishes 64 items a frame until its partitions fill.
  await expect
    .poll(async () => (await verdict(page)).causes[0]?.evidence?.slots, { timeout: 30_000, message: 'the queue fills' })
    .toBeGreaterThan(1500);
  const d = await verdict(page);
  expect(d.health).toBe('stalled');
  const c = d.causes[0];
  expect(c.kind).toBe('masked-tenant');
  expect(c.subject).toEqual({ tenant: 0 });
  expect(c.evidence.slots, 'the masked tenant holds the queue').toBeGreaterThan(1500);
  expect(c.evidence.share).toBeGreaterThan(0.95);
  expect(c.fix).toContain('setTenantMask(0, true)');
  expect(d.causes.filter((x) => x.kind === 'masked-tenant'), 'only tenants the ring runs').toHaveLength(1);
  await expect(headerStat(page, 'health')).toHaveText('STALLED');
  await expect(headerStat(page, 'cause')).toHaveText('masked-tenant · tenant 0');
  // The same stats by test id, for an embedder's own tests.
  await expect(page.getByTestId('header-health')).toHaveText('STALLED');
  await expect(page.getByTestId('header-cause')).toHaveText('masked-tenant · tenant 0');
  await expect(page.getByTestId('stall-alert')).toContainText('Cause: masked-tenant · tenant 0');
  await expect(page.getByTestId('cause').first()).toHaveAttribute('data-kind', 'masked-tenant');
  const metrics = await page.evaluate(() => ringscope.exportMetrics());
  expect(metrics).toContain('ringscope_health{ringscope_health="stalled"} 1');
  expect(metrics).toContain('ringscope_cause{kind="masked-tenant"} 1');

  // The hang hunter (docs/TRACE.md §7) kept the trace window and the slots
  // when the verdict turned stalled: a row per workgroup of the window
  // names its last claimed task, a YIELD of the masked tenant.
  const hunter = page.getByTestId('hang-hunter');
  await expect(page.getByTestId('hang-title')).toContainText(/^stalled at frame \d+/);
  const kept = await page.getByTestId('timeline-lane').evaluateAll((els) => els.map((e) => `${e.dataset.workgroup}:${e.dataset.tasks}`));
  expect(kept.length).toBeGreaterThan(0);
  const rows = hunter.getByTestId('hang-row');
  expect(await rows.evaluateAll((els) => els.map((e) => e.dataset.workgroup))).toEqual(kept.map((k) => k.split(':')[0]));
  await expect(rows.first()).toContainText('YIELD');
  const title = await page.getByTestId('hang-title').textContent();

  // One click exports it as a capture; importing the file replays it: the
  // timeline of the kept window and the same report, with no export.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('hang-export').click()]);
  expect(download.suggestedFilename()).toMatch(/^ringscope-hang-\d{8}-\d{6}\.rscap$/);
  const b64 = (await readFile(await download.path())).toString('base64');
  const info = await page.evaluate((s) => ringscope.importCapture(Uint8Array.from(atob(s), (c) => c.charCodeAt(0))), b64);
  expect(info.replaying).toBe(true);
  await expect(page.getByTestId('hang-export')).toHaveCount(0);
  await expect(page.getByTestId('hang-title')).toHaveText(title);
  // The replay shows the verdict the file keeps, the hang's, in the header
  // and the watchdog panel: not none, nor the watchdog's own word.
  await expect(headerStat(page, 'replay')).toHaveText('import');
  await expect(headerStat(page, 'health')).toHaveText('STALLED');
  await expect(headerStat(page, 'cause')).toContainText('masked-tenant');
  await expect(page.getByTestId('diagnosis-causes').getByTestId('cause').first()).toHaveAttribute('data-kind', 'masked-tenant');
  expect(await page.getByTestId('timeline-lane').evaluateAll((els) => els.map((e) => `${e.dataset.workgroup}:${e.dataset.tasks}`))).toEqual(kept);

  // Back to live, the live ring's hang is on the panel again, export and all.
  await page.evaluate(() => ringscope.live());
  await expect(headerStat(page, 'preset')).toHaveText('stall');
  await expect(page.getByTestId('hang-export')).toHaveCount(1);
  await expect(page.getByTestId('hang-title')).toHaveText(title);
  // A capture without a trace window (another page's, untraced) replays with
  // no timeline: the panel draws no window the replay is not of. Live again,
  // the hang comes back.
  const other = await page.context().newPage();
  await gotoReady(other, '?preset=default-mix&slots=1024');
  await expect.poll(() => other.evaluate(async () => (await ringscope.captureInfo()).frames)).toBeGreaterThan(2);
  // Base64, not an array of numbers: a few seconds less through the protocol.
  const plain = await other.evaluate(async () => {
    const b = await ringscope.exportCapture();
    let s = '';
    for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
    return btoa(s);
  });
  await other.close();
  const plainInfo = await page.evaluate((s) => ringscope.importCapture(Uint8Array.from(atob(s), (c) => c.charCodeAt(0))), plain);
  expect(plainInfo.replaying).toBe(true);
  await expect(page.getByTestId('timeline-lane')).toHaveCount(0);
  await expect(page.getByTestId('hang-title')).toHaveCount(0);
  await page.evaluate(() => ringscope.live());
  await expect(page.getByTestId('hang-title')).toHaveText(title);
  expect(await page.getByTestId('timeline-lane').evaluateAll((els) => els.map((e) => `${e.dataset.workgroup}:${e.dataset.tasks}`))).toEqual(kept);
});

test('fault-storm: degraded, fault-storm with the fault share', async ({ page }) => {
  await gotoReady(page, '?preset=fault-storm');
  await watch(page);
  await firstCause(page, 'fault-storm');
  const d = await verdict(page);
  expect(d.health).toBe('degraded');
  const c = d.causes[0];
  expect(c.kind).toBe('fault-storm');
  expect(c.evidence.share, 'the preset faults 40% of its items').toBeGreaterThan(0.25);
  expect(c.evidence.share).toBeLessThan(0.55);
  // The preset fills the generation's log within its first frames: the
  // code is named while the window holds new fault records, and after that
  // the fix says the faults left none (it named the first ones for ever).
  if (c.evidence.topFault === undefined) expect(c.fix).toContain('the log is full, so these faults left no record');
  else expect(c.evidence.topFault).toMatch(/^[A-Z_]+$/);
  await expect(headerStat(page, 'health')).toHaveText('degraded');
  await expect(headerStat(page, 'cause')).toContainText('fault-storm');
  const trace = JSON.parse(await page.evaluate(() => ringscope.exportTrace()));
  const marks = trace.traceEvents.filter((e) => e.cat === 'diagnosis');
  expect(marks.some((e) => e.name === 'health degraded' && e.args.cause === 'fault-storm'), 'a mark at the change').toBe(true);
});

// The backlog presets on a ring smaller than their own: the budget shrinks
// with the backlog (a 2,048-slot ring's is 256 items: budget 2, not 16), so
// the verdict is the one they describe, not "progressing".
test('skewed-tenants: a cold tenant starves, the hot tenant named', async ({ page }) => {
  await gotoReady(page, '?preset=skewed-tenants&slots=2048');
  await expect(page.getByTestId('setting-budget')).toHaveValue('2');
  await watch(page);
  await firstCause(page, 'starvation', 60_000);
  const c = (await verdict(page)).causes.find((x) => x.kind === 'starvation');
  expect(c.subject.tenant).toBeGreaterThan(0);
  expect(c.evidence.hotTenant).toBe(0);
  expect(c.evidence.ageMs).toBeGreaterThanOrEqual(1000);
  await expect(headerStat(page, 'cause')).toContainText('starvation');
});

test('priority-inversion: the inversion shown', async ({ page }) => {
  await gotoReady(page, '?preset=priority-inversion&slots=2048');
  await expect(page.getByTestId('setting-budget')).toHaveValue('2');
  await watch(page);
  await firstCause(page, 'priority-inversion', 60_000);
  const c = (await verdict(page)).causes[0];
  expect(c.kind).toBe('priority-inversion');
  expect(c.subject.priority).toBeLessThan(c.evidence.lowerPriority);
  await expect(headerStat(page, 'cause')).toContainText('priority-inversion');
});

// default-mix's run is the recorder's five minutes (recorder-history.spec,
// @long), which checks every frame's verdict the same way.
for (const preset of ['nop-flood']) {
  test(`${preset}: 60 s with no cause, sampled every frame`, async ({ page }) => {
    test.setTimeout(120_000);
    await gotoReady(page, `?preset=${preset}`);
    await watch(page);
    await page.waitForTimeout(60_000);
    const frames = await seen(page);
    expect(frames.length, 'frames sampled').toBeGreaterThan(30);
    const alarms = frames.filter((f) => f.causes.length > 0 || !['progressing', 'idle'].includes(f.health));
    expect(alarms.slice(0, 5), `${alarms.length} of ${frames.length} frames raised a cause`).toEqual([]);
    expect(frames.at(-1).health).toBe('progressing');
    await expect(headerStat(page, 'cause')).toHaveText('none');
  });
}
