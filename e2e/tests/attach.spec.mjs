// Attach (issue 18): ringscope watches the ring a host page's own kernel
// drives. static/attach-host.html is the host: its own device, buffers in
// the ABI and its own WGSL kernel (attach-host.wgsl); ringscope.attach
// copies them at display rate and drives the dashboard. Every test fails on
// a page error or console error (fixtures.mjs).
import { test, expect, readNum, headerStat } from './fixtures.mjs';

test.describe.configure({ timeout: 120_000 });

// The occupancy panel's rows and the API's RingOccupancy field of each.
const STATUSES = {
  empty: 'empty', published: 'published', claimed: 'claimed', done: 'done',
  'wait-io': 'waitIO', yield: 'yield', requeue: 'requeue', fault: 'fault', unknown: 'unknown',
};
const OPCODE_NAMES = { 0: 'NOP', 2: 'ATOMIC_ADD' };

// openHost loads the host page and waits until its frames run (and, with
// attach, until ringscope has read a few of them).
async function openHost(page, query, { attached = true } = {}) {
  await page.goto(`/attach-host.html?${query}`);
  await expect(page.getByTestId('host-state')).toHaveAttribute('data-ready', '1', { timeout: 30_000 });
  if (attached) {
    await expect(page.getByTestId('host-attached')).not.toHaveText('not attached', { timeout: 60_000 });
    await expect.poll(() => page.evaluate(() => ringscope.attachInfo().then((i) => i.frames)), { timeout: 30_000 }).toBeGreaterThan(2);
  }
}

// metricRows reads the control panel's OPCODE_METRICS table: name → count.
async function metricRows(page) {
  const rows = await page.locator('.panel-control table.grid-table tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));
  // Opcode rows are named like NOP; the partitions table's like "0 CRITICAL".
  return Object.fromEntries(rows.filter((r) => r.length >= 2 && /^[A-Z][A-Z0-9_]*$/.test(r[0])).map((r) => [r[0], Number(r[1].replace(/,/g, ''))]));
}

// expectPanelsEqualHost pauses the host two frames on (frame n), lets
// ringscope read that frame, and checks the panels and the snapshot against
// the host's own readback of the same buffers.
async function expectPanelsEqualHost(page) {
  const { n, host } = await page.evaluate(async () => {
    await ringscope.stop();
    const n = await window.host.runTo(window.host.frame + 2);
    await ringscope.step();
    await ringscope.step(); // the last frame applied is this one, whatever was in flight
    return { n, host: await window.host.summary() };
  });
  const snap = await page.evaluate(() => ringscope.snapshot());
  expect(host.frame).toBe(n);
  expect(host.observedFrame, "the host's kernel wrote its frame number").toBe(n);
  expect(snap.observable[0], 'ringscope read the same frame').toBe(n);
  expect(snap.telemetry.control.doneCount).toBe(host.doneCount);
  expect(snap.telemetry.occupancy).toEqual(host.occupancy);
  expect(snap.telemetry.control.metrics).toEqual(host.metrics);
  // The panels show it.
  await expect(page.getByTestId('done-count')).toHaveText(host.doneCount.toLocaleString('en-US'));
  for (const [key, field] of Object.entries(STATUSES)) {
    await expect(page.getByTestId(`occupancy-${key}`), `occupancy-${key}`).toHaveText(host.occupancy[field].toLocaleString('en-US'));
  }
  await expect.poll(() => metricRows(page)).toEqual(
    Object.fromEntries(host.metrics.map((m) => [OPCODE_NAMES[m.opcode], m.count])));
  expect(host.doneCount).toBeGreaterThan(0);
  expect(host.occupancy.fault, 'the host kernel faults some slots').toBeGreaterThan(0);
  expect(host.occupancy.published, 'and leaves a wave published').toBeGreaterThan(0);
  return { host, snap };
}

for (const readback of ['auto', 'summary']) {
  test(`readback ${readback}: the panels equal the host's own readback at the same frame`, async ({ page }) => {
    await openHost(page, `slots=4096&readback=${readback}`);
    const info = await page.evaluate(() => ringscope.attachInfo());
    // auto on SwiftShader (a CPU adapter) reads the full ring.
    expect(info).toMatchObject({ state: 'attached', readback: readback === 'auto' ? 'full' : 'summary', slots: 4096, hasLog: true });
    const first = (await expectPanelsEqualHost(page)).host.frame;
    // Live again, then the same check at a later frame.
    await page.evaluate(async () => { window.host.resume(); await ringscope.start(); });
    await expect.poll(() => page.evaluate(() => window.host.frame)).toBeGreaterThan(first + 12);
    const { snap } = await expectPanelsEqualHost(page);
    expect(snap.readback).toBe(info.readback);
    // The flight recorder and the exports follow the attachment.
    const exported = await page.evaluate(async () => {
      const metrics = await ringscope.exportMetrics();
      const cap = await ringscope.exportCapture();
      return { metrics, capBytes: cap.length, info: await ringscope.captureInfo() };
    });
    expect(exported.info.frames).toBeGreaterThan(2);
    expect(exported.capBytes).toBeGreaterThan(4096);
    expect(exported.metrics).toContain(`ringscope_done_total ${snap.telemetry.control.doneCount}\n`);
    // The capture replays: its last frame (recorded whole, or in summary
    // readback as a patch of the slots the status map changed) is the frame shown.
    const replayed = await page.evaluate(async () => {
      const info = await ringscope.importCapture(await ringscope.exportCapture());
      const last = await ringscope.captureFrame(info.count - 1);
      await ringscope.live();
      return { count: info.count, telemetry: last.telemetry };
    });
    expect(replayed.count).toBe(exported.info.frames);
    if (readback === 'summary') {
      expect(exported.capBytes, 'summary frames are recorded as patches, not whole rings').toBeLessThan((exported.info.frames * 4096 * 64) / 2);
    }
    expect(replayed.telemetry.control.doneCount).toBe(snap.telemetry.control.doneCount);
    expect(replayed.telemetry.occupancy).toEqual(snap.telemetry.occupancy);
  });
}

test("attaching writes nothing: the host's buffers equal a host-alone run's, frame for frame", async ({ browser }) => {
  const run = async (attach) => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await openHost(page, `slots=4096&stopAt=1&attach=${attach ? 1 : 0}`, { attached: attach });
    const res = await page.evaluate(async (attach) => {
      const before = attach ? (await ringscope.attachInfo()).frames : 0;
      const hashes = [];
      for (const n of [20, 40, 60]) {
        await window.host.playTo(n);
        hashes.push(await window.host.hash());
      }
      const after = attach ? (await ringscope.attachInfo()).frames : 0;
      return { hashes, read: after - before, summary: await window.host.summary() };
    }, attach);
    await ctx.close();
    return res;
  };
  const attached = await run(true);
  const alone = await run(false);
  expect(attached.read, 'ringscope read frames while the host ran').toBeGreaterThan(0);
  expect(attached.summary.doneCount).toBeGreaterThan(0);
  expect(attached.hashes).toEqual(alone.hashes);
  expect(new Set(alone.hashes).size, 'the frames differ from each other').toBe(3);
});

