// createRingscope (issue 32): ringscope as a library. A host app
// (static/attach-host.html with attach=0: its own device, ring and kernel,
// no ringscope) imports static/create-ringscope.mjs under the server's
// strict CSP and makes two instances side by side: one running a ring of
// its own, one attached to the host's ring. Both dashboards update; no
// global appears; dispose() of one ends its Go program, destroys its
// device and removes its dashboard, and the other keeps running.
import { test, expect, num } from './fixtures.mjs';

test.describe.configure({ timeout: 120_000 });

// frameOf reads the frame counter of the dashboard inside container sel.
const frameOf = (page, sel) => page.locator(`${sel} .hstat`)
  .filter({ has: page.locator('.hstat-label', { hasText: /^frame$/i }) })
  .locator('span').last().textContent().then(num);

test('two instances in one page: a ring and an attachment; dispose() of one leaves the other', async ({ page }) => {
  const resp = await page.goto('/attach-host.html?attach=0&slots=1024');
  // The page runs under the server's CSP: nothing beyond 'wasm-unsafe-eval'.
  expect(resp.headers()['content-security-policy']).toMatch(/script-src 'self' 'wasm-unsafe-eval';/);
  await expect(page.getByTestId('host-state')).toHaveAttribute('data-ready', '1', { timeout: 30_000 });

  const made = await page.evaluate(async () => {
    // Devices the instances request, to see dispose() destroy its own.
    const devices = [];
    const request = GPUAdapter.prototype.requestDevice;
    GPUAdapter.prototype.requestDevice = async function (...args) {
      const d = await request.apply(this, args);
      devices.push(d);
      d.lost.then((info) => { d.lostReason = info.reason; });
      return d;
    };
    window.devices = devices;
    const before = new Set(Object.getOwnPropertyNames(globalThis));
    for (const id of ['rs-a', 'rs-b']) {
      const el = document.createElement('div');
      el.id = id;
      document.body.append(el);
    }
    const { createRingscope } = await import('/create-ringscope.mjs');
    const a = await createRingscope({ container: document.getElementById('rs-a'), open: { slots: 256, tenants: 2 } });
    // Started before anything is published: the live loop runs on the
    // empty ring, and the publish after it is drained.
    await a.start();
    await new Promise((r) => setTimeout(r, 300));
    await a.publish(Array.from({ length: 40 }, (_, i) => ({ opcode: 0x101, tenant: i % 2, priority: 2, args: [50, 0] })));
    const { host } = window;
    const b = await createRingscope({
      container: document.getElementById('rs-b'),
      attach: { device: host.device, control: host.control, ring: host.ring, log: host.log },
      autostart: true,
    });
    const added = Object.getOwnPropertyNames(globalThis).filter((k) => !before.has(k)).sort();
    window.rsA = a;
    window.rsB = b;
    return { added, devices: devices.length, distinct: a !== b };
  });
  // No global unless asked: only Go's wasm support (Go, and the fs,
  // process and path shims it adds where missing) and the two helpers.
  expect(made.added, 'no ringscope global').toEqual(['Go', 'fs', 'path', 'process', 'ringscopeGuard', 'ringscopeRender']);
  expect(made.devices, 'each instance has a device of its own').toBe(2);
  expect(made.distinct).toBe(true);

  // Both dashboards update.
  for (const sel of ['#rs-a', '#rs-b']) {
    const f0 = await frameOf(page, sel);
    await expect.poll(() => frameOf(page, sel), { timeout: 30_000, message: `${sel}'s frame counter moves` }).toBeGreaterThan((f0 || 0) + 2);
  }
  await expect.poll(() => page.evaluate(async () => (await rsA.snapshot()).telemetry.control.doneCount),
    { timeout: 30_000, message: "A drained its own ring's 40 items, published after start()" }).toBe(40);

  // A dropped file loads into the instance whose dashboard it is dropped
  // on, and only that one; dropped elsewhere on the host page, into none.
  const file = await page.evaluateHandle(async () => {
    const dt = new DataTransfer();
    dt.items.add(new File([await rsA.exportCapture()], 'a.rscap'));
    return dt;
  });
  const replaying = () => page.evaluate(async () => [(await rsA.captureInfo()).source, (await rsB.captureInfo()).source]);
  await page.dispatchEvent('body', 'drop', { dataTransfer: file });
  await page.waitForTimeout(300);
  expect(await replaying(), 'a drop outside both dashboards loads into neither').toEqual(['', '']);
  await page.locator('#rs-a .hstat').first().dispatchEvent('drop', { dataTransfer: file });
  await expect.poll(replaying, { timeout: 10_000 }).toEqual(['a.rscap', '']);
  const b0 = await page.evaluate(async () => (await rsB.attachInfo()).frames);

  const after = await page.evaluate(async () => {
    await rsA.dispose();
    await new Promise((r) => setTimeout(r, 200)); // device.lost settles
    return {
      lost: window.devices[0].lostReason,
      bLost: window.devices[1].lostReason ?? null,
      holder: document.querySelector('#rs-a').childElementCount,
      call: await rsA.snapshot().then(() => 'resolved', (e) => e.message),
    };
  });
  expect(after.lost, "dispose() destroyed A's device").toBe('destroyed');
  expect(after.bLost, "B's device lives").toBeNull();
  expect(after.holder, "A's dashboard is gone").toBe(0);
  expect(after.call).toBe('snapshot: this ringscope instance was disposed');
  // B keeps running.
  await expect.poll(() => page.evaluate(async () => (await rsB.attachInfo()).frames), { timeout: 30_000 }).toBeGreaterThan(b0 + 2);
  const f1 = await frameOf(page, '#rs-b');
  await expect.poll(() => frameOf(page, '#rs-b'), { timeout: 30_000 }).toBeGreaterThan(f1);
});

