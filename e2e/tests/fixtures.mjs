// Shared fixtures and helpers of the page tests (not a spec file: Playwright
// only runs *.spec.mjs).
//
// `test` here is @playwright/test's with one automatic fixture: every page
// error and every console error fails the test that caused it, after the
// test body has run, with the messages listed. A test that expects a
// console error says so with `pageProblems.allow(/regexp/)`, next to the
// reason it is justified.
import { test as base, expect } from '@playwright/test';

export { expect };

export const test = base.extend({
  pageProblems: [
    async ({ page }, use) => {
      const problems = [];
      const allowed = [];
      page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() !== 'error') return;
        const text = msg.text();
        if (!allowed.some((re) => re.test(text))) problems.push(`console.error: ${text}`);
      });
      await use({ allow: (re) => allowed.push(re), list: problems });
      expect(problems, 'page errors and console errors during the test').toEqual([]);
    },
    { auto: true },
  ],
});

// The en-dash a panel shows before it has a frame (ui/key-values.go).
export const DASH = '–';

// num parses a number as the dashboard formats it ("65,536" → 65536);
// NaN for the dash or anything else.
export function num(text) {
  const t = (text ?? '').trim().replace(/,/g, '');
  return /^-?\d+$/.test(t) ? Number(t) : NaN;
}

// headerStat is the value of one of the header's always-visible numbers
// (PRESET, FRAME, RATE, ROUND TRIP, DONE, HEALTH), found by its label.
export function headerStat(page, label) {
  return page
    .locator('.hstat')
    .filter({ has: page.locator('.hstat-label', { hasText: new RegExp(`^${label}$`, 'i') }) })
    .locator('span')
    .last();
}

// readNum reads a number shown by a locator.
export async function readNum(locator) {
  return num(await locator.textContent());
}

// gotoReady opens the page with the query and waits for status ready. The
// first load compiles ~4 MB of wasm on a loaded 2-core machine: be generous.
export async function gotoReady(page, query = '') {
  await page.goto(`/${query}`);
  await expect(page.getByTestId('status')).toHaveText('ready', { timeout: 30_000 });
}

// waitFrames waits until the header's frame counter reaches at least n.
export async function waitFrames(page, n, timeout = 30_000) {
  const frame = headerStat(page, 'frame');
  await expect.poll(() => readNum(frame), { timeout, message: `frame counter reaches ${n}` }).toBeGreaterThanOrEqual(n);
  return readNum(frame);
}