test("an attachment keeps to its main-thread budget and says so", async ({ page }) => {
  await openHost(page, 'slots=4096');
  // A few frames of pacing to report on (the report looks 2 s back).
  await expect.poll(() => page.evaluate(() => ringscope.attachInfo().then((i) => i.pacing.rate)), { timeout: 30_000 }).toBeGreaterThan(0);
  const info = await page.evaluate(() => ringscope.attachInfo());
  const p = info.pacing;
  console.log('attach pacing at 4,096 slots:', JSON.stringify(p));
  expect(p.budget, 'the default budget').toBe(0.05);
  expect(p.minRate).toBe(1);
  expect(p.costMS).toBeGreaterThan(0);
  expect(p.share).toBeGreaterThan(0);
  // The frames' measured costs keep to the budget (the report's 2 s window
  // ends mid-frame, hence the slack), unless they cost more than the budget
  // allows at the floor of 1 frame/s.
  if (!p.atFloor) expect(p.share).toBeLessThanOrEqual(p.budget * 1.5);
  expect(p.throttled, 'throttled exactly when the budget spaces frames wider than a 60 Hz display').toBe(p.costMS / 1000 / p.budget > 1 / 60);
  // The dashboard says it: the header's rate, and its tooltip.
  const rate = page.locator('.hstat').filter({ has: page.locator('.hstat-label', { hasText: /^rate$/i }) });
  await expect(rate).toHaveAttribute('title', /^attached: [0-9.]+ frames\/s at [0-9.]+ ms of main-thread time each, [0-9.]+% of the main thread \(budget 5%/);
  if (p.throttled) await expect(rate).toContainText('(throttled)');
  // budget 1 leaves the pacing to the display; detach clears the report.
  const again = await page.evaluate(async () => {
    await ringscope.detach();
    const none = await ringscope.attachInfo();
    const { device, control, ring, log } = window.host;
    const info = await ringscope.attach({ device, control, ring, log, budget: 1 });
    await ringscope.detach();
    return { none, info };
  });
  expect(again.none.pacing).toBeNull();
  expect(again.info.pacing.budget).toBe(1);
  await expect(rate).not.toHaveAttribute('title', /attached:/);
});

test('detach stops watching and leaves the host running', async ({ page }) => {
  await openHost(page, 'slots=4096');
  const res = await page.evaluate(async () => {
    const detached = await ringscope.detach();
    const frame = window.host.frame;
    const info = await ringscope.attachInfo();
    const again = await ringscope.detach().then(() => 'resolved', (e) => e.message);
    // ringscope's own runner is the API's again.
    const opened = await ringscope.open({ slots: 256 });
    return { detached, info, again, opened, frame, running: window.host.running };
  });
  expect(res.detached.state).toBe('detached');
  expect(res.detached.frames).toBeGreaterThan(2);
  expect(res.info.state).toBe('none');
  expect(res.again).toBe('detach: nothing is attached (ringscope.attach)');
  expect(res.opened.slots).toBe(256);
  expect(res.running).toBe(true);
  // The host keeps making frames (however fast this machine lets it).
  await expect.poll(() => page.evaluate(() => window.host.frame), { timeout: 30_000 }).toBeGreaterThan(res.frame + 3);
  await expect(page.getByTestId('host-state')).toHaveText('running, attached');
  await expect(page.getByTestId('stale-banner')).toContainText('detached from the host');
  // The host's buffers are still its own: its readback works and shows its frames.
  const after = await page.evaluate(() => window.host.summary());
  expect(after.observedFrame).toBeGreaterThan(res.frame);
});

test('a vyre-layout ring (MAGIC 0) attached live decodes as a legacy ring', async ({ page }) => {
  await openHost(page, 'slots=1024&magic=0');
  const { host, snap } = await expectPanelsEqualHost(page);
  expect(snap.telemetry.control.legacy).toBe(true);
  expect(snap.telemetry.control.magic).toBe(0);
  expect(snap.published, 'a legacy ring has no TAIL words: done + active slots').toBe(host.doneCount + host.occupancy.published + host.occupancy.yield);
});

test('refusals: each names the field and why', async ({ page }) => {
  await openHost(page, 'slots=1024&attach=0', { attached: false });
  const res = await page.evaluate(async () => {
    const { device, control, ring } = window.host;
    const U = GPUBufferUsage;
    const rs = (await import('/ringscope.mjs')).default;
    await rs.ready;
    const buf = (label, size, usage) => device.createBuffer({ label, size, usage });
    const tryAttach = (o) => rs.attach(o).then((i) => ({ ok: i }), (e) => ({ err: e.message }));
    const out = {};
    out.noCopySrc = await tryAttach({ device, control: buf('ctl-nocopy', 640, U.STORAGE | U.COPY_DST), ring });
    out.ringNoCopySrc = await tryAttach({ device, control, ring: buf('ring-nocopy', 640, U.STORAGE) });
    out.partSlots = await tryAttach({ device, control, ring: buf('ring-100', 100 * 4, U.COPY_SRC) });
    out.shortControl = await tryAttach({ device, control: buf('ctl-600', 600, U.COPY_SRC), ring });
    out.notDevice = await tryAttach({ device: {}, control, ring });
    out.deviceString = await tryAttach({ device: 'gpu', control, ring });
    out.notBuffer = await tryAttach({ device, control: 'control', ring });
    out.posingDevice = await tryAttach({ device: Object.create(GPUDevice.prototype), control, ring });
    out.throwingBuffer = await tryAttach({ device, control, ring: new Proxy({}, { get() { throw new Error('boom'); } }) });
    out.noRing = await tryAttach({ device, control });
    out.badReadback = await tryAttach({ device, control, ring, readback: 'fast' });
    out.notObject = await rs.attach(7).then(() => 'ok', (e) => e.message);
    for (const [name, budget] of Object.entries({ nan: NaN, negative: -0.1, zero: 0, over: 1.5, inf: Infinity, string: '0.1', bool: true, object: {} })) {
      out[`budget_${name}`] = await tryAttach({ device, control, ring, budget });
    }
    // Summary on a ring without STORAGE: attached in full, and it says so.
    out.noStorage = await tryAttach({ device, control, ring: buf('ring-plain', 1024 * 64, U.COPY_SRC | U.COPY_DST), readback: 'summary' });
    out.twice = await tryAttach({ device, control, ring });
    out.publish = await rs.publish([{ opcode: 0, tenant: 0, priority: 0 }]).then(() => 'ok', (e) => e.message);
    await rs.detach();
    // ringscope's own runner driving a ring the embedder opened.
    await rs.open({ slots: 256 });
    await rs.start();
    while (!(await rs.snapshot()).running) await new Promise((r) => setTimeout(r, 10)); // the loop takes the start
    out.ownRunner = await tryAttach({ device, control, ring });
    await rs.stop();
    out.afterStop = await tryAttach({ device, control, ring });
    await rs.detach();
    return out;
  });
  expect(res.noCopySrc.err).toContain('attach: megakernel: attach: control buffer "ctl-nocopy": lacks COPY_SRC usage (usage 0x88 = COPY_DST|STORAGE)');
  expect(res.ringNoCopySrc.err).toContain('ring buffer "ring-nocopy": lacks COPY_SRC usage (usage 0x80 = STORAGE)');
  expect(res.partSlots.err).toContain('ring buffer "ring-100": 400 bytes is not a whole number of 64-byte slots');
  expect(res.shortControl.err).toContain('control buffer "ctl-600": 600 bytes is shorter than the control minimum of 640 bytes');
  expect(res.notDevice.err).toContain('attach: webgpu: device: want a GPUDevice, got an object that is not one');
  expect(res.deviceString.err).toContain('attach: webgpu: device: want a GPUDevice, got string');
  expect(res.notBuffer.err).toContain('attach: webgpu: control: want a GPUBuffer, got string');
  expect(res.posingDevice.err).toContain('attach: webgpu: device: want a GPUDevice, got an object posing as one');
  expect(res.throwingBuffer.err).toContain('attach: webgpu: ring: want a GPUBuffer, got an object that is not one');
  expect(res.noRing.err).toContain('attach: ring is required');
  expect(res.badReadback.err).toContain('attach: readback "fast": want one of auto, full, summary');
  expect(res.notObject).toContain('attach: options must be an object');
  expect(res.budget_nan.err).toBe('attach: budget must be a finite fraction of the main thread in (0, 1], got NaN');
  expect(res.budget_inf.err).toBe('attach: budget must be a finite fraction of the main thread in (0, 1], got +Inf');
  expect(res.budget_negative.err).toContain('attach: budget -0.1: want a fraction of the main thread in (0, 1]');
  expect(res.budget_zero.err).toContain('attach: budget 0: want a fraction of the main thread in (0, 1]');
  expect(res.budget_over.err).toContain('attach: budget 1.5: want a fraction of the main thread in (0, 1]; 1 already paces on display frames alone');
  expect(res.budget_string.err).toBe('attach: budget must be a number, got string');
  expect(res.budget_bool.err).toBe('attach: budget must be a number, got boolean');
  expect(res.budget_object.err).toBe('attach: budget must be a number, got object');
  expect(res.noStorage.ok).toMatchObject({ state: 'attached', readback: 'full' });
  expect(res.noStorage.ok.readbackNote).toContain('summary readback needs STORAGE usage on the ring buffer "ring-plain"');
  expect(res.twice.err).toContain('attach: already attached to the host\'s ring "ring-plain"');
  expect(res.publish).toContain('an attachment drives the ring');
  expect(res.ownRunner.err).toContain("attach: ringscope's own runner is driving the ring you opened with open() (256 slots");
  expect(res.afterStop.ok.state).toBe('attached');
});

for (const how of ['destroys its ring', 'loses its device']) {
  test(`the host ${how} mid-attach: the attachment ends with the reason, the last frame stays, stale`, async ({ page }) => {
    await openHost(page, 'slots=4096');
    const before = await page.evaluate(() => ringscope.snapshot().then((s) => s.telemetry.control.doneCount));
    await page.evaluate((how) => {
      window.host.pause(); // the host's own kernel would fail on it too
      if (how === 'destroys its ring') window.host.ring.destroy();
      else window.host.device.destroy();
    }, how);
    const reason = how === 'destroys its ring' ? "the host's buffers can no longer be copied" : "the host's device was lost (destroyed)";
    await expect.poll(() => page.evaluate(() => ringscope.attachInfo()), { timeout: 15_000 }).toMatchObject({ state: 'ended' });
    const info = await page.evaluate(() => ringscope.attachInfo());
    expect(info.reason).toContain(reason);
    await expect(page.getByTestId('stale-banner')).toContainText(`STALE: attachment ended: ${reason}`);
    const snap = await page.evaluate(() => ringscope.snapshot());
    expect(snap.telemetry.control.doneCount, 'the last good snapshot is kept').toBeGreaterThanOrEqual(before);
    expect(snap.running).toBe(false);
    // The API says so, as the banner does: stale, and a verdict of a lost
    // ring whose cause names the attachment's end and what to do.
    expect(snap.stale).toBe(true);
    expect(snap.diagnosis.health).toBe('lost');
    expect(snap.diagnosis.causes[0].kind).toBe('device-lost');
    expect(snap.diagnosis.causes[0].evidence.reason).toContain(`attachment ended: ${reason}`);
    expect(snap.diagnosis.causes[0].fix).toContain('attach again once its ring exists');
    await expect(headerStat(page, 'health')).toHaveText('LOST');
    // detach clears it; ringscope's API works again.
    expect((await page.evaluate(() => ringscope.detach())).state).toBe('detached');
    expect((await page.evaluate(() => ringscope.open({ slots: 64 }))).slots).toBe(64);
  });
}

test("trace=N: the host kernel's trace records are the timeline, a lane per workgroup", async ({ page }) => {
  await openHost(page, 'slots=1024&trace=65536');
  const res = await page.evaluate(async () => {
    await ringscope.stop();
    window.host.pause();
    const before = await window.host.summary();
    window.host.resetTrace(); // a run of its own: the window starts over with it
    await window.host.runTo(window.host.frame + 12);
    await ringscope.step(); // finds the new run
    await ringscope.step(); // reads it
    const after = await window.host.summary();
    const exported = JSON.parse(await ringscope.exportTrace());
    const events = exported.traceEvents ?? exported;
    return { claims: after.claims - before.claims, counts: await window.host.traceCounts(),
      trace: (await ringscope.snapshot({ trace: true })).trace,
      slices: events.filter((e) => e.cat === 'task' && e.ph === 'X').length };
  });
  expect(res.claims).toBeGreaterThan(0);
  expect(res.counts.records, "the app's own reading: a record per claim").toBe(res.claims);
  expect(res.trace.records.length, 'the window holds the run, nothing before it').toBe(res.claims);
  expect(res.trace).toMatchObject({ axis: 'logical', overflow: 0, capacity: 65536 });
  expect(res.slices, 'exportTrace has a task slice per record').toBe(res.claims);
  for (const r of res.trace.records) expect(r.startTicket).toBeLessThan(r.endTicket);

  const panel = page.getByTestId('timeline-panel');
  await expect(panel).toBeVisible();
  const lanes = panel.getByTestId('timeline-lane');
  await expect(lanes).toHaveCount(1024 / 64);
  const rows = await lanes.evaluateAll((els) => Object.fromEntries(els.map((e) => [e.dataset.workgroup, Number(e.dataset.tasks)])));
  expect(rows, "each workgroup's task count is the app's own").toEqual(res.counts.groups);

  // Bad trace options are refused by name; a trace buffer the host
  // destroys ends the attachment in one line naming it.
  const err = await page.evaluate(async () => {
    await ringscope.detach();
    const { device, control, ring, trace } = window.host;
    const tryAttach = (o) => ringscope.attach({ device, control, ring, ...o }).then(() => 'attached', (e) => e.message);
    const out = { alone: await tryAttach({ traceCapacity: 4 }), key: await tryAttach({ trace, traceCapacty: 4 }),
      large: await tryAttach({ trace, traceCapacity: 65537 }), wrong: await tryAttach({ trace: ring.size }) };
    await ringscope.attach({ device, control, ring, trace });
    window.host.resume();
    return out;
  });
  expect(err.alone).toBe('attach: megakernel: attach: TraceCapacity: given without a trace buffer');
  expect(err.key).toBe('attach: unknown option "traceCapacty" (did you mean "traceCapacity"?)');
  expect(err.large).toContain('attach: megakernel: attach: trace buffer "host trace": capacity 65537: want 1 … 65536');
  expect(err.wrong).toContain('attach: webgpu: trace: want a GPUBuffer, got number');
  await page.evaluate(async () => { await ringscope.start(); window.host.pause(); window.host.trace.destroy(); });
  await expect.poll(() => page.evaluate(() => ringscope.attachInfo().then((i) => i.reason)), { timeout: 15_000 })
    .toBe('the host\'s buffers can no longer be copied: its trace buffer "host trace" was destroyed');
});
