// ringscope/playwright (issue 32), the kit a user's own suite imports
// (pkg/playwright), from the repository: the app hands its buffers over
// explicitly (window.ringscopeKit.use) and its kernel faults, which
// toHaveNoFaults names. package.spec.mjs runs the kit from the packed
// tarball in a scratch project's suite: buffers found by label, a healthy
// app passing every matcher, a masked tenant and a fault failing.
import { fileURLToPath } from 'node:url';
import { test as base, expect as baseExpect } from '@playwright/test';
import { kit } from '../../pkg/playwright/kit.mjs';

const { test, expect } = kit(base, baseExpect);
test.use({ ringscopeAssets: fileURLToPath(new URL('../../.cache/e2e-static', import.meta.url)) });
test.describe.configure({ timeout: 90_000 });

test('a host kernel that faults fails toHaveNoFaults, naming the faults', async ({ page, ringscope }) => {
  await page.goto('/attach-host.html?attach=0&slots=1024');
  await expect(page.getByTestId('host-state')).toHaveAttribute('data-ready', '1', { timeout: 30_000 });
  await page.evaluate(() => {
    const { device, control, ring, log } = window.host;
    window.ringscopeKit.use({ device, control, ring, log }); // the explicit hand-over
  });
  await ringscope.attach();
  const err = await expect(ringscope).toHaveNoFaults().then(() => null, (e) => e);
  expect(err, 'toHaveNoFaults fails').not.toBeNull();
  expect(err.message).toMatch(/toHaveNoFaults\(\): FAULTS is [1-9]\d*; the log:\n {2}.*UNKNOWN_OPCODE/);
  expect(err.message).toMatch(/health: \w+/);
});
