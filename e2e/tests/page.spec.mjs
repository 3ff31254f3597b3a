// The page as a person and an embedding tool use it (issue 4, part 6): real
// Chromium on SwiftShader, the real Go server, the built static/main.wasm
// (make build). Every test also fails on a page error or a console error
// (fixtures.mjs).
import { fileURLToPath } from 'node:url';
import { test, expect, DASH, num, headerStat, readNum, gotoReady, waitFrames } from './fixtures.mjs';

// PROTOCOL.md §4 opcodes and §2 control words used below.
const OP = { NOP: 0, STORE_U32: 1, ATOMIC_ADD: 2, LOAD_U32: 3, BATCH_FENCE: 7, SPIN: 0x101, RAISE: 0xfff3, PRINTF: 0xfffe };
const CTRL_MAGIC = 141;
const MAGIC = 0x31435352;
const OBS = 160; // first OBSERVABLE word
const FAULT_USER = 0xffff0006; // log record format of a USER_FAULT

// The ring statuses as the occupancy panel names them, with the API's
// RingOccupancy field of each.
const STATUSES = {
  empty: 'empty', published: 'published', claimed: 'claimed', done: 'done',
  'wait-io': 'waitIO', yield: 'yield', requeue: 'requeue', fault: 'fault', unknown: 'unknown',
};

// expectPanelsShow checks that the dashboard shows the decode `tel` (a
// RingTelemetry from the API): done count, epoch, generation, every
// occupancy count and the total, which the per-status counts sum to.
async function expectPanelsShow(page, tel, slots) {
  const c = tel.control;
  await expect(page.getByTestId('done-count')).toHaveText(c.doneCount.toLocaleString('en-US'));
  await expect(page.getByTestId('epoch')).toHaveText(c.epoch.toLocaleString('en-US'));
  await expect(page.getByTestId('generation')).toHaveText(c.generation.toLocaleString('en-US'));
  await expect(page.getByTestId('occupancy-total')).toHaveText(slots.toLocaleString('en-US'));
  let shown = 0;
  for (const [key, field] of Object.entries(STATUSES)) {
    const cell = page.getByTestId(`occupancy-${key}`);
    await expect(cell, `occupancy-${key}`).toHaveText(tel.occupancy[field].toLocaleString('en-US'));
    shown += await readNum(cell);
  }
  expect(shown, 'the occupancy panel sums to the ring size').toBe(slots);
}

test('reaches ready on the SwiftShader adapter and warns that it is a CPU adapter', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  const warning = page.getByTestId('adapter-cpu-warning');
  await expect(warning).toBeVisible();
  await expect(warning).toContainText(/CPU/);
  await expect(warning).toContainText(/swiftshader/i);
  // The API is there and settled.
  await page.evaluate(() => window.ringscope.ready);
});

