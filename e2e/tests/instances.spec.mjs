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
