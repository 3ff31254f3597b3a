// The kit app's kernel (app.js): one lane per slot. A PUBLISHED slot of a
// masked tenant ends YIELD (DENIED += 1); one of an enabled tenant is
// claimed (HEAD, CLAIMS, TENANT_CLAIMS, PRIORITY_CLAIMS) and run: NOP ends
// DONE, REQUEUE (0xFFF1) REQUEUE, WAIT_IO (0xFFF2) WAIT_IO, anything else
// FAULT with an UNKNOWN_OPCODE log record (docs/PROTOCOL.md §3–5).
@group(0) @binding(0) var<storage, read_write> control: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> ring: array<u32>;
@group(0) @binding(2) var<storage, read_write> logbuf: array<atomic<u32>>;

@compute @workgroup_size(64)
fn drain(@builtin(global_invocation_id) id: vec3u) {
  let base = id.x * 16u;
  if (ring[base] != 1u) { return; }
  let tenant = ring[base + 2u];
  let p = ring[base + 3u];
  atomicAdd(&control[149u + p], 1u);
  if (atomicLoad(&control[3u + tenant]) == 0u) {
    ring[base] = 5u;
    atomicAdd(&control[147u], 1u);
    return;
  }
  atomicAdd(&control[145u], 1u);
  atomicAdd(&control[64u + tenant], 1u);
  atomicAdd(&control[136u + p], 1u);
  let op = ring[base + 1u];
  if (op == 0u) {
    ring[base] = 3u;
    atomicAdd(&control[96u], 1u);
  } else if (op == 0xFFF1u) {
    ring[base] = 6u;
    return;
  } else if (op == 0xFFF2u) {
    ring[base] = 4u;
    return;
  } else {
    ring[base] = 7u;
    atomicAdd(&control[146u], 1u);
    let at = atomicAdd(&logbuf[0], 1u);
    if (at < atomicLoad(&logbuf[1])) {
      atomicStore(&logbuf[4u + at * 4u], 0xFFFF0001u);
      atomicStore(&logbuf[5u + at * 4u], id.x);
      atomicStore(&logbuf[6u + at * 4u], op);
    }
  }
  atomicAdd(&control[1u], 1u);
}
