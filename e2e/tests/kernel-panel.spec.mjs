// The Kernel panel (static/src/kernel-panel): a person writes an opcode
// with a mistake and sees it at its line, fixes it, applies, publishes a
// workload, and the dashboard names the opcode with the right counts; the
// shipped examples check their results on the host; a link, a ?kernel=
// parameter and a saved JSON file reproduce a setup.
import { test, expect, gotoReady } from './fixtures.mjs';

test.describe.configure({ timeout: 120_000 });

const SQUARE = `fn square(slot: u32, args: Args) -> Outcome {
    let v = args[0];
    out[args[1]] = v * nope;
    return done();
}
`;

async function openPanel(page) {
  await page.getByTestId('kernel-toggle').click();
  await expect(page.getByTestId('kernel-panel')).toBeVisible();
  await expect(page.getByTestId('kernel-apply')).toBeVisible({ timeout: 30_000 });
}

// setEditor replaces the editor's text as a person would: select all,
// delete (CodeMirror's own command), then type it in. (Typing over a
// selection of several lines lets Chromium's contenteditable merge the
// lines itself, writing style attributes that the page's CSP refuses
// and CodeMirror then redraws away.)
async function setEditor(page, text) {
  await page.locator('[data-testid="kernel-editor"] .cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText(text);
}

// opcodeRow is the control panel's OPCODE_METRICS row that names op.
function opcodeRow(page, name) {
  return page.locator('tr', { has: page.locator('td', { hasText: new RegExp(`^${name}$`) }) }).first();
}

test('an opcode written in the panel: its error inline at its line, then fixed, applied, published and named', async ({ page }) => {
  await gotoReady(page);
  await openPanel(page);
  await setEditor(page, SQUARE);
  await page.getByTestId('kernel-apply').click();

  const error = page.getByTestId('kernel-error');
  await expect(error).toContainText(/opcodes\[0\]\.wgsl \(square\) line 3, column \d+: error: .*nope/);
  await expect(page.getByTestId('kernel-status')).toHaveText('not applied: the ring that ran keeps running');
  // The mark sits on line 3 of the editor, and its gutter says so.
  const line3 = page.locator('[data-testid="kernel-editor"] .cm-line').nth(2);
  await expect(line3.locator('.cm-lintRange-error')).toHaveCount(1);
  await expect(line3.locator('.cm-lintRange-error')).toHaveText(/^n/);
  await expect(page.locator('[data-testid="kernel-editor"] .cm-lint-marker-error')).toHaveCount(1);
  await expect(page.getByTestId('kernel-tab-0')).toHaveClass(/kp-tab-error/);
  // Nothing changed: the default ring kept running.
  await expect(page.getByTestId('status')).toHaveText('ready');

  await setEditor(page, SQUARE.replace('v * nope', 'v * v'));
  await page.getByTestId('kernel-apply').click();
  await expect(page.getByTestId('kernel-status')).toHaveText(/^applied: generation \d+, square \(0x10\)$/);
  await expect(error).toBeEmpty();
  await expect(page.locator('[data-testid="kernel-editor"] .cm-lintRange-error')).toHaveCount(0);

  // Workload items of tenants 1 and 2 need a ring of 3 tenants; the panel
  // refuses them for the ring of 1 it applied.
  await page.getByTestId('workload-tenants').fill('3');
  await page.getByTestId('kernel-publish').click();
  await expect(error).toHaveText('workload.tenants 3: the ring was applied with 1 tenant(s); set ring tenants and Apply');
  await page.getByTestId('kernel-tenants').fill('3');
  await page.getByTestId('kernel-apply').click();
  await expect(page.getByTestId('kernel-status')).toHaveText(/^applied: generation \d+, square \(0x10\)$/);

  await page.getByTestId('workload-count').fill('48');
  await page.getByTestId('workload-tenants').fill('3');
  await page.getByTestId('workload-priorities').fill('5');
  await page.getByTestId('workload-args').fill('i + 2, i % 16');
  await page.getByTestId('kernel-publish').click();
  await expect(page.getByTestId('kernel-status')).toHaveText('published 48 items; drained: DONE_COUNT 48, FAULTS 0');

  // The dashboard names the user's opcode with its count.
  const row = opcodeRow(page, 'square');
  await expect(row).toBeVisible();
  await expect(row.locator('td.num').first()).toHaveText('48');
  // The last writer of out[k] is item k + 32 (items 32…47 run after 16…31
  // and 0…15 only if they are claimed later; read what the buffer holds and
  // check every word is the square of one of its writers).
  const out = await page.evaluate(async () => [...new Uint32Array((await ringscope.readBuffer('out')).buffer)]);
  expect(out).toHaveLength(16);
  for (const [k, v] of out.entries()) expect([k, k + 16, k + 32].map((i) => (i + 2) ** 2)).toContain(v);
});

// Publish & drain of work that faults: the drain ends on its one
// submission, and the panel's status gives the verdict on that work and
// its fix (the diagnosis judges a drained workload whole, at once), naming
// the user's fault code and opcode.
test('Publish & drain of faulting work says fault-storm with the user code and opcode', async ({ page }) => {
  await gotoReady(page);
  await openPanel(page);
  await setEditor(page, SQUARE.replace('out[args[1]] = v * nope;', 'if (v % 2u == 1u) { return user_fault(42u); }\n    out[args[1]] = v * v;'));
  await page.getByTestId('kernel-apply').click();
  await expect(page.getByTestId('kernel-status')).toHaveText(/^applied: generation \d+, square \(0x10\)$/);
  await page.getByTestId('workload-count').fill('16');
  await page.getByTestId('workload-args').fill('i, i % 16');
  await page.getByTestId('kernel-publish').click();
  await expect(page.getByTestId('kernel-status')).toHaveText('published 16 items; drained: DONE_COUNT 16, FAULTS 8; degraded: fault-storm — ' +
    'A large share of completions fault, most of them with USER_FAULT(42), most often from square: read the log panel\'s fault records and fix what publishes them.');
});

for (const preset of ['histogram', 'graph_step']) {
  test(`the ${preset} preset runs and checks its result on the host`, async ({ page }) => {
    await gotoReady(page);
    await openPanel(page);
    await page.getByTestId('kernel-preset').selectOption(preset);
    await expect(page.getByTestId('kernel-status')).toHaveText(/^loaded /);
    await expect(page.locator('[data-testid="kernel-editor"] .cm-content')).toContainText(`fn ${preset}(slot: u32, args: Args) -> Outcome`);
    await expect(page.getByTestId('kernel-about')).not.toBeEmpty();
    const count = Number(await page.getByTestId('workload-count').inputValue());
    expect(count).toBeGreaterThan(0);

    await page.getByTestId('kernel-apply').click();
    await expect(page.getByTestId('kernel-status')).toHaveText(new RegExp(`^applied: generation \\d+, ${preset} \\(0x1[01]\\)$`));
    await page.getByTestId('kernel-publish').click();
    const check = page.getByTestId('kernel-check');
    await expect(check).toHaveAttribute('data-ok', 'true');
    await expect(check).toContainText(/^✓ verified on the host: /);
    await expect(check).toContainText(`${count}`);
    await expect(opcodeRow(page, preset).locator('td.num').first()).toHaveText(count.toLocaleString('en-US'));

    // A second publish runs every item twice: the check says so.
    await page.getByTestId('kernel-publish').click();
    await expect(check).toHaveAttribute('data-ok', 'false');
    await expect(check).toContainText(/✗ differs from the host: \d+ differences/);
    await expect(check.locator('.kp-wrong').first()).toBeVisible();
  });
}

test('?kernel=NAME applies an example; Copy link and Save JSON reproduce the setup', async ({ page }) => {
  await gotoReady(page, '?kernel=graph_step');
  await expect(page.getByTestId('kernel-panel')).toBeVisible();
  await expect(page.getByTestId('kernel-status')).toHaveText(/^applied: generation \d+, graph_step \(0x11\)$/, { timeout: 30_000 });

  // A change of the person's own, carried by the link.
  await page.getByTestId('workload-args').fill('i, 999999');
  await page.getByTestId('kernel-share').click();
  const link = await page.getByTestId('kernel-link-out').inputValue();
  expect(link).toMatch(/#kernel=[A-Za-z0-9_-]+$/);

  const download = page.waitForEvent('download');
  await page.getByTestId('kernel-save').click();
  const file = await (await download).path();

  await page.goto(link);
  await expect(page.getByTestId('status')).toHaveText('ready', { timeout: 30_000 });
  await expect(page.getByTestId('kernel-status')).toHaveText(/^applied: generation \d+, graph_step \(0x11\)$/, { timeout: 30_000 });
  await expect(page.getByTestId('workload-args')).toHaveValue('i, 999999');
  // With cols past the graph every item faults (user_fault(2)); the check
  // expects that of this workload too.
  await page.getByTestId('kernel-publish').click();
  await expect(page.getByTestId('kernel-check')).toHaveAttribute('data-ok', 'true');

  // The saved file loads the same definition into a fresh page.
  await gotoReady(page);
  await openPanel(page);
  await page.getByTestId('kernel-panel').locator('input[type=file]').setInputFiles(file);
  await expect(page.getByTestId('kernel-status')).toHaveText(/^loaded /);
  await expect(page.getByTestId('workload-args')).toHaveValue('i, 999999');
  await expect(page.getByTestId('kernel-tab-0')).toHaveText('graph_step 0x11');

  // A file that is not a definition is refused, saying why.
  await page.getByTestId('kernel-panel').locator('input[type=file]').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"opcodes": 5}') });
  await expect(page.getByTestId('kernel-error')).toHaveText('kernel definition: opcodes must be an array');
});

test('the panel names a bad declaration by its field and keeps the ring running', async ({ page }) => {
  await gotoReady(page);
  await openPanel(page);
  await page.getByTestId('kernel-opcode-number').fill('0x101');
  await page.getByTestId('kernel-opcode-number').dispatchEvent('change');
  await page.getByTestId('kernel-apply').click();
  await expect(page.getByTestId('kernel-error')).toContainText('opcodes[0].opcode: 0x101 is not a user opcode');
  await page.getByTestId('kernel-opcode-number').fill('0x10');
  await page.getByTestId('kernel-opcode-number').dispatchEvent('change');
  await page.locator('[data-testid="kernel-buffers"] input[aria-label=size]').first().fill('6');
  await page.getByTestId('kernel-apply').click();
  await expect(page.getByTestId('kernel-error')).toContainText('buffers[0].size');
  await expect(page.getByTestId('status')).toHaveText('ready');
});
