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
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { test as base, expect as baseExpect } from '@playwright/test';
import { kit, RingscopeHandle } from '../../pkg/playwright/kit.mjs';

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

// The kit's own options were not checked: toBeHealthy({within: NaN}) on a
// healthy ring never returned (the test's bare timeout), snapshot({frames:
// NaN}) or ({frames: -1}) returned at once with no frame read, and a
// misspelt or misplaced option (snapshot({frame}), Playwright's timeout
// given to a matcher, attach({timeout})) was ignored. A matcher given
// anything but the fixture threw "handle.snapshot is not a function".
test('the kit rejects unknown, misplaced, NaN and negative options by name', async ({ page, ringscope }) => {
  const cases = [
    [() => expect(ringscope).toBeHealthy({ within: NaN }), 'expect(ringscope).toBeHealthy(): within must be a finite number of milliseconds >= 0, not NaN'],
    [() => expect(ringscope).toBeHealthy(3000), 'expect(ringscope).toBeHealthy(): the options must be an object, { within: … }, not 3000'],
    [() => expect(ringscope).toBeHealthy({ timeout: 1000 }), /^expect\(ringscope\)\.toBeHealthy\(\): unknown option "timeout" \(the matcher watches the ring for within ms; .*\); the options are within$/],
    [() => expect(ringscope).not.toNotStall({ within: -5 }), 'expect(ringscope).toNotStall(): within must be a finite number of milliseconds >= 0, not -5'],
    [() => expect(ringscope).toNotStall({ withn: 100 }), 'expect(ringscope).toNotStall(): unknown option "withn" (did you mean "within"?); the options are within'],
    [() => expect(ringscope).toHaveNoFaults({ within: 100 }), 'expect(ringscope).toHaveNoFaults(): unknown option "within"; it takes no options'],
    [() => expect(ringscope).toDrainExactlyOnce('now'), 'expect(ringscope).toDrainExactlyOnce(): the options must be left out, not "now"'],
    [() => ringscope.snapshot({ frames: NaN }), 'ringscope.snapshot(): frames must be a whole number >= 1, not NaN'],
    [() => ringscope.snapshot({ frames: -1 }), 'ringscope.snapshot(): frames must be a whole number >= 1, not -1'],
    [() => ringscope.snapshot({ frame: 3 }), 'ringscope.snapshot(): unknown option "frame" (did you mean "frames"?); the options are frames, timeout, slots, trace'],
    [() => ringscope.snapshot({ timeout: NaN }), 'ringscope.snapshot(): timeout must be a finite number of milliseconds >= 0, not NaN'],
    [() => ringscope.attach({ timeout: 5000 }), 'ringscope.attach(): timeout is no attach option: the wait for the buffers is the second argument, attach({}, { timeout: 5000 })'],
    [() => ringscope.attach({}, { timeout: -1 }), 'ringscope.attach(): timeout must be a finite number of milliseconds >= 0, not -1'],
    [() => ringscope.attach({}, { timout: 1000 }), 'ringscope.attach(): unknown option "timout" (did you mean "timeout"?); the options are timeout'],
    [() => expect(page).toBeHealthy(), /^expect\(received\)\.toBeHealthy\(\): received must be the ringscope fixture \(.*\), not an object$/],
  ];
  for (const [call, want] of cases) {
    const t0 = Date.now();
    const err = await failure(call());
    expect(Date.now() - t0, `${want}: at once`).toBeLessThan(1_000);
    if (typeof want === 'string') expect(err?.message).toBe(want);
    else expect(err?.message).toMatch(want);
  }
});