test('createRingscope refuses an unknown option by name', async ({ page }) => {
  await page.goto('/attach-host.html?attach=0&slots=64');
  const msgs = await page.evaluate(async () => {
    const { createRingscope } = await import('/create-ringscope.mjs');
    const refusal = (o) => createRingscope(o).then(() => 'resolved', (e) => e.message);
    const trap = new Proxy({}, { ownKeys() { throw new Error('trap'); } });
    return [await refusal({ contianer: document.body }), await refusal({ zzz: 1 }), await refusal(trap)];
  });
  expect(msgs).toEqual([
    'createRingscope: unknown option "contianer" (did you mean "container"?)',
    'createRingscope: unknown option "zzz"; the options are container, wasmURL, open, attach, autostart, global, query',
    'createRingscope: reading the options threw: trap',
  ]);
  expect(await page.evaluate(() => document.querySelectorAll('.ringscope-instance').length)).toBe(0);
});

// A blank page of the server's origin (the instance's own files are the
// server's), for tests that need no host app.
async function blankPage(page) {
  await page.route('**/instances-blank.html', (route) => route.fulfill({
    contentType: 'text/html',
    body: '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body></body></html>',
  }));
  await page.goto('/instances-blank.html');
}

test('dispose() removes a mounted dashboard and gives the host element back as it was', async ({ page }) => {
  await blankPage(page);
  const res = await page.evaluate(async () => {
    const el = document.createElement('section');
    el.id = 'host';
    el.className = 'mine';
    el.dataset.own = 'yes';
    el.innerHTML = '<p id="own">the host\'s own content</p>';
    document.body.append(el);
    const { createRingscope } = await import('/create-ringscope.mjs');
    const a = await createRingscope({ open: { slots: 64 } });
    const back = await a.mount(el, { panels: ['occupancy', 'watchdog'] });
    // mount() resolves once the dashboard renders in the element, not
    // while it holds the instance's empty mount point.
    const atMount = {
      same: back === el,
      rendered: el.querySelectorAll(':scope > .rs-dashboard .panel-occupancy').length,
      emptyMountPoint: el.querySelectorAll('[id^="ringscope-"]').length,
      className: el.className,
      panels: el.dataset.rsPanels,
    };
    await a.step();
    await a.dispose();
    return {
      atMount,
      className: el.className,
      attributes: el.getAttributeNames().sort(),
      html: el.innerHTML,
      left: document.querySelectorAll('.rs-dashboard, .ringscope-instance').length,
    };
  });
  expect(res.atMount).toEqual({
    same: true,
    rendered: 1,
    emptyMountPoint: 0,
    className: 'mine rs-mount rs-show-occupancy rs-show-watchdog',
    panels: 'occupancy watchdog',
  });
  // What mount() added is gone; what the host had stays.
  expect(res.className).toBe('mine');
  expect(res.attributes).toEqual(['class', 'data-own', 'id']);
  expect(res.html).toBe('<p id="own">the host\'s own content</p>');
  expect(res.left, 'no dashboard or holder left in the page').toBe(0);
});

// An instance whose program ends marks its dashboard wherever mount()
// moved it, not its empty holder.
test('a mounted instance whose program exits shows the frozen banner in the host element', async ({ page, pageProblems }) => {
  pageProblems.allow(/ringscope: main\.wasm exited \(code 2\): panic: ringscope\.__test\.crash: mounted/);
  await blankPage(page);
  await page.evaluate(async () => {
    const el = document.createElement('section');
    el.id = 'host';
    document.body.append(el);
    const { createRingscope } = await import('/create-ringscope.mjs');
    window.rsM = await createRingscope({ open: { slots: 64 } });
    await window.rsM.mount(el, { panels: ['header', 'occupancy'] });
    window.rsM.__test.crash('mounted').catch(() => {});
  });
  await expect(page.locator('#host [data-testid="frozen-banner"]')).toContainText('main.wasm exited (code 2): panic: ringscope.__test.crash: mounted');
});

