// bench/probe-adapter.mjs: which WebGPU adapter headless Chromium gives with
// the flags of e2e/playwright.config.mjs (RINGSCOPE_CHROMIUM_ARGS added),
// on a page of the real server (a secure context). Prints one JSON line:
// the adapter's info and whether it is a fallback (CPU) adapter.
// bench/gpu-chromium.sh runs it to check that its flags reach a real GPU.
//
//   RINGSCOPE_SERVER=./ringscope CHROMIUM=... node bench/probe-adapter.mjs
import { extraArgs, launch, serve } from './chromium.mjs';

const server = await serve('static', 18631);
let browser;
try {
  browser = await launch();
  const page = await browser.newPage();
  await page.goto(`${server.url}wasm_exec.js`);
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
  console.log(JSON.stringify({ chromium: browser.version(), flags: extraArgs.join(' '), ...info }));
} finally {
  await browser?.close();
  server.stop();
}