test('an API-driven workload: the panels show what drain() decoded', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  // Before any API call the autostart=0 page has drawn no frame.
  await expect(page.getByTestId('done-count')).toHaveText(DASH);

  const slots = 256;
  const opened = await page.evaluate((slots) => ringscope.open({ slots, tenants: 3 }), slots);
  expect(opened.slots).toBe(slots);
  expect(opened.partitions).toEqual([0, 51, 102, 154, 205, 256]); // PROTOCOL §2's example
  expect(opened.generation).toBeGreaterThanOrEqual(1);

  // 37 items per priority: every simple opcode class, with results in
  // OBSERVABLE words we can check, two faults and one fence each.
  const items = [];
  for (let p = 0; p < 5; p++) {
    const it = (opcode, args = [], tenant = (items.length % 3)) => items.push({ opcode, tenant, priority: p, args });
    for (let i = 0; i < 10; i++) it(OP.NOP);
    for (let i = 0; i < 8; i++) it(OP.SPIN, [64 + 16 * i, 8 + i, p * 100 + i]);
    for (let i = 0; i < 8; i++) it(OP.ATOMIC_ADD, [1, OBS + 0]);
    for (let i = 0; i < 2; i++) it(OP.STORE_U32, [0xc0ffee, OBS + 1]);
    for (let i = 0; i < 2; i++) it(OP.LOAD_U32, [CTRL_MAGIC, 2]);
    for (let i = 0; i < 4; i++) it(OP.PRINTF, [1, p, i]);
    for (let i = 0; i < 2; i++) it(OP.RAISE, [42]);
    it(OP.BATCH_FENCE, [1, 7, 3]);
  }
  const faults = 10, printfs = 20, fences = 5;
  expect(await page.evaluate((items) => ringscope.publish(items), items)).toBe(items.length);

  const d = await page.evaluate(() => ringscope.drain({ maxSubmissions: 16 }));
  const tel = d.telemetry;
  // The GPU did the work: every item reached DONE or FAULT exactly once.
  expect(tel.control.doneCount).toBe(items.length);
  expect(tel.control.claims).toBe(items.length);
  expect(tel.control.faults).toBe(faults);
  expect(tel.control.epoch).toBe(fences);
  expect(tel.control.generation).toBe(opened.generation);
  expect(tel.occupancy.done).toBe(items.length - faults);
  expect(tel.occupancy.fault).toBe(faults);
  expect(tel.occupancy.empty).toBe(slots - items.length);
  expect(d.observable.slice(0, 4)).toEqual([40, 0xc0ffee, MAGIC, 7]);
  expect(d.log.records).toHaveLength(printfs + faults);
  expect(d.log.records.filter((r) => r.format === FAULT_USER)).toHaveLength(faults);
  expect(d.log.dropped).toBe(0);
  expect(d.counters.totalSlots).toBe(slots);
  // Queue depth counts every slot neither EMPTY nor DONE: the faults.
  expect(d.counters.queueDepth).toBe(faults);
  expect(d.report.itemsRemaining).toBe(0);

  // The panels show the same decode the API returned.
  await expectPanelsShow(page, tel, slots);
  // snapshot() is that state too.
  const snap = await page.evaluate(() => ringscope.snapshot());
  expect(snap.telemetry.control.doneCount).toBe(items.length);
  expect(snap.telemetry.occupancy).toEqual(tel.occupancy);
  expect(snap.published).toBe(items.length);
  expect(snap.pending).toBe(0);

  // A masked tenant's work is denied and parked, not done; unmasked, it runs.
  await page.evaluate(() => ringscope.setTenantMask(2, false));
  const masked = Array.from({ length: 5 }, () => ({ opcode: OP.NOP, tenant: 2, priority: 4 }));
  expect(await page.evaluate((m) => ringscope.publish(m), masked)).toBe(5);
  const parked = await page.evaluate(() => ringscope.drain({ maxSubmissions: 3 }));
  const pt = parked.telemetry;
  expect(pt.control.doneCount).toBe(items.length);
  expect(pt.control.denied).toBeGreaterThanOrEqual(5);
  expect(pt.occupancy.yield + pt.occupancy.published, 'the masked items wait in the ring').toBe(5);
  await expectPanelsShow(page, pt, slots);

  await page.evaluate(() => ringscope.setTenantMask(2, true));
  const after = await page.evaluate(() => ringscope.drain({ maxSubmissions: 8 }));
  expect(after.telemetry.control.doneCount).toBe(items.length + 5);
  await expectPanelsShow(page, after.telemetry, slots);
});

