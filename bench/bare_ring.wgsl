// bare_ring.wgsl: entry point `bare`, the floor a ring drain is measured
// against (bench row 6, TestRingRow): the same ring bytes, the same grid
// and per-lane budget as the megakernel's drain, and nothing but the ring:
// per claim one atomicAdd on HEAD[NORMAL], a load of the slot's STATUS and
// a store of DONE when it was PUBLISHED; DONE_COUNT summed per workgroup.
// No priorities, tenants, masks, opcodes, counters or faults. Assembled
// after abi_gen.wgsl (wgsl.ABISource), which declares the UPPER_SNAKE names.
//
// Bindings (group BIND_GROUP):
//
//   BINDING_CONTROL  control  storage, read_write  array<atomic<u32>>: HEAD, TAIL and
//                                                  PRIORITY_OFFSETS of NORMAL, DONE_COUNT
//   BINDING_RING     ring     storage, read_write  array<atomic<u32>>, slots × SLOT_WORDS
//
// Overrides: WORKGROUP_SIZE_X (the drain's width), BUDGET (its params budget).
// Invariants: bounded (BUDGET claims per lane); a ticket at or past TAIL
// stops the lane; the slot index is checked against the ring's length.

override WORKGROUP_SIZE_X: u32 = 64u;
override BUDGET: u32 = 64u;

@group(BIND_GROUP) @binding(BINDING_CONTROL) var<storage, read_write> control: array<atomic<u32>>;
@group(BIND_GROUP) @binding(BINDING_RING) var<storage, read_write> ring: array<atomic<u32>>;

var<workgroup> wg_done: atomic<u32>;

@compute @workgroup_size(WORKGROUP_SIZE_X)
fn bare(@builtin(local_invocation_index) lane: u32) {
    let p = PRIORITY_NORMAL;
    let tail = atomicLoad(&control[CTRL_TAIL + p]);
    let start = atomicLoad(&control[CTRL_PRIORITY_OFFSETS + p]);
    let size = max(atomicLoad(&control[CTRL_PRIORITY_OFFSETS + p + 1u]) - start, 1u);
    let words = arrayLength(&ring);
    for (var it = 0u; it < BUDGET; it++) {
        let c = atomicAdd(&control[CTRL_HEAD + p], 1u);
        if (c >= tail) {
            break;
        }
        let status = (start + c % size) * SLOT_WORDS + SLOT_STATUS;
        if (status < words && atomicLoad(&ring[status]) == STATUS_PUBLISHED) {
            atomicStore(&ring[status], STATUS_DONE);
            atomicAdd(&wg_done, 1u);
        }
    }
    workgroupBarrier();
    if (lane == 0u) {
        atomicAdd(&control[CTRL_DONE_COUNT], atomicLoad(&wg_done));
    }
}
