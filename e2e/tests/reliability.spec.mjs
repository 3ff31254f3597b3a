// Reliability (issue 7, items 1–3): the page survives a lost GPU device
// without losing or repeating work, the watchdog raises and clears the stall
// alert on workloads that stall, and bad options and input are refused
// before any GPU work while the page keeps working. Real Chromium on
// SwiftShader, the real Go server, the built static/main.wasm (make build).
//
// Fault injection uses ringscope.__test (wasm/testhooks: the e2e build only, make e2e-static).
import { test, expect, headerStat, readNum, gotoReady, waitFrames } from './fixtures.mjs';

const OP = { NOP: 0, ATOMIC_ADD: 2, SPIN: 0x101, SHUTDOWN: 0xffffffff };
const OBS = 160; // first OBSERVABLE word (PROTOCOL §2)

// atomicAddItems makes n ATOMIC_ADD items, item i adding 1 to OBSERVABLE[i],
// spread over the priorities by the partitions open returned.
function atomicAddItems(n, partitions) {
  const items = [];
  const room = [0, 1, 2, 3, 4].map((p) => partitions[p + 1] - partitions[p]);
  for (let i = 0, p = 0; i < n; i++) {
    while (room[p] === 0) p = (p + 1) % 5;
    room[p]--;
    items.push({ opcode: OP.ATOMIC_ADD, tenant: i % 4, priority: p, args: [1, OBS + i] });
    p = (p + 1) % 5;
  }
  return items;
}

// api calls a ringscope method in the page and returns {ok, value} or
// {ok: false, error}, so a rejection's message can be asserted.
async function api(page, name, ...args) {
  return page.evaluate(
    async ([name, args]) => {
      try {
        const value = await window.ringscope[name](...args);
        return { ok: true, value };
      } catch (e) {
        return { ok: false, error: String(e?.message ?? e) };
      }
    },
    [name, args],
  );
}

async function call(page, name, ...args) {
  const r = await api(page, name, ...args);
  expect(r.error, `ringscope.${name}`).toBeUndefined();
  return r.value;
}

const stats = (page) => page.evaluate(() => ringscope.__test.deviceStats());

