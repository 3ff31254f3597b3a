// A small WebGPU app for the ringscope/playwright kit's tests: this suite's
// (a consumer of the packed kit, package.spec.mjs) and the kit's own
// (e2e/tests/playwright-kit.spec.mjs serves it by a route). Its own device, a 64-slot
// ring in ringscope's ABI (docs/PROTOCOL.md) and its own kernel
// (drain.wgsl), dispatched every animation frame. It knows nothing of
// ringscope. It publishes 16 items once, tenants 0 and 1 alternating, and
// runs no host loop after that: no IO service, no republishing, so a slot
// its kernel parks stays parked. ?bug= picks what goes wrong:
//   (none)   16 NOPs, drained: the ring ends idle;
//   fault    every 4th item an opcode the kernel does not know: 4 FAULTs;
//   waitio   16 WAIT_IO items (0xFFF2): 16 slots wait on IO nobody serves;
//   masked   tenant 1's mask off: its 8 items end YIELD (PROTOCOL §3);
//   requeue  every 4th item REQUEUE (0xFFF1): 4 slots never published again.
// The buffers' labels are ringscope/playwright's defaults (control, ring,
// log); params a fourth labelled buffer.
const bug = new URLSearchParams(location.search).get('bug');
const device = await (await navigator.gpu.requestAdapter()).requestDevice();
const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
const control = device.createBuffer({ label: 'control', size: 160 * 4, usage });
const ring = device.createBuffer({ label: 'ring', size: 64 * 64, usage });
const log = device.createBuffer({ label: 'log', size: (4 + 4 * 16) * 4, usage });
device.createBuffer({ label: 'params', size: 16, usage: GPUBufferUsage.UNIFORM });

const opcode = (i) => {
  if (bug === 'waitio') return 0xfff2;
  if (bug === 'fault' && i % 4 === 0) return 0x4242;
  if (bug === 'requeue' && i % 4 === 0) return 0xfff1;
  return 0;
};
const c = new Uint32Array(160);
c[2] = 3;                                  // TENANT_BASE
c[3] = 1; c[4] = bug === 'masked' ? 0 : 1; // TENANT_MASK[0], [1]
c.set([0, 12, 24, 40, 52, 64], 129);       // PRIORITY_OFFSETS
c[141] = 0x31435352; c[142] = 1; c[143] = 1;
const r = new Uint32Array(64 * 16);
for (let i = 0; i < 16; i++) r.set([1, opcode(i), i % 2, 2], (24 + i) * 16);
c[154 + 2] = 16;                           // TAIL[NORMAL]
const l = new Uint32Array(4 + 4 * 16);
l[1] = 16;                                 // log CAPACITY
device.queue.writeBuffer(control, 0, c);
device.queue.writeBuffer(ring, 0, r);
device.queue.writeBuffer(log, 0, l);

const module = device.createShaderModule({ code: await (await fetch('drain.wgsl')).text() });
const pipeline = await device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'drain' } });
const bind = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [
  { binding: 0, resource: { buffer: control } }, { binding: 1, resource: { buffer: ring } }, { binding: 2, resource: { buffer: log } }] });
function frame() {
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bind);
  pass.dispatchWorkgroups(1);
  pass.end();
  device.queue.submit([enc.finish()]);
  requestAnimationFrame(frame);
}
frame();
document.title = 'app ready';
