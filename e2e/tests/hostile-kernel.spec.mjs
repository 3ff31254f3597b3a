// Kernels that compile but cannot run (issue 35): open() refuses each as a
// kernel error naming the opcode, before it replaces the running ring, and
// that ring keeps draining exactly. A binding (@group, @binding) or an
// override in a user opcode is refused by the assembler at its line;
// workgroup memory past the device's limit, which only the pipeline
// shows, by the pipeline open() makes before it switches.
import { test, expect, gotoReady } from './fixtures.mjs';

test.describe.configure({ timeout: 120_000 });

const HISTOGRAM = `fn histogram(slot: u32, args: Args) -> Outcome {
    for (var i = 0u; i < args[1]; i++) {
        atomicAdd(&hist[input[args[0] + i] % 8u], 1u);
    }
    return done();
}
`;

test('kernels that compile but make no pipeline are refused by open(); the ring that runs keeps draining exactly', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  const out = await page.evaluate(async (wgsl) => {
    await ringscope.ready;
    const input = Array.from({ length: 64 }, (_, i) => (i * 7) % 8);
    await ringscope.open({ slots: 256, opcodes: [{ opcode: 0x10, name: 'histogram', wgsl }],
      buffers: [{ name: 'hist', access: 'read_write', element: 'atomic<u32>', size: 32 },
        { name: 'input', access: 'read', words: input }] });
    const round = async () => {
      const items = [];
      for (let first = 0; first < 64; first += 8) items.push({ opcode: 0x10, args: [first, 8] });
      await ringscope.publish(items);
      const { telemetry } = await ringscope.drain({ maxSubmissions: 16 });
      return { done: telemetry.control.doneCount, hist: [...new Uint32Array((await ringscope.readBuffer('hist')).buffer)] };
    };
    const first = await round();
    const probe = (decl, use) => `${decl}
fn probe(slot: u32, args: Args) -> Outcome {
    observable_store(0u, ${use});
    return done();
}`;
    const cases = {
      group1: probe('@group(1) @binding(0) var<storage, read> g1: array<u32>;', 'g1[0]'),
      binding9: probe('@group(0) @binding(9) var<storage, read> b9: array<u32>;', 'b9[0]'),
      override: probe('override nodefault: u32;', 'nodefault'),
      workgroup: probe('var<workgroup> big: array<u32, 16384>;', 'big[args[0] % 16384u]'),
    };
    const refused = {};
    for (const [k, src] of Object.entries(cases)) {
      try {
        await ringscope.open({ slots: 64, opcodes: [{ opcode: 0x11, name: 'probe', wgsl: src }] });
        refused[k] = { message: 'opened' };
      } catch (e) {
        refused[k] = { message: e.message, field: e.field, line: e.line, diagnostics: e.diagnostics };
      }
    }
    const second = await round();
    return { first, second, refused, status: document.querySelector('[data-testid=status]').textContent };
  }, HISTOGRAM);
  const want = new Array(8).fill(8);
  expect(out.first).toEqual({ done: 8, hist: want });
  for (const k of ['group1', 'binding9', 'override']) {
    const r = out.refused[k];
    expect(r.message, k).toMatch(/^open: kernel: opcodes\[0\]\.wgsl: line 1 of probe: /);
    expect(r.field, k).toBe('opcodes[0].wgsl');
    expect(r.line, k).toBe(1);
  }
  expect(out.refused.group1.message).toMatch(/@group: a user opcode declares no bindings/);
  expect(out.refused.binding9.message).toMatch(/@group|@binding/);
  expect(out.refused.override.message).toMatch(/override: the kernel sets its own pipeline overrides only/);
  expect(out.refused.workgroup.message).toMatch(/^open: kernel: does not compile: opcodes\[0\]\.wgsl \(probe\): error: makes no pipeline: .*workgroup storage/);
  expect(out.refused.workgroup.diagnostics).toEqual([expect.objectContaining({ field: 'opcodes[0].wgsl', opcode: 'probe', type: 'error' })]);
  // The histogram ring kept running: the same generation drains on, exactly.
  expect(out.second).toEqual({ done: 16, hist: want.map((v) => 2 * v) });
  expect(out.status).toBe('ready');
});

test('in the Kernel panel, an override is marked at its line as a compile error is', async ({ page }) => {
  await gotoReady(page);
  await page.getByTestId('kernel-toggle').click();
  await expect(page.getByTestId('kernel-apply')).toBeVisible({ timeout: 30_000 });
  await page.locator('[data-testid="kernel-editor"] .cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText('fn square(slot: u32, args: Args) -> Outcome {\n    return done();\n}\noverride k: u32;\n');
  await page.getByTestId('kernel-apply').click();
  await expect(page.getByTestId('kernel-error')).toHaveText(/^open: kernel: opcodes\[0\]\.wgsl: line 4 of square: override: /);
  const line4 = page.locator('[data-testid="kernel-editor"] .cm-line').nth(3);
  await expect(line4.locator('.cm-lintRange-error')).toHaveCount(1);
  await expect(page.getByTestId('kernel-tab-0')).toHaveClass(/kp-tab-error/);
  await expect(page.getByTestId('status')).toHaveText('ready');
});
