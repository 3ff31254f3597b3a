// A consumer of the npm package: two instances side by side, a ring of
// its own and an attachment to this app's own ring (a device and buffers
// of its own in ringscope's ABI, no kernel: the work it publishes waits).
import { createRingscope } from 'ringscope';
import 'ringscope/style.css';
import 'ringscope/dashboard.css';

const state = document.querySelector('[data-testid="state"]');
try {
  const device = await (await navigator.gpu.requestAdapter()).requestDevice();
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
  const control = device.createBuffer({ label: 'app control', size: 168 * 4, usage });
  const ring = device.createBuffer({ label: 'app ring', size: 64 * 64, usage });
  const c = new Uint32Array(168);
  c[2] = 3; c[3] = 1;
  c.set([0, 12, 24, 40, 52, 64], 129);
  c[141] = 0x31435352; c[142] = 1; c[143] = 1;
  device.queue.writeBuffer(control, 0, c);
  device.queue.writeBuffer(ring, 0, new Uint32Array(64 * 16));

  const a = await createRingscope({ container: document.getElementById('ring'), open: { slots: 256 } });
  await a.publish([{ opcode: 0x101, args: [50, 0] }, { opcode: 0, priority: 1 }]);
  await a.start();
  const b = await createRingscope({ container: document.getElementById('attached'), attach: { device, control, ring }, autostart: true });
  Object.assign(window, { a, b });
  state.textContent = 'running';
} catch (err) {
  state.textContent = `error: ${err.message}`;
}
