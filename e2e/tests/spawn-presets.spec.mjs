// The spawning presets of the Kernel panel (docs/OPCODES.md §7): BFS, whose
// levels the GPU makes, and the wavefront, whose tiles the last
// predecessor spawns. Each runs from the panel, its check says verified,
// and the JS API's drain reports the work the GPU made.
import { test, expect, gotoReady } from './fixtures.mjs';

test.describe.configure({ timeout: 120_000 });

async function openPanel(page) {
  await page.getByTestId('kernel-toggle').click();
  await expect(page.getByTestId('kernel-panel')).toBeVisible();
  await expect(page.getByTestId('kernel-apply')).toBeVisible({ timeout: 30_000 });
}

for (const [preset, opcode] of [['bfs', '0x10'], ['wavefront', '0x10']]) {
  test(`the ${preset} preset spawns its work on the GPU and checks it on the host`, async ({ page }) => {
    await gotoReady(page);
    await openPanel(page);
    await page.getByTestId('kernel-preset').selectOption(preset);
    await expect(page.getByTestId('kernel-status')).toHaveText(/^loaded /);
    await page.getByTestId('kernel-apply').click();
    await expect(page.getByTestId('kernel-status')).toHaveText(new RegExp(`^applied: generation \\d+, ${preset} \\(${opcode}\\)$`));
    await page.getByTestId('kernel-publish').click();
    const check = page.getByTestId('kernel-check');
    await expect(check).toHaveAttribute('data-ok', 'true', { timeout: 30_000 });
    await expect(check).toContainText(/^✓ verified on the host: /);
  });
}
