// The diagnosis through the JS API (issue 30): drain() says why it stopped,
// publish refuses work no tenant of the ring would run, and each cause kind
// is produced by what an embedder publishes and cleared by what the cause's
// fix says, the verdict shown alike in snapshot(), the header and the
// metrics. Real Chromium on SwiftShader, the e2e build of the page.
import { test, expect, gotoReady, headerStat } from './fixtures.mjs';

const OP = { NOP: 0, ATOMIC_ADD: 2, SPIN: 0x101, YIELD: 0xfff0, REQUEUE: 0xfff1, WAIT_IO: 0xfff2, PRINTF: 0xfffe };

// api calls a ringscope method in the page and returns {value} or {error}.
function api(page, name, ...args) {
  return page.evaluate(
    async ([name, args]) => {
      try {
        return { value: await window.ringscope[name](...args) };
      } catch (e) {
        return { error: String(e?.message ?? e) };
      }
    },
    [name, args],
  );
}

// call is api that expects the call to resolve.
async function call(page, name, ...args) {
  const r = await api(page, name, ...args);
  expect(r.error, `ringscope.${name}`).toBeUndefined();
  return r.value;
}

const items = (n, item) => Array.from({ length: n }, (_, i) => (typeof item === 'function' ? item(i) : { ...item }));

test('drain() with a masked tenant stops on no progress, names the tenant and the cause', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  const opened = await call(page, 'open', { slots: 4096, tenants: 2 });
  await call(page, 'setTenantMask', 1, false);
  await call(page, 'publish', items(500, { opcode: OP.NOP, tenant: 1, priority: 2 }));
  await call(page, 'publish', items(20, { opcode: OP.NOP, tenant: 0, priority: 3 }));

  const d = await call(page, 'drain', { maxSubmissions: 64 });
  expect(d.outcome).toBe('no-progress');
  // Bounded: the watchdog's N (3) stalled submissions after its first
  // look, and at most 2 more while the verdict settles; well below the cap.
  expect(opened.watchdogIntervals).toBe(3);
  expect(d.submissions).toBeGreaterThanOrEqual(4);
  expect(d.submissions).toBeLessThanOrEqual(6);
  expect(d.report.dispatchCount).toBe(d.submissions);
  expect(d.report.itemsRemaining).toBe(500);
  expect(d.telemetry.control.doneCount).toBe(20);
  expect(d.stuck.byTenant).toEqual({ 1: 500 });
  expect(d.stuck.byPriority).toEqual({ 2: 500 });
  expect(d.stuck.byStatus).toEqual({ published: 0, claimed: 0, waitIO: 0, yield: 500, requeue: 0 });
  expect(d.diagnosis.health).toBe('stalled');
  expect(d.diagnosis.causes[0].kind).toBe('masked-tenant');
  expect(d.diagnosis.causes[0].subject).toEqual({ tenant: 1 });
  expect(d.diagnosis.causes[0].evidence.slots).toBe(500);
  expect(d.diagnosis.causes[0].fix).toContain('setTenantMask(1, true)');
  // The page shows the drain's verdict, and snapshot() is the same.
  await expect(headerStat(page, 'health')).toHaveText('STALLED');
  await expect(headerStat(page, 'cause')).toHaveText('masked-tenant · tenant 1');
  expect((await call(page, 'snapshot')).diagnosis).toEqual(d.diagnosis);

  // Unmasked, the next drain empties the ring in one submission.
  await call(page, 'setTenantMask', 1, true);
  const e = await call(page, 'drain');
  expect(e.outcome).toBe('empty');
  expect(e.submissions).toBe(1);
  expect(e.telemetry.control.doneCount).toBe(520);
  expect(e.stuck).toEqual({ byTenant: {}, byPriority: {}, byStatus: { published: 0, claimed: 0, waitIO: 0, yield: 0, requeue: 0 } });
  // And with nothing left, none.
  const again = await call(page, 'drain');
  expect(again.outcome).toBe('empty');
  expect(again.submissions).toBe(0);
});

