// The Kernel panel: write or paste user opcodes and buffers, apply them
// (ringscope.open), see compile errors inline at the right line, publish
// a workload of them and, for the shipped examples, check the result on
// the host. It is a client of the page's public JS API, like any embedder,
// and lives outside the Vugu dashboard because CodeMirror owns its DOM
// (the dashboard's renderer would reconcile the editor's nodes away).
import { WGSLEditor } from './editor.mjs';
import * as def from './definition.mjs';
import { el, field, select, hex, number } from './dom.mjs';
import { BufferTable } from './buffers.mjs';
import { BufferViewer } from './viewer.mjs';

const ELEMENTS = ['u32', 'i32', 'f32', 'atomic<u32>', 'atomic<i32>'];

class KernelPanel {
  constructor(root, api, examples) {
    this.api = api;
    this.examples = examples;
    this.d = def.blank();
    this.sel = 0; // the opcode the editor shows

    this.preset = select({ 'data-testid': 'kernel-preset', onchange: () => this.loadPreset() },
      [['', 'custom'], ...examples.map((e) => [e.name, e.title])], '');
    this.fileInput = el('input', { type: 'file', accept: '.json,application/json', hidden: true, onchange: () => this.loadFile() });
    this.tabs = el('div', { class: 'kp-tabs', role: 'tablist', 'data-testid': 'kernel-tabs' });
    this.opNumber = el('input', { 'data-testid': 'kernel-opcode-number', size: 6, onchange: () => this.editOpcode() });
    this.opName = el('input', { 'data-testid': 'kernel-opcode-name', size: 16, spellcheck: 'false', onchange: () => this.editOpcode() });
    const editorHost = el('div', { class: 'kp-editor', 'data-testid': 'kernel-editor' });
    this.buffers = new BufferTable(ELEMENTS);
    this.slots = el('input', { 'data-testid': 'kernel-slots', size: 8 });
    this.tenants = el('input', { 'data-testid': 'kernel-tenants', size: 4 });
    this.error = el('pre', { class: 'kp-error', 'data-testid': 'kernel-error', role: 'alert' });
    this.status = el('div', { class: 'kp-status muted', 'data-testid': 'kernel-status', role: 'status' });
    this.about = el('p', { class: 'kp-about muted', 'data-testid': 'kernel-about' });

    this.wOpcode = el('select', { 'data-testid': 'workload-opcode' });
    this.wCount = el('input', { 'data-testid': 'workload-count', size: 8 });
    this.wTenants = el('input', { 'data-testid': 'workload-tenants', size: 4 });
    this.wPriorities = el('input', { 'data-testid': 'workload-priorities', size: 4 });
    this.wArgs = el('input', { 'data-testid': 'workload-args', size: 40, spellcheck: 'false',
      placeholder: 'expressions of i (item index) and n (count): 64*i, min(64, 4096 - 64*i)' });
    this.check = el('div', { class: 'kp-check', 'data-testid': 'kernel-check', role: 'status' });
    this.viewer = new BufferViewer(api);
    this.link = el('input', { class: 'kp-link', 'data-testid': 'kernel-link-out', readonly: true, hidden: true });

    root.append(
      el('h2', { class: 'panel-title', text: 'Kernel: your own opcodes' }),
      el('div', { class: 'kp-row' },
        field('preset', this.preset),
        el('button', { class: 'btn', 'data-testid': 'kernel-load', onclick: () => this.fileInput.click(), text: 'Load JSON…' }),
        el('button', { class: 'btn', 'data-testid': 'kernel-save', onclick: () => this.save(), text: 'Save JSON' }),
        el('button', { class: 'btn', 'data-testid': 'kernel-share', onclick: () => this.share(), text: 'Copy link' }),
        this.fileInput),
      this.link,
      this.about,
      el('div', { class: 'kp-row' }, this.tabs,
        el('button', { class: 'btn', 'data-testid': 'kernel-add-opcode', onclick: () => this.addOpcode(), text: '+ opcode' })),
      el('div', { class: 'kp-row' },
        field('number', this.opNumber), field('name', this.opName),
        el('button', { class: 'btn btn-danger', 'data-testid': 'kernel-remove-opcode', onclick: () => this.removeOpcode(), text: 'remove' })),
      editorHost,
      el('h3', { class: 'kp-sub', text: 'Buffers' }),
      this.buffers.root,
      el('div', { class: 'kp-row' }, field('ring slots', this.slots), field('tenants', this.tenants),
        el('button', { class: 'btn btn-primary', 'data-testid': 'kernel-apply', onclick: () => this.apply(), text: 'Apply' })),
      this.error,
      this.status,
      el('h3', { class: 'kp-sub', text: 'Workload' }),
      el('div', { class: 'kp-row' }, field('opcode', this.wOpcode), field('count', this.wCount),
        field('tenants', this.wTenants), field('priorities', this.wPriorities)),
      el('div', { class: 'kp-row' }, field('args', this.wArgs),
        el('button', { class: 'btn btn-primary', 'data-testid': 'kernel-publish', onclick: () => this.publish(), text: 'Publish & drain' })),
      this.check,
      el('h3', { class: 'kp-sub', text: 'Buffer contents' }),
      this.viewer.root,
    );
    this.editor = new WGSLEditor(editorHost, (text) => {
      if (this.d.opcodes[this.sel]) this.d.opcodes[this.sel].wgsl = text;
    });
    this.show();
  }

