// Task tracing through the JS API (docs/TRACE.md): a ring opened with
// trace gives drain() a record per claimed slot, snapshot({trace: true})
// the window, and exportTrace() a timeline that Chrome DevTools' own
// trace parser (SDK.TracingModel, e2e/node/devtools-trace.cjs) reads as a
// process per workgroup, a thread per lane and a task slice per record:
// as many finished tasks as DONE_COUNT.
import { createRequire } from 'node:module';
import { test, expect, gotoReady } from './fixtures.mjs';

const require = createRequire(import.meta.url);
const { load } = require('../node/devtools-trace.cjs');

test.describe.configure({ timeout: 120_000 });

// A known workload: NOPs and SPINs on tenant 0, atomic adds, faults.
function workload() {
  const items = [];
  for (let i = 0; i < 600; i++) items.push({ opcode: 0, tenant: 0, priority: i % 5, args: [] });
  for (let i = 0; i < 200; i++) items.push({ opcode: 0x101, tenant: 0, priority: 2, args: [16, 0, i] });
  for (let i = 0; i < 100; i++) items.push({ opcode: 2, tenant: 0, priority: 1, args: [1, 161] });
  for (let i = 0; i < 50; i++) items.push({ opcode: 3, tenant: 0, priority: 3, args: [1 << 20, 0] }); // OUT_OF_BOUNDS
  return items;
}

test('a traced drain has a record per finished slot, and DevTools reads its export', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  const res = await page.evaluate(async (items) => {
    await ringscope.open({ slots: 2048, tenants: 1, budget: 16, observable: 8, trace: { capacity: 4096 } });
    await ringscope.publish(items);
    const d = await ringscope.drain({ maxSubmissions: 32 });
    const snap = await ringscope.snapshot({ trace: true });
    const plain = await ringscope.snapshot();
    return { d, snapTrace: snap.trace, plainTrace: plain.trace, done: d.telemetry.control.doneCount, trace: await ringscope.exportTrace() };
  }, workload());
  const t = res.d.trace;
  expect(res.done).toBe(950);
  expect(t.overflow).toBe(0);
  expect(t.capacity).toBe(4096);
  expect(['ns', 'logical']).toContain(t.axis);
  const finished = t.records.filter((r) => r.status === 'DONE' || r.status === 'FAULT');
  expect(finished.length).toBe(res.done);
  expect(new Set(finished.map((r) => r.slot)).size).toBe(res.done);
  expect(finished.filter((r) => r.status === 'FAULT').every((r) => r.fault === 'OUT_OF_BOUNDS' && r.name === 'LOAD_U32')).toBe(true);
  for (const r of t.records) {
    expect(r.startTicket).toBeLessThan(r.endTicket);
    expect(r.start).toBeLessThanOrEqual(r.end);
    expect(r.parent).toBe(-1);
  }
  expect(res.snapTrace.records.length).toBe(t.records.length);
  expect(res.plainTrace).toBeNull();

  // DevTools' parser: a process per workgroup that ran a task, a thread
  // per lane, a slice per task named by opcode; finished ones = DONE_COUNT.
  const procs = load(res.trace);
  const workgroups = new Set(t.records.map((r) => r.workgroup));
  const wgProcs = procs.filter((p) => /^workgroup \d+$/.test(p.name));
  expect(wgProcs.length).toBe(workgroups.size);
  const slices = wgProcs.flatMap((p) => p.threads.flatMap((th) => th.events.filter((e) => e.cat === 'task' && e.ph === 'X')));
  expect(slices.length).toBe(t.records.length);
  expect(slices.filter((e) => e.args.status === 'DONE' || e.args.status === 'FAULT').length).toBe(res.done);
  expect(new Set(slices.map((e) => e.name))).toEqual(new Set(['NOP', 'SPIN', 'ATOMIC_ADD', 'LOAD_U32']));
  const other = JSON.parse(res.trace).otherData;
  expect(other.taskRecords).toBe(t.records.length);
  expect(other.taskAxis).toBe(t.axis);
});

