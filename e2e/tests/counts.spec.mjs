// Counts that mean what they say (issue 30, item 4): the header shows
// done and faulted apart (DONE_COUNT counts both), "masked tenants"
// counts the tenants the ring runs, and Opcode executions counts every
// opcode that ended, opcodes ≥ 32 (HASH, SPIN) included, so its shares
// add up to DONE_COUNT.
import { test, expect, gotoReady, waitFrames, num } from './fixtures.mjs';

// shown reads, in one go (one rendered frame), the header's done and
// faulted, the control panel's DONE_COUNT, FAULTS and masked tenants, and
// the opcode table's rows.
function shown(page) {
  return page.evaluate(() => {
    const stat = (label) => [...document.querySelectorAll('.hstat')]
      .find((s) => s.querySelector('.hstat-label')?.textContent.trim() === label)?.lastElementChild.textContent;
    const id = (t) => document.querySelector(`[data-testid="${t}"]`)?.textContent;
    const rows = [...document.querySelectorAll('[data-testid="opcode-executions"] tr')]
      .map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim()));
    return { done: stat('done'), faulted: stat('faulted'), doneCount: id('done-count'), faults: id('faults'),
      masked: id('masked-tenants'), rows };
  });
}

// paused pauses the live loop and waits until two reads a frame apart agree.
async function paused(page) {
  await page.getByTestId('pause').click();
  await expect(page.getByTestId('pause')).toHaveClass(/\bactive\b/);
  let prev;
  await expect.poll(async () => {
    const s = JSON.stringify(await shown(page));
    const same = s === prev;
    prev = s;
    return same;
  }, { intervals: [300] }).toBe(true);
  return JSON.parse(prev);
}

test('fault-storm: the header shows done and faulted apart', async ({ page }) => {
  await gotoReady(page, '?preset=fault-storm');
  await waitFrames(page, 5);
  const s = await paused(page);
  expect(num(s.faulted), JSON.stringify(s)).toBeGreaterThan(0);
  expect(num(s.faulted)).toBe(num(s.faults));
  expect(num(s.done), 'done is what did not fault').toBe(num(s.doneCount) - num(s.faults));
  expect(num(s.done)).toBeGreaterThan(0);
});

test('stall: masked tenants counts the ring\'s one masked tenant, not every unused id', async ({ page }) => {
  await gotoReady(page, '?preset=stall');
  await waitFrames(page, 2);
  await expect(page.getByTestId('masked-tenants')).toHaveText('1');
  await expect(page.getByTestId('masked-tenants')).toHaveAttribute('class', /num-warn/);
});

test('default-mix: opcode executions list HASH and SPIN, and their counts add up to DONE_COUNT', async ({ page }) => {
  await gotoReady(page, '?slots=4096');
  await waitFrames(page, 5);
  const s = await paused(page);
  const names = s.rows.map((r) => r[0]);
  expect(names, JSON.stringify(s.rows)).toContain('HASH');
  expect(names).toContain('SPIN');
  expect(s.rows.length).toBeLessThan(16); // every opcode fits: the sum is all of them
  const total = s.rows.reduce((a, r) => a + num(r[1]), 0);
  expect(total).toBe(num(s.doneCount));
  const percent = s.rows.reduce((a, r) => a + Number.parseFloat(r[3]), 0);
  expect(percent).toBeGreaterThan(99.5);
  expect(percent).toBeLessThan(100.5);
  expect(num(s.masked), 'default-mix masks no tenant').toBe(0);
});
