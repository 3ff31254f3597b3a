// The example host page (static/embed.html): everything a third-party page
// needs is the one import below. No inline script (CSP).
import ringscope from './ringscope.mjs';

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

// One telemetry value, read through subscribe (one call per live frame).
ringscope.subscribe((f) => {
  $('embed-done').textContent = f.doneCount.toLocaleString('en');
  $('embed-seq').textContent = String(f.seq);
  $('embed-queue').textContent = String(f.queueDepth);
});

// One panel, mounted in this page's own layout.
await ringscope.mount(document.getElementById('ringscope-panel'), { panels: ['occupancy', 'slotmap'] });

// decode() needs no GPU: a legacy vyre dump built here (MAGIC, word 141, = 0).
const control = new Uint32Array(160);
control[1] = 2; // DONE_COUNT
control[2] = 3; // TENANT_BASE
control.set([0, 1, 1, 1, 1, 2], 129); // PRIORITY_OFFSETS for 2 slots
const ring = new Uint32Array(2 * 16);
ring[0] = 3; // slot 0 DONE
ring[16] = 1; // slot 1 PUBLISHED
const d = await ringscope.decode(control, ring);
$('embed-decode').textContent =
  `legacy: ${d.legacy}\ndoneCount: ${d.telemetry.control.doneCount}\n` +
  `slots: ${d.telemetry.occupancy.done} done, ${d.telemetry.occupancy.published} published`;

ringscope.ready.then(
  () => { $('embed-state').textContent = 'ready'; },
  (err) => { $('embed-state').textContent = err.message; },
);
