// Kernel definitions (wgsl/kerneldef): what the panel edits, saves as a
// JSON file, puts in a link, and passes to ringscope.open.

export const FORMAT = 'ringscope-kernel/1';

// blank is the definition of a new kernel: one opcode that squares its
// first argument into a user buffer (the README's example).
export function blank() {
  return {
    format: FORMAT,
    slots: 1024,
    tenants: 1,
    opcodes: [{
      opcode: 0x10,
      name: 'square',
      wgsl: 'fn square(slot: u32, args: Args) -> Outcome {\n    out[args[1]] = args[0] * args[0];\n    return done();\n}\n',
    }],
    buffers: [{ name: 'out', access: 'read_write', element: 'u32', size: 64 }],
    workload: { opcode: 0x10, count: 16, tenants: 1, priorities: 1, args: ['i', 'i'] },
  };
}

// parse checks a definition read from a file or link enough for the panel
// to show it; open checks the rest, naming each field.
export function parse(text) {
  let d;
  try {
    d = JSON.parse(text);
  } catch (e) {
    throw new Error(`kernel definition: not JSON: ${e.message}`);
  }
  if (d === null || typeof d !== 'object' || Array.isArray(d)) throw new Error('kernel definition: want a JSON object');
  if (d.format !== undefined && d.format !== FORMAT) throw new Error(`kernel definition: format ${JSON.stringify(d.format)}: this page reads ${FORMAT}`);
  // The counts first: the panel draws a tab per opcode and a row per
  // buffer, and a link's file of 100,000 opcodes froze the page for 30 s.
  if (!Array.isArray(d.opcodes)) throw new Error('kernel definition: opcodes must be an array');
  if (d.opcodes.length > MAX_OPCODES) {
    throw new Error(`kernel definition: opcodes has ${d.opcodes.length} entries, more than the ${MAX_OPCODES} user opcodes (0x10…0x1f)`);
  }
  d.buffers ??= [];
  if (!Array.isArray(d.buffers)) throw new Error('kernel definition: buffers must be an array');
  if (d.buffers.length > MAX_BUFFERS) {
    throw new Error(`kernel definition: buffers has ${d.buffers.length} entries, more than the ${MAX_BUFFERS} open() reads`);
  }
  for (const [i, op] of d.opcodes.entries()) {
    if (op === null || typeof op !== 'object' || Array.isArray(op)) throw new Error(`kernel definition: opcodes[${i}] must be an object, got ${kind(op)}`);
    if (typeof op.wgsl !== 'string') throw new Error(`kernel definition: opcodes[${i}].wgsl must be a string`);
  }
  for (const [i, b] of d.buffers.entries()) {
    if (b === null || typeof b !== 'object' || Array.isArray(b)) throw new Error(`kernel definition: buffers[${i}] must be an object, got ${kind(b)}`);
    if (b.words !== undefined && b.words !== null && !Array.isArray(b.words)) throw new Error(`kernel definition: buffers[${i}].words must be an array, got ${kind(b.words)}`);
  }
  d.format = FORMAT;
  return d;
}

// The counts open() reads (wasm/jsapi/open_js.go: maxKernelOpcodes, one
// per user opcode 0x10…0x1f, and maxKernelBuffers), checked before
// anything is drawn.
export const MAX_OPCODES = 16;
export const MAX_BUFFERS = 64;

function kind(v) {
  if (v === null) return 'null';
  return Array.isArray(v) ? 'an array' : typeof v;
}

// openOptions is the part of d that ringscope.open reads, with the page's
// trace (pageTrace: records per submission, 0 for none): a ring the panel
// applies traces as the page's ?trace=N says the live ring does, so its
// hang hunter and timeline work for a kernel too.
export function openOptions(d, trace = 0) {
  const o = { slots: d.slots, tenants: d.tenants, opcodes: d.opcodes, buffers: d.buffers };
  if (d.data) o.data = d.data;
  if (trace > 0) o.trace = { capacity: trace };
  return o;
}

// pageTrace is the trace capacity the page's URL asks for (?trace=N), 0
// when none. The page refuses to start on a trace that is not a whole
// number, so a page that runs has a good one or none.
export function pageTrace(loc) {
  // The page reads it with Go's strconv.Atoi, which takes a sign.
  const v = new URLSearchParams(loc.search).get('trace');
  return v !== null && /^\+?\d+$/.test(v) ? Number(v) : 0;
}

export function stringify(d) {
  return JSON.stringify(d, null, 1);
}

// The #kernel= fragment of a link carries the definition as base64url
// JSON: a fragment is never sent to the server, and the page's CSP allows
// no fetch of data: URLs.
export function toFragment(d) {
  const bytes = new TextEncoder().encode(JSON.stringify(d));
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return 'kernel=' + btoa(bin).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

export function fromFragment(value) {
  const b64 = value.replaceAll('-', '+').replaceAll('_', '/');
  let bin;
  try {
    bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  } catch {
    throw new Error('kernel link: the #kernel= fragment is not base64url');
  }
  return parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
}

// fromLocation loads the definition a URL names: #kernel=<base64url>, or
// ?kernel=NAME (a shipped example) or ?kernel=PATH (a JSON file on this
// server). It resolves to null when the URL names none.
export async function fromLocation(loc, exampleNames, loadExample) {
  const frag = new URLSearchParams(loc.hash.slice(1)).get('kernel');
  if (frag) return fromFragment(frag);
  const q = new URLSearchParams(loc.search).get('kernel');
  if (!q) return null;
  if (exampleNames.includes(q)) return loadExample(q);
  const resp = await fetch(new URL(q, loc.href));
  if (!resp.ok) throw new Error(`kernel=${q}: HTTP ${resp.status}`);
  return parse(await resp.text());
}
