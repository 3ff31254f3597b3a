// Capture and replay (issue 6): the flight recorder, the capture file's
// export → import round trip, a legacy vyre dump, a malformed file, the
// scrubber and the standard exports (Chrome trace, OpenMetrics). The
// formats are docs/CAPTURE.md; the API docs/EMBEDDING.md.
import { test, expect } from '@playwright/test';

// A small ring keeps each recorded frame small (1024 slots = 64 KiB), and
// the 2-core test machine fast enough.
test.describe.configure({ timeout: 90_000 });
const PAGE = '/?autostart=0&slots=1024&seed=7';

function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console.error: ${m.text()}`); });
  return errors;
}

async function ready(page, query = PAGE) {
  await page.goto(query);
  await page.waitForFunction(() => globalThis.ringscope?.captureInfo);
  await page.evaluate(() => ringscope.ready);
  await expect(page.getByTestId('status')).toHaveText('ready', { timeout: 30_000 });
}

// steps runs n live frames through the API and returns the recorder's info.
async function steps(page, n) {
  return page.evaluate(async (n) => {
    for (let i = 0; i < n; i++) await ringscope.step();
    return ringscope.captureInfo();
  }, n);
}

// legacyDump builds a vyre dump in the page: a 640-byte control buffer
// whose MAGIC word (141) is 0, and a ring of a few slots.
function legacyDump() {
  const control = new Uint32Array(160);
  control[1] = 3; // DONE_COUNT
  control[2] = 3; // TENANT_BASE
  control[3] = 1; // TENANT_MASK[0]
  control[64] = 4; // TENANT_CLAIMS[0]
  control.set([0, 1, 2, 3, 4, 5], 129); // PRIORITY_OFFSETS: one slot per level
  control[136 + 2] = 4; // PRIORITY_CLAIMS[NORMAL]
  const ring = new Uint32Array(5 * 16);
  const statuses = [3, 3, 1, 7, 3]; // DONE DONE PUBLISHED FAULT DONE
  statuses.forEach((s, i) => { ring[i * 16] = s; ring[i * 16 + 3] = i; });
  return { control: [...new Uint8Array(control.buffer)], ring: [...new Uint8Array(ring.buffer)] };
}

test('live frames are recorded; export → import round-trips with identical decoded telemetry', async ({ page }) => {
  const errors = watchErrors(page);
  await ready(page);
  const info = await steps(page, 6);
  expect(info.recording).toBe(true);
  expect(info.frames, 'frames recorded (the session tells the recorder every frame: wasm/jsapi Capture.Observe)').toBeGreaterThanOrEqual(6);
  expect(info.bytes).toBeLessThanOrEqual(info.maxBytes);
  await expect(page.getByTestId('capture-held')).toContainText(`${info.frames} frames`);

  const result = await page.evaluate(async () => {
    const n = (await ringscope.captureInfo()).frames;
    const picks = [0, n >> 1, n - 1];
    const before = [];
    for (const i of picks) before.push(await ringscope.captureFrame(i));
    const bytes = await ringscope.exportCapture();
    const imported = await ringscope.importCapture(bytes);
    const after = [];
    for (const i of picks) after.push(await ringscope.captureFrame(i));
    const again = await ringscope.exportCapture();
    const magic = [...bytes.slice(0, 8)];
    return { n, before, after, imported, magic, isU8: bytes instanceof Uint8Array,
      same: bytes.length === again.length && bytes.every((b, i) => b === again[i]) };
  });
  expect(result.isU8).toBe(true);
  expect(result.magic).toEqual([0x89, 0x52, 0x53, 0x43, 0x41, 0x50, 0x0d, 0x0a]);
  expect(result.imported).toMatchObject({ replaying: true, count: result.n, index: 0, source: 'import' });
  expect(result.after).toEqual(result.before);
  expect(result.before[2].telemetry.control.doneCount).toBeGreaterThan(0);
  expect(result.before[0].dispatch).not.toBeNull();
  expect(result.same, 're-exporting the imported capture gives the same bytes').toBe(true);

  await expect(page.getByTestId('replaying')).toBeVisible();
  await expect(page.getByTestId('capture-position')).toHaveText(new RegExp(`^frame 1 / ${result.n} · seq \\d+ · import$`));
  await page.getByTestId('back-to-live').click();
  await expect(page.getByTestId('replaying')).toHaveCount(0);
  await expect(page.getByTestId('capture-position')).toHaveText('live');
  expect(errors).toEqual([]);
});

test('the scrubber shows a recorded frame through the panels; back to live', async ({ page }) => {
  const errors = watchErrors(page);
  await ready(page);
  const info = await steps(page, 5);
  const frames = await page.evaluate(async () => [await ringscope.captureFrame(0), await ringscope.captureFrame(1)]);
  const scrubber = page.getByTestId('capture-scrubber');
  await expect(scrubber).toBeEnabled();
  await scrubber.fill('1');
  await expect(page.getByTestId('replaying')).toBeVisible();
  await expect(page.getByTestId('capture-position')).toHaveText(new RegExp(`^frame 2 / ${info.frames} · seq ${frames[1].seq} · recording$`));
  // The header's DONE shows the replayed frame's DONE_COUNT less its FAULTS.
  const done = page.locator('.hstat').filter({ hasText: /^done/i }).locator('span').last();
  const ctl = frames[1].telemetry.control;
  await expect(done).toHaveText((ctl.doneCount - ctl.faults).toLocaleString('en'));
  await expect(page.locator('.hstat').filter({ hasText: /^frame/i }).locator('span').last()).toHaveText(String(frames[1].seq));
  // Live frames do not replace the replayed one (the loop is paused).
  await page.waitForTimeout(300);
  await expect(page.getByTestId('capture-position')).toContainText('frame 2 /');

  await scrubber.fill(String(info.frames - 1));
  await expect(page.getByTestId('capture-position')).toContainText(`frame ${info.frames} /`);
  await page.getByTestId('back-to-live').click();
  await expect(page.getByTestId('capture-position')).toHaveText('live');
  // The page keeps working live.
  const after = await steps(page, 1);
  expect(after.frames).toBe(Math.min(info.frames + 1, info.maxFrames));
  expect(errors).toEqual([]);
});

test('under summary readback every recorded frame has its own slots, from the page\'s copy, with no ring read', async ({ page }) => {
  const errors = watchErrors(page);
  // NOPs only: nothing parks, so the host copy a frame records (after its
  // requeue) is the ring the frame's summary counted.
  await ready(page, `${PAGE}&readback=summary&preset=nop-flood`);
  const res = await page.evaluate(async () => {
    const live = [];
    for (let i = 0; i < 8; i++) {
      const f = await ringscope.step();
      live.push({ seq: f.seq, occupancy: (await ringscope.snapshot()).telemetry.occupancy });
    }
    const info = await ringscope.captureInfo();
    const recorded = [];
    for (let i = 0; i < info.frames; i++) {
      const f = await ringscope.captureFrame(i);
      recorded.push({ seq: f.seq, occupancy: f.telemetry.occupancy });
    }
    const bytes = await ringscope.exportCapture();
    const snap = await ringscope.snapshot();
    // The file imports back to the same frames.
    await ringscope.importCapture(bytes);
    const reimported = [];
    for (let i = 0; i < info.frames; i++) reimported.push((await ringscope.captureFrame(i)).telemetry);
    await ringscope.live();
    const recordedTel = [];
    for (let i = 0; i < info.frames; i++) recordedTel.push((await ringscope.captureFrame(i)).telemetry);
    return { live, recorded, info, version: new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true),
      readback: snap.readback, ringReads: snap.ringReads, reimported, recordedTel };
  });
  expect(res.reimported, 'export → import gives the recorded frames').toEqual(res.recordedTel);
  expect(res.readback).toBe('summary');
  expect(res.ringReads, 'the recording copies the host ring; it does not read the GPU ring').toBe(0);
  expect(res.version, 'a capture of ring patches is container version 2').toBe(2);
  const bySeq = new Map(res.recorded.map((r) => [r.seq, r.occupancy]));
  const busy = new Set(res.live.map((l) => l.occupancy.done));
  expect(busy.size, 'the frames differ').toBeGreaterThan(1);
  for (const l of res.live) {
    expect(bySeq.get(l.seq), `frame seq ${l.seq}: replayed occupancy = the live summary's`).toEqual(l.occupancy);
  }
  // Patches, not whole rings: 8 frames of a 1,024-slot ring hold less than
  // 8 whole rings (64 KiB each).
  expect(res.info.bytes).toBeLessThan(res.info.frames * 1024 * 64);

  // A replayed frame shows its own slots: no note that they are older.
  const scrubber = page.getByTestId('capture-scrubber');
  await scrubber.fill(String(res.info.frames - 1));
  await expect(page.getByTestId('capture-position')).toContainText(`frame ${res.info.frames} /`);
  await expect(page.getByTestId('capture-ring-note')).toHaveCount(0);
  await page.getByTestId('back-to-live').click();
  expect(errors).toEqual([]);
});