// drain() judges every submission, so whatever holds the work, the result
// names it: SHUTDOWN (known at once), a requeue loop (its rule looks at 3
// frames and confirms over 2: the watchdog's stall and the verdict agree
// at the fourth submission).
for (const [name, setup, kind, most] of [
  ['SHUTDOWN', async (page) => {
    await call(page, 'publish', items(10, { opcode: OP.NOP, tenant: 0, priority: 2 }));
    await call(page, 'setShutdown', true);
  }, 'shutdown', 4],
  ['a requeue loop', async (page) => {
    await call(page, 'publish', items(16, { opcode: OP.REQUEUE, tenant: 0, priority: 3 }));
  }, 'requeue-loop', 4],
]) {
  test(`drain() held by ${name} resolves no-progress naming ${kind}`, async ({ page }) => {
    await gotoReady(page, '?autostart=0');
    await call(page, 'open', { slots: 256, tenants: 1 });
    await setup(page);
    const d = await call(page, 'drain');
    expect(d.outcome).toBe('no-progress');
    expect(d.submissions).toBeLessThanOrEqual(most);
    expect(d.diagnosis.health).toBe('stalled');
    expect(d.diagnosis.causes[0].kind).toBe(kind);
    await expect(headerStat(page, 'cause')).toHaveText(new RegExp(`^${kind}`));
  });
}

test('drain() stops at maxSubmissions while work still completes', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  // 64 lanes of one claim each: 640 items need ten submissions.
  await call(page, 'open', { slots: 4096, tenants: 1, budget: 1, workgroupSize: 64, workerGroups: 1 });
  await call(page, 'publish', items(640, { opcode: OP.NOP, tenant: 0, priority: 2 }));
  const d = await call(page, 'drain', { maxSubmissions: 2 });
  expect(d.outcome).toBe('max-submissions');
  expect(d.submissions).toBe(2);
  expect(d.telemetry.control.doneCount).toBe(128);
  expect(d.stuck.byTenant).toEqual({ 0: 512 });
  expect(d.stuck.byStatus.published).toBe(512);
});

test('drain() cut short by device losses past its retries resolves lost, with what the host copy holds', async ({ page }) => {
  test.setTimeout(90_000);
  await gotoReady(page, '?autostart=0');
  // 64 lanes of one claim each: 2,048 items take 32 submissions, time for
  // three losses, one more than the page retries a call after.
  const opened = await call(page, 'open', { slots: 4096, tenants: 1, budget: 1, workgroupSize: 64, workerGroups: 1 });
  const per = opened.partitions[1] - opened.partitions[0];
  const work = [];
  for (let p = 0; p < 5 && work.length < 2048; p++) work.push(...items(Math.min(per, 2048 - work.length), { opcode: OP.NOP, tenant: 0, priority: p }));
  await call(page, 'publish', work);
  const r = await page.evaluate(async () => {
    const drained = ringscope.drain({ maxSubmissions: 500 }).then((v) => ({ v }), (e) => ({ error: e.message }));
    for (let k = 0; k < 3; k++) {
      const lost = await ringscope.__test.loseDevice({ afterSubmits: 4 });
      if (k === 2) break;
      // Wait for the recovered device (its own submission count).
      const t0 = performance.now();
      while ((await ringscope.__test.deviceStats()).submits >= lost.submits) {
        if (performance.now() - t0 > 30_000) return { error: 'no recovery' };
        await new Promise((res) => setTimeout(res, 1));
      }
    }
    return drained;
  });
  expect(r.error).toBeUndefined();
  const d = r.v;
  expect(d.outcome).toBe('lost');
  expect(d.error).toMatch(/device lost|destroyed/i);
  expect(d.telemetry.control.doneCount, 'some work done before the last loss').toBeGreaterThan(0);
  expect(d.telemetry.control.doneCount).toBeLessThan(2048);
  const left = 2048 - d.telemetry.control.doneCount;
  expect(Object.values(d.stuck.byPriority).reduce((a, b) => a + b, 0), 'stuck counts the work left').toBe(left);
  // The page recovered: the next drain finishes the work, exactly.
  const e = await call(page, 'drain', { maxSubmissions: 200 });
  expect(e.outcome).toBe('empty');
  expect(e.telemetry.control.doneCount).toBe(2048);
  expect((await call(page, 'snapshot')).recoveries).toBe(3);
});