test('the API rejects invalid input with the reason and publishes nothing', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  await page.evaluate(() => ringscope.open({ slots: 64, tenants: 2 }));
  // One valid item first, so "nothing published" is measured against a
  // non-zero state.
  expect(await page.evaluate(() => ringscope.publish([{ opcode: 0, tenant: 0, priority: 2 }]))).toBe(1);
  const before = await page.evaluate(() => ringscope.snapshot());

  const reject = (items) =>
    page.evaluate(async (items) => {
      try {
        return { resolved: await ringscope.publish(items) };
      } catch (e) {
        return { error: String(e?.message ?? e), isError: e instanceof Error };
      }
    }, items);
  const cases = [
    { name: 'tenant 29', items: [{ opcode: 0, tenant: 29, priority: 0 }], reason: /tenant 29 is invalid/ },
    { name: 'reserved opcode 0xFFF5', items: [{ opcode: 0xfff5, tenant: 0, priority: 0 }], reason: /opcode 0xfff5 is a reserved system opcode/ },
    { name: 'not an array', items: { opcode: 0, tenant: 0, priority: 0 }, reason: /items must be an array/ },
    { name: 'priority 5', items: [{ opcode: 0, tenant: 0, priority: 5 }], reason: /priority 5 is invalid/ },
    // A batch is validated whole: the good first item is not published either.
    { name: 'a bad item after a good one', items: [{ opcode: 0, tenant: 0, priority: 0 }, { opcode: 0, tenant: 29, priority: 0 }], reason: /item 1: tenant 29/ },
    // The priority-0 partition of a 64-slot ring holds 12 slots.
    { name: 'a full partition', items: Array.from({ length: 13 }, () => ({ opcode: 0, tenant: 0, priority: 0 })), reason: /partition is full.*nothing published/ },
  ];
  for (const c of cases) {
    const r = await reject(c.items);
    expect(r.resolved, `${c.name}: publish resolved`).toBeUndefined();
    expect(r.isError, `${c.name}: rejects with an Error`).toBe(true);
    expect(r.error, c.name).toMatch(/^publish: /);
    expect(r.error, c.name).toMatch(c.reason);
  }

  const after = await page.evaluate(() => ringscope.snapshot());
  expect(after.published, 'published count').toBe(before.published);
  expect(after.pending, 'pending count').toBe(before.pending);
  expect(after.telemetry.control.tails, 'partition tails').toEqual(before.telemetry.control.tails);
  // And draining finds exactly the one valid item.
  const d = await page.evaluate(() => ringscope.drain({}));
  expect(d.telemetry.control.doneCount).toBe(1);
  expect(d.telemetry.control.faults).toBe(0);
});

// slotMapMismatches reads the slot map's canvas and the page's copy of the
// ring in one evaluation and counts the slots whose cell does not show their
// status: a slot coloured unlike the first slot of its status, or a status
// coloured like another. It returns the count and the statuses it saw.
function slotMapMismatches(page) {
  return page.evaluate(async () => {
    const slots = (await ringscope.snapshot({ slots: true })).telemetry.slots;
    const canvas = document.querySelector('.slotmap-host canvas');
    const img = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    // LayoutSlots: a power-of-two number of columns, square cells.
    const cols = 1 << Math.ceil(Math.log2(Math.ceil(Math.sqrt(4 * slots.length))));
    const cell = canvas.width / cols;
    const colorOf = new Map(), statusOf = new Map();
    let mismatches = 0;
    slots.forEach((sl, i) => {
      const p = ((Math.floor(i / cols) * cell) * canvas.width + (i % cols) * cell) * 4;
      const rgba = `${img[p]},${img[p + 1]},${img[p + 2]},${img[p + 3]}`;
      if (!colorOf.has(sl.status)) colorOf.set(sl.status, rgba);
      if (!statusOf.has(rgba)) statusOf.set(rgba, sl.status);
      if (colorOf.get(sl.status) !== rgba || statusOf.get(rgba) !== sl.status) mismatches++;
    });
    return { mismatches, statuses: [...colorOf.keys()].sort() };
  });
}

test('the slot map shows each slot status after each frame, under full and summary readback', async ({ page }) => {
  test.setTimeout(90_000);
  await gotoReady(page, '?autostart=0');
  for (const readback of ['full', 'summary']) {
    await page.evaluate((readback) => ringscope.open({ slots: 4096, tenants: 2, readback }), readback);
    const seen = new Set();
    // NOPs end DONE, RAISEs FAULT. Under summary readback the page's copy
    // of the ring is the frame's plus what the host did since (it reclaims
    // faulted slots, wasm/controller/readback_js.go), so there only NOPs: their DONE
    // slots stay as the frame showed them.
    const raises = (i) => readback === 'full' && i % 9 === 0;
    for (let round = 0; round < 4; round++) {
      const items = Array.from({ length: 700 }, (_, i) => ({ opcode: raises(i) ? OP.RAISE : OP.NOP, tenant: i % 2, args: [1, 0, 0] }));
      expect(await page.evaluate((items) => ringscope.publish(items), items)).toBe(items.length);
      await page.evaluate(() => ringscope.step());
      // The frame renders after step() resolves: wait for the canvas to
      // show it. Painting only the changed cells and putting only the
      // changed rows must leave no cell stale.
      await expect.poll(async () => (await slotMapMismatches(page)).mismatches, { timeout: 10_000, message: `${readback} round ${round}` }).toBe(0);
      for (const st of (await slotMapMismatches(page)).statuses) seen.add(st);
    }
    const want = readback === 'full' ? [0, 3, 7] : [0, 3]; // empty, done, fault (PROTOCOL §3)
    expect([...seen].sort(), `${readback}: the statuses the rounds showed`).toEqual(expect.arrayContaining(want));
  }
});

