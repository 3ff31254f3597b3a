// ringscope/playwright (issue 32), the kit a user's own suite imports
// (pkg/playwright), from the repository: the app hands its buffers over
// explicitly (window.ringscopeKit.use) and its kernel faults, which
// toHaveNoFaults names. package.spec.mjs runs the kit from the packed
// tarball in a scratch project's suite: buffers found by label, a healthy
// app passing every matcher, a masked tenant and a fault failing.
//
// The other tests run the kit on the consumer suite's app
// (e2e/consumers/playwright-suite/app, served by a route, not from
// static/): 64 slots, 16 items published once,
// and ?bug= parks them where its kernel leaves them (a fault, WAIT_IO with
// no IO service, a masked tenant's YIELD, REQUEUE).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect as baseExpect } from '@playwright/test';
import { kit } from '../../pkg/playwright/kit.mjs';

const { test, expect } = kit(base, baseExpect);
test.use({ ringscopeAssets: fileURLToPath(new URL('../../.cache/e2e-static', import.meta.url)) });
test.describe.configure({ timeout: 90_000 });

const kitApp = fileURLToPath(new URL('../consumers/playwright-suite/app/', import.meta.url));
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wgsl': 'text/plain' };

// openKitApp serves that app under /__kit-app__/ and loads it with bug.
async function openKitApp(page, bug = '') {
  await page.route('**/__kit-app__/**', async (route) => {
    const name = path.basename(new URL(route.request().url()).pathname);
    await route.fulfill({ body: await readFile(path.join(kitApp, name)), contentType: TYPES[path.extname(name)] });
  });
  await page.goto(`/__kit-app__/index.html${bug ? `?bug=${bug}` : ''}`);
  await expect(page).toHaveTitle('app ready');
}

const frames = (page) => page.evaluate(async () => (await window.ringscopeKit.instance.attachInfo()).frames);
const failure = (p) => p.then(() => null, (e) => e);

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

// snapshot({frames}) waited for nothing: page.waitForFunction took the
// Promise of an async predicate as truthy.
test('snapshot({frames}) waits until the attachment has read that many more frames', async ({ page, ringscope }) => {
  await openKitApp(page);
  await ringscope.attach();
  const before = await frames(page);
  await ringscope.snapshot({ frames: 3 });
  expect(await frames(page), `3 frames after ${before}`).toBeGreaterThanOrEqual(before + 3);

  const t0 = Date.now();
  const err = await failure(ringscope.snapshot({ frames: 1e9, timeout: 2_000 }));
  expect(Date.now() - t0, 'it waited for its timeout').toBeGreaterThanOrEqual(2_000);
  expect(err?.message).toMatch(/^ringscope\.snapshot\(\): the attachment read \d+ of the 1000000000 frames waited for in 2000 ms \(\d+ frames since attach, state attached\)/);
});

// Right after attach() no frame may have been read yet: toHaveNoFaults
// passed on a kernel that had faulted, about 1 run in 3. Three attachments
// in a row, each asserted at once.
test('toHaveNoFaults right after attach() fails on a kernel that faulted, every time', async ({ page, ringscope }) => {
  for (let run = 0; run < 3; run++) {
    await openKitApp(page, 'fault');
    await ringscope.attach();
    const err = await failure(expect(ringscope).toHaveNoFaults());
    expect(err, `run ${run}: toHaveNoFaults fails`).not.toBeNull();
    expect(err.message).toMatch(/toHaveNoFaults\(\): FAULTS is 4; the log:\n {2}UNKNOWN_OPCODE: /);
  }
});

// toNotStall counted PUBLISHED and CLAIMED alone as queued: work parked in
// WAIT_IO, YIELD or REQUEUE passed while the verdict said stalled.
for (const [bug, parked, cause] of [
  ['waitio', '16 WAIT_IO', /no-progress|wait-io/],
  ['masked', '8 YIELD', /masked-tenant/],
  ['requeue', '4 REQUEUE', /no-progress|requeue-loop/],
]) {
  test(`toNotStall fails on a ring parked in ${parked.split(' ')[1]}, naming what is stuck`, async ({ page, ringscope }) => {
    await openKitApp(page, bug);
    await ringscope.attach();
    await expect.poll(async () => (await ringscope.snapshot()).diagnosis?.health, { timeout: 30_000 }).toBe('stalled');
    const err = await failure(expect(ringscope).toNotStall({ within: 1_000 }));
    expect(err, 'toNotStall fails').not.toBeNull();
    const n = parked.split(' ')[0];
    expect(err.message).toMatch(new RegExp(`toNotStall\\(\\): DONE_COUNT stayed \\d+ in 1000 ms with ${n} slots queued \\(${parked}\\); ` +
      'health stalled \\([a-z-]+(, [a-z-]+)*\\); the watchdog says stalled for \\d+ ms\\n'));
    expect(err.message).toMatch(cause);
    expect(err.message).toMatch(/\n\nhealth: stalled\n- /);
  });
}

