// finalize.wgsl: entry point `finalize`, the clamp that ends every drain
// submission (PROTOCOL §3): HEAD[p] = min(HEAD[p], TAIL[p]) for p = 0..4.
// Assembled after abi_gen.wgsl.
//
// Bindings (group BIND_GROUP):
//
//   BINDING_CONTROL  control  storage, read_write  array<atomic<u32>>, its real length
//
// The other ABI bindings are not declared, so a pipeline layout with all of
// PROTOCOL §1's bindings (the drain's) serves this kernel too.
//
// Invariants:
//
// - Dispatch one workgroup, after the drain dispatches of the same
//   submission: the dispatch boundary is the global barrier that makes every
//   drain lane's overshooting ticket visible. One lane per partition.
// - Idempotent: running it twice, or with more workgroups, changes nothing
//   more. Afterwards the processed items of partition p are exactly
//   [previous HEAD, HEAD).

@group(BIND_GROUP) @binding(BINDING_CONTROL) var<storage, read_write> control: array<atomic<u32>>;

@compute @workgroup_size(PRIORITY_LEVELS)
fn finalize(@builtin(local_invocation_index) p: u32) {
    if (arrayLength(&control) < CONTROL_MIN_WORDS) {
        return;
    }
    atomicMin(&control[CTRL_HEAD + p], atomicLoad(&control[CTRL_TAIL + p]));
}