test('open({readback: "summary"}): frames read no ring, snapshot() has the summary, drain() reads the ring', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  const refusal = (o) => page.evaluate((o) => ringscope.open(o).then(() => 'opened', (e) => e.message), o);
  expect(await refusal({ slots: 64, readback: 'fast' })).toBe('open: readback "fast": want one of auto, summary, full');
  expect(await refusal({ slots: 64, readback: 1 })).toBe('open: readback must be a string, one of auto, summary, full; got number');

  const slots = 4096, n = 600;
  await page.evaluate((slots) => ringscope.open({ slots, tenants: 2, readback: 'summary' }), slots);
  await expect(headerStat(page, 'readback')).toHaveText('summary');
  const items = Array.from({ length: n }, (_, i) => ({ opcode: OP.NOP, tenant: i % 2, priority: i % 5 }));
  expect(await page.evaluate((items) => ringscope.publish(items), items)).toBe(n);
  const snap = await page.evaluate(async () => {
    for (let i = 0; i < 3; i++) await ringscope.step();
    return ringscope.snapshot();
  });
  expect(snap.readback).toBe('summary');
  expect(snap.ringReads, 'summary frames read no ring').toBe(0);
  expect(snap.lastBytesReadBack).toBeGreaterThan(0);
  expect(snap.lastBytesReadBack, 'a frame reads less than the ring alone').toBeLessThan(slots * 64);
  expect(snap.telemetry.slots ?? []).toHaveLength(0);
  const occ = snap.telemetry.occupancy;
  expect(Object.values(occ).reduce((a, b) => a + b, 0), 'the summary counts every slot').toBe(slots);
  expect(occ.done + occ.published + occ.claimed).toBe(n);
  // snapshot({slots: true}) decodes the page's copy of the ring: every
  // slot, the same counts (NOPs: nothing parked), still no ring read.
  const withSlots = await page.evaluate(() => ringscope.snapshot({ slots: true }));
  expect(withSlots.telemetry.slots).toHaveLength(slots);
  expect(withSlots.telemetry.occupancy).toEqual(occ);
  expect(withSlots.ringReads).toBe(0);
  expect(await page.evaluate(() => ringscope.snapshot('x').then(() => 'ok', (e) => e.message))).toBe('snapshot: options must be an object, got string');

  // drain() gives every slot. With nothing left to run it decodes the
  // page's copy of the ring (it follows the status map): no ring read.
  const d = await page.evaluate(() => ringscope.drain({ maxSubmissions: 16 }));
  expect(d.telemetry.control.doneCount).toBe(n);
  expect(d.telemetry.occupancy.done).toBe(n);
  expect(d.telemetry.slots).toHaveLength(slots);
  expect(d.telemetry.slots.filter((sl) => sl.status === 3).length, 'DONE slots (PROTOCOL §3: 3)').toBe(n);
  expect((await page.evaluate(() => ringscope.snapshot())).ringReads).toBe(0);
  // With work left, its submissions read the ring back.
  expect(await page.evaluate((items) => ringscope.publish(items), items.slice(0, 100))).toBe(100);
  const d2 = await page.evaluate(() => ringscope.drain({ maxSubmissions: 16 }));
  expect(d2.report.dispatchCount).toBeGreaterThan(0);
  expect(d2.telemetry.control.doneCount).toBe(n + 100);
  expect(d2.telemetry.occupancy.done).toBe(n + 100);
  expect(d2.telemetry.slots).toHaveLength(slots);

  // Without the option a ring runs full readback, as before it.
  await page.evaluate(() => ringscope.open({ slots: 64 }));
  await expect(headerStat(page, 'readback')).toHaveText('full');
  expect((await page.evaluate(() => ringscope.snapshot())).readback).toBe('full');
});

