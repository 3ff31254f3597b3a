// The flight recorder's history (issue 30, item 5): five minutes of the
// default-mix preset at 65,536 slots stay in the recorder, within its
// 96 MiB, and the exports say which frames they cover; compact frames
// round-trip through export and import. The first test runs the page's
// live loop for real for five minutes: @long (it runs in make test; skip
// it with --grep-invert @long). The thinning and compaction rules have
// native tests (wasm/capture/history_test.go, pagerecorder_test.go, which
// also holds five minutes of 60 frames a second).
import { test, expect } from '@playwright/test';

const MIB = 1 << 20;
const SPAN_MS = 300_000;

test.describe.configure({ timeout: 9 * 60_000 });

test('five minutes of default-mix at 65,536 slots stay in the recorder within 96 MiB @long', async ({ page }) => {
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console.error: ${m.text()}`); });
  await page.goto('/?slots=65536&seed=7');
  await page.waitForFunction(() => globalThis.ringscope?.captureInfo);
  await page.evaluate(() => ringscope.ready);
  await expect(page.getByTestId('status')).toHaveText('ready', { timeout: 60_000 });
  // The same five minutes are default-mix's no-false-alarm run (issue 30,
  // docs/DIAGNOSIS.md): every frame's verdict, through subscribe.
  await page.evaluate(() => {
    window.__alarms = [];
    window.__frames = 0;
    ringscope.subscribe((f) => {
      window.__frames++;
      if ((f.causes && f.causes.length) || !['progressing', 'idle'].includes(f.health)) {
        window.__alarms.push({ seq: f.seq, health: f.health, causes: f.causes });
      }
    });
  });

  // Sample the recorder every 10 s until it spans five minutes: it never
  // exceeds its bound, and it never forgets the start of the run.
  let info;
  const samples = [];
  for (;;) {
    await page.waitForTimeout(10_000);
    info = await page.evaluate(() => ringscope.captureInfo());
    samples.push({ frames: info.frames, compact: info.compact, bytes: info.bytes, spanMillis: info.spanMillis, lastSeq: info.lastSeq });
    expect(info.maxBytes).toBe(96 * MIB);
    expect(info.bytes, `${JSON.stringify(samples.at(-1))}`).toBeLessThanOrEqual(info.maxBytes);
    expect(info.recording).toBe(true);
    if (info.spanMillis >= SPAN_MS) break;
    expect(samples.length, `span ${info.spanMillis} ms after ${samples.length * 10} s`).toBeLessThan(40);
  }
  console.log(`recorder after ${samples.length * 10} s: ${JSON.stringify(samples.at(-1))}; ${info.lastSeq} frames ran`);
  expect(info.firstSeq, 'the oldest frame held is near the run\'s start').toBeLessThan(info.lastSeq / 8);
  expect(info.compact, 'most frames are compact').toBeGreaterThan(info.frames / 2);
  expect(info.frames - info.compact, 'the newest frames are whole').toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('capture-held'), 'the capture bar says the span').toContainText(/ frames over [5-9] min \d+ s · /);

  // The exports say what they cover: seqs, span, thinning.
  const out = await page.evaluate(async () => {
    const trace = JSON.parse(await ringscope.exportTrace()).otherData;
    const metrics = await ringscope.exportMetrics();
    const gauge = (name) => Number(metrics.match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1]);
    const oldest = await ringscope.captureFrame(0);
    return {
      trace, span: gauge('ringscope_capture_span_seconds'), first: gauge('ringscope_capture_first_seq'),
      compact: gauge('ringscope_capture_compact_frames'), frames: gauge('ringscope_capture_frames'),
      oldest: { seq: oldest.seq, occupancy: oldest.telemetry.occupancy, done: oldest.telemetry.control.doneCount },
    };
  });
  expect(out.trace.spanMillis).toBeGreaterThanOrEqual(SPAN_MS);
  expect(out.trace.firstSeq).toBe(out.oldest.seq);
  expect(out.trace.coverage).toMatch(/^seq \d+…\d+ over \d+\.\d s; .* compact; .* every frame with slots$/);
  expect(out.span).toBeGreaterThanOrEqual(SPAN_MS / 1000);
  expect(out.first).toBe(out.oldest.seq);
  expect(out.compact).toBeGreaterThan(out.frames / 2);
  // A compact frame replays its counters and its occupancy, not its slots.
  const occ = out.oldest.occupancy;
  expect(Object.values(occ).reduce((a, b) => a + b, 0), JSON.stringify(occ)).toBe(65536);
  expect(out.oldest.done).toBeGreaterThan(0);
  const verdicts = await page.evaluate(() => ({ frames: window.__frames, alarms: window.__alarms.slice(0, 5), n: window.__alarms.length }));
  expect(verdicts.frames, 'frames sampled').toBeGreaterThan(300);
  expect(verdicts.alarms, `${verdicts.n} of ${verdicts.frames} default-mix frames raised a cause`).toEqual([]);
  expect(errors).toEqual([]);
});

// Compact frames go through export and import as they are, and replay
// their counters and occupancy with a note that they have no slots. A
// 4,096-slot ring fills the recorder's whole frames in seconds.
test('compact frames round-trip through export and import, and replay without slots', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto('/?slots=4096&seed=7');
  await page.waitForFunction(() => globalThis.ringscope?.captureInfo);
  await page.evaluate(() => ringscope.ready);
  await expect.poll(() => page.evaluate(async () => (await ringscope.captureInfo()).compact), { timeout: 90_000 })
    .toBeGreaterThan(20);
  const r = await page.evaluate(async () => {
    await ringscope.setRecording(false);
    const info = await ringscope.captureInfo();
    const picks = [0, info.compact - 1, info.compact, info.frames - 1];
    const before = [];
    for (const i of picks) before.push(await ringscope.captureFrame(i));
    const bytes = await ringscope.exportCapture();
    const imported = await ringscope.importCapture(bytes);
    const after = [];
    for (const i of picks) after.push(await ringscope.captureFrame(i));
    return { info, before, after, imported };
  });
  expect(r.imported).toMatchObject({ replaying: true, count: r.info.frames, index: 0 });
  expect(r.after).toEqual(r.before);
  const [oldest, lastCompact, firstWhole] = r.before;
  expect(oldest.seq).toBe(r.info.firstSeq);
  for (const f of [oldest, lastCompact, firstWhole]) {
    expect(Object.values(f.telemetry.occupancy).reduce((a, b) => a + b, 0), `seq ${f.seq}`).toBe(4096);
  }
  expect(oldest.telemetry.slots ?? [], 'a compact frame has no slots').toHaveLength(0);
  expect(firstWhole.telemetry.slots).toHaveLength(4096);
  expect(lastCompact.telemetry.control.doneCount).toBeLessThanOrEqual(firstWhole.telemetry.control.doneCount);
  // The import shows frame 1, a compact one: the bar says what it lacks.
  await expect(page.getByTestId('capture-ring-note')).toHaveText(/^a compact frame of the recorder's history/);
  await page.getByTestId('back-to-live').click();
  await expect(page.getByTestId('capture-position')).toHaveText('live');
  expect(errors).toEqual([]);
});
