// bench/profile.mjs: where the live page's main thread goes, per frame,
// by function: a CPU profile (Chrome's sampling profiler over CDP) of one
// build of the page in headless Chromium, each function's self and total
// time divided by the frames the page ran meanwhile. Two builds profiled
// one after the other and compared function by function tell where a
// difference in bench/ab.mjs's frame rate comes from.
//
//   node bench/profile.mjs --dir static [--seconds 10] [--query '?slots=65536']
//                          [--port 18901] [--top 40] [--json out.json]
//
// Function names need a main.wasm with its name section: build it without
// -ldflags=-s (the Makefile's build strips it), e.g.
//   GOOS=js GOARCH=wasm go build -trimpath $(WASM_GCFLAGS) -o DIR/main.wasm ./wasm
// into a copy of static/. --json writes the whole profile and the frame
// count. It asserts nothing: it reports what it measured.
import { writeFileSync } from 'node:fs';
import { launch, serve } from './chromium.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
if (!args.dir) {
  console.error('usage: node bench/profile.mjs --dir DIR [--seconds S] [--query Q] [--port P] [--top N] [--json FILE]');
  process.exit(2);
}
const seconds = Number(args.seconds ?? 10);
const top = Number(args.top ?? 40);

// The header's frame counter (bench/ab.mjs reads the same).
const frameCounter = () => {
  for (const s of document.querySelectorAll('.hstat')) {
    if (s.querySelector('.hstat-label')?.textContent.trim().toLowerCase() === 'frame') {
      return Number(s.lastElementChild.textContent.replace(/,/g, ''));
    }
  }
  return NaN;
};

const server = await serve(args.dir, Number(args.port ?? 18901));
const browser = await launch();
try {
  const page = await browser.newPage();
  await page.goto(server.url + (args.query ?? '?slots=65536'));
  await page.waitForFunction(() => /\d/.test(document.querySelector('[data-testid="done-count"]')?.textContent ?? ''), null, { timeout: 60_000 });
  await page.waitForTimeout(2_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); // µs
  const f0 = await page.evaluate(frameCounter);
  await cdp.send('Profiler.start');
  await page.waitForTimeout(seconds * 1000);
  const { profile } = await cdp.send('Profiler.stop');
  const frames = (await page.evaluate(frameCounter)) - f0;
  if (args.json) writeFileSync(args.json, JSON.stringify({ frames, profile }));

  // Self time goes to a sample's leaf; total time to every distinct
  // function on its stack.
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n) => n.callFrame.functionName || `(anonymous ${n.callFrame.url.split('/').pop()})`;
  const self = new Map(), total = new Map();
  const add = (m, k, ms) => m.set(k, (m.get(k) ?? 0) + ms);
  profile.samples.forEach((leaf, i) => {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    add(self, name(byId.get(leaf)), ms);
    const seen = new Set();
    for (let id = leaf; id !== undefined; id = parent.get(id)) {
      const k = name(byId.get(id));
      if (!seen.has(k)) seen.add(k), add(total, k, ms);
    }
  });
  const rows = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top)
    .map(([k, ms]) => `${(ms / frames).toFixed(3).padStart(8)} ms/frame  ${k}`).join('\n');
  console.log(`${frames} frames in ${seconds} s (${(frames / seconds).toFixed(1)} fps while profiled)`);
  console.log(`== self time\n${rows(self)}\n== total time\n${rows(total)}`);
} finally {
  await browser.close();
  server.stop();
}
