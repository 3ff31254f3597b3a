// Queue waits (issue 30, item 2): the host times every item from its
// publish to the frame that shows its slot ended, per tenant and per
// priority; snapshot().waits, the Waits panel and the metrics show them.
// Real Chromium on SwiftShader, the real server.
import { test, expect, gotoReady, waitFrames } from './fixtures.mjs';

// samples parses metrics text into {name{labels}: value} (as
// metrics.spec.mjs does; importing a spec would run its tests here too).
function samples(text) {
  const out = {};
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    out[line.slice(0, i)] = Number(line.slice(i + 1));
  }
  return out;
}

test('default-mix: snapshot().waits, the Waits panel and the metrics show per-tenant waits', async ({ page }) => {
  await gotoReady(page);
  await waitFrames(page, 10);
  const w = await page.evaluate(async () => (await ringscope.snapshot()).waits);
  expect(w.tenant).toHaveLength(32);
  expect(w.priority).toHaveLength(5);
  const ended = w.priority.reduce((n, s) => n + s.count, 0);
  expect(ended, 'items ended and were timed').toBeGreaterThan(0);
  expect(w.tenant.reduce((n, s) => n + s.count, 0), 'each ended item in one tenant and one priority').toBe(ended);
  const t0 = w.tenant[0];
  expect(t0.count).toBeGreaterThan(0);
  expect(t0.p50).toBeGreaterThanOrEqual(0);
  expect(t0.p99).toBeGreaterThanOrEqual(t0.p50);
  expect(t0.max).toBeGreaterThanOrEqual(t0.p99);
  for (const k of ['waiting', 'oldestAge', 'sum']) expect(t0).toHaveProperty(k);

  const panel = page.getByTestId('waits-panel');
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId('waits-priority').locator('tbody tr')).toHaveCount(5);
  // default-mix's 8 tenants all publish: a row each, with its p99.
  await expect(panel.getByTestId('waits-tenant').locator('tbody tr')).toHaveCount(8);
  await expect(panel.getByTestId('waits-tenant-0').locator('td').nth(4)).toHaveText(/\d( |\.)/);

  const om = samples(await page.evaluate(() => ringscope.exportMetrics()));
  expect(om['ringscope_tenant_queue_wait_seconds_count{tenant="0"}']).toBeGreaterThan(0);
  // Keys hold dots and braces, which toHaveProperty would read as a path.
  expect(Object.keys(om)).toContain('ringscope_tenant_queue_wait_seconds{tenant="0",quantile="0.99"}');
  expect(Object.keys(om)).toContain('ringscope_priority_queue_oldest_age_seconds{priority="critical"}');
});

test('an embedder\'s masked tenant: its items wait, its oldest age grows, none ends', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  const r = await page.evaluate(async () => {
    await ringscope.ready;
    await ringscope.open({ slots: 1024, tenants: 2, budget: 16 });
    await ringscope.setTenantMask(1, false);
    await ringscope.publish([...Array(20)].map((_, i) => ({ opcode: 0, tenant: i % 2, priority: 2 })));
    await ringscope.step();
    const first = (await ringscope.snapshot()).waits;
    await new Promise((res) => setTimeout(res, 300));
    await ringscope.step();
    const second = (await ringscope.snapshot()).waits;
    return { first: [first.tenant[0], first.tenant[1]], second: [second.tenant[0], second.tenant[1]] };
  });
  expect(r.second[0]).toMatchObject({ count: 10, waiting: 0 });
  expect(r.second[1]).toMatchObject({ count: 0, waiting: 10 });
  expect(r.second[1].oldestAge - r.first[1].oldestAge).toBeGreaterThanOrEqual(250);
  await expect(page.getByTestId('waits-tenant-1').locator('td').nth(1)).toHaveText('10');
});

// sample reads the waits and the claim counters the presets' tests follow.
async function sample(page) {
  return page.evaluate(async () => {
    const s = await ringscope.snapshot();
    return { waits: s.waits, prio: s.telemetry.control.priorityFairness, tenant: s.telemetry.control.tenantFairness };
  });
}

test('priority-inversion: CRITICAL waits on the IDLE job\'s lock while the NORMAL flood completes', async ({ page }) => {
  await gotoReady(page, '?preset=priority-inversion');
  await waitFrames(page, 5);
  const a = await sample(page);
  await page.waitForTimeout(2000);
  const b = await sample(page);
  const [ca, cb] = [a.waits.priority[0], b.waits.priority[0]];
  expect(cb.waiting, 'the CRITICAL items parked on the lock').toBe(8);
  expect(cb.oldestAge - ca.oldestAge, 'and their oldest ages').toBeGreaterThan(1500);
  expect(b.prio[0], 'CRITICAL claims stay flat').toBe(a.prio[0]);
  expect(b.prio[2], 'NORMAL claims rise').toBeGreaterThan(a.prio[2]);
  expect(b.waits.priority[2].count).toBeGreaterThan(a.waits.priority[2].count);
  await expect(page.getByTestId('waits-priority-0')).toHaveClass(/row-fault/);
});

test('skewed-tenants: the cold tenants\' items age unclaimed while tenant 0 completes', async ({ page }) => {
  await gotoReady(page, '?preset=skewed-tenants');
  await waitFrames(page, 5);
  const a = await sample(page);
  await page.waitForTimeout(2000);
  const b = await sample(page);
  for (const t of [1, 2, 15]) {
    expect(b.waits.tenant[t].waiting, `tenant ${t} has work queued`).toBeGreaterThan(0);
    expect(b.waits.tenant[t].count, `tenant ${t}: nothing ended`).toBe(0);
    expect(b.tenant[t], `tenant ${t} never claimed`).toBe(0);
    expect(b.waits.tenant[t].oldestAge - a.waits.tenant[t].oldestAge, `tenant ${t} ages`).toBeGreaterThan(1500);
  }
  expect(b.tenant[0]).toBeGreaterThan(a.tenant[0]);
  expect(b.waits.tenant[0].count).toBeGreaterThan(a.waits.tenant[0].count);
});