test('publish refuses a tenant the ring does not run, naming the item and the ring\'s tenants', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  await call(page, 'open', { slots: 64, tenants: 2 });
  const before = await call(page, 'snapshot');
  const r = await api(page, 'publish', [{ opcode: OP.NOP, tenant: 1, priority: 2 }, { opcode: OP.NOP, tenant: 5, priority: 2 }]);
  expect(r.error).toBe('publish: item 1: tenant 5 is not one the ring runs (it runs tenants 0…1: open({tenants: 6}) runs every tenant these items use); ' +
    'its work would wait forever, nothing published');
  expect((await call(page, 'snapshot')).published).toBe(before.published);
  // masks: the ring runs one tenant per mask word, masked or not.
  await call(page, 'open', { slots: 64, masks: [0xffffffff, 0, 0xffffffff] });
  expect(await call(page, 'publish', [{ opcode: OP.NOP, tenant: 2, priority: 2 }])).toBe(1);
  expect((await api(page, 'publish', [{ opcode: OP.NOP, tenant: 3, priority: 2 }])).error).toMatch(/item 0: tenant 3 is not one the ring runs \(it runs tenants 0…2/);
  // The Kernel panel's publishWorkload follows the same rule.
  await call(page, 'open', { slots: 64, tenants: 1 });
  expect((await api(page, 'publishWorkload', { opcode: OP.NOP, count: 4, tenants: 2 })).error)
    .toMatch(/^publishWorkload: workload.tenants 2: publish: item 1: tenant 1 is not one the ring runs \(it runs tenant 0 only/);
});

test('setIOService(false) leaves WAIT_IO slots waiting: drain() says no-progress with wait-io; on again, they complete', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  await call(page, 'open', { slots: 256, tenants: 1 });
  expect(await call(page, 'setIOService', false)).toBe(false);
  expect((await api(page, 'setIOService', 'off')).error).toBe('setIOService: on must be a boolean, got string');
  await call(page, 'publish', items(3, { opcode: OP.WAIT_IO, tenant: 0, priority: 2, args: [7] }));
  const d = await call(page, 'drain');
  expect(d.outcome).toBe('no-progress');
  expect(d.submissions).toBeLessThanOrEqual(5);
  expect(d.stuck.byStatus.waitIO).toBe(3);
  expect(d.diagnosis.causes[0].kind).toBe('wait-io');
  expect(d.diagnosis.causes[0].subject).toEqual({ opcode: OP.WAIT_IO, name: 'WAIT_IO' });
  expect(d.diagnosis.causes[0].evidence).toMatchObject({ slots: 3, waiting: 3 });
  expect(d.diagnosis.causes[0].fix).toContain('setIOService(true)');
  // The page's service holds across open.
  await call(page, 'open', { slots: 256, tenants: 1 });
  await call(page, 'publish', items(2, { opcode: OP.WAIT_IO, tenant: 0, priority: 2, args: [7] }));
  expect((await call(page, 'drain')).stuck.byStatus.waitIO).toBe(2);
  await call(page, 'setIOService', true);
  const e = await call(page, 'drain');
  expect(e.outcome).toBe('empty');
  expect(e.telemetry.control.doneCount).toBe(2);
});

// ---------------------------------------------------------------------------
// One scenario per cause kind (docs/DIAGNOSIS.md): open a small ring, publish
// what causes it, step frames until the diagnosis names it, check the API,
// the header and the metrics agree, then apply the cause's fix and step
// until health is progressing (or idle, once drained) with no cause left.
// The rules' hysteresis (decode/diagnose): a cause shows once its rule held
// for 2 frames (shutdown at once) and clears after it failed for 3; rules
// over the window look back 8 frames.