test('a legacy vyre dump (MAGIC = 0) imports through the API and as two dropped files', async ({ page }) => {
  const errors = watchErrors(page);
  await ready(page);
  const dump = legacyDump();
  const res = await page.evaluate(async ({ control, ring }) => {
    const info = await ringscope.importCapture({ control: new Uint8Array(control), ring: new Uint8Array(ring) });
    const frame = await ringscope.captureFrame(0);
    const decoded = await ringscope.decode(new Uint8Array(control), new Uint8Array(ring));
    return { info, frame, decoded };
  }, dump);
  expect(res.info).toMatchObject({ replaying: true, count: 1, source: 'vyre dump' });
  expect(res.frame.legacy).toBe(true);
  expect(res.frame.telemetry.control.doneCount).toBe(3);
  expect(res.frame.telemetry.occupancy).toMatchObject({ done: 3, published: 1, fault: 1 });
  expect(res.decoded.telemetry).toEqual(res.frame.telemetry);
  await expect(page.getByTestId('capture-notice')).toContainText('legacy vyre layout');
  await expect(page.getByTestId('capture-position')).toHaveText(/^frame 1 \/ 1 · seq 1 · vyre dump$/);
  await page.getByTestId('back-to-live').click();

  // The same pair through the file input (names say which is which).
  await page.getByTestId('capture-file').setInputFiles([
    { name: 'ring.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(dump.ring) },
    { name: 'control.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(dump.control) },
  ]);
  await expect(page.getByTestId('capture-position')).toHaveText('frame 1 / 1 · seq 1 · control.bin + ring.bin');
  await expect(page.getByTestId('capture-notice')).toContainText('legacy vyre layout');

  // And dropped on the page.
  await page.getByTestId('back-to-live').click();
  const dt = await page.evaluateHandle(({ control, ring }) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(control)], 'control.bin'));
    dt.items.add(new File([new Uint8Array(ring)], 'ring.bin'));
    return dt;
  }, dump);
  await page.dispatchEvent('body', 'dragover', { dataTransfer: dt });
  await page.dispatchEvent('body', 'drop', { dataTransfer: dt });
  await expect(page.getByTestId('capture-position')).toHaveText('frame 1 / 1 · seq 1 · control.bin + ring.bin');
  expect(errors).toEqual([]);
});

