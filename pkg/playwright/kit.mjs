// The kit of ringscope/playwright (index.mjs binds it to @playwright/test):
// assert on your own WebGPU app's ring from your own
// Playwright suite, without changing the app (pkg/README.md).
//
//   import { test, expect } from 'ringscope/playwright';
//   test('the queue drains', async ({ page, ringscope }) => {
//     await page.goto('/');                       // your app creates its buffers
//     await ringscope.attach();                   // found by label: control, ring, log
//     await expect(ringscope).toBeHealthy();
//   });
//
// The fixture's init script wraps GPUDevice.prototype.createBuffer before
// the app runs: a buffer whose label is one of ringscopeLabels is recorded
// (with its device) and gets COPY_SRC added to its usage, which ringscope
// needs to read it. attach() then loads ringscope's module into the page
// (served from this package by a route, /__ringscope__/…) and attaches an
// instance to those buffers; or the app (or the test) hands them over:
// window.ringscopeKit.use({device, control, ring, log}).
//
// The matchers (expect.extend; matchers for mergeExpects) are built on the
// diagnosis (docs/DIAGNOSIS.md): a failure prints its health and each
// cause's kind, subject, evidence and fix.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { show, checkOptions, checkLabels, receiver } from './options.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const ROUTE = '/__ringscope__/';
const TYPES = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };

// capture runs in the page before its scripts: it records the labelled
// buffers and offers ringscopeKit.use for an explicit hand-over. It also
// keeps the labels it was given and the first labels the page created
// (seen), so that attach() can tell a label mismatch from an app that is
// slow to start.
function capture(labels) {
  const found = {};
  const seen = [];
  const roles = Object.fromEntries(Object.entries(labels).map(([role, label]) => [label, role]));
  globalThis.ringscopeKit = { found, seen, labels, webgpu: typeof GPUDevice !== 'undefined', use(buffers) { Object.assign(found, buffers); } };
  if (typeof GPUDevice === 'undefined') return;
  const create = GPUDevice.prototype.createBuffer;
  GPUDevice.prototype.createBuffer = function (desc) {
    const label = desc?.label ?? '';
    if (seen.length < 32 && !seen.includes(label)) seen.push(label); // bounded: an app may create thousands
    const role = desc && roles[desc.label];
    if (role) desc = { ...desc, usage: desc.usage | GPUBufferUsage.COPY_SRC };
    const b = create.call(this, desc);
    if (role) {
      found[role] = b;
      found.device ??= this;
    }
    return b;
  };
}

// missing explains why attach() found no buffers, from what capture saw:
// the labels looked for, which roles it has, the labels the page did
// create, and the two ways to fix it.
function missing(kit, timeout) {
  if (!kit) {
    return `ringscope.attach(): the page has no window.ringscopeKit after ${timeout} ms: the fixture's init script runs at ` +
      'each navigation, so call attach() after page.goto() (and use the ringscope fixture of the same test)';
  }
  const wanted = Object.entries(kit.labels).map(([role, label]) => `${role} ${JSON.stringify(label)}`).join(', ');
  const roles = ['device', 'control', 'ring'];
  const has = roles.filter((r) => kit.found[r]);
  const lacks = roles.filter((r) => !kit.found[r]);
  const created = !kit.webgpu ? 'The page has no WebGPU (GPUDevice is undefined), so it created no buffer.'
    : kit.seen.length === 0 ? 'The page created no GPUBuffer (or created them where the init script cannot see: a worker).'
      : `The page created GPUBuffers labelled ${kit.seen.map((l) => (l === '' ? '(no label)' : JSON.stringify(l))).join(', ')}.`;
  return `ringscope.attach(): no buffers with the labels looked for (${wanted}) in ${timeout} ms: ` +
    `found ${has.length ? has.join(', ') : 'none'}, missing ${lacks.join(', ')}. ${created} ` +
    "Give the fixture your buffers' labels, test.use({ ringscopeLabels: { control: '…', ring: '…', log: '…' } }), " +
    'or hand the buffers over in the page: window.ringscopeKit.use({ device, control, ring, log }).';
}

// NoFrame is snapshot()'s rejection when the frames it waits for do not
// come; the matchers turn it into a failure (fresh).
class NoFrame extends Error {}

// The waits' defaults stay this far inside the test's timeout, so that
// they fail with their own message rather than the test's bare timeout.
const TEST_MARGIN = 2_000;

