// The npm package as a real consumer uses it (issue 32): make package's
// tarball, installed by file path into a scratch Vite app
// (e2e/consumers/vite-app: vite pinned in its own lockfile, npm ci), built
// with vite build and served under a strict CSP (script-src 'self'
// 'wasm-unsafe-eval', no worker, no blob), runs two instances in headless
// Chromium: a ring of its own and an attachment to the app's own ring.
// Both dashboards update; dispose() of one leaves the other running.
// A second scratch project (e2e/consumers/playwright-suite: the tarball
// and @playwright/test) is a small WebGPU app's own suite asserting
// through ringscope/playwright: the healthy run passes, the app's two
// deliberate bugs (a masked tenant, a fault) fail with the diagnosis.
import { execFileSync, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect, num } from './fixtures.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const app = path.join(root, 'e2e/consumers/vite-app');
const suite = path.join(root, 'e2e/consumers/playwright-suite');
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'";
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };

test.describe.configure({ timeout: 180_000 });

let server;
let url;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  // make package's work (static/main.wasm is built by make e2e-static).
  const packed = run('node', ['scripts/package.mjs'], root);
  const tgz = path.join(root, /^(dist\/\S+\.tgz):/m.exec(packed)[1]);
  run('npm', ['ci', '--no-audit', '--no-fund'], app);
  run('npm', ['install', '--no-save', '--no-audit', '--no-fund', tgz], app);
  run('npx', ['vite', 'build'], app);
  run('npm', ['ci', '--no-audit', '--no-fund'], suite);
  run('npm', ['install', '--no-save', '--no-audit', '--no-fund', tgz], suite);
  server = createServer(async (req, res) => {
    const p = new URL(req.url, 'http://x').pathname;
    try {
      const body = await readFile(path.join(app, 'dist', p === '/' ? 'index.html' : path.normalize(p)));
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(p || '.html')] ?? 'text/html', 'Content-Security-Policy': CSP });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${server.address().port}/`;
});
test.afterAll(() => server?.close());

const frameOf = (page, sel) => page.locator(`${sel} .hstat`)
  .filter({ has: page.locator('.hstat-label', { hasText: /^frame$/i }) })
  .locator('span').last().textContent().then(num);

test('a Vite app built on the packed tarball runs a ring and an attachment; dispose() of one leaves the other', async ({ page }) => {
  await page.goto(url);
  await expect(page.getByTestId('state')).toHaveText('running', { timeout: 60_000 });
  expect(await page.evaluate(() => typeof window.ringscope), 'no global').toBe('undefined');
  for (const sel of ['#ring', '#attached']) {
    const f0 = await frameOf(page, sel);
    await expect.poll(() => frameOf(page, sel), { timeout: 30_000, message: `${sel}'s dashboard updates` }).toBeGreaterThan(f0 || 0);
  }
  expect(await page.evaluate(async () => (await a.snapshot()).telemetry.control.doneCount)).toBe(2);
  await page.evaluate(() => a.dispose());
  expect(await page.locator('#ring').evaluate((el) => el.childElementCount)).toBe(0);
  const f1 = await frameOf(page, '#attached');
  await expect.poll(() => frameOf(page, '#attached'), { timeout: 30_000, message: 'the other keeps running' }).toBeGreaterThan(f1);
});

test("a WebGPU app's own suite: healthy passes, a masked tenant and a fault fail with the diagnosis", async () => {
  test.setTimeout(180_000);
  const port = Number(process.env.RINGSCOPE_E2E_PORT || 18473) + 97;
  const r = spawnSync('npx', ['playwright', 'test', '--reporter=json'], {
    cwd: suite, encoding: 'utf8', env: { ...process.env, APP_PORT: String(port) }, maxBuffer: 64 << 20, timeout: 170_000,
  });
  const report = JSON.parse(r.stdout);
  const results = Object.fromEntries(report.suites.flatMap((s) => s.specs)
    .map((spec) => [spec.title, spec.tests[0].results[0]]));
  expect(results['healthy: the queue drains'].status, results['healthy: the queue drains'].error?.message).toBe('passed');
  const masked = results['bug: a masked tenant'];
  expect(masked.status).toBe('failed');
  expect(masked.error.message).toContain('expect(ringscope).toBeHealthy(): the ring is not healthy');
  expect(masked.error.message).toMatch(/health: (stalled|degraded)\n- masked-tenant \(tenant 1\): deniedPerFrame=\d+, share=[\d.]+, slots=8\n/);
  expect(masked.error.message).toMatch(/fix: Tenant 1 is masked/);
  const fault = results['bug: a fault'];
  expect(fault.status).toBe('failed');
  expect(fault.error.message).toMatch(/toHaveNoFaults\(\): FAULTS is 4; the log:\n {2}UNKNOWN_OPCODE: /);
  // The app's 16 items ended, 4 of them faults: the diagnosis names it.
  expect(fault.error.message).toMatch(/health: degraded\n- fault-storm/);
});
