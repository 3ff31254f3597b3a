// spawn_scan.wgsl: entry point `spawn_scan`, the pass before each drain
// pass of a spawning kernel (spawn_shared.wgsl, assembled before it,
// says how the passes fit together).
//
// Bindings: those of spawn_shared.wgsl.
//
// Invariants:
//
// - spawn_scan sets RESERVE[p] = TAIL[p] and HEAD_START[p] = min(HEAD[p],
//   TAIL[p]), and FREE[p] (reset to SPAWN_FREE_UNSET by the last finalize,
//   or by the host) to the distance from TAIL[p]'s slot to the first slot
//   of partition p that is neither EMPTY nor DONE: tickets TAIL[p] …
//   TAIL[p] + FREE[p] − 1 then name free slots. The PUBLISHED slots of
//   tickets HEAD … TAIL bound it, so TAIL never passes HEAD + C and no two
//   live tickets name one slot.

@compute @workgroup_size(SPAWN_SCAN_WIDTH)
fn spawn_scan(@builtin(global_invocation_id) gid: vec3<u32>,
              @builtin(num_workgroups) groups: vec3<u32>) {
    if (!fits()) {
        return;
    }
    let slots = arrayLength(&ring) / SLOT_WORDS;
    if (gid.x < PRIORITY_LEVELS) {
        let tail = atomicLoad(&control[CTRL_TAIL + gid.x]);
        atomicStore(&spawn_state[SPAWN_RESERVE + gid.x], tail);
        atomicStore(&spawn_state[SPAWN_HEAD_START + gid.x], min(atomicLoad(&control[CTRL_HEAD + gid.x]), tail));
    }
    let stride = groups.x * SPAWN_SCAN_WIDTH;
    for (var s = gid.x; s < slots; s += stride) {
        let st = atomicLoad(&ring[s * SLOT_WORDS + SLOT_STATUS]);
        if (st == STATUS_EMPTY || st == STATUS_DONE) {
            continue;
        }
        for (var p = 0u; p < PRIORITY_LEVELS; p++) {
            let q = partition_bounds(p, slots);
            if (q.z == 0u || s < q.x || s >= q.y) {
                continue;
            }
            let size = q.y - q.x;
            let t = atomicLoad(&control[CTRL_TAIL + p]) % size;
            let pos = s - q.x;
            // The distance from TAIL's position forward to pos, mod size.
            var d = pos - t;
            if (pos < t) {
                d = size - (t - pos);
            }
            atomicMin(&spawn_state[SPAWN_FREE + p], d);
        }
    }
}