const WINDOW = 8;
const CONFIRM = 2;
const CLEAR = 3;

// stepFrames runs up to n live frames with step(), first publishing each of
// batches (a refusal for a full partition is the point of some scenarios,
// so it is counted, not thrown), waiting gapMs before each step, and stops
// early once until holds: {kind} (a cause of that kind is active) or
// {clear: true} (no cause, health progressing or idle; {clear, health}:
// that health). It returns each
// frame's {health, kinds} and the refusals.
function stepFrames(page, n, { batches = [], gapMs = 0, allowUnknownOpcodes = false, until = null } = {}) {
  return page.evaluate(
    async ({ n, batches, gapMs, allowUnknownOpcodes, until }) => {
      const frames = [];
      let refused = 0;
      for (let i = 0; i < n; i++) {
        for (const b of batches) {
          try {
            await ringscope.publish(b, { allowUnknownOpcodes });
          } catch (e) {
            if (!/partition is full/.test(e.message)) throw e;
            refused += b.length;
          }
        }
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
        const s = await ringscope.step();
        const d = s.diagnosis;
        frames.push({ health: d.health, kinds: d.causes.map((c) => c.kind) });
        if (until?.kind && d.causes.some((c) => c.kind === until.kind)) break;
        if (until?.clear && d.causes.length === 0 && (until.health ? [until.health] : ['progressing', 'idle']).includes(d.health)) break;
      }
      return { frames, refused };
    },
    { n, batches, gapMs, allowUnknownOpcodes, until },
  );
}

// expectCause checks the verdict names kind about subject in snapshot(),
// the header (its first cause, header text) and the metrics, and returns
// the cause.
async function expectCause(page, kind, subject, header) {
  const d = (await call(page, 'snapshot')).diagnosis;
  const c = d.causes.find((x) => x.kind === kind);
  expect(c, `a ${kind} cause in ${JSON.stringify(d.causes.map((x) => x.kind))}`).toBeDefined();
  expect(c.subject).toEqual(subject);
  expect(c.fix).toBeTruthy();
  await expect(headerStat(page, 'cause')).toHaveText(header);
  await expect(page.locator(`[data-testid="cause"][data-kind="${kind}"]`).first()).toBeVisible();
  const metrics = await call(page, 'exportMetrics');
  expect(metrics).toContain(`ringscope_cause{kind="${kind}"} 1`);
  return { d, c };
}

// expectCleared steps until the verdict clears, within n frames, and
// checks the header and the metrics followed. With a load (batches) it
// waits for progressing: a ring's first frame after open has no frame
// before it to see work complete, and says idle.
async function expectCleared(page, kind, n, opts = {}) {
  const health = opts.batches ? 'progressing' : undefined;
  const r = await stepFrames(page, n, { ...opts, until: { clear: true, health } });
  const last = r.frames.at(-1);
  expect(last, `cleared within ${n} frames: ${JSON.stringify(r.frames)}`).toMatchObject({ kinds: [] });
  expect(['progressing', 'idle']).toContain(last.health);
  await expect(headerStat(page, 'health')).toHaveText(last.health);
  expect(await call(page, 'exportMetrics')).toContain(`ringscope_cause{kind="${kind}"} 0`);
  return r;
}