test('run, pause, step and reset behave as a person expects', async ({ page }) => {
  test.setTimeout(60_000);
  await gotoReady(page, '?slots=4096');
  const run = page.getByTestId('run');
  const pause = page.getByTestId('pause');
  const frame = headerStat(page, 'frame');
  const done = page.getByTestId('done-count');
  const generation = page.getByTestId('generation');

  // Running: frames arrive and work gets done.
  await expect(run).toHaveClass(/\bactive\b/);
  await waitFrames(page, 3);
  await expect.poll(() => readNum(done)).toBeGreaterThan(0);

  // Pause: once the button shows paused, nothing moves.
  await pause.click();
  await expect(pause).toHaveClass(/\bactive\b/);
  await expect(run).not.toHaveClass(/\bactive\b/);
  const f0 = await readNum(frame);
  const d0 = await readNum(done);
  await page.waitForTimeout(1_200); // the observation window itself
  expect(await readNum(frame), 'frame while paused').toBe(f0);
  expect(await readNum(done), 'done count while paused').toBe(d0);

  // Step: exactly one more frame, which did some work, then it stays.
  await page.getByTestId('step').click();
  await expect(frame).toHaveText((f0 + 1).toLocaleString('en-US'));
  const d1 = await readNum(done);
  expect(d1, 'a step drains work').toBeGreaterThan(d0);
  await page.waitForTimeout(1_200);
  expect(await readNum(frame), 'frame after the step').toBe(f0 + 1);
  expect(await readNum(done), 'done count after the step').toBe(d1);
  await expect(pause).toHaveClass(/\bactive\b/);

  // Reset (paused): the ring is fresh; the panels forget the old frame.
  const g0 = await readNum(generation);
  await page.getByTestId('reset').click();
  await expect(done).toHaveText(DASH);
  await expect(generation).toHaveText(DASH);
  await expect(page.getByTestId('status')).toHaveText('ready');
  // The first frame after it: a new generation, and only its own work done.
  await page.getByTestId('step').click();
  await expect(generation).toHaveText((g0 + 1).toLocaleString('en-US'));
  const d2 = await readNum(done);
  expect(d2, 'done count restarts with the generation').toBeLessThanOrEqual(4096 / 16); // one frame's publish
  await expect(page.getByTestId('occupancy-total')).toHaveText('4,096');

  // Run resumes.
  const f2 = await readNum(frame);
  await run.click();
  await expect(run).toHaveClass(/\bactive\b/);
  await waitFrames(page, f2 + 3);
  await expect.poll(() => readNum(done)).toBeGreaterThan(d2);
  await expect(generation).toHaveText((g0 + 1).toLocaleString('en-US'));
});

test('URL ?preset=stall raises the stall alert', async ({ page }) => {
  await gotoReady(page, '?preset=stall&slots=4096');
  await expect(page.getByTestId('preset')).toHaveValue('stall');
  const alert = page.getByTestId('stall-alert');
  await expect(alert).toBeVisible({ timeout: 15_000 });
  await expect(alert).toContainText(/^STALL: .* DONE_COUNT has not moved/);
  await expect(headerStat(page, 'health')).toHaveText(/stalled/i);
  // The stall is masked work, not faults: nothing is done, slots are queued.
  await expect(page.getByTestId('done-count')).toHaveText('0');
  expect(await readNum(page.getByTestId('occupancy-yield')) + (await readNum(page.getByTestId('occupancy-published')))).toBeGreaterThan(0);
});

