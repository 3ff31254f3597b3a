// spawn.wgsl: entry points `spawn_scan` and `spawn_finalize`, the two
// passes around each drain pass of a spawning kernel
// (docs/PROTOCOL-SPAWN.md §3), assembled after abi_gen.wgsl, spawn_gen.wgsl
// and the line that sets SPAWN_BINDING. A generation is spawn_scan, the
// drain, spawn_finalize, in one compute pass: each dispatch boundary is the
// global barrier the next one needs.
//
// Bindings (group BIND_GROUP): control (BINDING_CONTROL), ring
// (BINDING_RING) and spawn_state (SPAWN_BINDING); the others are not
// declared, so the drain's explicit pipeline layout serves these too.
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
// - spawn_finalize is the drain's finalize clamp HEAD[p] = min(HEAD[p],
//   TAIL[p]), then publishes the spawns: TAIL[p] += min(RESERVE[p] −
//   TAIL[p], FREE[p], C), RESERVE[p] = TAIL[p], FREE[p] = SPAWN_FREE_UNSET,
//   and writes the pass's history entry. Run it once per drain pass, never
//   twice: it is not idempotent (a second run would find FREE unset).

@group(BIND_GROUP) @binding(BINDING_CONTROL) var<storage, read_write> control: array<atomic<u32>>;
@group(BIND_GROUP) @binding(BINDING_RING) var<storage, read_write> ring: array<atomic<u32>>;
@group(BIND_GROUP) @binding(SPAWN_BINDING) var<storage, read_write> spawn_state: array<atomic<u32>>;

// fits reports whether the buffers hold the words these passes use; the
// condition is uniform, so a whole dispatch returns before any barrier.
fn fits() -> bool {
    return arrayLength(&control) >= CONTROL_MIN_WORDS && arrayLength(&spawn_state) >= SPAWN_WORDS;
}

// partition_bounds is OFF[p], OFF[p + 1], and whether the partition is
// usable (OFF[p] < OFF[p + 1] ≤ slots), as the drain reads it.
fn partition_bounds(p: u32, slots: u32) -> vec3<u32> {
    let lo = atomicLoad(&control[CTRL_PRIORITY_OFFSETS + p]);
    let hi = atomicLoad(&control[CTRL_PRIORITY_OFFSETS + p + 1u]);
    return vec3<u32>(lo, hi, select(0u, 1u, lo < hi && hi <= slots));
}

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
