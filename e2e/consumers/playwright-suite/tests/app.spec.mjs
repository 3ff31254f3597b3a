// The app's own suite, asserting on its GPU queue through ringscope/playwright.
// The two bug tests fail on purpose: e2e/tests/package.spec.mjs runs this
// suite and checks that they fail with the diagnosis in the message.
import { test, expect } from 'ringscope/playwright';

async function open(page, ringscope, query = '') {
  await page.goto(`/${query}`);
  await expect(page).toHaveTitle('app ready');
  await ringscope.attach();
}

test('healthy: the queue drains', async ({ page, ringscope }) => {
  await open(page, ringscope);
  await expect(ringscope).toBeHealthy();
  await expect(ringscope).toHaveNoFaults();
  await expect(ringscope).toDrainExactlyOnce();
  await expect(ringscope).toNotStall({ within: 1000 });
});

test('bug: a masked tenant', async ({ page, ringscope }) => {
  await open(page, ringscope, '?bug=masked');
  await expect(ringscope).toBeHealthy({ within: 15_000 });
});

test('bug: a fault', async ({ page, ringscope }) => {
  await open(page, ringscope, '?bug=fault');
  await expect(ringscope).toHaveNoFaults();
});
