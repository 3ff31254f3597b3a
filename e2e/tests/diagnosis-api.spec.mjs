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

test('publish refuses a tenant the ring does not run, naming the item and the ring\'s tenants', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  await call(page, 'open', { slots: 64, tenants: 2 });
  const before = await call(page, 'snapshot');
  const r = await api(page, 'publish', [{ opcode: OP.NOP, tenant: 1, priority: 2 }, { opcode: OP.NOP, tenant: 5, priority: 2 }]);
  expect(r.error).toBe('publish: item 1: tenant 5 is not one the ring runs (it runs tenants 0…1: open({tenants: 6}) runs more); ' +
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
