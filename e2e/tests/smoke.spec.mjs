// Smoke tests of the page over the real Go server. They do not need
// static/main.wasm: the wasm is written and built elsewhere, so the test
// that needs its absence makes it absent with a route.
import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const securityHeaders = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
  'cross-origin-resource-policy': 'same-origin',
  'content-security-policy':
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
    "img-src 'self' data: blob:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; " +
    "base-uri 'none'; frame-ancestors 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

// collectCSPViolations records CSP violations the page reports, from the
// console and from securitypolicyviolation events.
async function collectCSPViolations(page) {
  const violations = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  await page.exposeFunction('__reportCSP', (v) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__reportCSP(`${e.violatedDirective} blocked ${e.blockedURI}`));
  });
  return violations;
}

async function snap(page, testInfo, name) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

test('page loads over the real server, cross-origin isolated, with the security headers', async ({ page }, testInfo) => {
  const violations = await collectCSPViolations(page);
  const resp = await page.goto('/');
  expect(resp.status()).toBe(200);
  const headers = resp.headers();
  for (const [name, value] of Object.entries(securityHeaders)) {
    expect.soft(headers[name], name).toBe(value);
  }
  expect(headers['content-type']).toBe('text/html; charset=utf-8');
  await expect(page).toHaveTitle('ringscope');
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  expect(await page.evaluate(() => isSecureContext)).toBe(true);

  // The stylesheet applied (no inline style needed): the dark background.
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bg).toBe('rgb(13, 16, 20)');

  const status = page.getByTestId('status');
  await expect(status).toBeVisible();
  await expect(status).not.toHaveText('loading');
  await snap(page, testInfo, 'page');
  expect(violations, 'CSP violations').toEqual([]);
});

test('a WebGPU adapter is available with --enable-unsafe-webgpu', async ({ page }, testInfo) => {
  await page.goto('/');
  const info = await page.evaluate(async () => {
    const adapter = await navigator.gpu?.requestAdapter();
    if (!adapter) return null;
    const i = adapter.info;
    return {
      vendor: i.vendor,
      architecture: i.architecture,
      isFallbackAdapter: i.isFallbackAdapter,
      maxComputeInvocationsPerWorkgroup: adapter.limits.maxComputeInvocationsPerWorkgroup,
    };
  });
  expect(info, 'requestAdapter() returned null').not.toBeNull();
  testInfo.annotations.push({ type: 'adapter', description: JSON.stringify(info) });
  expect(info.architecture).toBeTruthy();
  expect(typeof info.isFallbackAdapter).toBe('boolean');
  expect(info.maxComputeInvocationsPerWorkgroup).toBeGreaterThanOrEqual(256);
  // The loader saw the adapter too, so it went on to load the wasm.
  await expect(page.getByTestId('status')).not.toHaveText(/^(loading|no-webgpu)$/);
});

test('a missing main.wasm shows error: … plainly', async ({ page }, testInfo) => {
  // Serve the real wasm_exec.js even before `make build`, and make main.wasm 404,
  // so that this checks the main.wasm branch whatever is in static/.
  const goroot = execFileSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).trim();
  await page.route('**/wasm_exec.js', (route) =>
    route.fulfill({ path: path.join(goroot, 'lib', 'wasm', 'wasm_exec.js'), contentType: 'text/javascript' }));
  await page.route('**/main.wasm', (route) =>
    route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }));
  await page.goto('/');
  const status = page.getByTestId('status');
  await expect(status).toHaveText('error: main.wasm: HTTP 404 (run make build)');
  await expect(status).toHaveAttribute('data-state', 'error');
  await snap(page, testInfo, 'missing-wasm');
});

test('without --enable-unsafe-webgpu the status says no-webgpu', { tag: '@no-webgpu' }, async ({ page }, testInfo) => {
  await page.goto('/');
  expect(await page.evaluate(async () => (await navigator.gpu?.requestAdapter()) ?? null)).toBeNull();
  const status = page.getByTestId('status');
  await expect(status).toHaveText('no-webgpu');
  await expect(status).toHaveAttribute('data-state', 'no-webgpu');
  await snap(page, testInfo, 'no-webgpu');
});
