// The spawning presets of the Kernel panel (docs/OPCODES.md §7): BFS, whose
// levels the GPU makes, and the wavefront, whose tiles the last
// predecessor spawns. Each runs from the panel, its check says verified,
// the JS API's snapshot has the spawn state, and the dashboard's
// generations panel shows the frontier per generation.
import { test, expect, gotoReady } from './fixtures.mjs';

test.describe.configure({ timeout: 120_000 });

async function openPanel(page) {
  await page.getByTestId('kernel-toggle').click();
  await expect(page.getByTestId('kernel-panel')).toBeVisible();
  await expect(page.getByTestId('kernel-apply')).toBeVisible({ timeout: 30_000 });
}

for (const [preset, opcode] of [['bfs', '0x10'], ['wavefront', '0x10']]) {
  test(`the ${preset} preset spawns its work on the GPU and checks it on the host`, async ({ page }) => {
    // BFS under summary readback (auto picks full on SwiftShader): the host
    // copy learns the GPU-made slots by their positions, not a ring read.
    await gotoReady(page, preset === 'bfs' ? '?readback=summary' : '');
    await openPanel(page);
    await page.getByTestId('kernel-preset').selectOption(preset);
    await expect(page.getByTestId('kernel-status')).toHaveText(/^loaded /);
    await page.getByTestId('kernel-apply').click();
    await expect(page.getByTestId('kernel-status')).toHaveText(new RegExp(`^applied: generation \\d+, ${preset} \\(${opcode}\\)$`));
    await page.getByTestId('kernel-publish').click();
    const check = page.getByTestId('kernel-check');
    await expect(check).toHaveAttribute('data-ok', 'true', { timeout: 30_000 });
    await expect(check).toContainText(/^✓ verified on the host: /);
    // The host published the root's items; the GPU made the rest, one
    // generation per level or diagonal, and the dashboard shows them.
    const snap = await page.evaluate(async () => ringscope.snapshot({ slots: true }));
    const spawn = snap.spawn;
    // The host's copy of the ring holds the GPU-made slots: more slots
    // ended DONE than the host published.
    expect(snap.telemetry.occupancy.done).toBeGreaterThan(snap.published);
    expect(spawn.spawned).toBeGreaterThan(0);
    expect(spawn.generations).toBeGreaterThan(1);
    expect(spawn.refusedFull + spawn.refusedBad).toBe(0);
    expect(spawn.history.reduce((n, g) => n + g.spawned, 0)).toBe(spawn.spawned);
    const panel = page.getByTestId('generations-panel');
    await expect(panel).toBeVisible();
    await expect(page.getByTestId('generations-sub')).toContainText(`${spawn.spawned.toLocaleString('en-US')} spawned`);
    await expect(panel.getByTestId('generation-row').first()).toBeVisible();
    await expect(page.getByTestId('generations-opcodes')).toContainText(`${preset} ${spawn.byOpcode[16].toLocaleString('en-US')}`);
    if (preset !== 'bfs') return;
    // A capture of the run keeps each frame's spawn telemetry (docs/CAPTURE.md
    // §1.3): its replay's first frame, of the built-in workload before the
    // kernel, shows no generations; its last shows the same as live, and
    // its slots (the host copy's) hold every GPU-made item.
    const count = await page.evaluate(async () => {
      const info = await ringscope.importCapture(await ringscope.exportCapture());
      return info.count;
    });
    expect(count).toBeGreaterThan(1);
    await expect(page.getByTestId('replaying')).toBeVisible();
    await expect(panel.getByTestId('generation-row')).toHaveCount(0);
    const last = await page.evaluate(async (last) => {
      await ringscope.replay(last);
      return (await ringscope.captureFrame(last)).telemetry;
    }, count - 1);
    // Its ring is the host copy's: the GPU-made slots are in it, DONE.
    expect(last.occupancy.done).toBe(snap.telemetry.occupancy.done);
    await expect(page.getByTestId('generations-sub')).toContainText(`${spawn.spawned.toLocaleString('en-US')} spawned`);
    await expect(page.getByTestId('generations-opcodes')).toContainText(`${preset} ${spawn.byOpcode[16].toLocaleString('en-US')}`);
    await page.evaluate(() => ringscope.live());
  });
}

// The JS API alone: a kernel whose opcode spawns a binary tree, the root
// published, one drain() call: it goes on until the GPU-made work is done
// and says what the GPU made.
test('drain() runs until the work the GPU spawned is done', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  const wgsl = `fn tree(slot: u32, args: Args) -> Outcome {
    atomicAdd(&visits[args[0]], 1u);
    if (args[1] == 0u) { return done(); }
    for (var j = 0u; j < 2u; j++) {
        var a = args;
        a[0] = 2u * args[0] + j + 1u;
        a[1] = args[1] - 1u;
        if (!spawn(16u, 0u, a[0] % 5u, a)) { return user_fault(1u); }
    }
    return done();
}`;
  const depth = 9, nodes = 2 ** (depth + 1) - 1;
  const res = await page.evaluate(async ({ wgsl, depth, nodes }) => {
    await ringscope.open({ slots: 4096, tenants: 1, opcodes: [{ opcode: 0x10, name: 'tree', wgsl }],
      buffers: [{ name: 'visits', access: 'read_write', element: 'atomic<u32>', size: 4 * nodes }] });
    await ringscope.publish([{ opcode: 0x10, args: [0, depth] }]);
    const d = await ringscope.drain({ maxSubmissions: 64 });
    const visits = [...new Uint32Array((await ringscope.readBuffer('visits')).buffer)];
    return { outcome: d.outcome, done: d.telemetry.control.doneCount, spawn: d.spawn, visits };
  }, { wgsl, depth, nodes });
  expect(res.outcome).toBe('empty');
  expect(res.done).toBe(nodes);
  expect(res.visits).toEqual(new Array(nodes).fill(1));
  expect(res.spawn.spawned).toBe(nodes - 1);
  expect(res.spawn.byOpcode[16]).toBe(nodes - 1);
  expect(res.spawn.history.filter((g) => g.claimed > 0).map((g) => g.claimed)).toEqual([...Array(depth + 1).keys()].map((l) => 2 ** l));
});