test.describe('device loss', () => {
  // A loss takes what the GPU wrote into read_write buffers (the host has
  // no copy of them): the recovery says which went back to their initial
  // bytes, where it used to reset them without a word.
  test('a loss names the read_write buffers that restarted from their initial bytes', async ({ page }) => {
    test.setTimeout(60_000);
    await gotoReady(page, '?autostart=0');
    const r = await page.evaluate(async () => {
      await ringscope.open({
        slots: 1024,
        buffers: [{ name: 'out', access: 'read_write', size: 16 }, { name: 'table', access: 'read', size: 16, words: [5, 6, 7, 8] }],
        opcodes: [{ opcode: 0x10, name: 'acc', wgsl: 'fn acc(slot: u32, args: Args) -> Outcome { out[0] = out[0] + table[0]; return done(); }' }],
      });
      const word = async () => new Uint32Array((await ringscope.readBuffer('out')).buffer)[0];
      await ringscope.publish([{ opcode: 0x10 }]);
      await ringscope.drain();
      const before = await word();
      await ringscope.__test.loseDevice();
      const after = await word();
      const snap = await ringscope.snapshot();
      return { before, after, buffersReset: snap.lastLoss.buffersReset, recovered: snap.lastLoss.recovered };
    });
    expect(r.before).toBe(5);
    expect(r.after, 'the GPU\'s writes died with the device').toBe(0);
    expect(r.recovered).toBe(true);
    expect(r.buffersReset).toBe(true);
  });

  test('lost between a submit and its readback: recovered, every item run exactly once', async ({ page }) => {
    test.setTimeout(60_000);
    await gotoReady(page, '?autostart=0');
    const n = 600;
    // One workgroup of 64 lanes, one claim each: ten submissions to drain,
    // so the loss lands mid-run.
    const opened = await call(page, 'open', { slots: 1024, tenants: 4, observable: n, budget: 1, workgroupSize: 64, workerGroups: 1 });
    expect(await call(page, 'publish', atomicAddItems(n, opened.partitions))).toBe(n);

    const [drained, lost] = await page.evaluate(() =>
      Promise.all([ringscope.drain({ maxSubmissions: 200 }), ringscope.__test.loseDevice({ afterSubmits: 3 })]));
    expect(lost.reason).toBe('destroyed');

    const snap = await call(page, 'snapshot');
    expect(snap.recoveries).toBe(1);
    const loss = snap.lastLoss;
    expect(loss.recovered).toBe(true);
    // The loss met the drain while it awaited a readback: that submission's
    // effects died with the device, and the host had not absorbed them.
    expect(loss.cause).toMatch(/read back/);
    expect(loss.cause).toMatch(/device lost/);
    expect(loss.doneCount, 'some work was done before the loss').toBeGreaterThan(0);
    expect(loss.doneCount, 'and some was still pending').toBeLessThan(n);
    expect(loss.published).toBe(n);

    // Exactly once: every word was incremented once, none twice, none lost.
    expect(drained.observable).toHaveLength(n);
    const wrong = drained.observable.map((v, i) => [i, v]).filter(([, v]) => v !== 1);
    expect(wrong, 'OBSERVABLE words that are not exactly 1').toEqual([]);
    expect(drained.telemetry.control.doneCount).toBe(n);
    expect(drained.report.itemsPublished ?? n).toBe(n);
    expect(snap.published).toBe(n);
    expect(snap.pending).toBe(0);
    expect(drained.telemetry.occupancy.done).toBe(n);
    expect(drained.telemetry.occupancy.fault).toBe(0);

    await expect(page.getByTestId('recoveries')).toHaveText('1');
    await expect(page.getByTestId('done-count')).toHaveText(n.toLocaleString('en-US'));
    await expect(page.getByTestId('stale-banner')).toHaveCount(0);
    await expect(page.getByTestId('status')).toHaveText('ready');

    // The page keeps working on the new device: another batch, another loss.
    await call(page, 'open', { slots: 1024, tenants: 4, observable: n, budget: 1, workgroupSize: 64, workerGroups: 1 });
    await call(page, 'publish', atomicAddItems(n, opened.partitions));
    const [again] = await page.evaluate(() =>
      Promise.all([ringscope.drain({ maxSubmissions: 200 }), ringscope.__test.loseDevice({ afterSubmits: 5 })]));
    expect(again.observable.every((v) => v === 1)).toBe(true);
    expect(again.telemetry.control.doneCount).toBe(n);
    expect((await call(page, 'snapshot')).recoveries).toBe(2);
    await expect(page.getByTestId('recoveries')).toHaveText('2');
  });

  test('the last good snapshot stays on screen marked stale until the new device gives a frame', async ({ page }) => {
    test.setTimeout(60_000);
    await gotoReady(page, '?autostart=0');
    await call(page, 'open', { slots: 256, tenants: 2, observable: 8 });
    await call(page, 'publish', Array.from({ length: 20 }, (_, i) => ({ opcode: OP.ATOMIC_ADD, tenant: 0, priority: 2, args: [1, OBS + (i % 8)] })));
    const good = await call(page, 'drain', { maxSubmissions: 8 });
    expect(good.telemetry.control.doneCount).toBe(20);
    await expect(page.getByTestId('done-count')).toHaveText('20');
    const before = await call(page, 'snapshot');
    expect(before.stale).toBe(false);
    // A subscriber hears the loss on the last frame (no new frame comes).
    await page.evaluate(() => {
      window.__heard = [];
      ringscope.subscribe((f) => window.__heard.push({ seq: f.seq, doneCount: f.doneCount, health: f.health, causes: f.causes || [] }));
    });
    const heard = () => page.evaluate(() => window.__heard);

    await page.evaluate(() => ringscope.__test.holdRecovery(true));
    await page.evaluate(() => ringscope.__test.loseDevice());
    await expect.poll(async () => (await heard()).at(-1)?.health).toBe('lost');
    const lostCall = (await heard()).at(-1);
    expect(lostCall.doneCount).toBe(20); // the last good frame, not a new one
    expect(lostCall.causes[0]).toBe('device-lost');
    expect(await heard()).toHaveLength(1); // told once

    const banner = page.getByTestId('stale-banner');
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('device lost (destroyed');
    await expect(banner).toContainText('DONE_COUNT 20');
    // The dashboard still shows the last good numbers, and the API serves
    // the same snapshot, marked stale.
    await expect(page.getByTestId('done-count')).toHaveText('20');
    const during = await call(page, 'snapshot');
    expect(during.stale).toBe(true);
    expect(during.recoveries).toBe(0);
    expect(during.observable).toEqual(before.observable);
    expect(during.telemetry.control.doneCount).toBe(20);
    await expect(page.getByTestId('recoveries')).toHaveText('0');

    await page.evaluate(() => ringscope.__test.holdRecovery(false));
    await expect(page.getByTestId('recoveries')).toHaveText('1');
    // Recovered, but nothing new is shown yet: still the old snapshot.
    await expect(banner).toContainText('recovered on a new device');
    // The next frame comes from the new device: the banner goes.
    await call(page, 'publish', [{ opcode: OP.ATOMIC_ADD, tenant: 1, priority: 0, args: [1, OBS] }]);
    const after = await call(page, 'drain', {});
    expect(after.telemetry.control.doneCount).toBe(21);
    expect(after.observable[0]).toBe(before.observable[0] + 1);
    await expect(banner).toHaveCount(0);
    await expect(page.getByTestId('done-count')).toHaveText('21');
    expect((await call(page, 'snapshot')).stale).toBe(false);
    const last = (await heard()).at(-1);
    expect(last.seq).toBeGreaterThan(lostCall.seq);
    expect(last.doneCount).toBe(21);
    expect(last.health).not.toBe('lost');
  });

  test('a loss the page did not cause (GPUDevice.destroy from outside) is noticed and recovered, live and idle', async ({ page }) => {
    test.setTimeout(60_000);
    // Keep a JS handle on every device the page gets, to destroy it behind
    // the Go binding's back: only device.lost tells the page.
    await page.addInitScript(() => {
      window.__devices = [];
      const request = GPUAdapter.prototype.requestDevice;
      GPUAdapter.prototype.requestDevice = async function (...args) {
        const d = await request.apply(this, args);
        window.__devices.push(d);
        return d;
      };
    });
    await gotoReady(page, '?slots=4096');
    const f0 = await waitFrames(page, 3);
    await page.evaluate(() => window.__devices.at(-1).destroy());
    await expect(page.getByTestId('recoveries')).toHaveText('1', { timeout: 20_000 });
    // The live default workload goes on, on the new device.
    await waitFrames(page, f0 + 20);
    await expect(page.getByTestId('status')).toHaveText('ready');
    await expect(page.getByTestId('stale-banner')).toHaveCount(0);
    expect(await page.evaluate(() => window.__devices.length)).toBe(2);

    // Paused: no operation meets the loss; the Lost channel does.
    await page.getByTestId('pause').click();
    await expect.poll(async () => (await call(page, 'snapshot')).running).toBe(false);
    await page.evaluate(() => window.__devices.at(-1).destroy());
    await expect(page.getByTestId('recoveries')).toHaveText('2', { timeout: 20_000 });
    const snap = await call(page, 'snapshot');
    expect(snap.lastLoss.cause).toBe('');
    expect(snap.lastLoss.recovered).toBe(true);
    await page.getByTestId('run').click();
    const f1 = await readNum(headerStat(page, 'frame'));
    await waitFrames(page, f1 + 5);
  });
});

