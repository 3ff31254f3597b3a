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

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const ROUTE = '/__ringscope__/';
const TYPES = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };

// capture runs in the page before its scripts: it records the labelled
// buffers and offers ringscopeKit.use for an explicit hand-over.
function capture(labels) {
  const found = {};
  const roles = Object.fromEntries(Object.entries(labels).map(([role, label]) => [label, role]));
  globalThis.ringscopeKit = { found, use(buffers) { Object.assign(found, buffers); } };
  if (typeof GPUDevice === 'undefined') return;
  const create = GPUDevice.prototype.createBuffer;
  GPUDevice.prototype.createBuffer = function (desc) {
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

/** A handle on the ringscope instance attached to the page's ring. */
export class RingscopeHandle {
  constructor(page) {
    this.page = page;
  }

  /**
   * attach waits until the page has its device, control and ring (by
   * label, or handed over), then attaches an instance to them, running.
   * options are attach's (docs/OPTIONS.md) besides the buffers.
   */
  async attach(options = {}, { timeout = 30_000 } = {}) {
    await this.page.waitForFunction(() => {
      const f = globalThis.ringscopeKit?.found;
      return f && f.device && f.control && f.ring;
    }, null, { timeout });
    await this.page.evaluate(async ([route, opts]) => {
      const { createRingscope } = await import(`${route}create-ringscope.mjs`);
      const { device, control, ring, log } = globalThis.ringscopeKit.found;
      globalThis.ringscopeKit.instance = await createRingscope({
        attach: { device, control, ring, ...(log ? { log } : {}), ...opts },
        autostart: true,
      });
    }, [ROUTE, options]);
  }

  /** The instance's snapshot (docs/EMBEDDING.md), after at least frames frames. */
  async snapshot({ frames = 3, timeout = 30_000 } = {}) {
    await this.page.waitForFunction(async (n) => (await globalThis.ringscopeKit.instance.attachInfo()).frames >= n,
      frames, { timeout, polling: 100 });
    return this.page.evaluate(() => globalThis.ringscopeKit.instance.snapshot());
  }

  async dispose() {
    await this.page.evaluate(() => globalThis.ringscopeKit?.instance?.dispose()).catch(() => {});
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

// watch re-reads the snapshot for within ms and returns the first that
// fails check, or the last: a verdict needs the watchdog's intervals to
// form, so one early healthy frame proves nothing.
async function watch(handle, check, within) {
  const end = Date.now() + within;
  for (;;) {
    const s = await handle.snapshot();
    // No frame read yet (an attachment's first copy still in flight) is
    // no verdict: read again.
    if ((s.diagnosis && !check(s)) || Date.now() >= end) return s;
    await new Promise((r) => setTimeout(r, 250));
  }
}

// result is a matcher's answer: pass in the positive sense (Playwright
// inverts it under .not).
function result(ctx, name, ok, what, s) {
  return {
    pass: ok,
    name,
    message: () => `expect(ringscope).${ctx.isNot ? 'not.' : ''}${name}(): ${what}\n\n${describe(s.diagnosis)}`,
  };
}

const healthy = (s) => !!s.diagnosis && ['idle', 'progressing'].includes(s.diagnosis.health) && s.diagnosis.causes.length === 0;
const faults = (s) => s.telemetry?.control?.faults ?? 0;
const faultRecords = (s) => (s.log?.records ?? []).filter((r) => r.name && r.name !== 'PRINTF');

/** The matchers, for expect.extend or mergeExpects. */
export const matchers = {
  /**
   * The diagnosis stays idle or progressing, with no cause, for within
   * ms (long enough for the watchdog's intervals, at the attachment's
   * pace); it fails at the first frame that is not.
   */
  async toBeHealthy(handle, { within = 6_000 } = {}) {
    const s = await watch(handle, healthy, within);
    return result(this, 'toBeHealthy', healthy(s), this.isNot ? `the ring stayed healthy for ${within} ms` : 'the ring is not healthy', s);
  },
  /** FAULTS is 0 and the log has no fault record. */
  async toHaveNoFaults(handle) {
    let s = await handle.snapshot();
    const ok = faults(s) === 0 && faultRecords(s).length === 0;
    // A failure prints the diagnosis: give its cause the frames it needs
    // to form (a cause holds two in a row) when the first read has none.
    if (!ok) s = await watch(handle, (x) => !x.diagnosis?.causes?.length, 2_000);
    const recs = faultRecords(s).slice(0, 5).map((r) => `  ${r.name}: ${r.text}`).join('\n');
    return result(this, 'toHaveNoFaults', ok, `FAULTS is ${faults(s)}${recs ? `; the log:\n${recs}` : ''}`, s);
  },
  /**
   * Every item was claimed at most once: each partition's HEAD ≤ TAIL,
   * CLAIMS ≤ the items published, and no BAD_STATE fault (a second claim
   * of a slot faults BAD_STATE, docs/PROTOCOL.md §3).
   */
  async toDrainExactlyOnce(handle) {
    const s = await handle.snapshot();
    const c = s.telemetry?.control ?? {};
    const heads = c.heads ?? [], tails = c.tails ?? [];
    const published = tails.reduce((a, b) => a + b, 0);
    const over = heads.findIndex((h, p) => h > tails[p]);
    const badState = faultRecords(s).filter((r) => r.name === 'BAD_STATE').length;
    const ok = over < 0 && (c.claims ?? 0) <= published && badState === 0;
    const why = over >= 0 ? `HEAD[${over}] ${heads[over]} passed TAIL ${tails[over]}`
      : badState ? `${badState} BAD_STATE faults (a slot claimed twice)` : `CLAIMS ${c.claims} of ${published} published`;
    return result(this, 'toDrainExactlyOnce', ok, why, s);
  },
  /** DONE_COUNT moves within `within` ms whenever work is queued. */
  async toNotStall(handle, { within = 2_000 } = {}) {
    const a = await handle.snapshot();
    await new Promise((r) => setTimeout(r, within));
    const b = await handle.snapshot();
    const queued = (b.telemetry?.occupancy?.published ?? 0) + (b.telemetry?.occupancy?.claimed ?? 0);
    const moved = b.telemetry.control.doneCount !== a.telemetry.control.doneCount;
    const ok = moved || queued === 0;
    return result(this, 'toNotStall', ok, `DONE_COUNT stayed ${b.telemetry.control.doneCount} for ${within} ms with ${queued} slots queued`, b);
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
  ringscope: async ({ page, ringscopeAssets, ringscopeLabels }, use) => {
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
    const handle = new RingscopeHandle(page);
    await use(handle);
    await handle.dispose();
  },
};