test('an instance made without open or attach takes calls at once: open() right after createRingscope', async ({ page }) => {
  await blankPage(page);
  const res = await page.evaluate(async () => {
    const { createRingscope } = await import('/create-ringscope.mjs');
    const container = document.body.appendChild(document.createElement('div'));
    const rs = await createRingscope({ container });
    const call = (p) => p.then((v) => v, (e) => `rejected: ${e.message}`);
    const out = {
      open: await call(rs.open({ slots: 64 })),
      publish: await call(rs.publish([{ opcode: 0, tenant: 0, priority: 2 }])),
      drain: await call(rs.drain().then((d) => d.outcome)),
      ready: await call(rs.ready.then(() => 'resolved')),
    };
    await rs.dispose();
    return out;
  });
  expect(typeof res.open, `open: ${JSON.stringify(res.open)}`).toBe('object');
  expect(res.publish).toBe(1);
  expect(res.drain).toBe('empty');
  expect(res.ready).toBe('resolved');
});

test('without WebGPU an instance still decodes; its GPU calls reject saying why', { tag: '@no-webgpu' }, async ({ page }) => {
  await blankPage(page);
  const res = await page.evaluate(async () => {
    const { createRingscope } = await import('/create-ringscope.mjs');
    const container = document.body.appendChild(document.createElement('div'));
    const rs = await createRingscope({ container });
    const call = (p) => p.then(() => 'resolved', (e) => e.message);
    const control = new Uint32Array(160);
    control[1] = 2; // DONE_COUNT of a legacy vyre dump (MAGIC 0)
    const out = {
      ready: await call(rs.ready),
      open: await call(rs.open({ slots: 64 })),
      start: await call(rs.start()),
      decode: (await rs.decode(control, new Uint32Array(32))).telemetry.control.doneCount,
    };
    await rs.dispose();
    return out;
  });
  expect(res.ready).toContain('WebGPU is not available');
  const why = res.ready.replace(/^ringscope: /, '');
  expect(res.open).toBe(`open: ringscope is not ready: ${why}`);
  expect(res.start).toBe(`start: ringscope is not ready: ${why}`);
  expect(res.decode).toBe(2);
});

// options.global: dispose gives the global back to what it held, unless a
// later instance took it; the loader's own globals and the page's fixed
// properties are refused, since taking them broke every later create.
test('global: dispose gives the name back; the loader\'s globals are refused', async ({ page }) => {
  await blankPage(page);
  const res = await page.evaluate(async () => {
    const { createRingscope } = await import('/create-ringscope.mjs');
    const refusal = (o) => createRingscope(o).then((i) => i.dispose().then(() => 'resolved'), (e) => e.message);
    window.rsHost = 'the page\'s own';
    const a = await createRingscope({ global: 'rsHost' });
    const whileA = window.rsHost === a;
    await a.dispose();
    const afterA = window.rsHost;
    // Two instances on one name: disposing the first leaves the second's.
    const b = await createRingscope({ global: 'rsX' });
    const c = await createRingscope({ global: 'rsX' });
    await b.dispose();
    const afterB = window.rsX === c;
    await c.dispose();
    const afterC = 'rsX' in window;
    return {
      whileA, afterA, afterB, afterC,
      go: await refusal({ global: 'Go' }),
      location: await refusal({ global: 'location' }),
      empty: await refusal({ global: '' }),
      loaderWorks: await refusal({}),
    };
  });
  expect(res).toEqual({
    whileA: true,
    afterA: 'the page\'s own',
    afterB: true,
    afterC: false,
    go: 'createRingscope: global "Go" is the loader\'s own (Go, ringscopeGuard, ringscopeRender are taken)',
    location: 'createRingscope: global "location" is a property of the page that cannot be replaced',
    empty: 'createRingscope: global must be a non-empty name',
    loaderWorks: 'resolved',
  });
});

// Calls made once dispose() has begun say the instance was disposed (they
// read "not ready … no WebGPU"), and a mount whose element's classList
// throws is refused by mount, named.
test('calls during dispose say disposed; a throwing classList is refused by mount', async ({ page }) => {
  await blankPage(page);
  const res = await page.evaluate(async () => {
    const { createRingscope } = await import('/create-ringscope.mjs');
    const msg = (p) => p.then(() => 'resolved', (e) => e.message);
    const i = await createRingscope({});
    const el = document.body.appendChild(document.createElement('div'));
    Object.defineProperty(el, 'classList', { get() { throw new Error('boom'); } });
    const mount = await msg(i.mount(el));
    const ending = i.dispose();
    const during = await msg(i.snapshot());
    await ending;
    const j = await createRingscope({});
    const overtaken = await msg(j.open({ get slots() { j.dispose(); return 64; } }));
    await j.dispose();
    return { mount, during, overtaken };
  });
  expect(res.mount).toMatch(/^mount: element\.classList: reading it threw: Error: boom/);
  expect(res.during).toBe('snapshot: this ringscope instance was disposed');
  expect(res.overtaken).toBe('open: this ringscope instance was disposed');
});