test.describe('watchdog end to end', () => {
  test('a masked tenant with pending work stalls after N intervals; unmasking clears it', async ({ page }) => {
    test.setTimeout(60_000);
    await gotoReady(page, '?autostart=0');
    const opened = await call(page, 'open', { slots: 256, masks: [1, 0], watchdogIntervals: 5 });
    expect(opened.watchdogIntervals).toBe(5);
    expect(await call(page, 'publish', Array.from({ length: 6 }, () => ({ opcode: OP.NOP, tenant: 1, priority: 2 })))).toBe(6);

    // Frame by frame: the first observation has no interval; then one
    // stalled interval per frame, the alert at the fifth.
    const alert = page.getByTestId('stall-alert');
    const seen = [];
    for (let i = 0; i < 5; i++) {
      const s = await call(page, 'step');
      seen.push(s.watchdog.stalledIntervals);
      expect(s.watchdog.stalled, `frame ${i + 1}`).toBe(false);
      expect(s.doneCount).toBe(0);
    }
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    await expect(alert).toHaveCount(0);
    const s6 = await call(page, 'step');
    expect(s6.watchdog.stalledIntervals).toBe(5);
    expect(s6.watchdog.stalled).toBe(true);
    await expect(alert).toBeVisible();
    await expect(alert).toContainText('6 slots queued');
    await expect(alert).toContainText('for 5 intervals');

    // The live loop keeps observing: still stalled while it runs.
    await call(page, 'start');
    const frame = headerStat(page, 'frame');
    const f0 = await readNum(frame);
    await expect.poll(() => readNum(frame)).toBeGreaterThan(f0 + 5);
    await expect(alert).toBeVisible();
    await expect(headerStat(page, 'health')).toHaveText('STALLED');

    // Progress resumes: the alert clears, with the loop still running.
    await call(page, 'setTenantMask', 1, true);
    await expect(alert).toHaveCount(0);
    await expect(page.getByTestId('done-count')).toHaveText('6');
    const snap = await call(page, 'snapshot');
    expect(snap.running).toBe(true);
    expect(snap.watchdog.stalled).toBe(false);
    await call(page, 'stop');
    expect((await call(page, 'snapshot')).running).toBe(false);
  });

  test('SHUTDOWN with work pending stalls; clearing SHUTDOWN clears it', async ({ page }) => {
    test.setTimeout(60_000);
    await gotoReady(page, '?autostart=0');
    await call(page, 'open', { slots: 256, tenants: 2 });
    await call(page, 'publish', [{ opcode: OP.SHUTDOWN, tenant: 0, priority: 0 }]);
    const s1 = await call(page, 'step');
    expect(s1.doneCount).toBe(1);
    expect((await call(page, 'snapshot')).telemetry.control.shutdown).toBeTruthy();
    // Work published after the SHUTDOWN ran: the lanes no longer claim.
    await call(page, 'publish', Array.from({ length: 10 }, (_, i) => ({ opcode: OP.NOP, tenant: i % 2, priority: 2 })));
    await call(page, 'start');
    const alert = page.getByTestId('stall-alert');
    await expect(alert).toBeVisible();
    await expect(alert).toContainText('10 slots queued');
    let snap = await call(page, 'snapshot');
    expect(snap.watchdog.stalledIntervals).toBeGreaterThanOrEqual(3);
    expect(snap.telemetry.control.doneCount).toBe(1);

    expect((await api(page, 'setShutdown', 'no')).error).toMatch(/on must be a boolean/);
    await call(page, 'setShutdown', false);
    await expect(alert).toHaveCount(0);
    await expect(page.getByTestId('done-count')).toHaveText('11');
    snap = await call(page, 'snapshot');
    expect(snap.running).toBe(true);
    expect(snap.telemetry.control.shutdown).toBeFalsy();
    await call(page, 'stop');
  });

  test('a budget of 1 still progresses every submission (never a stall); budget 0 is refused', async ({ page }) => {
    test.setTimeout(60_000);
    await gotoReady(page, '?autostart=0');
    const r0 = await api(page, 'open', { slots: 1024, budget: 0 });
    expect(r0.error).toMatch(/^open: budget = 0: each lane needs at least one claim iteration/);
    // The smallest budget: each of the 64 lanes claims once per submission.
    const opened = await call(page, 'open', { slots: 1024, tenants: 1, budget: 1, workgroupSize: 64, workerGroups: 1, watchdogIntervals: 2 });
    const cap = opened.partitions[3] - opened.partitions[2];
    const n = Math.min(cap, 400);
    await call(page, 'publish', Array.from({ length: n }, () => ({ opcode: OP.SPIN, tenant: 0, priority: 2, args: [4, 0] })));
    let done = 0;
    for (let i = 0; done < n; i++) {
      const s = await call(page, 'step');
      expect(s.watchdog.stalled, `frame ${i + 1}`).toBe(false);
      expect(s.doneCount - done, 'one claim per lane per submission').toBe(Math.min(64, n - done));
      done = s.doneCount;
    }
    const snap = await call(page, 'snapshot');
    expect(snap.telemetry.control.budgetExhausted).toBeGreaterThan(0);
    await expect(page.getByTestId('stall-alert')).toHaveCount(0);
  });
});