test('open refuses a bad trace option by name', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  const errs = await page.evaluate(async () => {
    const out = [];
    for (const trace of [{ capacity: 0 }, { capacity: 1 << 23 }, { cap: 4 }, 7, { capacity: -1 }, { capacity: 1.5 }, { capacity: NaN }, { capacity: 2 ** 40 }]) {
      try { await ringscope.open({ slots: 64, trace }); out.push('ok'); } catch (e) { out.push(e.message); }
    }
    return out;
  });
  expect(errs[0]).toBe('open: trace.capacity must be an integer 1…4194304, got 0');
  expect(errs[1]).toBe('open: trace.capacity must be an integer 1…4194304, got 8388608');
  expect(errs[2]).toBe('open: trace: unknown option "cap"; the options are capacity');
  expect(errs[3]).toBe('open: trace must be an object {capacity}, got number');
  // One range, whatever is wrong with the number, printed without exponent.
  expect(errs.slice(4)).toEqual(['-1', '1.5', 'NaN', '1099511627776'].map((v) => `open: trace.capacity must be an integer 1…4194304, got ${v}`));
});

test('a drain whose trace overflows says so, and counts no idle time it did not see', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  const res = await page.evaluate(async () => {
    await ringscope.open({ slots: 4096, tenants: 1, budget: 4, trace: { capacity: 100 } });
    const items = [];
    for (let i = 0; i < 2000; i++) items.push({ opcode: 0, tenant: 0, priority: i % 5, args: [] });
    await ringscope.publish(items);
    const d = await ringscope.drain({ maxSubmissions: 64 });
    return { trace: d.trace, done: d.telemetry.control.doneCount, export: JSON.parse(await ringscope.exportTrace()) };
  });
  const t = res.trace;
  expect(res.done).toBe(2000);
  expect(t.overflow).toBeGreaterThan(0);
  const panel = page.getByTestId('timeline-panel');
  await expect(panel.locator('.panel-sub').first()).toContainText(`${t.overflow.toLocaleString('en-US')} records dropped`);

  // A pass that dropped records (two tickets a record it ran, more than
  // it kept) has no bubble after a workgroup's last kept record: no "waiting
  // at the finalize" or "budget spent", in the panel or in the export.
  const kept = t.passes.map((p) => t.records.filter((r) => r.startTicket >= p.firstTicket && r.startTicket < p.endTicket).length);
  const overflowed = t.passes.map((p, i) => (p.endTicket - p.firstTicket) / 2 > kept[i]);
  expect(overflowed[0]).toBe(true);
  const ending = ['waiting at the finalize', 'budget spent'];
  if (overflowed.every(Boolean)) {
    for (const text of await panel.getByTestId('timeline-lane').locator('td.dim').allTextContents()) {
      for (const r of ending) expect(text).not.toContain(r);
    }
  }
  const passSlices = res.export.traceEvents.filter((e) => e.cat === 'pass' && e.ph === 'X');
  expect(passSlices.length).toBe(t.passes.length);
  for (const e of res.export.traceEvents.filter((e) => e.cat === 'bubble' && Object.values(e.args)[0] === 1)) {
    const i = passSlices.findIndex((p) => e.ts >= p.ts && e.ts <= p.ts + p.dur);
    if (i >= 0 && overflowed[i]) expect(ending).not.toContain(Object.keys(e.args)[0]);
  }
});

test('open() of a new ring clears the last ring\'s tasks, and its capacity shows from open on', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  await page.evaluate(async () => {
    await ringscope.open({ slots: 2048, tenants: 1, trace: { capacity: 100 } });
    const items = [];
    for (let i = 0; i < 300; i++) items.push({ opcode: 0, priority: i % 5 });
    await ringscope.publish(items);
    await ringscope.drain();
  });
  const panel = page.getByTestId('timeline-panel');
  await expect(panel).toBeVisible();
  const untraced = await page.evaluate(async () => {
    await ringscope.open({ slots: 1024, tenants: 1 });
    return (await ringscope.snapshot({ trace: true })).trace;
  });
  expect(untraced).toBeNull();
  await expect(panel, 'no tasks of the last ring, whose slots the new one does not have').toHaveCount(0);
  const traced = await page.evaluate(async () => {
    await ringscope.open({ slots: 1024, tenants: 1, trace: { capacity: 50 } });
    return (await ringscope.snapshot({ trace: true })).trace;
  });
  expect(traced.capacity, 'before its first submission').toBe(50);
  expect(traced.records).toEqual([]);
  await expect(panel).toHaveCount(0);
});