// ringscopeLabels were taken as given: a role with no label (test.use
// replaces the whole object) recorded every unlabelled buffer as it, and a
// misspelt role was ignored; attach() then waited out its timeout.
test('ringscopeLabels with a role missing or misspelt fail attach() at once, naming it', async ({ page }) => {
  for (const [labels, want] of [
    [{ ring: 'my ring' }, 'ringscope fixture: the ringscopeLabels option needs control as the label of your control buffer, a non-empty string, not undefined ' +
      '(test.use replaces the whole object: give control and ring, and log if your app has one)'],
    [{ control: 'c', ring: 'r', lgo: 'l' }, 'ringscope fixture: the ringscopeLabels option has an unknown role "lgo" (did you mean "log"?); the roles are control, ring, log'],
    [{ control: 'c', ring: 7 }, /needs ring as the label of your ring buffer, a non-empty string, not 7 /],
    ['control', 'ringscope fixture: the ringscopeLabels option must be an object, { control: \'…\', ring: \'…\', log: \'…\' }, not "control"'],
  ]) {
    const t0 = Date.now();
    const err = await failure(new RingscopeHandle(page, { labels }).attach({}, { timeout: 5_000 }));
    expect(Date.now() - t0).toBeLessThan(1_000);
    if (typeof want === 'string') expect(err?.message).toBe(want);
    else expect(err?.message).toMatch(want);
  }
});

test.describe('ringscopeLabels with no control', () => {
  test.use({ ringscopeLabels: { ring: 'ring', log: 'log' } });

  test('the fixture checks its labels in attach()', async ({ page, ringscope }) => {
    await openKitApp(page);
    const err = await failure(ringscope.attach({}, { timeout: 3_000 }));
    expect(err?.message).toMatch(/^ringscope fixture: the ringscopeLabels option needs control as the label of your control buffer/);
  });
});

// attach()'s default wait (30 s) was the test's own default timeout: a
// label mismatch failed with the bare "Test timeout of 10000ms exceeded"
// and never reached attach()'s explanation.
test.describe('a default wait in a short test', () => {
  test.use({ ringscopeLabels: { control: 'ctl', ring: 'my ring' } });

  test('attach() with no timeout fails with its explanation before the test times out', async ({ page, ringscope }) => {
    test.setTimeout(9_000);
    await openKitApp(page);
    const err = await failure(ringscope.attach());
    expect(err?.message).toMatch(/^ringscope\.attach\(\): no buffers with the labels looked for \(control "ctl", ring "my ring"\) in \d+ ms: found none/);
  });
});

// Three ways an attachment ends, and what the kit said of each: attach()
// again left the first instance reading the same buffers for the rest of
// the test; after ringscope.dispose() (or the page disposing the
// instance) snapshot() and the matchers threw the page's raw
// "page.evaluate: Error: snapshot: this ringscope instance was disposed"
// with a WebAssembly stack.
test('attach() again replaces the instance; after dispose() the kit says what ended', async ({ page, ringscope }) => {
  await openKitApp(page);
  await ringscope.attach();
  await ringscope.snapshot();
  await page.evaluate(() => { window.firstInstance = window.ringscopeKit.instance; });
  await ringscope.attach();
  const first = await page.evaluate(() => window.firstInstance.attachInfo().then((i) => i.state, (e) => `rejected: ${e.message}`));
  expect(first, 'the first instance was disposed').toMatch(/^rejected: .*disposed/);
  await ringscope.snapshot();

  await ringscope.dispose();
  let err = await failure(ringscope.snapshot());
  expect(err?.message).toBe('ringscope.snapshot(): nothing attached: call ringscope.attach() first ' +
    '(after page.goto(); a navigation or ringscope.dispose() ends the attachment)');
  err = await failure(expect(ringscope).toHaveNoFaults());
  expect(err?.message).toMatch(/^ringscope\.snapshot\(\): nothing attached/);

  await ringscope.attach(); // attaches again
  await ringscope.snapshot();
  await page.evaluate(() => window.ringscopeKit.instance.dispose()); // the page disposes it
  const t0 = Date.now();
  err = await failure(ringscope.snapshot({ frames: 2 }));
  expect(err?.message).toMatch(/^ringscope\.snapshot\(\): no more frames will come: the instance was disposed \(read 0 of the 2 frames waited for; 0 frames since attach, state disposed\)$/);
  err = await failure(expect(ringscope).toHaveNoFaults());
  expect(err?.message).toMatch(/^expect\(ringscope\)\.toHaveNoFaults\(\): FAULTS is 0\nringscope\.snapshot\(\): no more frames will come: the instance was disposed .*\n\nno diagnosis yet/);
  expect(Date.now() - t0).toBeLessThan(2_500);
});