test.describe('bad options and input', () => {
  test('invalid open options are refused before any GPU work; the ring and the page carry on', async ({ page }) => {
    test.setTimeout(60_000);
    await gotoReady(page, '?autostart=0');
    await call(page, 'open', { slots: 64, tenants: 2 });
    await call(page, 'publish', [{ opcode: OP.NOP, tenant: 0, priority: 2 }]);
    await call(page, 'drain', {});
    const before = await call(page, 'snapshot');
    const s0 = await stats(page);
    const tooMany = Array.from({ length: 65 }, (_, i) => 0x200 + i);
    const cases = [
      ['ring size 0', { slots: 0 }, /^open: slots = 0: a ring needs at least one slot/],
      ['ring past the host limit', { slots: 2 ** 24 + 1 }, /^open: slots = 16777217: at most 16777216 slots/],
      ['ring past the memory budget', { slots: 2 ** 24 }, /a ring of 16777216 slots needs \d+ bytes of device memory, more than the memory budget of 536870912 bytes/],
      ['budget 0', { budget: 0 }, /^open: budget = 0: each lane needs/],
      ['tenants 30', { tenants: 30 }, /^open: tenants = 30: tenant ids are 0 … 28/],
      ['30 tenant masks', { masks: Array(30).fill(1) }, /^open: masks = 30: at most 29 tenant masks/],
      ['workgroup 100', { workgroupSize: 100 }, /^open: workgroupSize = 100: want 0/],
      ['65 window opcodes', { windowOpcodes: tooMany }, /^open: windowOpcodes = 65: at most 64 window opcodes/],
      ['memory budget too small', { slots: 1024, memoryBudgetBytes: 4096 }, /a ring of 1024 slots needs \d+ bytes of device memory, more than the memory budget of 4096 bytes \(memoryBudgetBytes\)/],
      ['memoryBudgetBytes not an integer', { memoryBudgetBytes: 1.5 }, /memoryBudgetBytes must be an integer/],
      ['slots not a number', { slots: '64' }, /open: slots must be a number, got string/],
      ['negative slots', { slots: -1 }, /open: slots must be an integer/],
      ['watchdogIntervals 0', { watchdogIntervals: 0 }, /watchdogIntervals must be 1/],
      ['options not an object', 7, /options must be an object/],
      ['tenants 0', { tenants: 0 }, /^open: tenants must be 1…29, got 0 \(to open a ring with every tenant masked, give masks\)/],
    ];
    const seen = {};
    for (const [name, opts, want] of cases) {
      const r = await api(page, 'open', opts);
      expect(r.ok, name).toBe(false);
      expect(r.error, name).toMatch(want);
      seen[name] = r.error;
    }
    test.info().annotations.push({ type: 'refusals', description: JSON.stringify(seen, null, 1) });
    // No GPU work: the device's counters did not move, and the ring is the
    // one opened before (same generation, same data).
    expect(await stats(page)).toEqual(s0);
    const after = await call(page, 'snapshot');
    expect(after.telemetry.control.generation).toBe(before.telemetry.control.generation);
    expect(after.telemetry.control.doneCount).toBe(1);
    expect(after.published).toBe(before.published);
    await expect(page.getByTestId('status')).toHaveText('ready');

    // A valid call still works.
    const ok = await call(page, 'open', { slots: 128, tenants: 3, windowOpcodes: tooMany.slice(0, 64) });
    expect(ok.generation).toBe(before.telemetry.control.generation + 1);
    await call(page, 'publish', [{ opcode: OP.NOP, tenant: 2, priority: 0 }]);
    expect((await call(page, 'drain', {})).telemetry.control.doneCount).toBe(1);
  });

  test('bad publish items are refused whole, before any GPU work; unknown opcodes only on request', async ({ page }) => {
    test.setTimeout(60_000);
    await gotoReady(page, '?autostart=0');
    await call(page, 'open', { slots: 64, tenants: 2 });
    const s0 = await stats(page);
    const good = { opcode: OP.NOP, tenant: 0, priority: 2 };
    const cases = [
      ['tenant 29', [good, { opcode: 0, tenant: 29, priority: 0 }], /publish: item 1: tenant 29 is invalid: tenant ids are 0…28/],
      ['reserved opcode', [{ opcode: 0xfff5, tenant: 0, priority: 0 }], /opcode 0xfff5 is a reserved system opcode/],
      ['system-bit opcode', [{ opcode: 0x80000001, tenant: 0, priority: 0 }], /reserved system opcode/],
      ['unknown opcode', [good, { opcode: 9, tenant: 0, priority: 0 }], /publish: item 1: opcode 0x9 is unknown.*UNKNOWN_OPCODE/],
      ['opcode past 2^32', [{ opcode: 2 ** 32, tenant: 0, priority: 0 }], /opcode must be an integer/],
      ['13 args', [{ opcode: 0, tenant: 0, priority: 0, args: Array(13).fill(0) }], /13 args/],
    ];
    for (const [name, items, want] of cases) {
      const r = await api(page, 'publish', items);
      expect(r.error, name).toMatch(want);
    }
    expect(await stats(page)).toEqual(s0);
    const snap = await call(page, 'snapshot');
    expect(snap.published).toBe(0);
    expect(snap.pending).toBe(0);

    // Asked for explicitly, the unknown opcode is published and faults on
    // the device, as PROTOCOL §4 says.
    expect(await call(page, 'publish', [{ opcode: 9, tenant: 0, priority: 0 }], { allowUnknownOpcodes: true })).toBe(1);
    const d = await call(page, 'drain', {});
    expect(d.telemetry.occupancy.fault).toBe(1);
    expect(d.log.records.some((r) => r.format === (0xffff0000 | 1) >>> 0)).toBe(true);
  });

  for (const [query, want] of [
    ['slots=0', /^error: URL parameter slots="0": ring slots must be/],
    ['budget=0', /^error: URL parameter budget="0": budget must be/],
    ['wg=100', /^error: URL parameter wg="100": workgroup width/],
    ['tenants=30', /^error: URL parameter tenants="30": tenants must be/],
    ['slots=4194304', /^error: URL parameter slots="4194304": a ring of 4194304 slots needs \d+ bytes of device memory/],
    [`windows=${Array.from({ length: 65 }, (_, i) => 0x200 + i).join(',')}`, /^error: URL parameter windows=".*": megakernel: option WindowOpcodes = 65/],
  ]) {
    test(`bad URL parameter ${query.slice(0, 20)} names it; the page still works`, async ({ page }) => {
      test.setTimeout(60_000);
      await page.goto(`/?${query}`);
      const status = page.getByTestId('status');
      await expect(status).toHaveText(want, { timeout: 30_000 });
      const reason = await page.evaluate(() => ringscope.ready.then(() => 'resolved', (e) => String(e?.message ?? e)));
      expect(reason).toMatch(/URL parameter/);
      // Nothing runs on the bad settings; a valid open works.
      const opened = await call(page, 'open', { slots: 64, tenants: 1 });
      expect(opened.slots).toBe(64);
      await call(page, 'publish', [{ opcode: OP.NOP, tenant: 0, priority: 0 }]);
      expect((await call(page, 'drain', {})).telemetry.control.doneCount).toBe(1);
      await expect(status).toHaveText('ready');
    });
  }

  test('an Apply the runner refuses shows why and leaves the previous ring running', async ({ page }) => {
    test.setTimeout(60_000);
    await gotoReady(page, '?slots=4096');
    await waitFrames(page, 2);
    const generation = await readNum(page.getByTestId('generation'));
    const windows = page.getByTestId('setting-windowopcodes');
    await windows.fill(Array.from({ length: 65 }, (_, i) => 0x200 + i).join(','));
    await windows.dispatchEvent('change');
    // The form's own checks pass; the runner's do not.
    await expect(page.getByTestId('settings-errors')).toHaveCount(0);
    await page.getByTestId('apply-settings').click();
    const err = page.getByTestId('apply-error');
    await expect(err).toContainText('not applied, the previous ring keeps running');
    await expect(err).toContainText('option WindowOpcodes = 65: at most 64 window opcodes');
    await expect(page.getByTestId('status')).toHaveText('ready');
    const f0 = await readNum(headerStat(page, 'frame'));
    await waitFrames(page, f0 + 5);
    await expect(page.getByTestId('generation')).toHaveText(generation.toLocaleString('en-US'));
    await expect(page.getByTestId('occupancy-total')).toHaveText('4,096');

    // Too big for the memory budget: refused the same way.
    const slots = page.getByTestId('setting-ringslots');
    await windows.fill('0x100');
    await windows.dispatchEvent('change');
    await slots.fill('4194304');
    await slots.dispatchEvent('change');
    await page.getByTestId('apply-settings').click();
    await expect(err).toContainText(/a ring of 4194304 slots needs \d+ bytes of device memory, more than the memory budget/);
    await expect(page.getByTestId('occupancy-total')).toHaveText('4,096');

    // A valid Apply clears the error.
    await slots.fill('2048');
    await slots.dispatchEvent('change');
    await page.getByTestId('apply-settings').click();
    await expect(err).toHaveCount(0);
    await expect(page.getByTestId('occupancy-total')).toHaveText('2,048');
    await expect(page.getByTestId('generation')).toHaveText((generation + 1).toLocaleString('en-US'));
  });
});