test('URL ?preset=nop-flood&slots=16384 selects the preset and sizes the ring', async ({ page }) => {
  await gotoReady(page, '?preset=nop-flood&slots=16384');
  await expect(page.getByTestId('preset')).toHaveValue('nop-flood');
  await expect(page.getByTestId('setting-ringslots')).toHaveValue('16384');
  await expect(headerStat(page, 'preset')).toHaveText('nop-flood');
  await expect(page.getByTestId('occupancy-total')).toHaveText('16,384');
  // A flood of NOPs: half the ring per frame, all of it drained.
  await waitFrames(page, 2);
  await expect.poll(() => readNum(page.getByTestId('done-count'))).toBeGreaterThanOrEqual(8192);
  await expect(page.getByTestId('occupancy-fault')).toHaveText('0');
});

test('a bad URL parameter is an error naming it', async ({ page }) => {
  await page.goto('/?slots=many');
  await expect(page.getByTestId('status')).toHaveText('error: URL parameter slots="many": not an integer', { timeout: 30_000 });
  await expect(page.getByTestId('status')).toHaveAttribute('data-state', 'error');
  // ready rejects with the same reason, so an embedder learns it too.
  const reason = await page.evaluate(() => window.ringscope.ready.then(() => 'resolved', (e) => String(e?.message ?? e)));
  expect(reason).toMatch(/slots="many"/);
});

// The log panel's DROPPED line asks to raise the log capacity: the URL and
// the settings form both can.
test('the log capacity is a setting: ?log= and the form size the ring\'s log', async ({ page }) => {
  await gotoReady(page, '?log=4096');
  await waitFrames(page, 1);
  await expect(page.getByTestId('setting-logcapacity')).toHaveValue('4096');
  const capacity = () => page.evaluate(async () => (await window.ringscope.snapshot()).log.capacity);
  expect(await capacity()).toBe(4096);

  const input = page.getByTestId('setting-logcapacity');
  await input.fill('256');
  await input.dispatchEvent('change');
  await page.getByTestId('apply-settings').click();
  await expect(input).toHaveValue('256');
  await expect.poll(capacity).toBe(256);
});

test('the settings form applies a new ring size and refuses an invalid one', async ({ page }) => {
  await gotoReady(page, '?slots=4096');
  await waitFrames(page, 1);
  const g0 = await readNum(page.getByTestId('generation'));
  const slotsInput = page.getByTestId('setting-ringslots');
  const apply = page.getByTestId('apply-settings');

  await slotsInput.fill('0');
  await slotsInput.dispatchEvent('change');
  await expect(page.getByTestId('settings-errors')).toBeVisible();
  await expect(apply).toBeDisabled();

  await slotsInput.fill('1024');
  await slotsInput.dispatchEvent('change');
  await expect(page.getByTestId('settings-errors')).toHaveCount(0);
  await expect(apply).toBeEnabled();
  await apply.click();
  await expect(page.getByTestId('occupancy-total')).toHaveText('1,024');
  await expect(page.getByTestId('generation')).toHaveText((g0 + 1).toLocaleString('en-US'));
  await expect(slotsInput).toHaveValue('1024');
});

// A person who corrects a refused value and clicks Apply straight away,
// the field still focused: the form checks as they type, so the stale
// error is gone and Apply is where it was before the click (a check on
// change only moved it away under the pointer and lost the click).
test('a corrected value applies with one click, the field still focused', async ({ page }) => {
  await gotoReady(page, '?slots=4096');
  await waitFrames(page, 1);
  const slotsInput = page.getByTestId('setting-ringslots');
  await slotsInput.click();
  await slotsInput.press('ControlOrMeta+a');
  await page.keyboard.type('0');
  await expect(page.getByTestId('settings-errors')).toBeVisible();
  await page.keyboard.press('Backspace');
  await page.keyboard.type('8192');
  await expect(page.getByTestId('settings-errors')).toHaveCount(0);
  await expect(page.getByTestId('apply-settings')).toBeEnabled();
  await page.getByTestId('apply-settings').click();
  await expect(page.getByTestId('occupancy-total')).toHaveText('8,192');
});

