// spawn_finalize.wgsl: entry point `spawn_finalize`, the pass after each
// drain pass of a spawning kernel (spawn_shared.wgsl, assembled before
// it, says how the passes fit together).
//
// Bindings: those of spawn_shared.wgsl.
//
// Invariants:
//
// - spawn_finalize is the drain's finalize clamp HEAD[p] = min(HEAD[p],
//   TAIL[p]), then publishes the spawns: TAIL[p] += min(RESERVE[p] −
//   TAIL[p], FREE[p], C), RESERVE[p] = TAIL[p], FREE[p] = SPAWN_FREE_UNSET,
//   and writes the pass's history entry. Run it once per drain pass, never
//   twice: it is not idempotent (a second run would find FREE unset).

var<workgroup> wg_claimed: atomic<u32>;
var<workgroup> wg_spawned: atomic<u32>;

@compute @workgroup_size(SPAWN_SCAN_WIDTH)
fn spawn_finalize(@builtin(local_invocation_index) lane: u32) {
    if (!fits()) {
        return;
    }
    let slots = arrayLength(&ring) / SLOT_WORDS;
    let gen = atomicLoad(&spawn_state[SPAWN_GENERATIONS]);
    if (lane < PRIORITY_LEVELS) {
        let p = lane;
        let tail = atomicLoad(&control[CTRL_TAIL + p]);
        let head = min(atomicLoad(&control[CTRL_HEAD + p]), tail);
        atomicStore(&control[CTRL_HEAD + p], head);
        atomicAdd(&wg_claimed, head - atomicLoad(&spawn_state[SPAWN_HEAD_START + p]));
        let q = partition_bounds(p, slots);
        var spawned = 0u;
        if (q.z != 0u) {
            let room = min(atomicLoad(&spawn_state[SPAWN_FREE + p]), q.y - q.x);
            spawned = min(atomicLoad(&spawn_state[SPAWN_RESERVE + p]) - tail, room);
        }
        atomicStore(&control[CTRL_TAIL + p], tail + spawned);
        atomicStore(&spawn_state[SPAWN_RESERVE + p], tail + spawned);
        atomicStore(&spawn_state[SPAWN_FREE + p], SPAWN_FREE_UNSET);
        atomicStore(&spawn_state[SPAWN_HEAD_START + p], head);
        atomicAdd(&wg_spawned, spawned);
    }
    // Every lane read SPAWN_GENERATIONS above, before lane 0 moves it.
    workgroupBarrier();
    storageBarrier();
    if (lane == 0u) {
        let spawned = atomicLoad(&wg_spawned);
        let refused = atomicLoad(&spawn_state[SPAWN_REFUSED_FULL]) + atomicLoad(&spawn_state[SPAWN_REFUSED_BAD]);
        let e = SPAWN_HISTORY_FIRST + (gen % SPAWN_HISTORY) * SPAWN_ENTRY_WORDS;
        atomicStore(&spawn_state[e + SPAWN_ENTRY_PASS], gen + 1u);
        atomicStore(&spawn_state[e + SPAWN_ENTRY_CLAIMED], atomicLoad(&wg_claimed));
        atomicStore(&spawn_state[e + SPAWN_ENTRY_SPAWNED], spawned);
        atomicStore(&spawn_state[e + SPAWN_ENTRY_REFUSED], refused - atomicLoad(&spawn_state[SPAWN_REFUSED_SEEN]));
        atomicStore(&spawn_state[SPAWN_REFUSED_SEEN], refused);
        atomicAdd(&spawn_state[SPAWN_TOTAL], spawned);
        atomicStore(&spawn_state[SPAWN_GENERATIONS], gen + 1u);
    }
}