// With no frame read every matcher fails, but under .not they passed:
// expect(ringscope).not.toNotStall() passed on an attachment that had
// ended, though nothing was read.
test('.not matchers fail too when no frame can be read', async ({ page, ringscope }) => {
  await openKitApp(page);
  await ringscope.attach();
  await ringscope.snapshot();
  await page.evaluate(() => window.ringscopeKit.found.ring.destroy());
  await expect.poll(async () => page.evaluate(async () => (await window.ringscopeKit.instance.attachInfo()).state), { timeout: 30_000 })
    .toBe('ended');
  for (const [name, call] of [
    ['toNotStall', () => expect(ringscope).not.toNotStall({ within: 200 })],
    ['toBeHealthy', () => expect(ringscope).not.toBeHealthy()],
    ['toHaveNoFaults', () => expect(ringscope).not.toHaveNoFaults()],
    ['toDrainExactlyOnce', () => expect(ringscope).not.toDrainExactlyOnce()],
  ]) {
    const err = await failure(call());
    expect(err, `not.${name} fails`).not.toBeNull();
    expect(err.message).toMatch(new RegExp(`not\\.${name}\\(\\): no frame was read, which shows neither\\n` +
      'ringscope\\.snapshot\\(\\): no more frames will come: the attachment has ended: '));
  }
});

// kit(test, expect) typed its result as the kit's own test: the fixtures
// of the test given (base.extend<{user}>) were gone, and describe()
// refused the undefined a snapshot's diagnosis may be.
test('kit() keeps the fixtures of the test it extends, in the types', async () => {
  test.setTimeout(60_000);
  const dir = test.info().outputPath();
  const types = fileURLToPath(new URL('../types/', import.meta.url));
  await writeFile(path.join(dir, 'kit-consumer.ts'), `
import { test as base, expect as baseExpect } from '@playwright/test';
import { kit, describe } from 'ringscope/playwright';
const mine = base.extend<{ user: string }>({ user: async ({}, use) => { await use('me'); } });
const { test, expect } = kit(mine, baseExpect);
test('x', async ({ page, ringscope, user }) => {
  const who: string = user;
  await ringscope.attach({}, { timeout: 1000 });
  await expect(ringscope).toBeHealthy({ within: 100 });
  await expect(ringscope).not.toNotStall();
  await expect(page).toHaveTitle(who);
  console.log(describe((await ringscope.snapshot()).diagnosis ?? undefined));
});
`);
  await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({
    extends: path.join(types, 'tsconfig.playwright.json'),
    compilerOptions: { typeRoots: [path.join(types, '../node_modules/@types')] },
    files: ['kit-consumer.ts'],
  }));
  const tsc = spawnSync(path.join(types, '../node_modules/.bin/tsc'), ['-p', dir, '--noEmit', '--strict'], { encoding: 'utf8' });
  expect(tsc.stdout + tsc.stderr).toBe('');
  expect(tsc.status).toBe(0);
});

// snapshot() dropped the instance's own snapshot options: under summary
// readback ringscope.snapshot({slots: true}) came back with no slots.
// (Without slots: true a snapshot may still hold them: an attachment's
// first frames can read the whole ring, so that is not asserted.)
test('snapshot() passes slots (and trace) on to the instance', async ({ page, ringscope }) => {
  await openKitApp(page);
  await ringscope.attach({ readback: 'summary' });
  const s = await ringscope.snapshot({ slots: true, frames: 2 });
  expect(s.telemetry.slots).toHaveLength(64);
  expect((await failure(ringscope.snapshot({ slot: true })))?.message)
    .toBe('ringscope.snapshot(): unknown option "slot" (did you mean "slots"?); the options are frames, timeout, slots, trace');
  expect((await failure(ringscope.snapshot({ slots: 1 })))?.message).toBe('ringscope.snapshot(): slots must be true or false, not 1');
});
