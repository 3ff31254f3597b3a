// reduce_windows.wgsl: entry point `reduce_windows`, the second pass of
// the telemetry reduction (reduce_shared.wgsl, assembled before it,
// describes both passes): it counts the window slots into the window
// table that reduce placed the open windows in.
//
// Bindings: those of reduce_shared.wgsl.
//
// Invariants: reduce_shared.wgsl's; this pass uses no workgroup memory
// and no barrier.

// reduce_windows is the counting pass of the window table (SUMMARY §3),
// dispatched after reduce (whose end is a global barrier: every open
// window has its entry) with reduce's grid, when the params name window
// opcodes and a table. Each lane takes reduce's block of slots and counts
// its window slots in runs of the same key, class and status (slots of
// other opcodes between them do not end a run; the run's first slot is
// still its lowest), each run added to its entry at once.
@compute @workgroup_size(WORKGROUP_SIZE_X)
fn reduce_windows(@builtin(workgroup_id) wid: vec3<u32>,
                  @builtin(num_workgroups) groups: vec3<u32>,
                  @builtin(local_invocation_index) lane: u32) {
    let s = shape();
    if (!s.ok || s.capacity == 0u || s.opcodes == 0u) {
        return;
    }
    let block = lane_words(wid.x, groups.x, lane, s.map_words);
    let end = min(s.slots, block.y * STATUS_MAP_PER_WORD);
    var run: Run; // n = 0: no run yet
    for (var slot = block.x * STATUS_MAP_PER_WORD; slot < end; slot++) {
        let base = slot * SLOT_WORDS;
        let op = ring[base + SLOT_OPCODE];
        // The run's opcode is a window opcode; any other is looked up.
        if ((run.n == 0u || op != run.opcode) && !is_window_opcode(op, s.opcodes)) {
            continue;
        }
        let st = ring[base + SLOT_STATUS];
        let ticket = ring[base + SLOT_ARG0];
        let kind = ring[base + SLOT_ARG0 + 1u];
        if (run.n != 0u && op == run.opcode && ticket == run.ticket && kind == run.kind && st == run.status) {
            run.n++;
            continue;
        }
        if (run.n != 0u) {
            window_run(run.first, run.n, run.opcode, run.ticket, run.kind, run.status, s);
        }
        run.status = st;
        run.opcode = op;
        run.ticket = ticket;
        run.kind = kind;
        run.first = slot;
        run.n = 1u;
    }
    if (run.n != 0u) {
        window_run(run.first, run.n, run.opcode, run.ticket, run.kind, run.status, s);
    }
}
