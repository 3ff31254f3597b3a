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
// - A workgroup-claiming drain (WORKGROUP_CLAIMS) takes its tickets and
//   record places per claim round, not per slot, in claim_next's own
//   round trip (trace_claim_round, trace_took): one atomicAdd on the
//   clock hands the last round's lanes their end tickets and this
//   round's their start tickets, one on the cursor places the last
//   round's records. Still two tickets per record, each unique; a task's
//   end is its round's end, the barrier every lane of the workgroup
//   waits at before it claims again.
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

// A record waiting for its end ticket, in a workgroup-claiming drain.
struct TraceTask {
    slot: u32,
    op_tenant: u32,
    start: u32,
    outcome: u32,
    parent: u32,
}

// Per-round state (trace_claim_round, trace_took): whether the drain
// traces by round, this lane's start ticket for the round, the lanes that
// claimed last round (uniform), and this lane's record of it.
var<private> trace_rounds: bool;
var<private> trace_start_ticket: u32;
var<private> trace_claimed: u32;
var<private> trace_held: TraceTask;
var<private> trace_holds: bool;
// Lane 0's word to the workgroup for a partition's claim: the first
// ticket, the first record place, and the lanes the partition gave slots.
var<workgroup> trace_round_at: vec3<u32>;

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

// trace_ticket takes the next ticket of the clock: a slot's start ticket.
// In a claim round the lane's was taken with the round's (trace_took).
fn trace_ticket() -> u32 {
    if (!trace_on) {
        return 0u;
    }
    if (trace_rounds) {
        return trace_start_ticket;
    }
    return atomicAdd(&trace_buf[TRACE_CLOCK], 1u);
}

// trace_record takes the slot's end ticket and appends its record; in a
// claim round, it keeps the record for the next round's (trace_took).
fn trace_record(slot: u32, op: u32, tenant: u32, start: u32, out: Outcome) {
    if (!trace_on) {
        return;
    }
    let parent = trace_parent(slot); // taken even when the record is dropped
    let task = TraceTask(slot, (op & TRACE_OP_MASK) | (tenant << TRACE_TENANT_SHIFT), start,
        out.status | (out.fault << TRACE_FAULT_SHIFT), parent);
    if (trace_rounds) {
        trace_held = task;
        trace_holds = true;
        return;
    }
    let end = atomicAdd(&trace_buf[TRACE_CLOCK], 1u);
    trace_append(atomicAdd(&trace_buf[TRACE_CURSOR], 1u), task, end);
}

// trace_append writes a record at place r, when the buffer holds it.
fn trace_append(r: u32, task: TraceTask, end: u32) {
    if (r >= trace_cap) {
        return;
    }
    let w = TRACE_HEADER_WORDS + r * TRACE_RECORD_WORDS;
    atomicStore(&trace_buf[w + TRACE_REC_SLOT], task.slot);
    atomicStore(&trace_buf[w + TRACE_REC_OP_TENANT], task.op_tenant);
    atomicStore(&trace_buf[w + TRACE_REC_GROUP], trace_group);
    atomicStore(&trace_buf[w + TRACE_REC_LANE], trace_lane);
    atomicStore(&trace_buf[w + TRACE_REC_START], task.start);
    atomicStore(&trace_buf[w + TRACE_REC_END], end);
    atomicStore(&trace_buf[w + TRACE_REC_OUTCOME], task.outcome);
    atomicStore(&trace_buf[w + TRACE_REC_PARENT], task.parent);
}

// trace_claim_round is lane 0's part of a claim round's tracing (a
// workgroup-claiming drain), called by claim_next right after its
// atomicAdd on a partition's HEAD, while the other lanes wait at the
// uniform load that follows: the lanes that partition gives slots (got of
// them) take their start tickets and, on the round's first partition, the
// last round's lanes (trace_claimed of them, lanes 0 … held − 1) their end
// tickets, from one atomicAdd of held + got on the clock; the held records
// take their places from one atomicAdd of held on the cursor. The last
// round ended at the loop's barrier, after every slot of it stored its
// final status.
fn trace_claim_round(first_try: bool, first: u32, tail: u32, need: u32) {
    if (!trace_on) {
        return;
    }
    var held = 0u;
    if (first_try) {
        held = trace_claimed;
    }
    var at = vec3<u32>(0u, 0u, 0u);
    if (first < tail) {
        at.z = min(need, tail - first); // claim_next's got
    }
    if (held + at.z != 0u) {
        at.x = atomicAdd(&trace_buf[TRACE_CLOCK], held + at.z);
    }
    if (held != 0u) {
        at.y = atomicAdd(&trace_buf[TRACE_CURSOR], held);
    }
    trace_round_at = at;
}

// trace_took is every lane's part, after that uniform load: a lane that
// held a record writes it with its end ticket, a lane this partition gave
// a slot (of rank below got) keeps its start ticket, and every lane counts
// the round's claims (the same on each: got is uniform).
fn trace_took(lane: u32, first_try: bool, rank: u32, owned: bool) {
    if (!trace_on) {
        return;
    }
    let at = trace_round_at;
    var held = 0u;
    if (first_try) {
        held = trace_claimed;
        if (trace_holds) {
            trace_append(at.y + lane, trace_held, at.x + lane);
            trace_holds = false;
        }
        trace_claimed = 0u;
    }
    if (!owned && rank < at.z) {
        trace_start_ticket = at.x + held + rank;
    }
    trace_claimed += at.z;
}

// trace_end ends the drain's last round after its loop (which may have
// left right after a trace_took, so a barrier comes first): the lanes that
// claimed in it take their end tickets and write their records.
fn trace_end(lane: u32) {
    workgroupBarrier();
    if (lane == 0u) {
        trace_claim_round(true, 0u, 0u, 0u); // no partition: only the held lanes' ends
    }
    workgroupBarrier();
    trace_took(lane, true, 0u, true);
}