  // show puts the definition into every control.
  show() {
    this.sel = Math.min(this.sel, Math.max(this.d.opcodes.length - 1, 0));
    this.renderTabs();
    const op = this.d.opcodes[this.sel];
    this.opNumber.value = op ? hex(op.opcode) : '';
    this.opName.value = op?.name ?? '';
    this.editor.load(op?.wgsl ?? '');
    this.buffers.show(this.d.buffers);
    this.slots.value = this.d.slots ?? 1024;
    this.tenants.value = this.d.tenants ?? 1;
    const w = this.d.workload ?? {};
    this.renderWorkloadOpcodes(w.opcode);
    this.wCount.value = w.count ?? 1;
    this.wTenants.value = w.tenants ?? 1;
    this.wPriorities.value = w.priorities ?? 1;
    this.wArgs.value = (w.args ?? []).join(', ');
    const ex = this.examples.find((e) => e.name === this.d.example);
    const data = Array.isArray(this.d.data) && this.d.data.length > 0
      ? ` The data binding holds ${this.d.data.length.toLocaleString('en-US')} words from the definition.` : '';
    this.about.textContent = (ex ? ex.about : '') + data;
  }

  renderTabs(errors = new Set()) {
    this.tabs.replaceChildren(...this.d.opcodes.map((op, i) => el('button', {
      class: 'kp-tab' + (i === this.sel ? ' kp-tab-on' : '') + (errors.has(i) ? ' kp-tab-error' : ''),
      role: 'tab', 'aria-selected': i === this.sel ? 'true' : 'false', 'data-testid': `kernel-tab-${i}`,
      onclick: () => this.select(i), text: `${op.name || '?'} ${hex(op.opcode)}`,
    })));
  }

  renderWorkloadOpcodes(value) {
    this.wOpcode.replaceChildren(...this.d.opcodes.map((op) => el('option', { value: op.opcode, text: `${op.name} (${hex(op.opcode)})` })));
    if (value !== undefined) this.wOpcode.value = String(value);
  }

  select(i) {
    this.sel = i;
    const op = this.d.opcodes[i];
    this.opNumber.value = hex(op.opcode);
    this.opName.value = op.name;
    this.editor.load(op.wgsl);
    this.renderTabs();
  }

  editOpcode() {
    const op = this.d.opcodes[this.sel];
    if (!op) return;
    const n = number(this.opNumber.value);
    op.opcode = Number.isNaN(n) ? this.opNumber.value : n; // open names a bad one
    const name = this.opName.value.trim();
    if (name !== op.name) {
      // The function is the opcode's name: renaming one renames the other.
      const wgsl = renameFn(op.wgsl, op.name, name);
      if (wgsl !== op.wgsl) {
        op.wgsl = wgsl;
        this.editor.load(wgsl);
      }
      op.name = name;
    }
    this.renderTabs();
    this.renderWorkloadOpcodes(this.wOpcode.value);
  }