test('an idle live ring keeps the passes that ran tasks in its window', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  const n = await page.evaluate(async () => {
    await ringscope.open({ slots: 4096, tenants: 1, budget: 4, trace: { capacity: 1024 } });
    const items = [];
    for (let i = 0; i < 3000; i++) items.push({ opcode: 0, priority: i % 5 });
    await ringscope.publish(items);
    await ringscope.start();
    return items.length;
  });
  await expect.poll(() => page.evaluate(async () => (await ringscope.snapshot()).telemetry.control.doneCount), { timeout: 30_000 }).toBe(n);
  // Seconds of idle submissions: far more than the window's 256 passes.
  await page.waitForTimeout(2500);
  const res = await page.evaluate(async () => {
    await ringscope.stop();
    const t = (await ringscope.snapshot({ trace: true })).trace;
    return { t, other: JSON.parse(await ringscope.exportTrace()).otherData };
  });
  expect(res.t.records.length, 'the records of the passes that ran').toBeGreaterThan(0);
  expect(res.t.passes.length).toBeLessThanOrEqual(256);
  for (const p of res.t.passes) expect(p.endTicket, 'no pass without a ticket').toBeGreaterThan(p.firstTicket);
  expect(res.other.taskRecords, 'the export holds what the API does').toBe(res.t.records.length);
  expect(res.other.taskEvicted).toBe(res.t.evicted);
});

test('a kernel the Kernel panel applies traces as the page\'s ?trace=N asks', async ({ page }) => {
  await gotoReady(page, '?trace=512');
  await page.getByTestId('kernel-toggle').click();
  await expect(page.getByTestId('kernel-apply')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('kernel-preset').selectOption('bfs');
  await expect(page.getByTestId('kernel-status')).toHaveText(/^loaded /);
  await page.getByTestId('kernel-apply').click();
  await expect(page.getByTestId('kernel-status')).toHaveText(/^applied: /, { timeout: 60_000 });
  const trace = await page.evaluate(async () => (await ringscope.snapshot({ trace: true })).trace);
  expect(trace, 'the applied ring traces').not.toBeNull();
  expect(trace.capacity).toBe(512);
});

test('the timeline panel has a lane per workgroup, and a task click inspects its slot', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  const trace = await page.evaluate(async (items) => {
    await ringscope.open({ slots: 2048, tenants: 1, budget: 16, observable: 8, trace: { capacity: 4096 } });
    await ringscope.publish(items);
    return (await ringscope.drain({ maxSubmissions: 32 })).trace;
  }, workload());
  const perWorkgroup = new Map();
  for (const r of trace.records) perWorkgroup.set(r.workgroup, (perWorkgroup.get(r.workgroup) ?? 0) + 1);

  const panel = page.getByTestId('timeline-panel');
  await expect(panel).toBeVisible();
  const lanes = panel.getByTestId('timeline-lane');
  await expect(lanes).toHaveCount(perWorkgroup.size);
  const rows = await lanes.evaluateAll((els) => els.map((e) => ({ wg: Number(e.dataset.workgroup), tasks: Number(e.dataset.tasks) })));
  for (const { wg, tasks } of rows) expect(tasks, `workgroup ${wg}`).toBe(perWorkgroup.get(wg));

  // Drawn at its laid-out size with nothing after the drain to render
  // the page again (no live loop, no click): the canvas learns its size
  // after the render that made it, and asks for one more.
  const canvas = panel.locator('.timeline-host canvas');
  await expect.poll(() => canvas.evaluate((c) => {
    if (c.width === 0 || c.width !== c.clientWidth || c.height !== c.clientHeight) return 'not drawn at its size';
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    return px.some((v, i) => i % 4 !== 3 && v !== 0) ? 'drawn' : 'blank';
  }), { timeout: 10_000, message: 'the timeline draws itself after a drain' }).toBe('drawn');

  // The first row's first task, where the panel drew it (x a share of the
  // canvas's width).
  await expect(lanes.first()).toHaveAttribute('data-probe', /^[\d.]+,[\d.]+,\d+$/);
  const [fx, y, slot] = (await lanes.first().getAttribute('data-probe')).split(',').map(Number);
  await canvas.evaluate((c) => c.scrollIntoView({ block: 'center' })); // clear of the sticky header
  const title = page.getByTestId('slot-inspector').locator('.inspector-title');
  const want = `slot ${slot.toLocaleString('en-US')}`.replace(/,/g, '');
  // The panel may still be settling its first layout when the first click
  // lands: click the same point again until the inspector answers.
  await expect.poll(async () => {
    const box = await canvas.boundingBox();
    await page.mouse.click(box.x + fx * box.width, box.y + y);
    return (await title.count()) ? (await title.textContent()).replace(/[,\u202f ]/g, '').replace('slot', 'slot ') : '';
  }, { timeout: 15_000, message: 'a click on the task opens its slot' }).toBe(want);
});
