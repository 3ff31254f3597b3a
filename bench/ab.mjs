// bench/ab.mjs: two builds of the page side by side, in one run, so that a
// change is judged by a ratio measured under the same load (this machine is
// shared). Each build is a static folder (a copy of static/ with its own
// main.wasm); each is served by the real server on its own port, and the
// measurements alternate A, B, A, B… in headless Chromium.
//
//   node bench/ab.mjs --a /tmp/old-static --b static [--rounds 4] [--seconds 6]
//                     [--loads 8] [--query '?slots=65536'] [--query-b Q] [--port 18871]
//
// --port moves A's server (B's is the next port), for two runs at once on
// one machine.
//
// --query-b gives B its own query (A keeps --query): one build in two
// settings, such as --a static --b static --query-b '?slots=65536&readback=full'.
//
// For every round and build it prints the page's frame rate (the header's
// frame counter) and, from Chrome's Performance.getMetrics, layouts per
// second and the renderer main thread's task, layout and style time per frame; then --loads cold
// loads of each build (a fresh context each), navigation to the first
// decoded frame on the dashboard. Medians close each section. It asserts
// nothing: it reports what it measured.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { launch, root, serve } from './chromium.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
if (!args.a || !args.b) {
  console.error('usage: node bench/ab.mjs --a DIR --b DIR [--rounds N] [--seconds S] [--loads N] [--query Q] [--query-b Q] [--port P]');
  process.exit(2);
}
const rounds = Number(args.rounds ?? 4);
const seconds = Number(args.seconds ?? 6);
const loads = Number(args.loads ?? 8);
const queries = { A: args.query ?? '?slots=65536' };
queries.B = args['query-b'] ?? queries.A;

// The flags every run needs here (e2e/playwright.config.mjs).
const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};

const frameCounter = () => {
  for (const s of document.querySelectorAll('.hstat')) {
    if (s.querySelector('.hstat-label')?.textContent.trim().toLowerCase() === 'frame') {
      return Number(s.lastElementChild.textContent.replace(/,/g, ''));
    }
  }
  return NaN;
};
const decoded = () => /\d/.test(document.querySelector('[data-testid="done-count"]')?.textContent ?? '');

// live measures one window of the running page.
async function live(browser, url, query) {
  const page = await browser.newPage();
  await page.goto(url + query);
  await page.waitForFunction(decoded, null, { timeout: 60_000 });
  await page.waitForTimeout(2_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const m0 = await metrics(), f0 = await page.evaluate(frameCounter), t0 = Date.now();
  await page.waitForTimeout(seconds * 1000);
  const m1 = await metrics(), f1 = await page.evaluate(frameCounter), dt = (Date.now() - t0) / 1000;
  await page.close();
  const n = f1 - f0;
  const perFrame = (k) => ((m1[k] - m0[k]) * 1000) / n;
  // Layouts per second: how often the dashboard's DOM changed on screen (a
  // render may show several frames).
  return { fps: n / dt, layoutsPerSecond: (m1.LayoutCount - m0.LayoutCount) / dt, taskMs: perFrame('TaskDuration'), layoutMs: perFrame('LayoutDuration'), styleMs: perFrame('RecalcStyleDuration') };
}

// cold measures one load in a fresh context: navigation to the first frame shown.
async function cold(browser, url, query) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(() => {
    const b = (window.__ab = { first: null });
    new MutationObserver(() => {
      if (b.first === null && /\d/.test(document.querySelector('[data-testid="done-count"]')?.textContent ?? '')) b.first = performance.now();
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto(url + query);
  await page.waitForFunction(() => window.__ab.first !== null, null, { timeout: 60_000 });
  const ms = await page.evaluate(() => window.__ab.first);
  await context.close();
  return ms;
}

// One server binary for both sides (RINGSCOPE_SERVER, or built here).
if (!process.env.RINGSCOPE_SERVER) {
  process.env.RINGSCOPE_SERVER = path.join(root, 'bench', '.out', 'ab-server');
  execFileSync('go', ['build', '-o', process.env.RINGSCOPE_SERVER, '.'], { cwd: root, stdio: 'inherit' });
}
const port = Number(args.port ?? 18871); // B serves on port + 1
const servers = { A: await serve(args.a, port), B: await serve(args.b, port + 1) };
const browser = await launch();
try {
  const rows = { A: [], B: [] };
  for (let r = 0; r < rounds; r++) {
    for (const k of ['A', 'B']) {
      const m = await live(browser, servers[k].url, queries[k]);
      rows[k].push(m);
      console.log(`live ${k} round ${r + 1}: ${m.fps.toFixed(1)} fps, ${m.layoutsPerSecond.toFixed(1)} layouts/s, task ${m.taskMs.toFixed(1)} ms, layout ${m.layoutMs.toFixed(2)} ms, style ${m.styleMs.toFixed(2)} ms per frame`);
    }
  }
  const fa = median(rows.A.map((m) => m.fps)), fb = median(rows.B.map((m) => m.fps));
  console.log(`live median: A ${fa.toFixed(1)} fps, B ${fb.toFixed(1)} fps, B/A ${(fb / fa).toFixed(2)}×; ` +
    `task per frame A ${median(rows.A.map((m) => m.taskMs)).toFixed(1)} ms, B ${median(rows.B.map((m) => m.taskMs)).toFixed(1)} ms`);
  const first = { A: [], B: [] };
  for (let i = 0; i < loads; i++) for (const k of ['A', 'B']) first[k].push(await cold(browser, servers[k].url, queries[k]));
  for (const k of ['A', 'B']) console.log(`cold ${k}: ${first[k].map((x) => Math.round(x)).join(', ')} ms`);
  const sa = median(first.A), sb = median(first.B);
  console.log(`cold median: A ${Math.round(sa)} ms, B ${Math.round(sb)} ms, B/A ${(sb / sa).toFixed(2)}×`);
} finally {
  await browser.close();
  for (const s of Object.values(servers)) s.stop();
}