test('toNotStall passes on a ring that drained (idle)', async ({ page, ringscope }) => {
  await openKitApp(page);
  await ringscope.attach();
  await expect(ringscope).toNotStall({ within: 1_000 });
  expect((await ringscope.snapshot()).diagnosis.health).toBe('idle');
});

test.describe('buffers found by their labels', () => {
  test.use({ ringscopeLabels: { control: 'host control', ring: 'host ring', log: 'host log' } });

  test('toNotStall passes on a ring that progresses', async ({ page, ringscope }) => {
    await page.goto('/attach-host.html?attach=0&slots=1024');
    await ringscope.attach();
    await expect(ringscope).toNotStall({ within: 2_000 });
  });
});

test.describe('labels that match no buffer', () => {
  test.use({ ringscopeLabels: { control: 'ctl', ring: 'my ring' } });

  test('attach() names the labels it looked for, those the page has, and the fix', async ({ page, ringscope }) => {
    await openKitApp(page);
    const err = await failure(ringscope.attach({}, { timeout: 3_000 }));
    expect(err?.message).toBe('ringscope.attach(): no buffers with the labels looked for (control "ctl", ring "my ring") in 3000 ms: ' +
      'found none, missing device, control, ring. The page created GPUBuffers labelled "control", "ring", "log", "params". ' +
      "Give the fixture your buffers' labels, test.use({ ringscopeLabels: { control: '…', ring: '…', log: '…' } }), " +
      'or hand the buffers over in the page: window.ringscopeKit.use({ device, control, ring, log }).');
  });
});

// Once the attachment had ended (attachInfo() state "ended") every matcher
// still waited its 5 s for a frame that could not come: toNotStall({within:
// 500}) took 10.9 s to fail. They fail at once, naming the reason.
test('after the attachment ends, the matchers and snapshot() fail at once with the reason', async ({ page, ringscope }) => {
  await openKitApp(page);
  await ringscope.attach();
  await ringscope.snapshot();
  await page.evaluate(() => window.ringscopeKit.found.ring.destroy()); // the host destroys a watched buffer
  await expect.poll(async () => page.evaluate(async () => (await window.ringscopeKit.instance.attachInfo()).state), { timeout: 30_000 })
    .toBe('ended');

  for (const [name, call] of [
    ['toNotStall', () => expect(ringscope).toNotStall({ within: 500 })],
    ['toBeHealthy', () => expect(ringscope).toBeHealthy()],
    ['toHaveNoFaults', () => expect(ringscope).toHaveNoFaults()],
    ['toDrainExactlyOnce', () => expect(ringscope).toDrainExactlyOnce()],
  ]) {
    const t0 = Date.now();
    const err = await failure(call());
    const took = Date.now() - t0;
    expect(err, `${name} fails`).not.toBeNull();
    expect(took, `${name} failed at once, not after its 5 s wait for a frame`).toBeLessThan(2_500);
    expect(err.message).toMatch(new RegExp(`${name}\\(\\): [^\\n]*\\nringscope\\.snapshot\\(\\): no more frames will come: the attachment has ended: .+\\(read 0 of the 1 frames waited for; \\d+ frames since attach, state ended\\)\\n\\nhealth: \\w+`));
  }
  const t0 = Date.now();
  const err = await failure(ringscope.snapshot({ frames: 3 }));
  expect(Date.now() - t0).toBeLessThan(2_500);
  expect(err?.message).toMatch(/^ringscope\.snapshot\(\): no more frames will come: the attachment has ended: .+ \(read 0 of the 3 frames waited for; \d+ frames since attach, state ended\)$/);
});
