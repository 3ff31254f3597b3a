// spawn_prelude.wgsl: no entry point. spawn, the prelude function by which a
// user opcode makes work on the GPU (docs/OPCODES.md §7, the extension's
// words in docs/PROTOCOL-SPAWN.md). Kernel.Source assembles it after
// user_prelude.wgsl only when one of the kernel's opcodes calls spawn, with
// spawn_gen.wgsl, the spawn_state binding (SPAWN_BINDING, after the user's
// buffers) and spawn_known, the kernel's opcode list; a kernel that does
// not spawn is the v1 drain unchanged.
//
// A spawn takes ticket k = RESERVE[p] (an atomicAdd) and owns slot OFF[p] +
// k mod C when k − TAIL[p] is below FREE[p], the free positions after TAIL
// that the scan pass before this drain found (at most C): those slots are
// EMPTY or DONE and no claim of this pass can reach them (tickets below
// TAIL only), so nobody else writes them in this dispatch. It writes the
// slot's words, STATUS last; the spawn finalize after the drain publishes
// TAIL[p] = TAIL[p] + min(RESERVE[p] − TAIL[p], FREE[p]), and the dispatch
// boundary makes the slot claimable by the next pass. Nothing waits: a
// ticket past the bound is a refusal (false, SPAWN_REFUSED_FULL), and the
// finalize's clamp drops the overshoot as the drain's finalize drops
// HEAD's.

@group(BIND_GROUP) @binding(SPAWN_BINDING) var<storage, read_write> spawn_state: array<atomic<u32>>;

// spawner is the slot whose opcode runs now: the slot a refusal's log
// record names (the user case sets it before calling the function).
var<private> spawner: u32;

// spawn_refuse counts a refusal for a bad request and logs it with code.
fn spawn_refuse(code: u32, op: u32) -> bool {
    atomicAdd(&spawn_state[SPAWN_REFUSED_BAD], 1u);
    log_append(LOG_FAULT_TAG | code, spawner, op, params[PARAM_EPOCH]);
    return false;
}

// spawn publishes an item of opcode op for tenant at priority with args,
// claimable no later than the next drain pass, and reports whether it did.
// false: the partition had no free slot (counted, nothing logged), or the
// request is refused with a log record: an opcode the kernel does not
// implement (SPAWN_OPCODE), a tenant ≥ 29 or masked (SPAWN_TENANT), a
// priority ≥ 5 or an unusable partition (SPAWN_PRIORITY).
fn spawn(op: u32, tenant: u32, priority: u32, args: Args) -> bool {
    if (!spawn_known(op)) {
        return spawn_refuse(FAULT_SPAWN_OPCODE, op);
    }
    if (tenant >= TENANT_COUNT || atomicLoad(&control[CTRL_TENANT_MASK + tenant]) == 0u) {
        return spawn_refuse(FAULT_SPAWN_TENANT, op);
    }
    if (priority >= PRIORITY_LEVELS) {
        return spawn_refuse(FAULT_SPAWN_PRIORITY, op);
    }
    let q = partition_at(priority);
    if (!usable(q, arrayLength(&ring) / SLOT_WORDS)) {
        return spawn_refuse(FAULT_SPAWN_PRIORITY, op);
    }
    let size = q.end - q.start;
    let tail = atomicLoad(&control[CTRL_TAIL + priority]);
    let room = min(atomicLoad(&spawn_state[SPAWN_FREE + priority]), size);
    // A full partition refuses without a ticket, so RESERVE overshoots by
    // at most the spawns racing the last free position.
    if (atomicLoad(&spawn_state[SPAWN_RESERVE + priority]) - tail >= room) {
        atomicAdd(&spawn_state[SPAWN_REFUSED_FULL], 1u);
        return false;
    }
    let k = atomicAdd(&spawn_state[SPAWN_RESERVE + priority], 1u);
    if (k - tail >= room) {
        atomicAdd(&spawn_state[SPAWN_REFUSED_FULL], 1u);
        return false;
    }
    let base = (q.start + k % size) * SLOT_WORDS;
    atomicStore(&ring[base + SLOT_OPCODE], op);
    atomicStore(&ring[base + SLOT_TENANT], tenant);
    atomicStore(&ring[base + SLOT_PRIORITY], priority);
    for (var i = 0u; i < SLOT_ARGS; i++) {
        atomicStore(&ring[base + SLOT_ARG0 + i], args[i]);
    }
    // @trace: trace_spawned(base / SLOT_WORDS, spawner);
    atomicStore(&ring[base + SLOT_STATUS], STATUS_PUBLISHED);
    if (op < SPAWN_METRIC_OPCODES) {
        atomicAdd(&spawn_state[SPAWN_OPCODE_COUNTS + op], 1u);
    }
    return true;
}
