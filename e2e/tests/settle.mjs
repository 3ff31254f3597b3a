// settle: wait from the harness for a promise in the page without
// leaving an evaluate pending (the attach benchmark's waits).
// settle runs fn(arg) in the page and waits for its promise from here, by
// short evaluates 20 ms apart. One evaluate left pending for a second or
// more (a 3 s setTimeout awaited, or 3 s of awaiting onSubmittedWorkDone,
// ringscope not even loaded) leaves Chromium on the H200 delivering the
// page's WebGPU callbacks about half as fast for the rest of the page's
// life (bench/results-attach.md): the harness, not what it measures, would
// be charged for it. Every wait on the page below goes through settle.
export async function settle(page, fn, arg) {
  const id = await page.evaluate(([src, arg]) => {
    const box = (globalThis.__benchSettle ??= { n: 0, r: {} });
    const id = box.n++;
    Promise.resolve().then(() => (0, eval)(`(${src})`)(arg)).then(
      (v) => { box.r[id] = { v }; },
      (e) => { box.r[id] = { e: String(e?.message ?? e) }; });
    return id;
  }, [fn.toString(), arg]);
  for (;;) {
    const r = await page.evaluate((id) => globalThis.__benchSettle.r[id], id);
    if (r) {
      if ('e' in r) throw new Error(r.e);
      return r.v;
    }
    await new Promise((res) => setTimeout(res, 20));
  }
}