// noMoreFrames says why snapshot() gave up at once: in a state other than
// "attached" the attachment reads no more frames, and waiting out the
// timeout (5 s per matcher read) would only delay the same failure.
function noMoreFrames(now, read, wanted) {
  const why = now.state === 'ended' ? `the attachment has ended${now.reason ? `: ${now.reason}` : ''}`
    : now.state === 'disposed' ? 'the instance was disposed'
      : `the attachment is ${now.state}`;
  return `ringscope.snapshot(): no more frames will come: ${why} ` +
    `(read ${read} of the ${wanted} frames waited for; ${now.frames ?? 0} frames since attach, state ${now.state})`;
}

/** A handle on the ringscope instance attached to the page's ring. */
export class RingscopeHandle {
  /**
   * page is the test's page; testInfo (the fixture gives it) bounds the
   * default waits by the test's own timeout; labels are ringscopeLabels.
   */
  constructor(page, { testInfo, labels } = {}) {
    this.page = page;
    this.testInfo = testInfo;
    this.labels = labels;
    this.started = Date.now();
  }

  // wait is a default wait of ms, cut to what the test's timeout leaves
  // (less a margin), so that it ends with its own explanation first.
  wait(ms) {
    const t = this.testInfo?.timeout;
    if (!t) return ms; // no testInfo, or no test timeout (0)
    return Math.max(500, Math.min(ms, t - (Date.now() - this.started) - TEST_MARGIN));
  }

  /**
   * attach waits until the page has its device, control and ring (by
   * label, or handed over), then attaches an instance to them, running.
   * options are attach's (docs/OPTIONS.md) besides the buffers.
   */
  async attach(options = {}, wait = undefined) {
    options = options ?? {};
    if (typeof options !== 'object' || Array.isArray(options)) {
      throw new TypeError(`ringscope.attach(): the options must be an object of attach's options (docs/OPTIONS.md), not ${show(options)}; ` +
        'the wait is the second argument: attach({}, { timeout })');
    }
    if ('timeout' in options) {
      throw new TypeError('ringscope.attach(): timeout is no attach option: the wait for the buffers is the second argument, ' +
        `attach(${Object.keys(options).length > 1 ? '{ … }' : '{}'}, { timeout: ${show(options.timeout)} })`);
    }
    for (const k of ['device', 'control', 'ring', 'log']) {
      if (k in options) {
        throw new TypeError(`ringscope.attach(): ${k} is found by its label (ringscopeLabels) or handed over in the page ` +
          '(window.ringscopeKit.use({ device, control, ring, log })), not passed to attach()');
      }
    }
    const bad = this.labels === undefined ? '' : checkLabels(this.labels);
    if (bad) throw new TypeError(bad);
    let { timeout } = checkOptions(`ringscope.attach()`, wait, { timeout: 'ms' });
    timeout ??= this.wait(30_000);
    // The predicate is synchronous: waitForFunction waits for a truthy
    // value, and a Promise is one.
    await this.page.waitForFunction(() => {
      const f = globalThis.ringscopeKit?.found;
      return !!(f && f.device && f.control && f.ring);
    }, null, { timeout }).catch(async (err) => {
      // A bare timeout does not say that the labels did not match: name
      // what was looked for and what the page has.
      if (err?.name !== 'TimeoutError') throw err;
      const kit = await this.page.evaluate(() => {
        const k = globalThis.ringscopeKit;
        return k && { labels: k.labels ?? {}, seen: k.seen ?? [], webgpu: k.webgpu, found: Object.fromEntries(Object.keys(k.found).map((r) => [r, !!k.found[r]])) };
      });
      throw new Error(missing(kit, timeout), { cause: err });
    });
    await this.page.evaluate(async ([route, opts]) => {
      const { createRingscope } = await import(`${route}create-ringscope.mjs`);
      const { device, control, ring, log } = globalThis.ringscopeKit.found;
      // attach() again replaces the instance: the one before would go on
      // reading the same buffers, unseen, for the rest of the test.
      const before = globalThis.ringscopeKit.instance;
      globalThis.ringscopeKit.instance = undefined;
      await before?.dispose()?.catch?.(() => {});
      globalThis.ringscopeKit.instance = await createRingscope({
        attach: { device, control, ring, ...(log ? { log } : {}), ...opts },
        autostart: true,
      });
    }, [ROUTE, options]);
  }

