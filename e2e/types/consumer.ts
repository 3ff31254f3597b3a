// A typed consumer of ringscope's declarations (types/ringscope.d.ts),
// compiled with tsc --noEmit --strict by make test-types: what a user's
// TypeScript writes against the package.
import { createRingscope, type RingscopeInstance, type DrainResult } from 'ringscope';

export async function run(left: Element, device: GPUDevice, control: GPUBuffer, ring: GPUBuffer): Promise<number> {
  const a: RingscopeInstance = await createRingscope({
    container: left,
    open: { slots: 4096, tenants: 2, readback: 'summary', opcodes: [{ opcode: 0x10, name: 'sq', wgsl: '' }] },
  });
  await a.publish([{ opcode: 0x101, tenant: 1, priority: 2, args: [100, 0] }], { allowUnknownOpcodes: false });
  const d: DrainResult = await a.drain({ maxSubmissions: 16 });
  const unsubscribe = a.subscribe((f) => console.log(f.doneCount, f.queueDepth));
  unsubscribe();
  for (const c of d.diagnosis?.causes ?? []) console.log(c.kind, c.fix, c.evidence);
  const check = await a.checkExample('square'); // the example's name is required
  console.log(check.ok);

  const b = await createRingscope({ attach: { device, control, ring, budget: 0.1 }, autostart: true, global: 'rsB' });
  await b.mount(left, { panels: ['slotmap'] });
  const metrics: string = await b.exportMetrics({ format: 'prometheus' });
  await a.dispose();
  return d.telemetry.control.doneCount + metrics.length;
}