  addOpcode() {
    const used = new Set(this.d.opcodes.map((o) => o.opcode));
    let n = 0x10;
    while (used.has(n) && n < 0x1f) n++;
    const name = `op_${n.toString(16)}`;
    this.d.opcodes.push({ opcode: n, name, wgsl: `fn ${name}(slot: u32, args: Args) -> Outcome {\n    return done();\n}\n` });
    this.select(this.d.opcodes.length - 1);
    this.renderWorkloadOpcodes(this.wOpcode.value);
  }

  removeOpcode() {
    if (this.d.opcodes.length === 0) return;
    this.d.opcodes.splice(this.sel, 1);
    this.show();
  }

  // collect reads the form back into the definition.
  collect() {
    this.editOpcode();
    this.d.buffers = this.buffers.read();
    this.d.slots = number(this.slots.value);
    this.d.tenants = number(this.tenants.value);
    this.d.workload = {
      opcode: number(this.wOpcode.value),
      count: number(this.wCount.value),
      tenants: number(this.wTenants.value),
      priorities: number(this.wPriorities.value),
      args: splitArgs(this.wArgs.value),
    };
    return this.d;
  }

  async loadPreset() {
    const name = this.preset.value;
    if (!name) return;
    await this.load(await this.api.example(name), name);
  }

  async load(d, presetName = '') {
    this.d = d;
    this.sel = 0;
    this.preset.value = presetName;
    this.error.textContent = '';
    this.check.textContent = '';
    this.status.textContent = `loaded ${d.title ?? 'a kernel definition'}: ${d.opcodes.length} opcode(s), ${d.buffers.length} buffer(s); Apply to run it`;
    this.show();
  }

  async loadFile() {
    const f = this.fileInput.files[0];
    if (!f) return;
    try {
      await this.load(def.parse(await f.text()));
    } catch (e) {
      this.error.textContent = e.message;
    }
    this.fileInput.value = '';
  }

