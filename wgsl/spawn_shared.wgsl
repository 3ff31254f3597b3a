// spawn_shared.wgsl: no entry point: the bindings and helpers of the two
// passes around each drain pass of a spawning kernel
// (docs/PROTOCOL-SPAWN.md §3), spawn_scan.wgsl (entry `spawn_scan`) and
// spawn_finalize.wgsl (entry `spawn_finalize`), one shader module
// assembled after abi_gen.wgsl, spawn_gen.wgsl and the line that sets
// SPAWN_BINDING. A generation is spawn_scan, the drain, spawn_finalize, in
// one compute pass: each dispatch boundary is the global barrier the next
// one needs.
//
// Bindings (group BIND_GROUP): control (BINDING_CONTROL), ring
// (BINDING_RING) and spawn_state (SPAWN_BINDING); the others are not
// declared, so the drain's explicit pipeline layout serves these too.

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
