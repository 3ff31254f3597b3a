// The user buffers' contents: readBuffer(name) as a table of words in a
// format (u32, i32, f32 or hex), refreshed on demand (Read) and after each
// Publish & drain. A buffer's contents live on the GPU only, so this is
// the one way to see them without writing code.
import { el, select } from './dom.mjs';

export const FORMATS = ['u32', 'i32', 'f32', 'hex'];

// MAX_WORDS bounds the rows drawn: a buffer may hold millions of words.
const MAX_WORDS = 1024;

// COLUMNS words a row, each row headed by its first word's index.
const COLUMNS = 8;

// formatWord writes word i of view v (a DataView) in format f.
export function formatWord(v, i, f) {
  switch (f) {
    case 'i32': return String(v.getInt32(4 * i, true));
    case 'f32': return String(v.getFloat32(4 * i, true));
    case 'hex': return '0x' + v.getUint32(4 * i, true).toString(16).padStart(8, '0');
  }
  return String(v.getUint32(4 * i, true));
}

export class BufferViewer {
  constructor(api) {
    this.api = api;
    this.bytes = null;
    this.name = select({ 'data-testid': 'kernel-view-buffer', 'aria-label': 'buffer' }, [], '');
    this.format = select({ 'data-testid': 'kernel-view-format', 'aria-label': 'format', onchange: () => this.draw() },
      FORMATS.map((f) => [f, f]), 'u32');
    this.note = el('span', { class: 'muted', 'data-testid': 'kernel-view-note' });
    this.table = el('table', { class: 'kp-words num', 'data-testid': 'kernel-view-words' });
    this.root = el('div', { class: 'kp-viewer' },
      el('div', { class: 'kp-row' }, this.name, this.format,
        el('button', { class: 'btn', 'data-testid': 'kernel-view-read', onclick: () => this.read(), text: 'Read' }), this.note),
      this.table);
  }

  // show offers the buffers of the applied definition.
  show(buffers) {
    const keep = this.name.value;
    this.name.replaceChildren(...buffers.map((b) => el('option', { value: b.name, text: b.name })));
    if (buffers.some((b) => b.name === keep)) this.name.value = keep;
    this.bytes = null;
    this.draw();
  }

  async read() {
    if (!this.name.value) return;
    try {
      this.bytes = await this.api.readBuffer(this.name.value);
    } catch (e) {
      this.bytes = null;
      this.note.textContent = e.message;
      this.table.replaceChildren();
      return;
    }
    this.draw();
  }

  draw() {
    if (!this.bytes) {
      this.table.replaceChildren();
      this.note.textContent = this.name.value ? 'Read shows the buffer as the last submission left it' : 'no user buffers';
      return;
    }
    const v = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    const words = Math.floor(this.bytes.byteLength / 4);
    const shown = Math.min(words, MAX_WORDS);
    const rows = [];
    for (let r = 0; r < shown; r += COLUMNS) {
      const cells = [el('th', { text: String(r) })];
      for (let i = r; i < Math.min(r + COLUMNS, shown); i++) cells.push(el('td', { text: formatWord(v, i, this.format.value) }));
      rows.push(el('tr', {}, cells));
    }
    this.table.replaceChildren(...rows);
    this.note.textContent = `${words.toLocaleString('en-US')} words` + (shown < words ? `, the first ${shown} shown` : '');
  }
}