  save() {
    const blob = new Blob([def.stringify(this.collect())], { type: 'application/json' });
    const a = el('a', { href: URL.createObjectURL(blob), download: `${this.d.opcodes[0]?.name ?? 'kernel'}.kernel.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  }

  async share() {
    const url = new URL(location.href);
    url.search = '';
    url.hash = def.toFragment(this.collect());
    this.link.hidden = false;
    this.link.value = url.href;
    this.link.select();
    try {
      await navigator.clipboard.writeText(url.href);
      this.status.textContent = 'link copied: it opens this kernel, applied';
    } catch {
      this.status.textContent = 'the link is above (the clipboard was refused)';
    }
  }

  // apply opens a ring running the definition's kernel. A refusal changes
  // nothing: the ring that runs keeps running.
  async apply() {
    const d = this.collect();
    this.error.textContent = '';
    this.check.textContent = '';
    this.editor.clearDiagnostics();
    this.renderTabs();
    this.status.textContent = 'compiling…';
    try {
      const r = await this.api.open(def.openOptions(d, def.pageTrace(location)));
      this.applied = { tenants: d.tenants ?? 1 };
      this.status.textContent = `applied: generation ${r.generation}, ${d.opcodes.map((o) => `${o.name} (${hex(o.opcode)})`).join(', ')}`;
      this.viewer.show(d.buffers ?? []);
      return true;
    } catch (e) {
      this.showError(e);
      this.status.textContent = 'not applied: the ring that ran keeps running';
      return false;
    }
  }

  showError(e) {
    this.error.textContent = e.message;
    const diags = Array.isArray(e.diagnostics) ? [...e.diagnostics] : [];
    // A declaration refused at a line of an opcode's WGSL (a binding or
    // an override there) is marked as a compile error is.
    if (/^opcodes\[\d+\]\.wgsl$/.test(e.field ?? '') && e.line > 0) {
      diags.push({ field: e.field, line: e.line, column: 1, type: 'error', message: e.message });
    }
    const bad = new Set();
    for (const d of diags) {
      const m = /^opcodes\[(\d+)\]/.exec(d.field ?? '');
      if (m) bad.add(Number(m[1]));
    }
    const first = [...bad][0];
    if (first !== undefined && first !== this.sel) this.select(first);
    this.renderTabs(bad);
    // A pipeline's error has no line (0): its opcode's tab is marked, no line.
    this.editor.showDiagnostics(diags.filter((d) => d.field === `opcodes[${this.sel}].wgsl` && d.line > 0));
  }

  async publish() {
    const w = this.collect().workload;
    this.check.textContent = '';
    this.error.textContent = '';
    // Items of a tenant the ring does not run would wait forever (their
    // mask is off): say so before publishing.
    if (this.applied && w.tenants > this.applied.tenants) {
      this.error.textContent = `workload.tenants ${w.tenants}: the ring was applied with ${this.applied.tenants} tenant(s); set ring tenants and Apply`;
      return;
    }
    try {
      const n = await this.api.publishWorkload(w);
      this.status.textContent = drainStatus(n, await this.api.drain({ maxSubmissions: 64 }));
      if (this.d.example) await this.runCheck(this.d.example);
      if (this.viewer.bytes) await this.viewer.read();
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  async runCheck(name) {
    const r = await this.api.checkExample(name);
    this.check.dataset.ok = r.ok ? 'true' : 'false';
    this.check.replaceChildren(
      el('b', { text: r.ok ? '✓ verified on the host: ' : '✗ differs from the host: ' }), r.summary,
      ...(r.wrong ?? []).map((w) => el('div', { class: 'kp-wrong', text: w })));
  }
}

// renameFn renames the function from to to in wgsl: its declaration
// (fn from(…)) and its calls (from(…), a recursive helper's); a name that
// is not a WGSL identifier leaves the source as it is (open refuses it).
export function renameFn(wgsl, from, to) {
  const ident = /^[A-Za-z_][A-Za-z0-9_]*$/;
  if (!ident.test(from ?? '') || !ident.test(to)) return wgsl;
  return wgsl.replace(new RegExp(`\\b${from}(?=\\s*\\()`, 'g'), to);
}

// splitArgs splits the args field at the commas outside parentheses:
// "64*i, min(64, 4000 - 64*i)" is two expressions.
export function splitArgs(text) {
  const out = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if ((c === ',' && depth === 0) || i === text.length) {
      const part = text.slice(start, i).trim();
      if (part !== '') out.push(part);
      start = i + 1;
    }
  }
  return out;
}

// waitForAPI resolves to the page's ringscope object once main.wasm has
// defined it and it is ready; it rejects as ready does (no WebGPU).
async function waitForAPI() {
  while (!globalThis.ringscope) await new Promise((r) => setTimeout(r, 50));
  await globalThis.ringscope.ready;
  return globalThis.ringscope;
}

async function main() {
  const root = document.querySelector('[data-testid="kernel-panel"]');
  const toggle = document.querySelector('[data-testid="kernel-toggle"]');
  if (!root || !toggle) return;
  toggle.addEventListener('click', () => {
    root.hidden = !root.hidden;
    toggle.setAttribute('aria-expanded', String(!root.hidden));
  });
  let api;
  try {
    api = await waitForAPI();
  } catch {
    toggle.disabled = true; // no WebGPU: the page says why in its status
    return;
  }
  const panel = new KernelPanel(root, api, await api.examples());
  globalThis.ringscopeKernelPanel = panel; // for the console and tests
  try {
    const d = await def.fromLocation(location, panel.examples.map((e) => e.name), (n) => api.example(n));
    if (d) {
      root.hidden = false;
      toggle.setAttribute('aria-expanded', 'true');
      await panel.load(d, panel.examples.some((e) => e.name === d.example) ? d.example : '');
      await panel.apply();
    }
  } catch (e) {
    root.hidden = false;
    panel.error.textContent = e.message;
  }
}

main();

// drainStatus says what Publish & drain did: the counts, and when the
// drain stopped short of an empty ring or the verdict names a cause, how
// it ended and the first cause with its fix (a user who only reads the
// panel learns why their work did not finish).
function drainStatus(n, { outcome, telemetry, diagnosis }) {
  const counts = `DONE_COUNT ${telemetry.control.doneCount}, FAULTS ${telemetry.control.faults}`;
  let text = outcome === 'empty' ? `published ${n} items; drained: ${counts}` : `published ${n} items; drain stopped (${outcome}): ${counts}`;
  const cause = diagnosis?.causes?.[0];
  if (cause) text += `; ${diagnosis.health}: ${cause.kind} — ${cause.fix}`;
  return text;
}
