// attach() with buffers of another GPUDevice than the device it is given
// (issue 35): refused up front, naming the buffer and why. It used to
// attach and end on the first frame with "can no longer be copied
// (destroyed?)".
import { test, expect, gotoReady } from './fixtures.mjs';

test('attach() refuses buffers of another GPUDevice, naming the buffer', async ({ page }) => {
  await gotoReady(page, '?autostart=0');
  const out = await page.evaluate(async () => {
    await ringscope.ready;
    const device = async () => (await navigator.gpu.requestAdapter()).requestDevice({ label: 'host' });
    const [a, b] = [await device(), await device()];
    const U = GPUBufferUsage;
    const bufs = (dev, tag) => ({
      control: dev.createBuffer({ label: `ctl-${tag}`, size: 640, usage: U.STORAGE | U.COPY_SRC }),
      ring: dev.createBuffer({ label: `ring-${tag}`, size: 64 * 64, usage: U.STORAGE | U.COPY_SRC }),
      log: dev.createBuffer({ label: `log-${tag}`, size: 64, usage: U.STORAGE | U.COPY_SRC }),
    });
    const A = bufs(a, 'a'), B = bufs(b, 'b');
    const tryAttach = async (o) => {
      try {
        const info = await ringscope.attach({ slots: 64, ...o });
        await ringscope.detach();
        return `attached: ${info.state}`;
      } catch (e) {
        return e.message;
      }
    };
    return {
      foreignControl: await tryAttach({ device: a, control: B.control, ring: A.ring }),
      foreignRing: await tryAttach({ device: a, control: A.control, ring: B.ring }),
      foreignLog: await tryAttach({ device: a, control: A.control, ring: A.ring, log: B.log }),
      own: await tryAttach({ device: a, control: A.control, ring: A.ring, log: A.log }),
      ownB: await tryAttach({ device: b, ...B }),
    };
  });
  const why = 'belongs to another GPUDevice than the device passed (attach\'s device must be the one that created control, ring and log)';
  expect(out.foreignControl).toContain(`attach: megakernel: attach: control buffer "ctl-b": ${why}`);
  expect(out.foreignRing).toContain(`ring buffer "ring-b": ${why}`);
  expect(out.foreignLog).toContain(`log buffer "log-b": ${why}`);
  expect(out.own).toBe('attached: attached');
  expect(out.ownB).toBe('attached: attached');
  await expect(page.getByTestId('status')).toHaveText('ready');
});