  /**
   * The instance's snapshot (docs/EMBEDDING.md), once the attachment has
   * read frames more frames since the call (1 by default: never a stale
   * snapshot, nor one from before the first frame). It rejects after
   * timeout ms, saying how many frames it saw, and at once when no frame
   * can come: the attachment has ended (attachInfo()'s state "ended": a
   * destroyed buffer, a lost device, a copy that never completed) or was
   * detached, or the instance was disposed. slots and trace are the
   * instance's snapshot options (docs/OPTIONS.md), passed on.
   */
  async snapshot(opts) {
    let { frames = 1, timeout, ...read } = checkOptions('ringscope.snapshot()', opts,
      { frames: 'count', timeout: 'ms', slots: 'boolean', trace: 'boolean' });
    timeout ??= this.wait(30_000);
    // Polled from here: page.evaluate awaits attachInfo()'s Promise, where
    // page.waitForFunction would take the Promise itself as truthy and
    // return at once.
    const info = () => this.page.evaluate(async () => {
      const i = globalThis.ringscopeKit?.instance;
      if (!i) return null;
      const { frames: n, state, reason } = await i.attachInfo().catch(() => ({ state: 'disposed' }));
      return { frames: n, state, reason };
    });
    const end = Date.now() + timeout;
    const first = await info();
    if (!first) {
      throw new Error('ringscope.snapshot(): nothing attached: call ringscope.attach() first ' +
        '(after page.goto(); a navigation or ringscope.dispose() ends the attachment)');
    }
    let now = first;
    // Written so that no count (a disposed instance's) waits: it reads as
    // not enough, and the state check below says why.
    while (!(now.frames - (first.frames ?? 0) >= frames)) {
      if (now.state !== 'attached') throw new NoFrame(noMoreFrames(now, Math.max(0, (now.frames ?? 0) - (first.frames ?? 0)), frames));
      if (Date.now() >= end) {
        throw new NoFrame(`ringscope.snapshot(): the attachment read ${now.frames - first.frames} of the ${frames} frames ` +
          `waited for in ${timeout} ms (${now.frames} frames since attach, state ${now.state})`);
      }
      await new Promise((r) => setTimeout(r, 100));
      now = (await info()) ?? { ...now, state: 'disposed', reason: undefined };
    }
    // The instance's own options (slots, trace: docs/OPTIONS.md) go to it.
    return this.page.evaluate((o) => globalThis.ringscopeKit.instance.snapshot(o), read);
  }

  /** Disposes the attached instance; attach() may attach again. */
  async dispose() {
    await this.page.evaluate(async () => {
      const k = globalThis.ringscopeKit;
      const i = k?.instance;
      if (k) k.instance = undefined;
      await i?.dispose();
    }).catch(() => {});
  }
}