test.describe('a scenario per cause kind', () => {
  test.beforeEach(async ({ page }) => {
    await gotoReady(page, '?autostart=0');
  });

  test('masked-tenant: stalled, naming the tenant; unmasked, it runs', async ({ page }) => {
    await call(page, 'open', { slots: 256, tenants: 2 });
    await call(page, 'setTenantMask', 1, false);
    await call(page, 'publish', items(20, { opcode: OP.NOP, tenant: 1, priority: 2 }));
    const r = await stepFrames(page, 8, { until: { kind: 'masked-tenant' } });
    expect(r.frames.length, 'confirmed in its second frame').toBe(CONFIRM);
    const { c } = await expectCause(page, 'masked-tenant', { tenant: 1 }, 'masked-tenant · tenant 1');
    expect(c.evidence.slots).toBe(20);
    // Three more frames with nothing done: the watchdog's stall.
    await stepFrames(page, 3);
    expect((await call(page, 'snapshot')).diagnosis.health).toBe('stalled');
    await expect(headerStat(page, 'health')).toHaveText('STALLED');

    await call(page, 'setTenantMask', 1, true);
    await expectCleared(page, 'masked-tenant', 2 + CLEAR);
    expect((await call(page, 'snapshot')).telemetry.control.doneCount).toBe(20);
  });

  test('wait-io: WAIT_IO and no IO service; setIOService(true) services them', async ({ page }) => {
    await call(page, 'open', { slots: 256, tenants: 1 });
    await call(page, 'setIOService', false);
    await call(page, 'publish', items(5, { opcode: OP.WAIT_IO, tenant: 0, priority: 2, args: [9] }));
    const r = await stepFrames(page, 8, { until: { kind: 'wait-io' } });
    expect(r.frames.length).toBe(CONFIRM);
    const { c } = await expectCause(page, 'wait-io', { opcode: OP.WAIT_IO, name: 'WAIT_IO' }, 'wait-io · WAIT_IO (0xfff2)');
    expect(c.evidence).toMatchObject({ slots: 5, waiting: 5 });

    await call(page, 'setIOService', true);
    await expectCleared(page, 'wait-io', 2 + CLEAR);
    expect((await call(page, 'snapshot')).telemetry.control.doneCount).toBe(5);
  });

  test('requeue-loop: REQUEUE slots that never complete; a new ring with work that completes', async ({ page }) => {
    await call(page, 'open', { slots: 256, tenants: 1 });
    await call(page, 'publish', items(16, { opcode: OP.REQUEUE, tenant: 0, priority: 3 }));
    // The rule looks at 3 frames at least, then confirms over 2.
    const r = await stepFrames(page, 10, { until: { kind: 'requeue-loop' } });
    expect(r.frames.length).toBe(3 + CONFIRM - 1);
    const { c } = await expectCause(page, 'requeue-loop', { name: 'REQUEUE' }, 'requeue-loop · REQUEUE');
    expect(c.evidence.requeues).toBeGreaterThanOrEqual(16);
    expect(c.evidence.completed).toBe(0);

    // The fix is in the opcode: give it an exit. Here, a ring whose work
    // completes, under the same load.
    await call(page, 'open', { slots: 256, tenants: 1 });
    await expectCleared(page, 'requeue-loop', 4, { batches: [items(16, { opcode: OP.NOP, tenant: 0, priority: 3 })] });
    expect((await call(page, 'snapshot')).diagnosis.health).toBe('progressing');
  });

  test('fault-storm: a third of the completions fault; clean work clears it once the window passes', async ({ page }) => {
    await call(page, 'open', { slots: 1024, tenants: 1 });
    const good = items(40, { opcode: OP.NOP, tenant: 0, priority: 2 });
    const bad = items(20, { opcode: 9, tenant: 0, priority: 2 }); // no such opcode: UNKNOWN_OPCODE
    const r = await stepFrames(page, 10, { batches: [good, bad], allowUnknownOpcodes: true, until: { kind: 'fault-storm' } });
    // The window must hold 64 completions (FaultMinDone): 120 after the
    // third frame; then 2 to confirm.
    expect(r.frames.length).toBe(3 + CONFIRM - 1);
    // The page names opcodes as its panels do (ui.OpcodeName).
    const { d, c } = await expectCause(page, 'fault-storm', { opcode: 9, name: 'USER(0x9)' }, 'fault-storm · USER(0x9)');
    expect(d.health).toBe('degraded');
    expect(c.evidence.share).toBeCloseTo(1 / 3, 1);
    expect(c.evidence.topFault).toBe('UNKNOWN_OPCODE');

    // Faults leave the 8-frame window, then the cause clears.
    await expectCleared(page, 'fault-storm', WINDOW + CLEAR + 1, { batches: [good] });
    expect((await call(page, 'snapshot')).diagnosis.health).toBe('progressing');
  });

  test('starvation: a tenant queued behind another\'s backlog for over a second; claimed, it clears', async ({ page }) => {
    // 64 lanes of one claim each: the ring claims 64 items a frame, FIFO
    // in a partition. Tenant 0's 640-item backlog is ahead of tenant 1's 8.
    await call(page, 'open', { slots: 4096, tenants: 2, budget: 1, workgroupSize: 64, workerGroups: 1 });
    await call(page, 'publish', items(640, { opcode: OP.NOP, tenant: 0, priority: 2 }));
    await call(page, 'publish', items(8, { opcode: OP.NOP, tenant: 1, priority: 2 }));
    // Frames 200 ms apart: tenant 1's work ages 1 s within 6 frames, while
    // tenant 0 completes 64 a frame.
    const r = await stepFrames(page, 10, { gapMs: 200, until: { kind: 'starvation' } });
    expect(r.frames.at(-1).kinds).toContain('starvation');
    const { c } = await expectCause(page, 'starvation', { tenant: 1 }, 'starvation · tenant 1');
    expect(c.evidence.hotTenant).toBe(0);
    expect(c.evidence.hotShare).toBe(1);
    expect(c.evidence.ageMs).toBeGreaterThanOrEqual(1000);
    expect(c.evidence.slots).toBe(8);

    // The backlog drains, tenant 1 is claimed, and the cause clears.
    await expectCleared(page, 'starvation', 10 + CLEAR);
    expect((await call(page, 'snapshot')).telemetry.control.doneCount).toBeGreaterThanOrEqual(640);
  });

  test('priority-inversion: CRITICAL work parked on WAIT_IO while NORMAL runs; serviced, it clears', async ({ page }) => {
    // Through the API, CRITICAL work goes unclaimed only while parked:
    // WAIT_IO with the IO service off (a lock it waits on). The inversion
    // is listed first; wait-io names the parking, its means.
    await call(page, 'open', { slots: 4096, tenants: 1, budget: 1, workgroupSize: 64, workerGroups: 1 });
    await call(page, 'setIOService', false);
    await call(page, 'publish', items(4, { opcode: OP.WAIT_IO, tenant: 0, priority: 0, args: [1] }));
    // 48 a frame, under the 64 claims a frame of budget 1 × 64 lanes: the
    // ring keeps up once CRITICAL is serviced (no budget cause).
    const normal = items(48, { opcode: OP.NOP, tenant: 0, priority: 2 });
    const r = await stepFrames(page, 12, { batches: [normal], gapMs: 200, until: { kind: 'priority-inversion' } });
    expect(r.frames.at(-1).kinds).toContain('priority-inversion');
    const { d, c } = await expectCause(page, 'priority-inversion', { priority: 0 }, 'priority-inversion · priority 0 CRITICAL');
    expect(d.causes.map((x) => x.kind), 'the inversion first, its means after').toEqual(['priority-inversion', 'wait-io']);
    expect(c.evidence.lowerPriority).toBe(2);
    expect(c.evidence.lowerClaims).toBeGreaterThan(0);
    expect(c.evidence.ageMs).toBeGreaterThanOrEqual(1000);

    await call(page, 'setIOService', true);
    await expectCleared(page, 'priority-inversion', 2 + CLEAR + 2, { batches: [normal] });
  });

  test('budget: lanes spend their budget every frame while the queue grows; a larger budget keeps up', async ({ page }) => {
    await call(page, 'open', { slots: 4096, tenants: 1, budget: 1, workgroupSize: 64, workerGroups: 1 });
    const load = items(96, { opcode: OP.NOP, tenant: 0, priority: 2 }); // 64 claimed a frame: the queue grows by 32
    // The rule wants 4 frames of exhaustion after a first, then 2 to confirm.
    const r = await stepFrames(page, 10, { batches: [load], until: { kind: 'budget' } });
    expect(r.frames.length).toBe(4 + 1 + CONFIRM - 1);
    const { d, c } = await expectCause(page, 'budget', {}, 'budget');
    expect(d.health).toBe('degraded');
    expect(c.evidence.budget).toBe(1);
    expect(c.evidence.backlogGrowth).toBeGreaterThan(0);
    expect(c.evidence.backlog).toBeGreaterThan(0);
    expect(c.fix).toContain('open({budget: 2})');

    await call(page, 'open', { slots: 4096, tenants: 1, budget: 64, workgroupSize: 64, workerGroups: 1 });
    await expectCleared(page, 'budget', 4, { batches: [load] });
    expect((await call(page, 'snapshot')).diagnosis.health).toBe('progressing');
  });

  test('back-pressure: publishes refused by a full partition; publishing what fits clears it', async ({ page }) => {
    const opened = await call(page, 'open', { slots: 4096, tenants: 1, budget: 1, workgroupSize: 64, workerGroups: 1 });
    const capacity = opened.partitions[3] - opened.partitions[2];
    await call(page, 'publish', items(capacity, { opcode: OP.NOP, tenant: 0, priority: 2 }));
    // Each frame frees 64 slots; the producer offers 64 and 16 more.
    const fits = items(64, { opcode: OP.NOP, tenant: 0, priority: 2 });
    const extra = items(16, { opcode: OP.NOP, tenant: 0, priority: 2 });
    const r = await stepFrames(page, 6, { batches: [fits, extra], until: { kind: 'back-pressure' } });
    expect(r.refused).toBeGreaterThan(0);
    const { d, c } = await expectCause(page, 'back-pressure', { priority: 2 }, 'back-pressure · priority 2 NORMAL');
    expect(d.health).toBe('degraded');
    expect(c.evidence.refused).toBeGreaterThanOrEqual(16);
    expect(c.evidence.capacity).toBe(capacity);
    expect(c.fix).toContain('partition is full');

    // What fits only: the refusals leave the window, then the cause clears.
    await expectCleared(page, 'back-pressure', WINDOW + CLEAR + 1, { batches: [fits] });
    expect((await call(page, 'snapshot')).diagnosis.health).toBe('progressing');
  });

  test('shutdown: SHUTDOWN with work queued, at once; cleared, the work runs', async ({ page }) => {
    await call(page, 'open', { slots: 256, tenants: 1 });
    await call(page, 'publish', items(10, { opcode: OP.NOP, tenant: 0, priority: 2 }));
    await call(page, 'setShutdown', true);
    const r = await stepFrames(page, 4, { until: { kind: 'shutdown' } });
    expect(r.frames.length, 'the host knows it for certain: its first frame').toBe(1);
    const { c } = await expectCause(page, 'shutdown', {}, 'shutdown');
    expect(c.evidence.queued).toBe(10);
    expect(c.fix).toContain('setShutdown(false)');

    await call(page, 'setShutdown', false);
    await expectCleared(page, 'shutdown', 1 + CLEAR);
    expect((await call(page, 'snapshot')).telemetry.control.doneCount).toBe(10);
  });

  test('log-overflow: a frame writes more records than the log holds; a larger log keeps them', async ({ page }) => {
    await call(page, 'open', { slots: 256, tenants: 1, logCapacity: 8 });
    const printfs = items(40, (i) => ({ opcode: OP.PRINTF, tenant: 0, priority: 2, args: [1, i, 7] }));
    const r = await stepFrames(page, 6, { batches: [printfs], until: { kind: 'log-overflow' } });
    expect(r.frames.length).toBeLessThanOrEqual(1 + CONFIRM);
    const { c } = await expectCause(page, 'log-overflow', {}, 'log-overflow');
    expect(c.evidence.capacity).toBe(8);
    expect(c.evidence.recordsPerFrame).toBe(40);
    expect(c.fix).toContain('logCapacity: 80');

    await call(page, 'open', { slots: 256, tenants: 1, logCapacity: 4096 });
    await expectCleared(page, 'log-overflow', 3, { batches: [printfs] });
    expect((await call(page, 'snapshot')).diagnosis.health).toBe('progressing');
  });
});
