// bench/profile-page.mjs: a CPU profile of the live page's main thread (the
// page's JS and Go wasm), through CDP's sampling profiler, in headless
// Chromium on the real server: where the whole frame's time goes. It prints
// the frames per second of the window, the functions by self time and by
// inclusive time, and writes the profile (open it in Chrome's DevTools).
//
//   node bench/profile-page.mjs [--slots 65536] [--seconds 6] [--query readback=summary] [--dir static] [--out bench/.out/page.cpuprofile]
//
// CHROMIUM, RINGSCOPE_SERVER and RINGSCOPE_CHROMIUM_ARGS as in
// e2e/playwright.config.mjs (bench/gpu-chromium.sh sets them on a GPU machine).
import fs from 'node:fs';
import path from 'node:path';
import { launch, root, serve } from './chromium.mjs';

const opt = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const slots = Number(opt('slots', 65536));
const seconds = Number(opt('seconds', 6));
// --query adds URL parameters (readback=summary, preset=…).
const query = opt('query', '');
const outFile = opt('out', path.join(root, 'bench', '.out', 'page.cpuprofile'));
// --dir serves another build of the page, such as one with the wasm's
// function names kept (make build strips them: -ldflags=-s).
const dir = opt('dir', 'static');
const server = await serve(dir, 18632);
let browser;
try {
  browser = await launch();
  const page = await browser.newPage();
  await page.goto(`${server.url}?slots=${slots}${query ? `&${query}` : ''}`);
  await page.waitForFunction(() => /\d/.test(document.querySelector('[data-testid="done-count"]')?.textContent ?? ''), null, { timeout: 60_000 });
  await page.waitForTimeout(3_000);
  const frame = () => page.evaluate(async () => (await window.ringscope.snapshot()).report.dispatchCount);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  const f0 = await frame();
  await cdp.send('Profiler.start');
  await page.waitForTimeout(seconds * 1000);
  const { profile } = await cdp.send('Profiler.stop');
  const frames = (await frame()) - f0;
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile, JSON.stringify(profile));

  // Self and inclusive time per function name (a name counted once per sample).
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n) => (n.callFrame.functionName || `(${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber})`).replace(/github\.com_ringscope_ringscope_|github\.com_vugu_vugu_/g, '');
  const self = new Map(), incl = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const k = name(byId.get(id));
    self.set(k, (self.get(k) ?? 0) + dt);
    const seen = new Set();
    for (let p = id; p !== undefined; p = parent.get(p)) {
      const kk = name(byId.get(p));
      if (!seen.has(kk)) seen.add(kk), incl.set(kk, (incl.get(kk) ?? 0) + dt);
    }
  });
  const perFrame = (us) => `${(us / 1000 / Math.max(frames, 1)).toFixed(2).padStart(7)} ms/frame ${((100 * us) / total).toFixed(1).padStart(5)}%`;
  console.log(`${frames} frames in ${seconds} s (${(frames / seconds).toFixed(1)} fps), ${slots} slots; profile ${outFile}`);
  console.log('--- self time');
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(perFrame(v), k.slice(0, 120));
  console.log('--- inclusive time');
  for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 90)) console.log(perFrame(v), k.slice(0, 120));
} finally {
  await browser?.close();
  server.stop();
}
