// The attach benchmark's plain-JS modes (js-*): ringscope not loaded, the
// host disturbed in one way each (e2e/tests/attach-bench.spec.mjs).
import { settle } from './settle.mjs';

// disturb (the js-* modes, ringscope not loaded) does on the host's own
// device, three times a second, one part of what an attached frame does,
// in plain JS: copy (control and log into a MAP_READ staging, mapped and
// read), scope (the same inside a validation error scope, as attach's
// encode), ring (the whole ring copied and mapped), dispatch (a small
// compute pass reading the ring, then copy), busy20 (20 ms of main-thread
// work, no GPU). Which one costs the host its frames says where an
// attachment's cost is.
export async function disturb(page, kind) {
  // :await, the harness's old way, awaits the page's promise in one
  // evaluate (the artifact settle avoids, kept to show it).
  const [name, how] = kind.split(':');
  await (how === 'await' ? (f, a) => page.evaluate(f, a) : (f, a) => settle(page, f, a))(async (kind) => {
    const { device, control, ring, log } = window.host;
    const U = GPUBufferUsage;
    if (kind.startsWith('canvas')) {
      // The dashboard's canvases (sizes as it draws them at 65,536 slots),
      // in a hidden holder, each drawn once by putImageData; -wrf asks
      // for willReadFrequently (a canvas the CPU keeps).
      const holder = document.createElement('div');
      holder.hidden = true;
      document.body.append(holder);
      for (const [w, h] of [[440, 150], [440, 28], [1024, 256], [297, 90], [297, 90], [297, 90], [297, 90]]) {
        const c = document.createElement('canvas');
        holder.append(c);
        c.width = w;
        c.height = h;
        const ctx = c.getContext('2d', kind.endsWith('-wrf') ? { willReadFrequently: true } : undefined);
        const img = ctx.createImageData(w, h);
        img.data.fill(200);
        ctx.putImageData(img, 0, 0);
      }
      return;
    }
    if (kind.startsWith('wasmmem') || kind.startsWith('buf')) {
      // wasmmemN: a WebAssembly.Memory of N MiB, every page written, kept
      // (what a Go heap that grew to N MiB leaves); bufN: an ArrayBuffer.
      const mib = Number(kind.replace(/^\D+/, ''));
      const bytes = kind.startsWith('buf') ? new Uint8Array(mib << 20) : new Uint8Array(new WebAssembly.Memory({ initial: mib * 16 }).buffer);
      bytes.fill(1);
      globalThis.__ringscopeBenchKeep = bytes;
      return;
    }
    if (kind.startsWith('timeout') || kind === 'mark' || kind === 'gpuwait') {
      // One piece of gocalls each: timeoutN (one setTimeout of N ms,
      // awaited), timeout-bg (one not awaited), mark (performance.mark),
      // gpuwait (3 s of awaiting the host's queue, no timer).
      if (kind === 'mark') performance.mark('ringscope:first-frame');
      else if (kind === 'timeout-bg') setTimeout(() => {}, 40);
      else if (kind === 'gpuwait') {
        const t = performance.now();
        while (performance.now() - t < 3000) await device.queue.onSubmittedWorkDone();
      } else {
        // timeoutMS[xN][-bg]: N timeouts of MS one after another, awaited
        // (-bg: one, not awaited).
        const [, ms, n, bg] = kind.match(/^timeout(\d+)(?:x(\d+))?(-bg)?$/);
        if (bg) setTimeout(() => {}, Number(ms));
        else for (let i = 0; i < Number(n ?? 1); i++) await new Promise((r) => setTimeout(r, Number(ms)));
      }
      return;
    }
    if (kind === 'gocalls') {
      // What an attached frame loop calls beyond the bare attachment's
      // GPU calls (counted by wrapping prototypes, renders held): eight
      // animation frames, timers set and cleared, one performance.mark,
      // the adapter's info, over about three seconds.
      void device.adapterInfo?.vendor;
      performance.mark('ringscope:first-frame');
      for (let i = 0; i < 8; i++) {
        const t = setTimeout(() => {}, 100);
        await new Promise((r) => requestAnimationFrame(r));
        clearTimeout(t);
        for (let j = 0; j < 3; j++) await new Promise((r) => setTimeout(r, 40));
      }
      return;
    }
    if (kind.startsWith('raf')) {
      // raf: an animation frame asked for three times a second, as
      // ringscope's pacing does; raf-once: three, then none.
      if (kind === 'raf-once') {
        for (let i = 0; i < 3; i++) await new Promise((r) => requestAnimationFrame(r));
        return;
      }
      setInterval(() => requestAnimationFrame(() => {}), 333);
      return;
    }
    if (kind === 'getters') {
      // What wrapping the host's device and buffers reads, once.
      device.lost.then(() => {});
      void [device.queue, device.limits, device.features, device.label, device.adapterInfo?.vendor];
      for (const b of [control, ring, log]) void [b.size, b.usage, b.label, b.mapState];
      return;
    }
    if (kind.startsWith('mimic')) {
      // An attached frame's calls in full readback as ringscope makes them
      // (its own staging of control, log and ring at offsets 16, 688,
      // 1728; a validation scope around the encode; the map from offset
      // 16), three times a second; mimic-once: three frames, then the
      // staging destroyed (detach); -noscope and -nooffset leave one part
      // out.
      const size = 16 + control.size + 16 + log.size + ring.size;
      const at = [16, 16 + control.size + 16, 16 + control.size + 16 + log.size];
      const staging = [0, 1].map((i) => device.createBuffer({ label: `mimic ${i}`, size, usage: U.MAP_READ | U.COPY_DST }));
      const scoped = !kind.includes('noscope');
      const from = kind.includes('nooffset') ? 0 : 16;
      const dst = new Uint8Array(size);
      let n = 0;
      const frame = async () => {
        const stage = staging[n++ % 2];
        void [control.mapState, ring.mapState, log.mapState];
        if (scoped) device.pushErrorScope('validation');
        const enc = device.createCommandEncoder({ label: 'mimic' });
        enc.copyBufferToBuffer(control, 0, stage, at[0], control.size);
        enc.copyBufferToBuffer(log, 0, stage, at[1], log.size);
        enc.copyBufferToBuffer(ring, 0, stage, at[2], ring.size);
        device.queue.submit([enc.finish()]);
        const pop = scoped ? device.popErrorScope() : null;
        await stage.mapAsync(GPUMapMode.READ, from, size - from);
        dst.set(new Uint8Array(stage.getMappedRange(from, size - from)), from);
        stage.unmap();
        await pop;
      };
      if (kind === 'mimic-once') {
        for (let i = 0; i < 3; i++) await frame();
        for (const s of staging) s.destroy();
        return;
      }
      let busy = false;
      setInterval(async () => {
        if (busy) return;
        busy = true;
        await frame();
        busy = false;
      }, 333);
      return;
    }
    const bytes = kind === 'ring' ? ring.size : control.size + log.size;
    const staging = [0, 1].map(() => device.createBuffer({ size: bytes, usage: U.MAP_READ | U.COPY_DST }));
    let pipeline;
    let bind;
    const out = device.createBuffer({ size: 4096, usage: U.STORAGE | U.COPY_SRC });
    if (kind === 'dispatch') {
      const code = `@group(0) @binding(0) var<storage, read> ring: array<u32>;
        @group(0) @binding(1) var<storage, read_write> out: array<atomic<u32>>;
        @compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3u) {
          if (g.x < arrayLength(&ring) / 16u) { atomicAdd(&out[ring[g.x * 16u] & 7u], 1u); }
        }`;
      pipeline = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code }), entryPoint: 'main' } });
      bind = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: ring } }, { binding: 1, resource: { buffer: out } }] });
    }
    let n = 0;
    let busy = false;
    setInterval(async () => {
      if (kind === 'busy20') {
        const t = performance.now();
        while (performance.now() - t < 20);
        return;
      }
      if (busy) return;
      busy = true;
      const stage = staging[n++ % 2];
      if (kind === 'scope') device.pushErrorScope('validation');
      const enc = device.createCommandEncoder();
      if (kind === 'dispatch') {
        const pass = enc.beginComputePass();
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, bind);
        pass.dispatchWorkgroups(Math.ceil(ring.size / 64 / 256));
        pass.end();
      }
      if (kind === 'ring') enc.copyBufferToBuffer(ring, 0, stage, 0, ring.size);
      else {
        enc.copyBufferToBuffer(control, 0, stage, 0, control.size);
        enc.copyBufferToBuffer(log, 0, stage, control.size, log.size);
      }
      device.queue.submit([enc.finish()]);
      const scoped = kind === 'scope' ? device.popErrorScope() : null;
      await stage.mapAsync(GPUMapMode.READ);
      new Uint8Array(stage.getMappedRange()).slice();
      stage.unmap();
      await scoped;
      busy = false;
    }, 333);
  }, name);
}
