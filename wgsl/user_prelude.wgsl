// user_prelude.wgsl: no entry point. What a user opcode's function may call
// (docs/OPCODES.md); Kernel.Source assembles it into megakernel.wgsl at
// @user-declarations, before the user's buffers and functions, when a
// kernel declares user opcodes. Every name here is reserved for users.

// Args is a slot's argument words, ARG0 … ARG11.
alias Args = array<u32, SLOT_ARGS>;

// slot_args loads the argument words of a claimed slot.
fn slot_args(slot: u32) -> Args {
    var a: Args;
    let base = slot * SLOT_WORDS + SLOT_ARG0;
    for (var i = 0u; i < SLOT_ARGS; i++) {
        a[i] = atomicLoad(&ring[base + i]);
    }
    return a;
}

// done, yield_slot, requeue and wait_io end the slot with that status; the
// host handles each as it does for the built-in opcodes (PROTOCOL §3).
fn done() -> Outcome {
    return ends(STATUS_DONE);
}

fn yield_slot() -> Outcome {
    return ends(STATUS_YIELD);
}

fn requeue() -> Outcome {
    return ends(STATUS_REQUEUE);
}

fn wait_io() -> Outcome {
    return ends(STATUS_WAIT_IO);
}

// user_fault ends the slot FAULT with the user's code: the log records
// fault code FAULT_USER_FIRST + code (a code past the range reads as the
// last one), which decoders show as USER_FAULT(code).
fn user_fault(code: u32) -> Outcome {
    return faults(FAULT_USER_FIRST + min(code, FAULT_USER_CODES - 1u));
}

// observable_count is N, the OBSERVABLE words a slot may write.
fn observable_count() -> u32 {
    return observable();
}

// observable_load is OBSERVABLE[i], or 0 when i ≥ N.
fn observable_load(i: u32) -> u32 {
    if (i >= observable()) {
        return 0u;
    }
    return atomicLoad(&control[CTRL_OBSERVABLE + i]);
}

// observable_store and observable_add write OBSERVABLE[i] and report
// whether i < N; nothing is written otherwise.
fn observable_store(i: u32, value: u32) -> bool {
    if (i >= observable()) {
        return false;
    }
    atomicStore(&control[CTRL_OBSERVABLE + i], value);
    return true;
}

fn observable_add(i: u32, delta: u32) -> bool {
    if (i >= observable()) {
        return false;
    }
    atomicAdd(&control[CTRL_OBSERVABLE + i], delta);
    return true;
}

// data_words is the length of the data binding in words.
fn data_words() -> u32 {
    return arrayLength(&data);
}
