// window_tenants.wgsl: entry point `window_tenants`, the last pass of the
// telemetry reduction (docs/SUMMARY.md §3): it sets each window entry's
// WIN_TENANT to the TENANT word of the window's lowest slot, and frees the
// entries reduce_windows sealed. reduce_windows cannot: which slot is
// lowest is known only once every lane has done its atomicMax, and a
// dispatch boundary is the only global barrier.
// Assembled after abi_gen.wgsl.
//
// Bindings (group BIND_GROUP), those of reduce_shared.wgsl that it uses:
//
//   BINDING_RING            ring     storage, read        array<u32>, slots × SLOT_WORDS
//   BINDING_SUMMARY         summary  storage, read_write  array<atomic<u32>>
//   BINDING_SUMMARY_PARAMS  sparams  storage, read        array<u32>, SUMMARY_PARAMS_WORDS
//
// Invariants:
//
// - Dispatch it after `reduce_windows`, in the same submission, with at least one
//   lane per window entry or fewer (a grid-stride loop covers the table).
// - Checked: nothing is written unless the summary is as long as its
//   params say; an entry whose lowest slot lies outside the ring is left
//   with tenant 0 (the decoder rejects such an entry).

const LANES: u32 = 64u;

@group(BIND_GROUP) @binding(BINDING_RING) var<storage, read> ring: array<u32>;
@group(BIND_GROUP) @binding(BINDING_SUMMARY) var<storage, read_write> summary: array<atomic<u32>>;
@group(BIND_GROUP) @binding(BINDING_SUMMARY_PARAMS) var<storage, read> sparams: array<u32>;

@compute @workgroup_size(LANES)
fn window_tenants(@builtin(global_invocation_id) gid: vec3<u32>,
                  @builtin(num_workgroups) groups: vec3<u32>) {
    if (arrayLength(&sparams) < SUMMARY_PARAMS_WORDS) {
        return;
    }
    let depth = sparams[SPARAM_DEPTH];
    let width = sparams[SPARAM_WIDTH];
    let capacity = sparams[SPARAM_WINDOW_CAPACITY];
    if (depth > SKETCH_MAX_DEPTH || width > SKETCH_MAX_WIDTH || capacity > WINDOW_MAX_CAPACITY) {
        return;
    }
    let windows = SUMMARY_HEADER_WORDS + (SUMMARY_SKETCHES + 2u) * depth * width;
    if (arrayLength(&summary) < windows + capacity * WINDOW_ENTRY_WORDS) {
        return;
    }
    let slots = arrayLength(&ring) / SLOT_WORDS;
    for (var e = gid.x; e < capacity; e += groups.x * LANES) {
        let w = windows + e * WINDOW_ENTRY_WORDS;
        let owner = atomicLoad(&summary[w + WIN_OWNER]);
        if (owner == WIN_OWNER_SEALED) {
            atomicStore(&summary[w + WIN_OWNER], 0u); // free again: the read-back table has no seals
            continue;
        }
        if (owner == 0u) {
            continue;
        }
        let first = ~atomicLoad(&summary[w + WIN_FIRST_INV]);
        if (first < slots) {
            atomicStore(&summary[w + WIN_TENANT], ring[first * SLOT_WORDS + SLOT_TENANT]);
        }
    }
}
