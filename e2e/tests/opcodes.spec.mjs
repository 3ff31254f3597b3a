// User opcodes through the JS API (docs/OPCODES.md): a compile error comes
// back at the user's own line and column and the running ring keeps
// running; the fixed opcode runs, the panels name it, readBuffer returns
// the user buffer, and bad declarations are refused naming the field.
import { test, expect, gotoReady, waitFrames } from './fixtures.mjs';

test.describe.configure({ timeout: 120_000 });

// One tile of the input buffer per slot: args[0] first word, args[1] words.
const HISTOGRAM = `fn histogram(slot: u32, args: Args) -> Outcome {
    let first = args[0];
    let count = args[1];
    if (first > arrayLength(&input) || count > arrayLength(&input) - first) {
        return user_fault(1u);
    }
    for (var i = 0u; i < count; i++) {
        atomicAdd(&hist[input[first + i] % arrayLength(&hist)], 1u);
    }
    return done();
}
`;
const BUFFERS = [{ name: 'hist', access: 'read_write', element: 'atomic<u32>', size: 16 * 4 }, { name: 'input', access: 'read', size: 4 }];

test('a user opcode with an error is refused at its line; fixed, it runs and the panels name it', async ({ page }) => {
  await gotoReady(page);
  const before = await waitFrames(page, 2);

  // Line 8, column 25: "nope" is undeclared.
  const broken = HISTOGRAM.replace('atomicAdd(&hist[input[first + i]', 'atomicAdd(&hist[nope[first + i]');
  const open = (wgsl) => page.evaluate(async ({ wgsl, buffers }) => {
    try {
      const r = await ringscope.open({ slots: 1024, opcodes: [{ opcode: 0x10, name: 'histogram', wgsl }], buffers });
      return { generation: r.generation };
    } catch (e) {
      return { error: e.message };
    }
  }, { wgsl, buffers: BUFFERS });
  const bad = await open(broken);
  expect(bad.error).toMatch(/^open: kernel: does not compile: opcodes\[0\]\.wgsl \(histogram\) line 8, column \d+: error: .*nope/);
  expect(Number(bad.error.match(/column (\d+)/)[1])).toBe(broken.split("\n")[7].indexOf('nope') + 1);
  // Nothing ran: the default ring kept running, its live loop included.
  await waitFrames(page, before + 3);
  await expect(page.getByTestId('status')).toHaveText('ready');

  const good = await open(HISTOGRAM);
  expect(good.error).toBeUndefined();
  expect(good.generation).toBeGreaterThan(0);
});

test('a histogram over the data binding: counts, names and readBuffer agree with the host', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  const out = await page.evaluate(async (wgsl) => {
    await ringscope.ready;
    const n = 4096;
    const input = new Uint32Array(n);
    for (let i = 0; i < n; i++) input[i] = Math.imul(i + 1, 2654435761) >>> 0;
    await ringscope.open({ slots: 1024, tenants: 3, opcodes: [{ opcode: 0x10, name: 'histogram', wgsl }],
      buffers: [{ name: 'hist', access: 'read_write', element: 'atomic<u32>', size: 16 * 4 },
        { name: 'input', access: 'read', bytes: new Uint8Array(input.buffer) }] });
    const items = [];
    for (let first = 0; first < n; first += 64) items.push({ opcode: 0x10, tenant: first % 3, priority: (first / 64) % 5, args: [first, 64] });
    await ringscope.publish(items);
    const { telemetry, report } = await ringscope.drain({ maxSubmissions: 16 });
    const hist = new Uint32Array((await ringscope.readBuffer('hist')).buffer);
    const want = new Array(16).fill(0);
    for (const v of input) want[v % 16]++;
    let unknown = null;
    try { await ringscope.publish([{ opcode: 0x11 }]); } catch (e) { unknown = e.message; }
    let missing = null;
    try { await ringscope.readBuffer('nope'); } catch (e) { missing = e.message; }
    return { items: items.length, done: telemetry.control.doneCount, metrics: telemetry.control.metrics,
      processed: report.itemsProcessed, hist: [...hist], want, unknown, missing };
  }, HISTOGRAM);
  expect(out.done).toBe(out.items);
  expect(out.processed).toBe(out.items);
  expect(out.metrics).toEqual([{ opcode: 0x10, name: 'histogram', count: out.items }]);
  expect(out.hist).toEqual(out.want);
  expect(out.want.reduce((a, b) => a + b)).toBe(4096);
  expect(out.unknown).toMatch(/opcode 0x11 is unknown/);
  expect(out.missing).toMatch(/readBuffer: .*no such buffer/);
  // The control panel's opcode table names the user's opcode.
  const row = page.locator('tr', { has: page.locator('td', { hasText: /^histogram$/ }) });
  await expect(row.first()).toBeVisible();
  await expect(row.first().locator('td.num').first()).toHaveText(out.items.toLocaleString('en-US'));
});

