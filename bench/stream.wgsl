// stream.wgsl: entry point `stream`, the memory floor of a drain (bench row
// 6, TestRingRow): one lane per slot reads the slot's SLOT_WORDS words, as
// SLOT_WORDS / 4 vec4 loads, and stores its STATUS word from what it read,
// so every byte of the ring crosses the memory bus once and nothing else
// happens. Assembled after abi_gen.wgsl.
//
// Bindings (group BIND_GROUP):
//
//   BINDING_RING  ring  storage, read_write  array<vec4<u32>>, slots × SLOT_WORDS / 4
//
// Overrides: WORKGROUP_SIZE_X. The grid is 2-D (x × y workgroups, x the
// device's per-dimension limit at most); lanes past the last slot return.

override WORKGROUP_SIZE_X: u32 = 64u;

const VEC_PER_SLOT: u32 = SLOT_WORDS / 4u;

@group(BIND_GROUP) @binding(BINDING_RING) var<storage, read_write> ring: array<vec4<u32>>;

@compute @workgroup_size(WORKGROUP_SIZE_X)
fn stream(@builtin(global_invocation_id) gid: vec3<u32>,
          @builtin(num_workgroups) groups: vec3<u32>) {
    let slot = gid.x + gid.y * groups.x * WORKGROUP_SIZE_X;
    if (slot >= arrayLength(&ring) / VEC_PER_SLOT) {
        return;
    }
    let b = slot * VEC_PER_SLOT;
    var v = ring[b];
    for (var i = 1u; i < VEC_PER_SLOT; i++) {
        v ^= ring[b + i];
    }
    // Data-dependent, so no load can be dropped: DONE unless the slot's
    // words XOR to all ones (never in the bench's rings).
    var status = STATUS_DONE;
    if (all(v == vec4<u32>(0xFFFFFFFFu))) {
        status = STATUS_PUBLISHED;
    }
    ring[b].x = status;
}
