// A runaway user opcode (issue 35): a submission that does not complete
// within open's submissionTimeoutMs is the page's own watchdog's to end.
// SwiftShader has no driver watchdog, so without it drain() hung for good,
// and snapshot(), stop() and open() behind it. The device is abandoned
// (destroying it would block SwiftShader's GPU process while the loop
// runs: webgpu/abandon_js.go), the page recovers on a new one, and the
// call waiting rejects naming the opcode.
//
// Each runaway runs in a browser of its own, closed after the test: the
// loop keeps running on SwiftShader after its device is abandoned, and
// when its page closes, Chromium destroys the device, which blocks the
// browser's GPU process for good: a shared browser would load no WebGPU
// page after it.
import { chromium } from '@playwright/test';
import { test, expect, gotoReady, headerStat } from './fixtures.mjs';

// ownBrowser is a browser launched as the project's, with a page at the
// test server, and its page errors and console errors collected.
async function ownBrowser(testInfo) {
  const { launchOptions, baseURL } = testInfo.project.use;
  const browser = await chromium.launch({ headless: true, ...launchOptions });
  const page = await (await browser.newContext({ baseURL })).newPage();
  const problems = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console.error: ${msg.text()}`);
  });
  return { browser, page, problems };
}

// withOwnBrowser runs body on a page of a browser of its own and closes it.
async function withOwnBrowser(testInfo, body) {
  const own = await ownBrowser(testInfo);
  try {
    await body(own.page);
    expect(own.problems, 'page errors and console errors during the test').toEqual([]);
  } finally {
    await own.browser.close();
  }
}

test.describe.configure({ timeout: 120_000 });

// The loop, with a store in it: SwiftShader's compiler deletes a
// loop that has no side effect (the issue's own loop ends at once here,
// which the second test checks), not one that stores.
const SPIN = `fn spin_forever(slot: u32, args: Args) -> Outcome {
    loop {
        if (args[0] == 77u) { break; }
        observable_store(1u, args[0]);
    }
    return done();
}`;

const BOUND_MS = 2000;

const COUNT = { opcode: 0x11, name: 'count', wgsl: `fn count(slot: u32, args: Args) -> Outcome {
    observable_add(0u, args[0]);
    return done();
}` };

// A long but finite loop, args[0] rounds of an atomic (which no compiler
// folds away), and a calibration of its rounds on this machine.
const SPIN_LONG = { opcode: 0x10, name: 'spin_long', wgsl: `fn spin_long(slot: u32, args: Args) -> Outcome {
    for (var i = 0u; i < args[0]; i++) { observable_add(1u, 1u); }
    return done();
}` };

// The rounds of spin_long that take about ms here: doubled from 2^16 until
// one drain of them takes 250 ms, then scaled (at most 2^32 − 1).
async function spinRounds(page, ms) {
  return page.evaluate(async ({ spin, ms }) => {
    await ringscope.ready;
    await ringscope.open({ slots: 64, submissionTimeoutMs: 60_000, opcodes: [spin] });
    for (let n = 1 << 16; ; n *= 2) {
      await ringscope.publish([{ opcode: spin.opcode, args: [n] }]);
      const t0 = performance.now();
      await ringscope.drain();
      const took = performance.now() - t0;
      if (took >= 250 || n >= 2 ** 31) return Math.min(2 ** 32 - 1, Math.round((n * ms) / took));
    }
  }, { spin: SPIN_LONG, ms });
}

// The runaway here is a loop of about 5× the bound, not an endless one:
// SwiftShader runs an abandoned device's work on until it ends, holding one
// of its threads, and its scheduler can leave the new device's tasks queued
// on that thread (seen on a 2-core machine), so the recovered device's
// checks wait for the runaway to end (__test.abandonedIdle) and then run
// for certain. The next test shows what the page says when they cannot.
test('a runaway opcode is detected within the bound: drain() rejects naming it, then snapshot, open and an exact drain work', async ({}, testInfo) => withOwnBrowser(testInfo, async (page) => {
  await gotoReady(page, '?autostart=0');
  const rounds = await spinRounds(page, 5 * BOUND_MS);
  const out = await page.evaluate(async ({ spin, bound, count, rounds }) => {
    await ringscope.open({ slots: 64, submissionTimeoutMs: bound, opcodes: [spin, count] });
    // Good work beside the runaway: it dies with the device and is dropped.
    await ringscope.publish([{ opcode: 0x10, args: [rounds] }, ...Array.from({ length: 10 }, () => ({ opcode: 0x11, args: [1000] }))]);
    const t0 = performance.now();
    const drain = await ringscope.drain().then(() => ({ resolved: true }), (e) => ({ message: e.message }));
    drain.ms = performance.now() - t0;
    const snap = await ringscope.snapshot();
    return { drain, lastLoss: snap.lastLoss, recoveries: snap.recoveries, running: snap.running, diagnosis: snap.diagnosis };
  }, { spin: SPIN_LONG, bound: BOUND_MS, count: COUNT, rounds });
  // The diagnosis names the loss and the opcode in flight (docs/DIAGNOSIS.md).
  expect(out.diagnosis.health).toBe('lost');
  expect(out.diagnosis.causes[0]).toMatchObject({ kind: 'device-lost', subject: { name: 'spin_long' } });
  expect(out.diagnosis.causes[0].evidence.opcode).toEqual(['spin_long', 'count']);
  expect(out.diagnosis.causes[0].evidence.earlierRunaways).toBeUndefined();
  expect(out.diagnosis.causes[0].fix).toContain('spin_long');
  await expect(headerStat(page, 'health')).toHaveText('LOST');
  await expect(headerStat(page, 'cause')).toHaveText('device-lost · spin_long');
  expect(await page.evaluate(() => ringscope.exportMetrics())).toContain('ringscope_cause{kind="device-lost"} 1');
  expect(out.drain.resolved).toBeUndefined();
  expect(out.drain.message).toMatch(/^drain: megakernel: runaway: a submission did not complete within 2s .*user opcodes in flight: spin_long, count; its device was abandoned$/);
  expect(out.drain.ms).toBeGreaterThanOrEqual(BOUND_MS - 50);
  expect(out.drain.ms).toBeLessThan(BOUND_MS + 5000);
  // Not ready: the status says what ran away and what was dropped.
  await expect(page.getByTestId('status')).toHaveText(/^error: runaway submission \(spin_long, count: a submission did not complete within 2s\); recovered on a new device with an empty ring, 11 items dropped$/);
  expect(out.lastLoss).toMatchObject({ reason: 'runaway', runaway: true, userOpcodes: ['spin_long', 'count'], recovered: true, dropped: 11, published: 11 });
  expect(out.recoveries).toBe(1);
  expect(out.running).toBe(false);
  expect(await page.evaluate(() => ringscope.__test.abandonedIdle()), 'abandoned devices still running').toBe(0);

  // The recovered ring is empty (docs/OPCODES.md §1): draining it again
  // runs nothing away, and good work published on it drains exactly.
  const after = await page.evaluate(async () => {
    const t0 = performance.now();
    const empty = await ringscope.drain();
    const ms = performance.now() - t0;
    await ringscope.publish(Array.from({ length: 50 }, (_, i) => ({ opcode: 0x11, priority: i % 5, args: [i + 1] })));
    const good = await ringscope.drain();
    const snap = await ringscope.snapshot();
    return { outcome: empty.outcome, submissions: empty.submissions, pending: empty.telemetry.occupancy.published, ms,
      done: good.telemetry.control.doneCount, sum: good.observable[0], goodOutcome: good.outcome, recoveries: snap.recoveries };
  });
  expect(after).toMatchObject({ outcome: 'empty', submissions: 0, pending: 0, done: 50, sum: 1275, goodOutcome: 'empty', recoveries: 1 });
  expect(after.ms).toBeLessThan(BOUND_MS);

  // A new ring on the new device: a good kernel drains exactly.
  const next = await page.evaluate(async () => {
    await ringscope.open({ slots: 1024, opcodes: [{ opcode: 0x11, name: 'count', wgsl: `fn count(slot: u32, args: Args) -> Outcome {
    observable_add(0u, args[0]);
    return done();
}` }] });
    const items = Array.from({ length: 100 }, (_, i) => ({ opcode: 0x11, priority: i % 5, args: [i + 1] }));
    await ringscope.publish(items);
    const { telemetry, observable, diagnosis } = await ringscope.drain();
    return { done: telemetry.control.doneCount, sum: observable[0], health: diagnosis.health, causes: diagnosis.causes.length };
  });
  expect(next).toEqual({ done: 100, sum: 5050, health: 'idle', causes: 0 });
  await expect(page.getByTestId('status')).toHaveText('ready');
}));

// A runaway while an earlier runaway's work still runs (an endless loop
// here): on SwiftShader a submission can wait behind it, so the page does
// not blame the second one's opcode alone. The second is a runaway of its
// own (spin_long, about 5× the bound), so that it is one every time; the
// message counts the earlier runaways, and the diagnosis gives them as
// evidence and says what to do.
test('a runaway behind an earlier one that still runs says so, in the error and the diagnosis', async ({}, testInfo) => withOwnBrowser(testInfo, async (page) => {
  await gotoReady(page, '?autostart=0');
  const rounds = await spinRounds(page, 5 * BOUND_MS);
  const out = await page.evaluate(async ({ wgsl, bound, spin, rounds }) => {
    const opcodes = [{ opcode: 0x12, name: 'spin_forever', wgsl }, spin];
    await ringscope.open({ slots: 64, submissionTimeoutMs: bound, opcodes });
    await ringscope.publish([{ opcode: 0x12, args: [3] }]);
    const first = await ringscope.drain().then(() => 'resolved', (e) => e.message);
    const firstCause = (await ringscope.snapshot()).diagnosis.causes[0];
    await ringscope.open({ slots: 64, submissionTimeoutMs: bound, opcodes });
    await ringscope.publish([{ opcode: spin.opcode, args: [rounds] }]);
    const second = await ringscope.drain().then(() => 'resolved', (e) => e.message);
    const snap = await ringscope.snapshot();
    return { first, firstCause, second, diagnosis: snap.diagnosis, recoveries: snap.recoveries };
  }, { wgsl: SPIN, bound: BOUND_MS, spin: SPIN_LONG, rounds });
  expect(out.first).toMatch(/runaway: .*user opcodes in flight: spin_forever; its device was abandoned$/);
  expect(out.firstCause.evidence.earlierRunaways, 'the first had none before it').toBeUndefined();
  expect(out.second).toMatch(/runaway: .*user opcodes in flight: spin_long; its device was abandoned; 1 earlier runaway\(s\) still ran on the adapter, which this submission may have waited behind$/);
  expect(out.recoveries).toBe(2);
  const cause = out.diagnosis.causes[0];
  expect(cause).toMatchObject({ kind: 'device-lost', subject: { name: 'spin_long' } });
  expect(cause.evidence.earlierRunaways).toBe(1);
  expect(cause.fix).toMatch(/may have waited behind it rather than run away itself\. Reload the page/);
  await expect(headerStat(page, 'cause')).toHaveText('device-lost · spin_long');
}));

// The status during the hang (issue 35): from the busy grace on (a
// quarter of a 4 s bound) ringscope.status(), which answers while drain()
// holds the page's lock, reads busy with how long, never ready, until the
// loss, and so does the header once rendered (renders come on display
// frames, spaced by their own cost: RENDER_LAG on this loaded machine);
// past twice the grace the diagnosis names submission-stuck with the
// opcode in flight.
const RENDER_LAG = 1000;
test('a stuck submission reads busy, never ready, from the grace until the loss, and is diagnosed', async ({}, testInfo) => withOwnBrowser(testInfo, async (page) => {
  await gotoReady(page, '?autostart=0');
  const bound = 4000, grace = bound / 4;
  const out = await page.evaluate(async ({ wgsl, bound }) => {
    await ringscope.ready;
    await ringscope.open({ slots: 64, submissionTimeoutMs: bound, opcodes: [{ opcode: 0x10, name: 'spin_forever', wgsl }] });
    await ringscope.publish([{ opcode: 0x10, args: [3] }]);
    const heard = [];
    ringscope.subscribe((f) => heard.push(f.causes?.[0] ?? f.health));
    const text = (sel) => document.querySelector(sel)?.textContent ?? '';
    const cause = () => [...document.querySelectorAll('.hstat')].find((e) => /^cause$/i.test(e.querySelector('.hstat-label')?.textContent ?? ''))?.querySelector('span:last-child')?.textContent ?? '';
    const samples = [];
    let settled = false;
    const t0 = performance.now();
    const drain = ringscope.drain().then(() => 'resolved', (e) => e.message).finally(() => { settled = true; });
    while (!settled) {
      const api = await ringscope.status();
      samples.push({ t: performance.now() - t0, header: text('[data-testid="status"]'), api, cause: cause() });
      await new Promise((r) => setTimeout(r, 100));
    }
    return { samples, drain: await drain, lostAt: performance.now() - t0, heard };
  }, { wgsl: SPIN, bound });
  expect(out.drain).toMatch(/runaway: .*spin_forever/);
  // A subscriber hears each verdict once, though no frame is read back
  // (this ring had none: each verdict made one, told as it was made).
  expect(out.heard).toEqual(['submission-stuck', 'device-lost']);
  const busy = /^busy: waiting on the GPU for \d+\.\d s \(spin_forever in flight; a runaway at 4 s\)$/;
  const during = out.samples.filter((s) => s.t > grace + 300 && s.t < bound);
  expect(during.length, 'samples between the grace and the bound').toBeGreaterThan(5);
  for (const s of during) {
    expect(s.api.status, `status() at ${Math.round(s.t)} ms`).toMatch(busy);
    expect(s.api.busy).toMatchObject({ boundMillis: bound, graceMillis: grace, userOpcodes: ['spin_forever'] });
    expect(s.api.busy.waitedMillis).toBeGreaterThanOrEqual(grace);
  }
  const shown = during.filter((s) => s.t > grace + RENDER_LAG);
  expect(shown.length, 'header samples past the grace and a render').toBeGreaterThan(3);
  for (const s of shown) expect(s.header, `header at ${Math.round(s.t)} ms`).toMatch(busy);
  // Never ready once past the grace, until the drain settled.
  for (const s of out.samples.filter((s) => s.t > grace + 300)) expect(s.api.status).not.toBe('ready');
  for (const s of out.samples.filter((s) => s.t > grace + RENDER_LAG)) expect(s.header, `header at ${Math.round(s.t)} ms`).not.toBe('ready');
  const diagnosed = during.filter((s) => s.t > 2 * grace + RENDER_LAG);
  expect(diagnosed.length).toBeGreaterThan(0);
  for (const s of diagnosed) expect(s.cause).toBe('submission-stuck · spin_forever');
  // After the loss: the recovery's error, no busy.
  await expect(page.getByTestId('status')).toHaveText(/^error: runaway submission \(spin_forever: /);
  expect((await page.evaluate(() => ringscope.status())).busy).toBeNull();
}));

test('a runaway in the live loop stops it: status error, not ready; stop(), snapshot() and open() answer', async ({}, testInfo) => withOwnBrowser(testInfo, async (page) => {
  await gotoReady(page, '?autostart=0');
  await page.evaluate(async ({ wgsl, bound }) => {
    await ringscope.ready;
    await ringscope.open({ slots: 64, submissionTimeoutMs: bound, opcodes: [{ opcode: 0x10, name: 'spin_forever', wgsl }] });
    await ringscope.publish([{ opcode: 0x10, args: [3] }]);
    await ringscope.start();
  }, { wgsl: SPIN, bound: BOUND_MS });
  await expect(page.getByTestId('status')).toHaveText(/^error: runaway submission \(spin_forever: /, { timeout: BOUND_MS + 5000 });
  const out = await page.evaluate(async () => {
    await ringscope.stop();
    const snap = await ringscope.snapshot();
    await ringscope.open({ slots: 64 });
    return { running: snap.running, lastLoss: snap.lastLoss };
  });
  expect(out.running).toBe(false);
  expect(out.lastLoss).toMatchObject({ runaway: true, userOpcodes: ['spin_forever'] });
  await expect(page.getByTestId('status')).toHaveText('ready');
}));

test("the issue's own loop, which SwiftShader's compiler ends, settles within the bound", async ({}, testInfo) => withOwnBrowser(testInfo, async (page) => {
  await gotoReady(page, '?autostart=0');
  const out = await page.evaluate(async (bound) => {
    await ringscope.ready;
    await ringscope.open({ slots: 64, submissionTimeoutMs: bound, opcodes: [{ opcode: 0x10, name: 'spin', wgsl: `fn spin(slot: u32, args: Args) -> Outcome {
    loop { if (args[0] == 77u) { break; } }
    return done();
}` }] });
    await ringscope.publish([{ opcode: 0x10, args: [3] }]);
    const t0 = performance.now();
    const r = await ringscope.drain().then((d) => ({ done: d.telemetry.control.doneCount }), (e) => ({ message: e.message }));
    r.ms = performance.now() - t0;
    return r;
  }, BOUND_MS);
  // Either it ran (the loop compiled away) or the watchdog named it: never a hang.
  expect(out.ms).toBeLessThan(BOUND_MS + 5000);
  if (out.message !== undefined) expect(out.message).toMatch(/runaway: .*spin/);
  else expect(out.done).toBe(1);
}));

test('open() refuses a submissionTimeoutMs out of range, naming it', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  const msgs = await page.evaluate(async () => {
    await ringscope.ready;
    const out = [];
    for (const v of [5, 600001, -1, 'x']) {
      out.push(await ringscope.open({ slots: 64, submissionTimeoutMs: v }).then(() => 'opened', (e) => e.message));
    }
    return out;
  });
  expect(msgs[0]).toBe('open: submissionTimeoutMs must be 100…600000 (0: the default, 10000), got 5');
  expect(msgs[1]).toMatch(/submissionTimeoutMs must be 100…600000/);
  for (const m of msgs.slice(2)) expect(m).toMatch(/submissionTimeoutMs/);
});