test('a malformed file is refused with a clear message; the page keeps working', async ({ page }) => {
  const errors = watchErrors(page);
  await ready(page);
  await steps(page, 2);

  await page.getByTestId('capture-file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello, not a capture') });
  await expect(page.getByTestId('capture-error')).toHaveText(
    'import notes.txt refused: capture: byte 0: header: magic: not a capture file: expected the bytes 89 52 53 43 41 50 0D 0A (\\x89RSCAP\\r\\n) at the start');
  await expect(page.getByTestId('replaying')).toHaveCount(0);

  // A truncated capture names the frame and the field.
  const msg = await page.evaluate(async () => {
    const good = await ringscope.exportCapture();
    try {
      await ringscope.importCapture(good.slice(0, good.length - 100));
      return 'accepted';
    } catch (e) {
      return e.message;
    }
  });
  expect(msg).toMatch(/^capture: byte \d+: frame 1: record length: \d+ bytes runs past the end of the file \(\d+ bytes left\)$/);
  await expect(page.getByTestId('capture-error')).toContainText('frame 1: record length');

  // A bad dump pair: a ring that is not whole slots.
  const dumpMsg = await page.evaluate(async () => {
    try {
      await ringscope.importCapture({ control: new Uint8Array(640), ring: new Uint8Array(100) });
      return 'accepted';
    } catch (e) {
      return e.message;
    }
  });
  expect(dumpMsg).toBe('capture: byte 64: frame 0: ring: 100 bytes is not a whole number of 64-byte slots (36 bytes left over)');
  const badArg = await page.evaluate(() => ringscope.decode('nope', new Uint8Array(64)).then(() => 'ok', (e) => e.message));
  expect(badArg).toBe('decode: control must be an ArrayBuffer or a Uint8Array, got string');

  // The page still works: live frames are recorded and shown.
  const info = await steps(page, 2);
  expect(info.replaying).toBe(false);
  await expect(page.getByTestId('status')).toHaveText('ready');
  expect(info.frames).toBeGreaterThanOrEqual(4);
  expect(errors).toEqual([]);
});

