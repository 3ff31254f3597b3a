// ringscope/playwright (issue 32), the kit a user's own suite imports
// (pkg/playwright): its init script finds a WebGPU app's control and ring
// by label, attaches, and its matchers pass on a healthy app and fail on
// a deliberate bug with the diagnosis in the message. The app here is a
// small one of the test's own (its own device and ring in the ABI, served
// by a route); attach-host.html is a host whose kernel faults.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect as baseExpect } from '@playwright/test';
import { kit } from '../../pkg/playwright/kit.mjs';

const { test, expect } = kit(base, baseExpect);
test.use({ ringscopeAssets: fileURLToPath(new URL('../../.cache/e2e-static', import.meta.url)) });
test.describe.configure({ timeout: 90_000 });

// The app: 64 slots, tenants 0 and 1 enabled; ?bug=masked masks tenant 1
// and publishes 8 of its items, which no one can ever run.
const APP = `
const bug = new URLSearchParams(location.search).get('bug');
const device = await (await navigator.gpu.requestAdapter()).requestDevice();
const U = GPUBufferUsage;
const usage = U.STORAGE | U.COPY_DST;
const control = device.createBuffer({ label: 'control', size: 168 * 4, usage });
const ring = device.createBuffer({ label: 'ring', size: 64 * 64, usage });
const log = device.createBuffer({ label: 'log', size: (4 + 4 * 16) * 4, usage });
const c = new Uint32Array(168);
c[2] = 3; c[3] = 1; c[4] = bug === 'masked' ? 0 : 1;
c.set([0, 12, 24, 40, 52, 64], 129);
c[141] = 0x31435352; c[142] = 1; c[143] = 1;
const r = new Uint32Array(64 * 16);
if (bug === 'masked') {
  for (let s = 24; s < 32; s++) r.set([1, 0, 1, 2], s * 16);
  c[154 + 2] = 8;
}
const l = new Uint32Array(4 + 4 * 16); l[1] = 16;
device.queue.writeBuffer(control, 0, c);
device.queue.writeBuffer(ring, 0, r);
device.queue.writeBuffer(log, 0, l);
document.title = 'app ready';
`;

test.beforeEach(async ({ page }) => {
  await page.route(/\/scratch-app\.html/, (route) => route.fulfill({ contentType: 'text/html',
    body: '<!doctype html><title>app</title><script type="module" src="/scratch-app.js"></script>' }));
  await page.route('**/scratch-app.js', (route) => route.fulfill({ contentType: 'text/javascript', body: APP }));
});

test('a healthy app passes toBeHealthy, toHaveNoFaults, toDrainExactlyOnce and toNotStall', async ({ page, ringscope }) => {
  await page.goto('/scratch-app.html');
  await expect(page).toHaveTitle('app ready', { timeout: 30_000 });
  await ringscope.attach();
  await expect(ringscope).toBeHealthy();
  await expect(ringscope).toHaveNoFaults();
  await expect(ringscope).toDrainExactlyOnce();
  await expect(ringscope).toNotStall({ within: 1_000 });
});

test('a masked tenant fails toBeHealthy with the diagnosis in the message', async ({ page, ringscope }) => {
  await page.goto('/scratch-app.html?bug=masked');
  await expect(page).toHaveTitle('app ready', { timeout: 30_000 });
  await ringscope.attach();
  const err = await expect(ringscope).toBeHealthy({ within: 15_000 }).then(() => null, (e) => e);
  expect(err, 'toBeHealthy fails').not.toBeNull();
  const msg = err.message;
  expect(msg).toContain('expect(ringscope).toBeHealthy(): the ring is not healthy');
  expect(msg).toMatch(/health: (stalled|degraded)/);
  expect(msg).toMatch(/- masked-tenant \(tenant 1\): .*slots=8/);
  expect(msg).toMatch(/fix: .+/);
  await expect(ringscope).not.toBeHealthy();
});

test('a host kernel that faults fails toHaveNoFaults, naming the faults', async ({ page, ringscope }) => {
  await page.goto('/attach-host.html?attach=0&slots=1024');
  await expect(page.getByTestId('host-state')).toHaveAttribute('data-ready', '1', { timeout: 30_000 });
  await page.evaluate(() => {
    const { device, control, ring, log } = window.host;
    window.ringscopeKit.use({ device, control, ring, log }); // the explicit hand-over
  });
  await ringscope.attach();
  const err = await expect(ringscope).toHaveNoFaults().then(() => null, (e) => e);
  expect(err, 'toHaveNoFaults fails').not.toBeNull();
  expect(err.message).toMatch(/toHaveNoFaults\(\): FAULTS is [1-9]\d*; the log:\n {2}.*UNKNOWN_OPCODE/);
  expect(err.message).toMatch(/health: \w+/);
});
