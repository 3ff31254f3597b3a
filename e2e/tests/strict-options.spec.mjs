// Strict options (issue 32): every method that takes an options object
// refuses a key its table (wasm/api/options.go, docs/OPTIONS.md) does not
// have, by name and with the nearest key it has, and does nothing else:
// open({slot: 1024}) must not open the default ring.
import { test, expect, gotoReady } from './fixtures.mjs';

test.describe.configure({ mode: 'serial', timeout: 60_000 });

let page;
test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
  await gotoReady(page, '?autostart=0');
  await page.evaluate(async () => {
    await ringscope.ready;
    await ringscope.open({ slots: 64 });
  });
});
test.afterAll(async () => page?.close());

// refusal calls ringscope[method](...args) and returns its rejection's
// message ('resolved' if it did not reject).
const refusal = (method, args) =>
  page.evaluate(async ([m, a]) => ringscope[m](...a).then(() => 'resolved', (e) => e.message), [method, args]);

test('open refuses an unknown option and keeps the ring it had', async () => {
  expect(await refusal('open', [{ slot: 1024 }])).toBe('open: unknown option "slot" (did you mean "slots"?)');
  expect(await page.evaluate(async () => (await ringscope.snapshot({ slots: true })).telemetry.slots.length)).toBe(64);
});

test('open refuses an unknown key of an opcode and of a buffer', async () => {
  const wgsl = 'fn noop(slot: u32, args: Args) -> Outcome {\n    return done();\n}\n';
  expect(await refusal('open', [{ opcodes: [{ opcode: 0x10, name: 'noop', wgsl, wsgl: '' }] }]))
    .toBe('open: opcodes[0]: unknown option "wsgl" (did you mean "wgsl"?)');
  expect(await refusal('open', [{ buffers: [{ name: 'b', size: 16, acess: 'read' }] }]))
    .toBe('open: buffers[0]: unknown option "acess" (did you mean "access"?)');
});

test('attach refuses an unknown option', async () => {
  expect(await refusal('attach', [{ device: null, control: null, ring: null, budgt: 0.1 }]))
    .toBe('attach: unknown option "budgt" (did you mean "budget"?)');
});

test('drain refuses an unknown option', async () => {
  expect(await refusal('drain', [{ maxSubmission: 4 }]))
    .toBe('drain: unknown option "maxSubmission" (did you mean "maxSubmissions"?)');
});

test('publish refuses an unknown option and publishes nothing', async () => {
  expect(await refusal('publish', [[{ opcode: 0 }], { allowUnknown: true }]))
    .toBe('publish: unknown option "allowUnknown"; the options are allowUnknownOpcodes');
  const drained = await page.evaluate(async () => (await ringscope.drain()).telemetry.control.doneCount);
  expect(drained).toBe(0);
});

test('publish refuses an item\'s misspelt key by name, and publishes nothing', async () => {
  expect(await refusal('publish', [[{ opcode: 0, tenant: 0 }, { opcode: 0, tenat: 3, prio: 4 }]]))
    .toBe('publish: item 1: unknown option "tenat" (did you mean "tenant"?)');
  expect(await refusal('publish', [[{ opcode: 0, argz: [1] }]]))
    .toBe('publish: item 0: unknown option "argz" (did you mean "args"?)');
  const drained = await page.evaluate(async () => (await ringscope.drain()).telemetry.control.doneCount);
  expect(drained).toBe(0);
  // A whole item, or one whose optional keys are absent or null, is taken.
  expect(await refusal('publish', [[{ opcode: 0, tenant: 0, priority: 2, args: [1] }, { opcode: 0, args: null }]])).toBe('resolved');
});

// A boolean is a boolean: "false" or an object must not read as true.
test('boolean arguments and options refuse what is not a boolean', async () => {
  expect(await refusal('setTenantMask', [0])).toBe('setTenantMask: on must be a boolean, got undefined');
  expect(await refusal('setTenantMask', [0, 'false'])).toBe('setTenantMask: on must be a boolean, got string');
  expect(await refusal('publish', [[{ opcode: 0x77 }], { allowUnknownOpcodes: 'no' }]))
    .toBe('publish: allowUnknownOpcodes must be a boolean, got string');
  expect(await refusal('snapshot', [{ slots: 'yes' }])).toBe('snapshot: slots must be a boolean, got string');
  expect(await refusal('snapshot', [{ trace: {} }])).toBe('snapshot: trace must be a boolean, got object');
  expect(await refusal('setShutdown', [1])).toBe('setShutdown: on must be a boolean, got number');
  expect(await refusal('setTenantMask', [0, true])).toBe('resolved');
});

test('importCapture refuses an unknown key of its object form', async () => {
  expect(await refusal('importCapture', [{ control: 1, ring: 2, nmae: 'x' }]))
    .toBe('importCapture: unknown option "nmae" (did you mean "name"?)');
});

test('snapshot refuses an unknown option', async () => {
  expect(await refusal('snapshot', [{ slot: true }])).toBe('snapshot: unknown option "slot" (did you mean "slots"?)');
});

test('mount refuses an unknown option', async () => {
  const msg = await page.evaluate(() => {
    const el = document.createElement('div');
    document.body.append(el);
    return ringscope.mount(el, { panel: ['slotmap'] }).then(() => 'resolved', (e) => e.message);
  });
  expect(msg).toBe('mount: unknown option "panel" (did you mean "panels"?)');
});

test('decode refuses an unknown option', async () => {
  const msg = await page.evaluate(() =>
    ringscope.decode(new Uint32Array(160), new Uint32Array(16), { windowOpcode: [0x100] }).then(() => 'resolved', (e) => e.message));
  expect(msg).toBe('decode: unknown option "windowOpcode" (did you mean "windowOpcodes"?)');
});

test('exportMetrics refuses an unknown option', async () => {
  expect(await refusal('exportMetrics', [{ fromat: 'prometheus' }]))
    .toBe('exportMetrics: unknown option "fromat" (did you mean "format"?)');
});

test('pushMetrics refuses an unknown option', async () => {
  expect(await refusal('pushMetrics', ['/pushgateway', { jobs: 'ci' }]))
    .toBe('pushMetrics: unknown option "jobs" (did you mean "job"?)');
});

test('example refuses an unknown option', async () => {
  expect(await refusal('example', ['histogram', { sede: 2 }])).toBe('example: unknown option "sede" (did you mean "seed"?)');
});

test('publishWorkload refuses an unknown key', async () => {
  expect(await refusal('publishWorkload', [{ opcode: 0x10, count: 1, tenant: 1 }]))
    .toBe('publishWorkload: workload: unknown option "tenant" (did you mean "tenants"?)');
});

test('a key list that throws is refused, not a crash', async () => {
  const msg = await page.evaluate(() => {
    const p = new Proxy({}, { ownKeys() { throw new Error('trap'); } });
    return ringscope.drain(p).then(() => 'resolved', (e) => e.message);
  });
  expect(msg).toBe('drain: options: reading it threw: Error: trap');
});