// Revert and a preset put the draft's values in the inputs, also in those
// a person typed in: their value attribute alone no longer shows there.
test('revert and a preset show their values in inputs the person edited', async ({ page }) => {
  await gotoReady(page, '?preset=stall');
  await waitFrames(page, 1);
  const sub = page.locator('.panel-settings .panel-sub');
  const budget = page.getByTestId('setting-budget');
  const tenants = page.getByTestId('setting-tenants');
  for (const [input, text] of [[budget, '7'], [tenants, '3']]) {
    await input.fill(text);
    await input.dispatchEvent('change');
  }
  await expect(sub).toHaveText('edited, not applied');
  await page.getByRole('button', { name: 'Revert' }).click();
  await expect(sub).toHaveText('applied');
  await expect(budget).toHaveValue('64');
  await expect(tenants).toHaveValue('8');

  await tenants.fill('3');
  await tenants.dispatchEvent('change');
  await page.getByTestId('preset').selectOption('nop-flood');
  await expect(tenants).toHaveValue('1');
  await expect(page.getByTestId('setting-ringslots')).toHaveValue('65536');
  await page.getByRole('button', { name: 'Revert' }).click();
  await expect(page.getByTestId('preset')).toHaveValue('stall');
  await expect(tenants).toHaveValue('8');
  await expect(page.getByTestId('setting-ringslots')).toHaveValue('4096');
});

test('a screenshot of the live dashboard', async ({ page }, testInfo) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await gotoReady(page, '');
  // Enough frames for the plots to have some history, then hold still.
  await waitFrames(page, 40, 45_000);
  await page.getByTestId('pause').click();
  await expect(page.getByTestId('pause')).toHaveClass(/\bactive\b/);
  await expect(page.getByTestId('occupancy-total')).toHaveText('65,536');

  const file = testInfo.outputPath('dashboard.png');
  await page.screenshot({ path: file });
  await testInfo.attach('dashboard', { path: file, contentType: 'image/png' });
  if (process.env.UPDATE_SCREENSHOT) {
    const readme = fileURLToPath(new URL('../../docs/screenshot.png', import.meta.url));
    await page.screenshot({ path: readme });
    testInfo.annotations.push({ type: 'screenshot', description: `wrote ${readme}` });
  }
});

test('without --enable-unsafe-webgpu the page says no-webgpu plainly and stays usable', { tag: '@no-webgpu' }, async ({ page }) => {
  await page.goto('/');
  const status = page.getByTestId('status');
  await expect(status).toHaveText('no-webgpu');
  await expect(status).toBeVisible();
  await expect(status).toHaveAttribute('data-state', 'no-webgpu');
  // It says why, in words, where the dashboard would be.
  const note = page.getByTestId('loader-note');
  await expect(note).toBeVisible();
  await expect(note).toContainText(/WebGPU/);
  // An embedder awaiting ringscope.ready learns it too, rather than hanging
  // or hitting a ReferenceError.
  const reason = await page.evaluate(() => window.ringscope.ready.then(() => 'resolved', (e) => String(e?.message ?? e)));
  expect(reason).toMatch(/no-webgpu/);
  // The page stays responsive and its text stays put.
  expect(await page.evaluate(() => document.title)).toBe('ringscope');
  await page.waitForTimeout(500);
  await expect(status).toHaveText('no-webgpu');
});

// An embedder's narrow element (createRingscope's container, mount) in a
// wide page: the dashboard stacks by its own width, not the viewport's,
// and no panel draws past its edge (the queue waits' two tables stack).
test('a dashboard 360 px wide in a wide page: one column, nothing drawn past a panel', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 1000 });
  await gotoReady(page, '?slots=1024');
  await waitFrames(page, 3);
  await page.evaluate(() => { document.querySelector('.rs-dashboard').style.width = '360px'; });
  await expect.poll(() => page.evaluate(() => {
    const over = [...document.querySelectorAll('.rs-grid .panel')].filter((p) => p.scrollWidth > p.clientWidth + 1);
    return over.map((p) => p.className);
  }), { message: 'panels wider than their box' }).toEqual([]);
  const [prio, ten] = await Promise.all(['waits-priority', 'waits-tenant'].map((id) => page.getByTestId(id).boundingBox()));
  expect(ten.y, 'the tenant table below the priority table').toBeGreaterThanOrEqual(prio.y + prio.height);
});
