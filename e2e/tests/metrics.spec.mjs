// The metrics export against what consumes it (issue 22, point 5): a
// _total counter never goes down within a generation while the recorder
// evicts old frames from its whole ones (Prometheus would read each drop
// as a reset), and the
// classic Prometheus text form passes Debian's real promtool check metrics.
// Real Chromium on SwiftShader, the real server, static/main.wasm.
import { execFileSync } from 'node:child_process';
import { test, expect, gotoReady, waitFrames } from './fixtures.mjs';

// samples parses OpenMetrics or Prometheus text into {name{labels}: value}.
export function samples(text) {
  const out = {};
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    out[line.slice(0, i)] = Number(line.slice(i + 1));
  }
  return out;
}

test('six exports two seconds apart: no _total sample decreases within a generation', async ({ page }) => {
  test.setTimeout(90_000);
  // The default ring, full readback on a CPU adapter: 4 MiB a frame, so
  // the recorder holds about 17 frames whole and moves one per frame into
  // its history of compact frames (docs/CAPTURE.md §5).
  await gotoReady(page);
  await waitFrames(page, 30);
  const exports = [];
  for (let i = 0; i < 6; i++) {
    if (i > 0) await page.waitForTimeout(2000);
    const [text, info] = await page.evaluate(async () => [await ringscope.exportMetrics(), await ringscope.captureInfo()]);
    exports.push({ values: samples(text), dropped: info.dropped, compact: info.compact });
  }
  expect(exports[5].compact, 'the recorder evicted whole frames meanwhile').toBeGreaterThan(exports[0].compact);
  const decreases = [];
  for (let i = 1; i < exports.length; i++) {
    const [prev, cur] = [exports[i - 1].values, exports[i].values];
    if (prev.ringscope_generation !== cur.ringscope_generation) continue;
    for (const [name, v] of Object.entries(cur)) {
      if (/_total(\{|$)/.test(name) && name in prev && v < prev[name]) decreases.push(`${name}: ${prev[name]} → ${v} (export ${i})`);
    }
  }
  expect(decreases).toEqual([]);
  const first = exports[0].values;
  const last = exports[5].values;
  expect(last.ringscope_bytes_read_back_total).toBeGreaterThan(first.ringscope_bytes_read_back_total);
  expect(last.ringscope_run_dispatches_total).toBeGreaterThan(first.ringscope_run_dispatches_total);
  expect(last.ringscope_round_trip_seconds_total).toBeGreaterThan(first.ringscope_round_trip_seconds_total);
  test.info().annotations.push({ type: 'counters', description: JSON.stringify({
    dispatches: [first.ringscope_run_dispatches_total, last.ringscope_run_dispatches_total],
    heldDispatches: [first.ringscope_capture_dispatches, last.ringscope_capture_dispatches],
    dropped: [exports[0].dropped, exports[5].dropped], compact: [exports[0].compact, exports[5].compact],
  }) });
});

test('the Prometheus text form passes promtool check metrics, with help on every family', async ({ page }) => {
  await gotoReady(page);
  await waitFrames(page, 3);
  const [prom, om] = await page.evaluate(async () => [
    await ringscope.exportMetrics({ format: 'prometheus' }),
    await ringscope.exportMetrics({ format: 'openmetrics' }),
  ]);
  // promtool exits 0 only when the text parses and lints clean (3 on a lint
  // problem such as a family without HELP); execFileSync throws otherwise.
  const out = execFileSync('promtool', ['check', 'metrics'], { input: prom, encoding: 'utf8', timeout: 30_000 });
  expect(out).toBe('');
  expect(() => execFileSync('promtool', ['check', 'metrics'], { input: '# TYPE x counter\nx 1\n', stdio: 'pipe' }),
    'promtool refuses what it should').toThrow();
  const families = prom.split('\n').filter((l) => l.startsWith('# TYPE ')).map((l) => l.split(' ')[2]);
  const helped = new Set(prom.split('\n').filter((l) => l.startsWith('# HELP ')).map((l) => l.split(' ')[2]));
  expect(families.filter((f) => !helped.has(f))).toEqual([]);
  expect(om.endsWith('# EOF\n')).toBe(true);
  expect(prom).not.toContain('# EOF');
  // The two forms carry the same samples.
  expect(samples(prom)).toEqual(samples(om));
  const bad = await page.evaluate(() => ringscope.exportMetrics({ format: 'xml' }).then(() => 'resolved', (e) => e.message));
  expect(bad).toBe('exportMetrics: format "xml": want "openmetrics" or "prometheus"');
});

test('a live trace says abiVersion 1 and every event is after ts 0; so does a dump\'s', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  const r = await page.evaluate(async () => {
    await ringscope.step();
    await ringscope.step();
    const live = JSON.parse(await ringscope.exportTrace());
    const control = new Uint32Array(160);
    control[1] = 1;
    const ring = new Uint32Array(16);
    ring[0] = 3;
    await ringscope.importCapture({ control, ring });
    const dump = JSON.parse(await ringscope.exportTrace());
    await ringscope.live();
    const summary = (t) => ({ abi: t.otherData.abiVersion, first: t.traceEvents[0].ts,
      min: Math.min(...t.traceEvents.map((e) => e.ts)), source: t.otherData.source });
    return { live: summary(live), dump: summary(dump) };
  });
  expect(r.live).toEqual({ abi: 1, first: 1, min: 1, source: 'live' });
  expect(r.dump).toEqual({ abi: 1, first: 1, min: 1, source: 'dump' });
});
