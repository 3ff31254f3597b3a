// The Kernel panel's buffer table: one row a user buffer (name, access,
// element, size in bytes, initial words). Initial words come from a
// definition (a preset, a file, a link) or are typed as a list; a buffer
// without them starts zeroed.
import { el, select, number } from './dom.mjs';

// maxTypedWords bounds the words shown for editing: longer contents (a
// preset's input) are kept as they are and summarised.
const maxTypedWords = 64;

export class BufferTable {
  constructor(elements) {
    this.elements = elements;
    this.rows = [];
    this.body = el('tbody');
    this.root = el('div', { class: 'kp-buffers' },
      el('table', { class: 'data', 'data-testid': 'kernel-buffers' },
        el('thead', {}, el('tr', {}, ['name', 'access', 'element', 'size (bytes)', 'initial words', ''].map((h) => el('th', { text: h })))),
        this.body),
      el('button', { class: 'btn', 'data-testid': 'kernel-add-buffer', onclick: () => this.add(), text: '+ buffer' }));
  }

  show(buffers) {
    this.rows = buffers.map((b) => this.#row(b));
    this.body.replaceChildren(...this.rows.map((r) => r.tr));
  }

  add() {
    const r = this.#row({ name: `buf${this.rows.length}`, access: 'read_write', element: 'u32', size: 64 });
    this.rows.push(r);
    this.body.append(r.tr);
  }

  #row(b) {
    const r = { words: b.words ?? null };
    r.name = el('input', { value: b.name ?? '', size: 12, spellcheck: 'false', 'aria-label': 'name' });
    r.access = select({ 'aria-label': 'access' }, [['read', 'read'], ['read_write', 'read_write']], b.access ?? 'read');
    r.element = select({ 'aria-label': 'element' }, this.elements.map((e) => [e, e]), b.element || 'u32');
    r.size = el('input', { value: b.size ?? '', size: 10, 'aria-label': 'size' });
    const long = r.words && r.words.length > maxTypedWords;
    r.init = el('input', {
      size: 18, spellcheck: 'false', 'aria-label': 'initial words',
      value: long ? '' : (r.words ?? []).join(','),
      placeholder: long ? `${r.words.length.toLocaleString('en-US')} words from the definition` : 'zero',
      title: 'comma-separated u32 words; empty keeps what the definition gave (or zero)',
    });
    r.tr = el('tr', {},
      el('td', {}, r.name), el('td', {}, r.access), el('td', {}, r.element), el('td', {}, r.size), el('td', {}, r.init),
      el('td', {}, el('button', { class: 'btn btn-danger', text: '×', 'aria-label': 'remove buffer', onclick: () => this.#remove(r) })));
    return r;
  }

  #remove(r) {
    this.rows = this.rows.filter((x) => x !== r);
    r.tr.remove();
  }

  // read returns the buffers as open's options spell them. A size or word
  // that is not a number goes to open as it is, so its refusal names it.
  read() {
    return this.rows.map((r) => {
      const b = { name: r.name.value.trim(), access: r.access.value, element: r.element.value };
      // An empty size is open()'s default, the initial words' length, as
      // in a definition without one.
      const size = number(r.size.value);
      if (r.size.value.trim() !== '') b.size = Number.isNaN(size) ? r.size.value : size;
      const typed = r.init.value.trim();
      if (typed !== '') b.words = typed.split(',').map((w) => number(w));
      else if (r.words) b.words = r.words;
      return b;
    });
  }
}
