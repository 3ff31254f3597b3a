// The kit's checks of what its user passes (kit.mjs): options by name, as
// the library checks its own, the ringscopeLabels fixture option, and a
// matcher's received value. Each failure says what was given and what is
// wanted, where a silent default would wait forever or watch the wrong
// buffer.

// show prints a value as an option error names it.
export const show = (v) => (typeof v === 'string' ? JSON.stringify(v) : typeof v === 'number' || v == null ? String(v)
  : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

// near is the closest known option name to a misspelt one (edit distance
// at most 2), for "did you mean".
function near(name, known) {
  const dist = (a, b) => {
    const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
    for (let j = 1; j <= b.length; j++) d[0][j] = j;
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) {
        d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      }
    }
    return d[a.length][b.length];
  };
  return known.map((k) => [k, dist(name.toLowerCase(), k.toLowerCase())]).filter(([, n]) => n <= 2).sort((a, b) => a[1] - b[1])[0]?.[0];
}

// options checks the kit's own options, as the library checks its own
// (every method rejects an unknown option by name): an object (or
// nothing) of the known names only, each a finite number of milliseconds
// >= 0 ('ms'), a whole count >= 1 ('count') or a boolean. A misspelt or misplaced
// option, or a NaN or negative wait, would otherwise be ignored or wait
// forever. hints say where an option the method does not take belongs.
export function checkOptions(where, opts, kinds, hints = {}) {
  if (opts === undefined) return {};
  const known = Object.keys(kinds);
  const like = known.length ? `{ ${known.map((k) => `${k}: …`).join(', ')} }` : 'nothing';
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts)) {
    throw new TypeError(`${where}: the options must be ${known.length ? `an object, ${like}` : 'left out'}, not ${show(opts)}`);
  }
  for (const k of Object.keys(opts)) {
    if (k in kinds) continue;
    const guess = near(k, known);
    throw new TypeError(`${where}: unknown option ${JSON.stringify(k)}` +
      `${hints[k] ? ` (${hints[k]})` : guess ? ` (did you mean ${JSON.stringify(guess)}?)` : ''}; ` +
      `${known.length ? `the options are ${known.join(', ')}` : 'it takes no options'}`);
  }
  for (const [k, kind] of Object.entries(kinds)) {
    const v = opts[k];
    if (v === undefined) continue;
    if (kind === 'ms' && !(typeof v === 'number' && Number.isFinite(v) && v >= 0)) {
      throw new TypeError(`${where}: ${k} must be a finite number of milliseconds >= 0, not ${show(v)}`);
    }
    if (kind === 'count' && !(Number.isInteger(v) && v >= 1)) {
      throw new TypeError(`${where}: ${k} must be a whole number >= 1, not ${show(v)}`);
    }
    if (kind === 'boolean' && typeof v !== 'boolean') {
      throw new TypeError(`${where}: ${k} must be true or false, not ${show(v)}`);
    }
  }
  return opts;
}

// LABEL_ROLES are the roles ringscopeLabels names: control and ring a
// label each, log one or none.
export const LABEL_ROLES = ['control', 'ring', 'log'];

// checkLabels says what is wrong with a ringscopeLabels option, or
// nothing: a role with no string label would record every buffer with
// no label (desc.label undefined) as that role.
export function checkLabels(labels) {
  const where = 'ringscope fixture: the ringscopeLabels option';
  if (labels === null || typeof labels !== 'object' || Array.isArray(labels)) {
    return `${where} must be an object, { control: '…', ring: '…', log: '…' }, not ${show(labels)}`;
  }
  for (const k of Object.keys(labels)) {
    if (LABEL_ROLES.includes(k)) continue;
    const guess = near(k, LABEL_ROLES);
    return `${where} has an unknown role ${JSON.stringify(k)}${guess ? ` (did you mean ${JSON.stringify(guess)}?)` : ''}; the roles are ${LABEL_ROLES.join(', ')}`;
  }
  for (const role of LABEL_ROLES) {
    const v = labels[role];
    if (role === 'log' && v === undefined) continue;
    if (typeof v !== 'string' || v === '') {
      return `${where} needs ${role} as the label of your ${role} buffer, a non-empty string, not ${show(v)} ` +
        '(test.use replaces the whole object: give control and ring, and log if your app has one)';
    }
  }
  return '';
}

// receiver checks what a matcher was given: the ringscope fixture.
export function receiver(name, handle) {
  if (handle && typeof handle.snapshot === 'function' && handle.page) return;
  throw new TypeError(`expect(received).${name}(): received must be the ringscope fixture ` +
    `(test('…', async ({ page, ringscope }) => { …; await expect(ringscope).${name}(); })), not ${show(handle)}`);
}