test('an oversized file is refused before it is read; the page keeps working', async ({ page }) => {
  const errors = watchErrors(page);
  await ready(page);
  await steps(page, 1);
  // A dropped file that claims 2 TiB: the page must refuse it on its size,
  // without calling arrayBuffer() (which would throw here).
  await page.evaluate(() => {
    const big = { name: 'huge.rscap', size: 2 ** 41, arrayBuffer: () => { throw new Error('read an oversized file'); } };
    const ev = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(ev, 'dataTransfer', { value: { types: ['Files'], files: [big] } });
    document.dispatchEvent(ev);
  });
  await expect(page.getByTestId('capture-error')).toContainText('huge.rscap: 2199023255552 bytes exceeds the 536870912-byte import limit; nothing was read');
  await expect(page.getByTestId('replaying')).toHaveCount(0);
  const info = await steps(page, 1);
  expect(info.replaying).toBe(false);
  await expect(page.getByTestId('status')).toHaveText('ready');
  expect(errors).toEqual([]);
});

test('the trace JSON has the trace-event format\'s required fields; metrics are OpenMetrics', async ({ page }) => {
  const errors = watchErrors(page);
  await ready(page, '/?autostart=0&slots=1024&preset=fault-storm&seed=3');
  await steps(page, 4);
  const trace = JSON.parse(await page.evaluate(() => ringscope.exportTrace()));
  expect(Array.isArray(trace.traceEvents)).toBe(true);
  const phases = new Set();
  for (const e of trace.traceEvents) {
    expect(typeof e.name, JSON.stringify(e)).toBe('string');
    expect(['X', 'C', 'i', 'M']).toContain(e.ph);
    expect(typeof e.ts).toBe('number');
    expect(Number.isInteger(e.pid)).toBe(true);
    expect(Number.isInteger(e.tid)).toBe(true);
    if (e.ph === 'X') expect(e.dur).toBeGreaterThan(0);
    if (e.ph === 'i') expect(['g', 'p', 't']).toContain(e.s);
    if (e.ph === 'C') expect(Object.values(e.args).every((v) => typeof v === 'number')).toBe(true);
    phases.add(e.ph);
  }
  expect([...phases].sort()).toEqual(['C', 'M', 'X', 'i']);
  const names = new Set(trace.traceEvents.map((e) => e.name));
  for (const n of ['dispatch', 'claims by tenant', 'claims by priority', 'process_name', 'thread_name']) expect(names).toContain(n);
  expect(trace.traceEvents.some((e) => e.ph === 'X' && /^epoch \d+$/.test(e.name))).toBe(true);

  const metrics = await page.evaluate(() => ringscope.exportMetrics());
  expect(metrics.endsWith('# EOF\n')).toBe(true);
  expect(metrics).toMatch(/^# TYPE ringscope_done counter$/m);
  expect(metrics).toMatch(/^# HELP ringscope_done .+$/m);
  expect(metrics).toMatch(/^ringscope_done_total \d+$/m);
  expect(metrics).toMatch(/^ringscope_slots\{status="done"\} \d+$/m);
  expect(metrics).toMatch(/^ringscope_bytes_read_back_total [1-9]\d*$/m);
  for (const line of metrics.trimEnd().split('\n')) {
    expect(line).toMatch(/^(# (TYPE|HELP|UNIT) [a-z_]+ .+|# EOF|[a-z_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? -?[0-9.e+-]+)$/);
  }

  // The buttons download the same exports.
  for (const [id, suffix] of [['export-trace', '.trace.json'], ['export-metrics', '.om.txt'], ['export-capture', '.rscap']]) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(id).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^ringscope-\\d{8}-\\d{6}${suffix.replace('.', '\\.')}$`));
  }
  expect(errors).toEqual([]);
});

// captureInfo() during an import's replay described the paused live
// recorder (frames 2, index 4 of a 9-frame import); a Blob passed to
// importCapture was read through its inherited bytes() method ("got
// function"); a name of the wrong type was taken silently; and the bar
// read a refused API import as "import import refused: …".
test('an imported capture is what captureInfo describes; importCapture refuses a Blob and a bad name by name', async ({ page }) => {
  const errors = watchErrors(page);
  await ready(page);
  await steps(page, 9);
  const file = await page.evaluate(async () => [...await ringscope.exportCapture()]);
  await ready(page); // a fresh page: a recorder of its own, smaller than the file
  await steps(page, 2);

  await page.getByTestId('capture-file').setInputFiles({ name: 'a.rscap', mimeType: 'application/octet-stream', buffer: Buffer.from(file) });
  await expect(page.getByTestId('replaying')).toBeVisible();
  const res = await page.evaluate(async () => {
    const info = await ringscope.replay(4);
    const first = await ringscope.captureFrame(0);
    const last = await ringscope.captureFrame(info.frames - 1);
    return { info, first: first.seq, last: last.seq };
  });
  expect(res.info).toMatchObject({ replaying: true, source: 'a.rscap', index: 4, count: 9, frames: 9 });
  expect(res.info.firstSeq).toBe(res.first);
  expect(res.info.lastSeq).toBe(res.last);
  await expect(page.getByTestId('capture-position')).toContainText('frame 5 / 9');

  const refusals = await page.evaluate(async () => {
    const bytes = await ringscope.exportCapture();
    const refusal = (arg) => ringscope.importCapture(arg).then(() => 'resolved', (e) => e.message);
    const control = new Uint8Array(640), ring = new Uint8Array(64);
    return {
      blob: await refusal(new Blob([bytes])),
      file: await refusal(new File([bytes], 'b.rscap')),
      nameNumber: await refusal({ control, ring, name: 7 }),
      nameObject: await refusal({ control, ring, name: {} }),
    };
  });
  expect(refusals).toEqual({
    blob: 'importCapture: pass bytes (an ArrayBuffer or Uint8Array), not a Blob: await blob.arrayBuffer()',
    file: 'importCapture: pass bytes (an ArrayBuffer or Uint8Array), not a File: await blob.arrayBuffer()',
    nameNumber: 'importCapture: name must be a string, got number',
    nameObject: 'importCapture: name must be a string, got object',
  });
  await expect(page.getByTestId('capture-error')).toHaveText('import from importCapture() refused: importCapture: name must be a string, got object');
  // The refusals left the import replaying.
  expect(await page.evaluate(() => ringscope.captureInfo())).toMatchObject({ replaying: true, source: 'a.rscap', frames: 9 });

  const back = await page.evaluate(() => ringscope.live());
  expect(back).toMatchObject({ replaying: false });
  expect(back.frames, "the recorder's frames again").toBeLessThan(9);
  expect(errors).toEqual([]);
});
