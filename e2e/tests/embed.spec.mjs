// The embedding page (static/embed.html + embed.js): a third-party page
// that imports static/ringscope.mjs, mounts a panel in its own layout and
// reads a value through subscribe. docs/EMBEDDING.md documents the API.
import { test, expect } from '@playwright/test';

test.describe.configure({ timeout: 90_000 });

function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Content Security Policy/.test(m.text())) errors.push(`console.error: ${m.text()}`);
    if (/Content Security Policy/.test(m.text())) errors.push(`CSP: ${m.text()}`);
  });
  return errors;
}

test('a host page embeds ringscope with one import: a mounted panel and a subscribed value', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/embed.html?slots=4096');
  await expect(page.getByTestId('embed-state')).toHaveText('ready', { timeout: 30_000 });

  // The value read through subscribe follows the live frames.
  const done = page.getByTestId('embed-done');
  await expect(done).not.toHaveText('–');
  await expect.poll(async () => Number((await page.getByTestId('embed-seq').textContent()).trim())).toBeGreaterThan(3);

  // It agrees with the API's own view once the loop is stopped.
  const snap = await page.evaluate(async () => {
    await ringscope.stop();
    const seen = [];
    const unsubscribe = ringscope.subscribe((f) => seen.push(f));
    const step = await ringscope.step();
    const first = unsubscribe();
    const second = unsubscribe();
    const last = await ringscope.step();
    const timestamps = (await navigator.gpu.requestAdapter()).features.has('timestamp-query');
    return { step, seen, first, second, last, timestamps };
  });
  expect(snap.first).toBe(true);
  expect(snap.second).toBe(false);
  expect(snap.seen).toHaveLength(1);
  expect(snap.seen[0]).toMatchObject({ seq: snap.step.seq, doneCount: snap.step.doneCount, totalSlots: 4096 });
  expect(Object.keys(snap.seen[0])).toEqual(expect.arrayContaining(['seq', 'doneCount', 'queueDepth', 'epoch', 'generation', 'atMillis', 'publishMS', 'roundTripMS', 'decodeMS', 'gpuTimeMS']));
  expect(snap.seen[0].roundTripMS).toBeGreaterThan(0);
  // Where the adapter has timestamp-query the page asks for it, and each
  // frame carries its drain pass's device time (a CPU adapter: milliseconds).
  if (snap.timestamps) expect(snap.seen[0].gpuTimeMS, 'the drain pass timed on the device').toBeGreaterThan(0);
  else expect(snap.seen[0].gpuTimeMS).toBe(0);
  await expect(done).toHaveText(snap.last.doneCount.toLocaleString('en'));
  await expect(page.getByTestId('embed-seq')).toHaveText(String(snap.last.seq));

  // One panel mounted in the host's layout; the rest of the dashboard hidden.
  const host = page.getByTestId('embed-panel');
  await expect(host).toHaveAttribute('data-rs-panels', 'occupancy slotmap');
  await expect(host.locator('.panel-slotmap')).toBeVisible();
  await expect(host.locator('.panel-occupancy')).toBeVisible();
  await expect(host.locator('.panel-settings')).toBeHidden();
  await expect(host.locator('.rs-header')).toBeHidden();
  const box = await host.boundingBox();
  const panel = await host.locator('.panel-slotmap').boundingBox();
  expect(panel.x).toBeGreaterThanOrEqual(box.x);
  expect(panel.y).toBeGreaterThanOrEqual(box.y);

  // decode() in the host page, no GPU involved.
  await expect(page.getByTestId('embed-decode')).toHaveText('legacy: true\ndoneCount: 2\nslots: 1 done, 1 published');

  // The module resolves to the same object the page uses.
  const same = await page.evaluate(async () => (await import('/ringscope.mjs')).default === globalThis.ringscope);
  expect(same).toBe(true);

  // mount validates its arguments, and moves the dashboard when asked again.
  const bad = await page.evaluate(() => ringscope.mount(document.body, { panels: ['nope'] }).then(() => 'ok', (e) => e.message));
  expect(bad).toMatch(/^mount: options\.panels\[0\] = nope is not a panel; choose from header, capture, /);
  const notEl = await page.evaluate(() => ringscope.mount('#x').then(() => 'ok', (e) => e.message));
  expect(notEl).toContain('mount: element must be a DOM Element');
  await page.screenshot({ path: test.info().outputPath('embed.png'), fullPage: true });
  expect(errors).toEqual([]);
});

test('without WebGPU the module still loads: decode and import work, ready rejects', { tag: '@no-webgpu' }, async ({ page }) => {
  await page.goto('/embed.html');
  await expect(page.getByTestId('embed-state')).toContainText('WebGPU is not available', { timeout: 30_000 });
  await expect(page.getByTestId('embed-decode')).toHaveText('legacy: true\ndoneCount: 2\nslots: 1 done, 1 published');
  const info = await page.evaluate(async () => {
    const control = new Uint8Array(640);
    const ring = new Uint8Array(128);
    ring[0] = 3;
    return ringscope.importCapture({ control, ring });
  });
  expect(info).toMatchObject({ replaying: true, count: 1 });
});

