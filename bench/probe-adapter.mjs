// bench/probe-adapter.mjs: which WebGPU adapter headless Chromium gives with
// the flags of e2e/playwright.config.mjs (RINGSCOPE_CHROMIUM_ARGS added),
// on a page of the real server (a secure context). Prints one JSON line:
// the adapter's info and whether it is a fallback (CPU) adapter.
// bench/gpu-chromium.sh runs it to pick the flags that reach a real GPU.
//
//   RINGSCOPE_SERVER=./ringscope CHROMIUM=... node bench/probe-adapter.mjs
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { chromium } = createRequire(path.join(root, 'e2e', 'package.json'))('@playwright/test');
const port = 18631;
const server = spawn(process.env.RINGSCOPE_SERVER || 'go', [...(process.env.RINGSCOPE_SERVER ? [] : ['run', '.']), '-addr', `127.0.0.1:${port}`], { cwd: root, stdio: 'inherit', detached: true });
const extra = (process.env.RINGSCOPE_CHROMIUM_ARGS || '').split(' ').filter(Boolean);
let browser;
try {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-quic', '--disable-component-update', '--disable-sync', '--disable-background-networking', '--no-first-run', '--enable-unsafe-webgpu', ...extra],
  });
  const page = await browser.newPage();
  for (let i = 0; ; i++) {
    try {
      await page.goto(`http://127.0.0.1:${port}/wasm_exec.js`);
      break;
    } catch (e) {
      if (i > 50) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const info = await page.evaluate(async () => {
    const a = await navigator.gpu?.requestAdapter();
    if (!a) return { adapter: null };
    const i = a.info ?? {};
    return {
      vendor: i.vendor, architecture: i.architecture, device: i.device, description: i.description,
      fallback: i.isFallbackAdapter ?? a.isFallbackAdapter ?? null,
      maxStorageBufferBindingSize: a.limits.maxStorageBufferBindingSize,
      features: [...a.features].sort(),
    };
  });
  console.log(JSON.stringify({ chromium: browser.version(), flags: extra.join(' '), ...info }));
} finally {
  await browser?.close();
  process.kill(-server.pid); // the group: go run's child too
}
