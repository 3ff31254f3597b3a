// Small DOM builders: the panel builds its markup with createElement (the
// page's CSP allows no inline script or style, and no innerHTML is needed).

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'text') e.textContent = v;
    else if (k === 'value') e.value = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  e.append(...children.flat().filter((c) => c !== null && c !== undefined));
  return e;
}

export function field(label, input) {
  return el('label', { class: 'kp-field' }, el('span', { text: label }), input);
}

export function select(attrs, options, value) {
  const s = el('select', attrs, options.map(([v, text]) => el('option', { value: v, text })));
  s.value = value;
  return s;
}

// hex writes an opcode number as the docs do: 0x10.
export const hex = (n) => '0x' + Number(n).toString(16);

// number reads an integer input, 0x hex or decimal; NaN when neither.
export function number(text) {
  const t = String(text).trim();
  if (/^0x[0-9a-f]+$/i.test(t)) return parseInt(t, 16);
  if (/^\d+$/.test(t)) return parseInt(t, 10);
  return NaN;
}