test('bad declarations are refused naming the field, and the ring keeps running', async ({ page }) => {
  await gotoReady(page);
  const before = await waitFrames(page, 2);
  const msgs = await page.evaluate(async ({ wgsl, buffers }) => {
    const ok = { opcode: 0x10, name: 'histogram', wgsl };
    const [hist, input] = buffers;
    const cases = {
      reserved: { opcodes: [{ ...ok, opcode: 0x101 }], buffers: [hist, input] },
      duplicate: { opcodes: [ok, { ...ok, name: 'other', wgsl: wgsl.replace('fn histogram', 'fn other') }], buffers: [hist, input] },
      badName: { opcodes: [{ ...ok, name: 'my-op' }], buffers: [hist, input] },
      dupName: { opcodes: [ok], buffers: [hist, input, { ...hist }] },
      tooBig: { opcodes: [ok], buffers: [hist, input, { name: 'big', size: 2 ** 40 }] },
      tooMany: { opcodes: [ok], buffers: [hist, input, ...[1, 2, 3, 4, 5, 6, 7].map((i) => ({ name: `b${i}`, size: 4 }))] },
      access: { opcodes: [ok], buffers: [{ ...hist, access: 'write' }, input] },
      notArray: { opcodes: 5 },
    };
    const out = {};
    for (const [k, c] of Object.entries(cases)) {
      try {
        await ringscope.open({ slots: 1024, ...c });
        out[k] = 'opened';
      } catch (e) {
        out[k] = e.message;
      }
    }
    return out;
  }, { wgsl: HISTOGRAM, buffers: BUFFERS });
  expect(msgs.reserved).toMatch(/opcodes\[0\]\.opcode: 0x101 is not a user opcode/);
  expect(msgs.duplicate).toMatch(/opcodes\[1\]\.opcode: 0x10 is already opcodes\[0\]/);
  expect(msgs.badName).toMatch(/opcodes\[0\]\.name: "my-op" is not a WGSL identifier/);
  expect(msgs.dupName).toMatch(/buffers\[2\]\.name: "hist" is already the name of buffers\[0\]\.name/);
  expect(msgs.tooBig).toMatch(/buffers\[2\]\.size: 1099511627776 bytes: the device binds at most/);
  expect(msgs.tooMany).toMatch(/buffers: 9 buffers: .*maxStorageBuffersPerShaderStage/);
  expect(msgs.access).toMatch(/buffers\[0\]\.access "write"/);
  expect(msgs.notArray).toMatch(/opcodes must be an array/);
  await waitFrames(page, before + 3);
});

test("the README's example: square into a user buffer", async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  const v = await page.evaluate(async () => {
    await ringscope.ready;
    await ringscope.open({
      opcodes: [{ opcode: 0x10, name: 'square', wgsl: `
fn square(slot: u32, args: Args) -> Outcome {
    out[args[1]] = args[0] * args[0];
    return done();
}` }],
      buffers: [{ name: 'out', access: 'read_write', size: 16 }],
    });
    await ringscope.publish([{ opcode: 0x10, args: [12, 0] }]);
    await ringscope.drain();
    return new Uint32Array((await ringscope.readBuffer('out')).buffer)[0];
  });
  expect(v).toBe(144);
});