// hostApp serves a host page of the server's origin (ringscope's files are
// the server's) with body in it, and opens it with the query.
async function hostApp(page, body, query = 'slots=1024') {
  await page.route(/\/embed-host-app\.html/, (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<link rel="stylesheet" href="/style.css"><link rel="stylesheet" href="/dashboard.css"><link rel="stylesheet" href="/capture.css">
</head><body>${body}</body></html>`,
  }));
  await page.goto(`/embed-host-app.html?${query}`);
  await page.waitForFunction(() => globalThis.ringscope?.ready, null, { timeout: 30_000 });
  await page.evaluate(() => ringscope.ready);
}

// The host's own app, in #app: where Vue and others mount by default.
const ownApp = '<div id="app" class="my-app"><h1>My own app</h1><button id="mine" type="button">mine</button></div>';

test("a host page's own #app is left alone: the dashboard renders in a container of its own", async ({ page }) => {
  const errors = watchErrors(page);
  await hostApp(page, `${ownApp}
<div id="panel"></div>
<script type="module">
import ringscope from '/ringscope.mjs';
// The host's app renders after the import, as createApp(App).mount('#app') would.
const p = document.createElement('p');
p.id = 'later';
p.textContent = 'rendered after the import';
document.getElementById('app').append(p);
</script>`);
  const app = '<div id="app" class="my-app"><h1>My own app</h1><button id="mine" type="button">mine</button><p id="later">rendered after the import</p></div>';
  // The dashboard's first render has run (in a hidden container).
  await expect(page.locator('.rs-dashboard')).toHaveCount(1);
  await expect(page.locator('.rs-dashboard')).toBeHidden();
  expect(await page.evaluate(() => document.getElementById('app').outerHTML)).toBe(app);
  await expect(page.locator('#mine')).toBeVisible();

  // mount() moves it where the host says; #app stays the host's.
  await page.evaluate(() => ringscope.mount(document.getElementById('panel'), { panels: ['occupancy'] }));
  await expect(page.locator('#panel > .rs-dashboard .panel-occupancy')).toBeVisible();
  expect(await page.evaluate(() => [document.querySelectorAll('#app').length, document.getElementById('app').outerHTML]))
    .toEqual([1, app]);
  expect(errors).toEqual([]);
});

test('a host page marks where the dashboard renders with data-ringscope', async ({ page }) => {
  const errors = watchErrors(page);
  await hostApp(page, `${ownApp}
<main id="dash" class="host-slot" data-ringscope><p>loading ringscope…</p></main>
<script type="module" src="/ringscope.mjs"></script>`);
  // It renders inside the marked element, in place of its content; the
  // element keeps its own attributes.
  await expect(page.locator('#dash > .rs-dashboard')).toBeVisible();
  await expect(page.locator('#dash > p')).toHaveCount(0);
  await expect(page.locator('#dash')).toHaveClass('host-slot');
  await expect(page.locator('#dash')).toHaveAttribute('data-ringscope', '');
  await expect(page.locator('.ringscope-holder')).toHaveCount(0);
  expect(await page.evaluate(() => document.getElementById('app').outerHTML)).toBe(ownApp);
  expect(errors).toEqual([]);
});

// createRingscope refused a wasmURL that is not a URL only once fetch had
// taken it as a relative one ("ringscope: 5: HTTP 404"), and a wasmURL that
// failed left the instance's empty hidden holder in <body>. Neither needs a
// GPU: both fail before the program starts.
test('createRingscope refuses a wasmURL of the wrong type by name, and a failed create leaves nothing behind', { tag: '@no-webgpu' }, async ({ page }) => {
  await page.route('**/embed-create-blank.html', (route) => route.fulfill({
    contentType: 'text/html',
    body: '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><p id="mine">mine</p></body></html>',
  }));
  await page.goto('/embed-create-blank.html');
  const res = await page.evaluate(async () => {
    const { createRingscope } = await import('/create-ringscope.mjs');
    const refusal = (o) => createRingscope(o).then(() => 'resolved', (e) => `${e.name}: ${e.message}`);
    return {
      number: await refusal({ wasmURL: 5 }),
      object: await refusal({ wasmURL: {} }),
      missing: await refusal({ wasmURL: '/nope.wasm' }),
      body: document.body.innerHTML,
    };
  });
  expect(res.number).toBe('TypeError: createRingscope: wasmURL must be a string or URL, got number');
  expect(res.object).toBe('TypeError: createRingscope: wasmURL must be a string or URL, got object');
  expect(res.missing).toBe('Error: createRingscope: wasmURL /nope.wasm: HTTP 404');
  expect(res.body, 'no ringscope-instance holder left behind').toBe('<p id="mine">mine</p>');
});
