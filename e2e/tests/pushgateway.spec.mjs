// A fleet of pages, one dashboard (issue 22, point 8): pages push their
// metrics through the page server's relay (go run . -pushgateway URL;
// push.go) to Debian's real prometheus-pushgateway, a real Prometheus
// scrapes the gateway, and what it stores equals each page's own frame.
// The gateway, Prometheus and a second ringscope server (with the relay)
// run on free loopback ports for this file only, and are stopped after it.
// make setup installs prometheus and prometheus-pushgateway.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from './fixtures.mjs';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const repo = path.resolve(import.meta.dirname, '..', '..');
let tmp;
const children = [];
const ports = {};

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function start(name, cmd, args) {
  const child = spawn(cmd, args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = [];
  child.stdout.on('data', (d) => log.push(String(d)));
  child.stderr.on('data', (d) => log.push(String(d)));
  children.push({ name, child, log });
  return child;
}

// up waits until url answers 200, or fails naming the process and its log.
async function up(name, url, timeoutMs = 60_000) {
  const t0 = Date.now();
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    const c = children.find((x) => x.name === name);
    if (c.child.exitCode !== null || Date.now() - t0 > timeoutMs) {
      throw new Error(`${name} did not come up at ${url}: ${c.log.join('').slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

test.beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'ringscope-push-'));
  for (const k of ['gateway', 'prometheus', 'ringscope']) ports[k] = await freePort();
  start('pushgateway', 'prometheus-pushgateway', [`--web.listen-address=127.0.0.1:${ports.gateway}`, '--persistence.file=']);
  writeFileSync(path.join(tmp, 'prometheus.yml'), [
    'global:',
    '  scrape_interval: 1s',
    'scrape_configs:',
    '  - job_name: pushgateway',
    '    honor_labels: true',
    '    static_configs:',
    `      - targets: ['127.0.0.1:${ports.gateway}']`,
    '',
  ].join('\n'));
  start('prometheus', 'prometheus', [`--config.file=${path.join(tmp, 'prometheus.yml')}`,
    `--storage.tsdb.path=${path.join(tmp, 'data')}`, `--web.listen-address=127.0.0.1:${ports.prometheus}`]);
  const bin = path.join(tmp, 'ringscope');
  execFileSync(process.env.GO || 'go', ['build', '-o', bin, '.'], { cwd: repo, stdio: 'pipe', timeout: 120_000 });
  start('ringscope', bin, ['-addr', `127.0.0.1:${ports.ringscope}`, '-dir', 'static',
    '-pushgateway', `http://127.0.0.1:${ports.gateway}`]);
  await up('pushgateway', `http://127.0.0.1:${ports.gateway}/-/ready`);
  await up('prometheus', `http://127.0.0.1:${ports.prometheus}/-/ready`);
  await up('ringscope', `http://127.0.0.1:${ports.ringscope}/`);
});

test.afterAll(async () => {
  await Promise.all(children.map(({ child }) => new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  })));
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// query asks Prometheus for an instant vector: {instance: value}.
async function query(q) {
  const r = await fetch(`http://127.0.0.1:${ports.prometheus}/api/v1/query?query=${encodeURIComponent(q)}`);
  const j = await r.json();
  expect(j.status, JSON.stringify(j)).toBe('success');
  return Object.fromEntries(j.data.result.map((s) => [s.metric.instance, Number(s.value[1])]));
}

// runRing runs a small ring to its end in page and returns its numbers.
async function runRing(page, items) {
  return page.evaluate(async (n) => {
    const opened = await ringscope.open({ slots: 256, tenants: 2, observable: 64 });
    const batch = [];
    const room = [0, 1, 2, 3, 4].map((p) => opened.partitions[p + 1] - opened.partitions[p]);
    for (let i = 0, p = 0; i < n; i++) {
      while (room[p] === 0) p = (p + 1) % 5;
      room[p]--;
      batch.push({ opcode: 0, tenant: i % 2, priority: p });
      p = (p + 1) % 5;
    }
    await ringscope.publish(batch);
    const d = await ringscope.drain({ maxSubmissions: 16 });
    const text = await ringscope.exportMetrics({ format: 'prometheus' });
    const samples = Object.fromEntries(text.split('\n').filter((l) => l && !l.startsWith('#'))
      .map((l) => [l.slice(0, l.lastIndexOf(' ')), Number(l.slice(l.lastIndexOf(' ') + 1))]));
    return { done: d.telemetry.control.doneCount, claims: d.telemetry.control.claims,
      generation: d.telemetry.control.generation, samples };
  }, items);
}

test('two pages push through the relay; Prometheus scrapes the gateway and holds each page\'s frame', async ({ page, context }) => {
  const url = `http://127.0.0.1:${ports.ringscope}/?autostart=0`;
  const other = await context.newPage();
  const pages = { 'page-1': [page, 40], 'page-2': [other, 70] };
  const frames = {};
  for (const [instance, [p, n]] of Object.entries(pages)) {
    await p.goto(url);
    await expect(p.getByTestId('status')).toHaveText('ready', { timeout: 30_000 });
    frames[instance] = await runRing(p, n);
    expect(frames[instance].done).toBe(n);
    const pushed = await p.evaluate((inst) => ringscope.pushMetrics('/pushgateway', { job: 'e2e', instance: inst }), instance);
    expect(pushed.status).toBe(200);
    expect(pushed.url).toBe(`http://127.0.0.1:${ports.ringscope}/pushgateway/metrics/job/e2e/instance/${instance}`);
    expect(pushed.bytes).toBeGreaterThan(1000);
  }
  // The gateway holds both groups (its own /metrics, as Prometheus scrapes it).
  const gw = await (await fetch(`http://127.0.0.1:${ports.gateway}/metrics`)).text();
  expect(gw).toMatch(/^ringscope_done_total\{instance="page-1",job="e2e"\} 40$/m);
  expect(gw).toMatch(/^ringscope_done_total\{instance="page-2",job="e2e"\} 70$/m);

  // Prometheus scraped it: each instance's values are that page's frame.
  await expect.poll(() => query('ringscope_done_total{job="e2e"}'), { timeout: 30_000 })
    .toEqual({ 'page-1': frames['page-1'].done, 'page-2': frames['page-2'].done });
  const claims = await query('ringscope_claims_total{job="e2e"}');
  const generation = await query('ringscope_generation{job="e2e"}');
  const dispatches = await query('ringscope_run_dispatches_total{job="e2e"}');
  const bytes = await query('ringscope_bytes_read_back_total{job="e2e"}');
  for (const instance of Object.keys(pages)) {
    const f = frames[instance];
    expect(claims[instance], instance).toBe(f.claims);
    expect(generation[instance], instance).toBe(f.generation);
    expect(dispatches[instance], instance).toBe(f.samples.ringscope_run_dispatches_total);
    expect(bytes[instance], instance).toBe(f.samples.ringscope_bytes_read_back_total);
  }
  // A refused push says why: a label the gateway would misread.
  const bad = await page.evaluate(() => ringscope.pushMetrics('/pushgateway', { job: 'a/b' }).then(() => 'resolved', (e) => e.message));
  expect(bad).toMatch(/^pushMetrics: job must be a string of 1…128 of /);
});

test('?push=/pushgateway&job=…&instance=… pushes by itself', async ({ page }) => {
  await page.goto(`http://127.0.0.1:${ports.ringscope}/?autostart=0&push=/pushgateway&job=e2e-url&instance=url-page`);
  await expect(page.getByTestId('status')).toHaveText('ready', { timeout: 30_000 });
  const f = await runRing(page, 25);
  await expect.poll(() => query('ringscope_done_total{job="e2e-url"}'), { timeout: 30_000 }).toEqual({ 'url-page': f.done });
  expect(await query('ringscope_generation{job="e2e-url"}')).toEqual({ 'url-page': f.generation });
});
