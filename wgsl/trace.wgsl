// trace.wgsl: no entry point; the task trace of a traced drain
// (docs/TRACE.md), not a kernel by itself: a traced drain is abi_gen.wgsl,
// trace_abi_gen.wgsl, this file, then megakernel.wgsl with its `// @trace: `
// lines turned into code
// (Kernel.Source with tracing on). Without tracing none of it is compiled,
// and the drain's source is the one it was before the feature.
//
// Binding (group BIND_GROUP):
//
//   BINDING_TRACE  trace_buf  storage, read_write  array<atomic<u32>>:
//                  TRACE_HEADER_WORDS header words (cursor, capacity, clock,
//                  the parent table's offset), TRACE_RECORD_WORDS per record,
//                  then, for a spawning kernel, a word per ring slot
//
// Invariants:
//
// - Every ticket is one atomicAdd on the clock word, so tickets are unique
//   and totally ordered across the device; a lane takes a slot's start
//   ticket before its claim and its end ticket after its final status is
//   stored, so start < end for every record.
// - A record is appended at cursor r (one atomicAdd, counting every
//   attempt) and written only when r < min(capacity, what the binding
//   holds): an overflowing trace drops records, counts them, and never
//   writes past its buffer.
// - A binding shorter than the header traces nothing and takes no ticket.
// - A spawn writes its child's parent (spawner + 1) at the child's word of
//   the parent table (spawn_prelude.wgsl's hook); the child's record takes
//   it (an exchange with 0), so a slot the host publishes later reads 0,
//   no parent. Records stop short of the table.

@group(BIND_GROUP) @binding(BINDING_TRACE) var<storage, read_write> trace_buf: array<atomic<u32>>;

// The lane's place and the records it may write, set once by trace_at.
var<private> trace_group: u32;
var<private> trace_lane: u32;
var<private> trace_cap: u32;
var<private> trace_on: bool;
var<private> trace_parents: u32; // the parent table's first word, 0: none

// trace_at records where this lane runs and how many records the buffer
// holds (the smaller of the host's capacity word and the binding).
fn trace_at(group: u32, lane: u32) {
    trace_group = group;
    trace_lane = lane;
    let len = arrayLength(&trace_buf);
    trace_on = len >= TRACE_HEADER_WORDS;
    if (trace_on) {
        var end = len;
        let table = atomicLoad(&trace_buf[TRACE_PARENTS]);
        if (table >= TRACE_HEADER_WORDS && table < len) {
            trace_parents = table;
            end = table;
        }
        trace_cap = min(atomicLoad(&trace_buf[TRACE_CAPACITY]), (end - TRACE_HEADER_WORDS) / TRACE_RECORD_WORDS);
    }
}

// trace_spawned notes that slot parent spawned slot child.
fn trace_spawned(child: u32, parent: u32) {
    if (trace_parents == 0u || child >= arrayLength(&trace_buf) - trace_parents) {
        return;
    }
    atomicStore(&trace_buf[trace_parents + child], parent + 1u);
}

// trace_parent takes slot's parent from the table: TRACE_NO_PARENT when
// none spawned it (0 − 1 wraps to it).
fn trace_parent(slot: u32) -> u32 {
    if (trace_parents == 0u || slot >= arrayLength(&trace_buf) - trace_parents) {
        return TRACE_NO_PARENT;
    }
    return atomicExchange(&trace_buf[trace_parents + slot], 0u) - 1u;
}

// trace_ticket takes the next ticket of the clock.
fn trace_ticket() -> u32 {
    if (!trace_on) {
        return 0u;
    }
    return atomicAdd(&trace_buf[TRACE_CLOCK], 1u);
}

// trace_record takes the slot's end ticket and appends its record.
fn trace_record(slot: u32, op: u32, tenant: u32, start: u32, out: Outcome) {
    if (!trace_on) {
        return;
    }
    let end = trace_ticket();
    let parent = trace_parent(slot); // taken even when the record is dropped
    let r = atomicAdd(&trace_buf[TRACE_CURSOR], 1u);
    if (r >= trace_cap) {
        return;
    }
    let w = TRACE_HEADER_WORDS + r * TRACE_RECORD_WORDS;
    atomicStore(&trace_buf[w + TRACE_REC_SLOT], slot);
    atomicStore(&trace_buf[w + TRACE_REC_OP_TENANT], (op & TRACE_OP_MASK) | (tenant << TRACE_TENANT_SHIFT));
    atomicStore(&trace_buf[w + TRACE_REC_GROUP], trace_group);
    atomicStore(&trace_buf[w + TRACE_REC_LANE], trace_lane);
    atomicStore(&trace_buf[w + TRACE_REC_START], start);
    atomicStore(&trace_buf[w + TRACE_REC_END], end);
    atomicStore(&trace_buf[w + TRACE_REC_OUTCOME], out.status | (out.fault << TRACE_FAULT_SHIFT));
    atomicStore(&trace_buf[w + TRACE_REC_PARENT], parent);
}
