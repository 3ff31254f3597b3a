// What open() and the Kernel panel read of a definition (issues 34 and
// 35): words of an i32 or f32 buffer take that element type's values, a
// bad word is refused naming its field, a link's definition is counted
// before the panel draws it, a buffer of null is refused naming it, and a
// buffer with words but no size opens from the panel as from open().
import { test, expect, gotoReady } from './fixtures.mjs';

test.describe.configure({ timeout: 120_000 });

const NOOP = 'fn noop(slot: u32, args: Args) -> Outcome {\n    return done();\n}\n';

test('words take the element type\'s values; a bad word is refused naming its field', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  const out = await page.evaluate(async (wgsl) => {
    await ringscope.ready;
    const opcodes = [{ opcode: 0x10, name: 'noop', wgsl }];
    await ringscope.open({ slots: 64, opcodes, buffers: [
      { name: 'iv', element: 'i32', words: [-1, 5, -2147483648, 2147483647] },
      { name: 'fv', element: 'f32', words: [1.5, -2.25, 1e-3, 3] },
      { name: 'uv', words: [0, 4294967295] },
    ] });
    const read = async (name, T) => [...new T((await ringscope.readBuffer(name)).slice().buffer)];
    const got = { iv: await read('iv', Int32Array), fv: await read('fv', Float32Array), uv: await read('uv', Uint32Array) };
    const refusal = async (buffers, data) => ringscope.open({ slots: 64, opcodes, buffers, data }).then(() => 'opened', (e) => e.message);
    got.refused = {
      negU32: await refusal([{ name: 'b', words: [1, -1] }]),
      fracI32: await refusal([{ name: 'b', element: 'i32', words: [0, 0, 1.5] }]),
      bigI32: await refusal([{ name: 'b', element: 'atomic<i32>', access: 'read_write', words: [2147483648] }]),
      string: await refusal([{ name: 'b', words: [1, '2'] }]),
      hole: await refusal([{ name: 'b', words: [1, , 3] }]),
      data: await refusal([], [7, 0.5]),
    };
    return got;
  }, NOOP);
  expect(out.iv).toEqual([-1, 5, -2147483648, 2147483647]);
  expect(out.fv).toEqual([1.5, -2.25, Math.fround(1e-3), 3]);
  expect(out.uv).toEqual([0, 4294967295]);
  expect(out.refused.negU32).toBe('open: buffers[0].words[1] is -1, not a u32 (an integer 0…4294967295)');
  expect(out.refused.fracI32).toBe('open: buffers[0].words[2] is 1.5, not an i32 (an integer -2147483648…2147483647)');
  expect(out.refused.bigI32).toBe('open: buffers[0].words[0] is 2.147483648e+09, not an i32 (an integer -2147483648…2147483647)');
  expect(out.refused.string).toBe('open: buffers[0].words[1] must be a number (a u32 (an integer 0…4294967295)), got string');
  expect(out.refused.hole).toBe('open: buffers[0].words[1] must be a number (a u32 (an integer 0…4294967295)), got undefined');
  expect(out.refused.data).toBe('open: data[1] is 0.5, not a u32 (an integer 0…4294967295)');
});

// serveKernel answers the page's fetch of /big-kernel.json with body.
async function serveKernel(page, body) {
  await page.route((url) => url.pathname === '/big-kernel.json', (route) => route.fulfill({ status: 200, contentType: 'application/json', body }));
}

// errorAfterFetch loads ?kernel=/big-kernel.json and returns the panel's
// error and the milliseconds from the file's arrival to the error shown.
async function errorAfterFetch(page) {
  await page.addInitScript(() => {
    new MutationObserver((_, obs) => {
      const e = document.querySelector('[data-testid="kernel-error"]');
      if (e && e.textContent) {
        globalThis.__kernelErrorAt = performance.now();
        obs.disconnect();
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await gotoReady(page, '?kernel=/big-kernel.json');
  await expect(page.getByTestId('kernel-error')).not.toBeEmpty({ timeout: 30_000 });
  return page.evaluate(() => {
    const r = performance.getEntriesByType('resource').find((x) => x.name.endsWith('/big-kernel.json'));
    return { error: document.querySelector('[data-testid="kernel-error"]').textContent, ms: globalThis.__kernelErrorAt - r.responseEnd };
  });
}

for (const [name, n, what] of [['opcodes', 100_000, 'opcodes has 100000 entries, more than the 16 user opcodes (0x10…0x1f)'],
  ['buffers', 50_000, 'buffers has 50000 entries, more than the 64 open() reads']]) {
  test(`a ?kernel= file of ${n.toLocaleString('en-US')} ${name} is refused before the panel draws it`, async ({ page }) => {
    const op = { opcode: 16, name: 'noop', wgsl: NOOP };
    const d = name === 'opcodes'
      ? { opcodes: Array.from({ length: n }, () => op) }
      : { opcodes: [op], buffers: Array.from({ length: n }, (_, i) => ({ name: `b${i}`, size: 4 })) };
    await serveKernel(page, JSON.stringify(d));
    const r = await errorAfterFetch(page);
    expect(r.error).toBe(`kernel definition: ${what}`);
    // It froze the page for 30 s (opcodes) and 103 s (buffers) before.
    expect(r.ms).toBeLessThan(1000);
    await expect(page.getByTestId('status')).toHaveText('ready');
  });
}

test('buffers: [null] is refused naming the field, in a definition and by open()', async ({ page }) => {
  await serveKernel(page, JSON.stringify({ opcodes: [{ opcode: 16, name: 'noop', wgsl: NOOP }], buffers: [null] }));
  const r = await errorAfterFetch(page);
  expect(r.error).toBe('kernel definition: buffers[0] must be an object, got null');
  const opened = await page.evaluate((wgsl) => ringscope.open({ slots: 64, opcodes: [{ opcode: 16, name: 'noop', wgsl }], buffers: [null] })
    .then(() => 'opened', (e) => e.message), NOOP);
  expect(opened).toBe('open: buffers[0] must be an object, got null');
});

test('a buffer with words and no size opens from the panel as from open()', async ({ page }) => {
  const d = { opcodes: [{ opcode: 16, name: 'noop', wgsl: NOOP }], buffers: [{ name: 'init', access: 'read', words: [1, 2, 3, 4, 5] }] };
  await serveKernel(page, JSON.stringify(d));
  await gotoReady(page, '?kernel=/big-kernel.json');
  await expect(page.getByTestId('kernel-status')).toHaveText(/^applied: generation \d+, noop \(0x10\)$/, { timeout: 30_000 });
  await expect(page.getByTestId('kernel-error')).toBeEmpty();
  const words = await page.evaluate(async () => [...new Uint32Array((await ringscope.readBuffer('init')).slice().buffer)]);
  expect(words).toEqual([1, 2, 3, 4, 5]);
  // open() itself takes the same buffer.
  const opened = await page.evaluate(async (def) => ringscope.open({ slots: 64, ...def }).then(() => 'opened', (e) => e.message), d);
  expect(opened).toBe('opened');
});