/** describe prints a diagnosis as the failure messages show it. */
export function describe(d) {
  if (!d) return 'no diagnosis yet (no frame read)';
  const lines = [`health: ${d.health}`];
  for (const c of d.causes) {
    const subject = Object.entries(c.subject ?? {}).map(([k, v]) => `${k} ${v}`).join(', ');
    const evidence = Object.entries(c.evidence ?? {}).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${v}`).join(', ');
    lines.push(`- ${c.kind}${subject ? ` (${subject})` : ''}: ${evidence}`, `  fix: ${c.fix}`);
  }
  if (d.causes.length === 0) lines.push('no cause');
  return lines.join('\n');
}

// fresh is the matchers' read: the snapshot after one more frame. Where
// none comes in timeout ms (a lost device or a stuck submission reads
// nothing back, docs/EMBEDDING.md), or none can (the attachment ended: at
// once), it is the last snapshot, whose verdict is given anew (health
// lost), with why under NO_FRAME: every matcher fails on it, for no frame
// proves nothing.
const NO_FRAME = Symbol('no frame');
async function fresh(handle, timeout = 5_000) {
  try {
    return await handle.snapshot({ timeout });
  } catch (err) {
    if (!(err instanceof NoFrame)) throw err;
    // A disposed instance has no snapshot to give: no diagnosis, then.
    const s = await handle.page.evaluate(() => globalThis.ringscopeKit?.instance?.snapshot()).catch(() => null);
    return { ...(s ?? {}), [NO_FRAME]: err.message };
  }
}

// watch re-reads the snapshot for within ms and returns the first that
// fails check, or the last: a verdict needs the watchdog's intervals to
// form, so one early healthy frame proves nothing.
async function watch(handle, check, within) {
  const end = Date.now() + within;
  for (;;) {
    // Each read waits for a frame of its own, so every frame's verdict is
    // seen; a frame with no verdict yet is none: read again.
    const s = await fresh(handle);
    if (s[NO_FRAME] || (s.diagnosis && !check(s)) || Date.now() >= end) return s;
  }
}

// result is a matcher's answer: pass in the positive sense (Playwright
// inverts it under .not).
// With no frame read (NO_FRAME) it fails in both senses: nothing was
// read, so neither the claim nor its negation is shown.
function result(ctx, name, ok, what, s) {
  if (s[NO_FRAME] && ctx.isNot) what = 'no frame was read, which shows neither';
  return {
    pass: s[NO_FRAME] ? !!ctx.isNot : ok,
    name,
    message: () => `expect(ringscope).${ctx.isNot ? 'not.' : ''}${name}(): ${what}` +
      `${s[NO_FRAME] ? `\n${s[NO_FRAME]}` : ''}\n\n${describe(s.diagnosis)}`,
  };
}

const healthy = (s) => !s[NO_FRAME] && !!s.diagnosis && ['idle', 'progressing'].includes(s.diagnosis.health) && s.diagnosis.causes.length === 0;
const faults = (s) => s.telemetry?.control?.faults ?? 0;
const faultRecords = (s) => (s.log?.records ?? []).filter((r) => r.name && r.name !== 'PRINTF');
// queuedBy counts the slots that hold work, by status: the active statuses
// of docs/PROTOCOL.md §3 (decode's ActiveSlots), not only PUBLISHED and
// CLAIMED: work parked in WAIT_IO, YIELD or REQUEUE is queued all the same,
// and a ring of nothing else is stalled. Statuses with no slot are left out.
const STATUS_NAMES = { published: 'PUBLISHED', claimed: 'CLAIMED', waitIO: 'WAIT_IO', yield: 'YIELD', requeue: 'REQUEUE' };
const queuedBy = (s) => Object.fromEntries(Object.keys(STATUS_NAMES)
  .map((k) => [k, s.telemetry?.occupancy?.[k] ?? 0]).filter(([, n]) => n > 0));

// A matcher's wait is within: Playwright's timeout option is not its.
const WITHIN_HINTS = { timeout: 'the matcher watches the ring for within ms; Playwright\'s timeout is no option of it' };

/** The matchers, for expect.extend or mergeExpects. */
export const matchers = {
  /**
   * The diagnosis stays idle or progressing, with no cause, for within
   * ms (long enough for the watchdog's intervals, at the attachment's
   * pace); it fails at the first frame that is not.
   */
  async toBeHealthy(handle, opts) {
    receiver('toBeHealthy', handle);
    const { within = 6_000 } = checkOptions('expect(ringscope).toBeHealthy()', opts, { within: 'ms' }, WITHIN_HINTS);
    const s = await watch(handle, healthy, within);
    return result(this, 'toBeHealthy', healthy(s), this.isNot ? `the ring stayed healthy for ${within} ms` : 'the ring is not healthy', s);
  },
  /** FAULTS is 0 and the log has no fault record. */
  async toHaveNoFaults(handle, opts) {
    receiver('toHaveNoFaults', handle);
    checkOptions('expect(ringscope).toHaveNoFaults()', opts, {});
    let s = await fresh(handle);
    const ok = !s[NO_FRAME] && faults(s) === 0 && faultRecords(s).length === 0;
    // Under .not a failing read passes: no message to wait for.
    if (this.isNot && !ok) return result(this, 'toHaveNoFaults', ok, `FAULTS is ${faults(s)}`, s);
    // A failure prints the diagnosis: give its cause the frames it needs
    // to form (a cause holds two in a row) when the first read has none.
    if (!ok && !s[NO_FRAME]) s = await watch(handle, (x) => !x.diagnosis?.causes?.length, 2_000);
    const recs = faultRecords(s).slice(0, 5).map((r) => `  ${r.name}: ${r.text}`).join('\n');
    return result(this, 'toHaveNoFaults', ok, `FAULTS is ${faults(s)}${recs ? `; the log:\n${recs}` : ''}`, s);
  },
  /**
   * Every item was claimed at most once: each partition's HEAD ≤ TAIL,
   * CLAIMS ≤ the items published, and no BAD_STATE fault (a second claim
   * of a slot faults BAD_STATE, docs/PROTOCOL.md §3).
   */
  async toDrainExactlyOnce(handle, opts) {
    receiver('toDrainExactlyOnce', handle);
    checkOptions('expect(ringscope).toDrainExactlyOnce()', opts, {});
    const s = await fresh(handle);
    const c = s.telemetry?.control ?? {};
    const heads = c.heads ?? [], tails = c.tails ?? [];
    const published = tails.reduce((a, b) => a + b, 0);
    const over = heads.findIndex((h, p) => h > tails[p]);
    const badState = faultRecords(s).filter((r) => r.name === 'BAD_STATE').length;
    const ok = !s[NO_FRAME] && over < 0 && (c.claims ?? 0) <= published && badState === 0;
    const why = over >= 0 ? `HEAD[${over}] ${heads[over]} passed TAIL ${tails[over]}`
      : badState ? `${badState} BAD_STATE faults (a slot claimed twice)` : `CLAIMS ${c.claims} of ${published} published`;
    return result(this, 'toDrainExactlyOnce', ok, why, s);
  },
  /**
   * DONE_COUNT moves within `within` ms whenever work is queued (a slot in
   * an active status: PUBLISHED, CLAIMED, WAIT_IO, YIELD or REQUEUE), and
   * neither the verdict (health stalled) nor the watchdog says stalled.
   */
  async toNotStall(handle, opts) {
    receiver('toNotStall', handle);
    const { within = 2_000 } = checkOptions('expect(ringscope).toNotStall()', opts, { within: 'ms' }, WITHIN_HINTS);
    const a = await fresh(handle);
    // No frame now, none later: the failure is known without the wait.
    if (!a[NO_FRAME]) await new Promise((r) => setTimeout(r, within));
    const b = a[NO_FRAME] ? a : await fresh(handle);
    const by = queuedBy(b);
    const queued = Object.values(by).reduce((x, y) => x + y, 0);
    const [from, to] = [a.telemetry?.control?.doneCount, b.telemetry?.control?.doneCount];
    const moved = to !== from;
    const health = b.diagnosis?.health ?? 'unknown';
    const stalled = health === 'stalled' || !!b.watchdog?.stalled;
    const ok = !b[NO_FRAME] && !stalled && (moved || queued === 0);
    const kinds = (b.diagnosis?.causes ?? []).map((c) => c.kind).join(', ');
    const statuses = Object.entries(by).map(([k, n]) => `${n} ${STATUS_NAMES[k]}`).join(', ');
    const what = `${moved ? `DONE_COUNT moved from ${from} to ${to}` : `DONE_COUNT stayed ${to}`} in ${within} ms ` +
      `with ${queued} slots queued${statuses ? ` (${statuses})` : ''}; health ${health}${kinds ? ` (${kinds})` : ''}` +
      `${b.watchdog?.stalled ? `; the watchdog says stalled for ${Math.round(b.watchdog.stalledForMillis ?? 0)} ms` : ''}`;
    return result(this, 'toNotStall', ok, what, b);
  },
};

/**
 * kit extends a Playwright test and expect (the user's own, or
 * @playwright/test's: index.mjs) with the ringscope fixture and matchers.
 */
export function kit(base, baseExpect) {
  return { test: base.extend(fixtures), expect: baseExpect.extend(matchers) };
}

const fixtures = {
  /** Where ringscope's files are (this package's root). */
  ringscopeAssets: [packageDir, { option: true }],
  /** The buffer labels the init script looks for, by role. */
  ringscopeLabels: [{ control: 'control', ring: 'ring', log: 'log' }, { option: true }],
  ringscope: async ({ page, ringscopeAssets, ringscopeLabels }, use, testInfo) => {
    await page.route(`**${ROUTE}**`, async (route) => {
      const name = path.basename(new URL(route.request().url()).pathname);
      try {
        const body = await readFile(path.join(ringscopeAssets, name));
        await route.fulfill({ body, contentType: TYPES[path.extname(name)] ?? 'application/octet-stream' });
      } catch {
        await route.fulfill({ status: 404, body: `ringscope/playwright: no ${name} in ${ringscopeAssets}` });
      }
    });
    await page.addInitScript(capture, ringscopeLabels);
    const handle = new RingscopeHandle(page, { testInfo, labels: ringscopeLabels });
    await use(handle);
    await handle.dispose();
  },
};
