// A typed user of ringscope/playwright (types/playwright.d.ts).
import { test, expect, matchers } from 'ringscope/playwright';

test.use({ ringscopeLabels: { control: 'my control', ring: 'my ring' } });

test('the queue drains', async ({ page, ringscope }) => {
  await page.goto('/');
  await ringscope.attach({ budget: 0.1 });
  await expect(ringscope).toBeHealthy({ within: 3000 });
  await expect(ringscope).toHaveNoFaults();
  await expect(ringscope).toDrainExactlyOnce();
  await expect(ringscope).toNotStall({ within: 2000 });
  const s = await ringscope.snapshot();
  console.log(s.diagnosis?.health, Object.keys(matchers));
});
