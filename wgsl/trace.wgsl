// trace.wgsl: no entry point; the task trace of a traced drain
// (docs/TRACE.md), not a kernel by itself: a traced drain is abi_gen.wgsl,
// trace_abi_gen.wgsl, this file, then megakernel.wgsl with its `// @trace: `
// lines turned into code
// (Kernel.Source with tracing on). Without tracing none of it is compiled,
// and the drain's source is the one it was before the feature.
//
// Binding (group BIND_GROUP):
//
//   BINDING_TRACE  trace_buf  storage, read_write  TraceBuffer:
//                  TRACE_HEADER_WORDS atomic header words (cursor, capacity,
//                  clock, the parent table's offset), then plain vec4<u32>:
//                  capacity records, capacity places for heads, then, for
//                  a spawning kernel, one per ring slot (the parent table)
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
// - A workgroup-claiming drain (WORKGROUP_CLAIMS) takes its tickets and
//   record places per claim round, not per slot, in claim_next's own
//   round trip (trace_claim_round, trace_took): one atomicAdd on the
//   clock hands the last round's lanes their end tickets and this
//   round's their start tickets, one on the cursor places the last
//   round's records. Still two tickets per record, each unique; a task's
//   end is its round's end, the barrier every lane of the workgroup
//   waits at before it claims again.
// - Records are packed (docs/TRACE.md §1): record r is one 16-byte store
//   by the lane that ran its slot, at body[r], and the first record of a
//   run (the lanes of a claim round one partition gave slots, offset 0)
//   also stores the run's head at body[cap + r]: its workgroup, start and
//   end tickets and lane, from which the run's others follow by their
//   offset. Records stay dense, as a half-written 32-byte sector costs the
//   memory a read (bench/results-trace.md). Plain data, read by the host
//   after the pass.
// - A spawn writes its child's parent (spawner + 1) in the child's entry of
//   the parent table (spawn_prelude.wgsl's hook); the child's record takes
//   it and zeroes the entry, so a slot the host publishes later reads 0,
//   no parent. The entries are plain data too, as no two lanes meet in one
//   within a pass: a spawned child is claimable only from the next pass on
//   (the spawn finalize moves TAIL after the drain, and the dispatch
//   boundary orders the two), one lane claims it, and a spawn writes only
//   slots that no claim of its pass reaches. An entry is a whole vec4, so
//   that no store of one rewrites a neighbour's. Records stop short of the
//   table.

struct TraceBuffer {
    header: array<atomic<u32>, TRACE_HEADER_WORDS>,
    body: array<vec4<u32>>,
}

@group(BIND_GROUP) @binding(BINDING_TRACE) var<storage, read_write> trace_buf: TraceBuffer;

// A record's vec4 and a head's are their words in trace_abi_gen.wgsl's
// order; a record takes TRACE_RECORD_WORDS of the buffer, its own vec4 and
// a head's place. An offset fits above the fault code, and a workgroup's
// claim round of up to WORKGROUP_SIZE_X lanes starts a run every
// TRACE_OFFSET_SPAN of them.
const_assert TRACE_TASK_SLOT == 0u && TRACE_TASK_OP_TENANT == 1u && TRACE_TASK_OUTCOME == 2u &&
    TRACE_TASK_PARENT == 3u && TRACE_HEAD_GROUP == 0u && TRACE_HEAD_START == 1u &&
    TRACE_HEAD_END == 2u && TRACE_HEAD_LANE == 3u && TRACE_RECORD_WORDS == 2u * TRACE_VEC_WORDS;
const_assert (TRACE_FAULT_MASK << TRACE_FAULT_SHIFT) < (1u << TRACE_OFFSET_SHIFT) &&
    ((TRACE_OFFSET_SPAN - 1u) << TRACE_OFFSET_SHIFT) >> TRACE_OFFSET_SHIFT == TRACE_OFFSET_SPAN - 1u;

// The lane's place and the records it may write, set once by trace_at.
var<private> trace_group: u32;
var<private> trace_lane: u32;
var<private> trace_cap: u32;
var<private> trace_parents: u32; // the parent table's first word, 0: none
var<private> trace_entries: u32; // the entries it holds

// A record waiting for its end ticket, in a workgroup-claiming drain.
struct TraceTask {
    slot: u32,
    op_tenant: u32,
    start: u32,
    outcome: u32, // with the record's offset in its run
    parent: u32,
}

// Per-round state (trace_claim_round, trace_took) of a drain that traces
// by round (WORKGROUP_CLAIMS, an override, so that a pipeline holds the
// code of one way only): this lane's start ticket for the round and its
// offset in the round's run (0 claiming by lane: a run of one), the
// lanes that claimed last round (uniform), and this lane's record of it.
var<private> trace_start_ticket: u32;
var<private> trace_offset: u32;
var<private> trace_claimed: u32;
var<private> trace_held: TraceTask;
var<private> trace_holds: bool;
// Lane 0's tickets and record place for the round: clock, cursor.
var<workgroup> trace_round_at: vec2<u32>;

// trace_at records where this lane runs, how many records the buffer
// holds (the smaller of the host's capacity word and the binding) and
// where its parent table is (a host's word that is not a whole vec4 of
// the binding's is none).
fn trace_at(group: u32, lane: u32) {
    trace_group = group;
    trace_lane = lane;
    let len = TRACE_HEADER_WORDS + arrayLength(&trace_buf.body) * TRACE_VEC_WORDS;
    var end = len;
    let table = atomicLoad(&trace_buf.header[TRACE_PARENTS]);
    if (table >= TRACE_HEADER_WORDS && table < len && (table - TRACE_HEADER_WORDS) % TRACE_VEC_WORDS == 0u) {
        trace_parents = table;
        trace_entries = (len - table) / TRACE_VEC_WORDS;
        end = table;
    }
    trace_cap = min(atomicLoad(&trace_buf.header[TRACE_CAPACITY]), (end - TRACE_HEADER_WORDS) / TRACE_RECORD_WORDS);
}

// trace_entry is the body index of slot's parent table entry.
fn trace_entry(slot: u32) -> u32 {
    return (trace_parents - TRACE_HEADER_WORDS) / TRACE_VEC_WORDS + slot;
}

// trace_spawned notes that slot parent spawned slot child.
fn trace_spawned(child: u32, parent: u32) {
    if (trace_parents != 0u && child < trace_entries) {
        trace_buf.body[trace_entry(child)] = vec4<u32>(parent + 1u, 0u, 0u, 0u);
    }
}

// trace_parent takes slot's parent from the table: TRACE_NO_PARENT when
// none spawned it (0 − 1 wraps to it).
fn trace_parent(slot: u32) -> u32 {
    if (trace_parents == 0u || slot >= trace_entries) {
        return TRACE_NO_PARENT;
    }
    let e = trace_entry(slot);
    let parent = trace_buf.body[e].x;
    if (parent != 0u) {
        trace_buf.body[e] = vec4<u32>(0u, 0u, 0u, 0u);
    }
    return parent - 1u;
}

// trace_ticket takes the next ticket of the clock: a slot's start ticket.
// In a claim round the lane's was taken with the round's (trace_took).
fn trace_ticket() -> u32 {
    if (WORKGROUP_CLAIMS) {
        return trace_start_ticket;
    }
    return atomicAdd(&trace_buf.header[TRACE_CLOCK], 1u);
}

// trace_record takes the slot's end ticket and appends its record; in a
// claim round, it keeps the record for the next round's (trace_took).
fn trace_record(slot: u32, op: u32, tenant: u32, start: u32, out: Outcome) {
    let parent = trace_parent(slot); // taken even when the record is dropped
    let task = TraceTask(slot, (op & TRACE_OP_MASK) | (tenant << TRACE_TENANT_SHIFT), start,
        out.status | ((out.fault & TRACE_FAULT_MASK) << TRACE_FAULT_SHIFT) | (trace_offset << TRACE_OFFSET_SHIFT), parent);
    if (WORKGROUP_CLAIMS) {
        trace_held = task;
        trace_holds = true;
        return;
    }
    let end = atomicAdd(&trace_buf.header[TRACE_CLOCK], 1u);
    trace_append(atomicAdd(&trace_buf.header[TRACE_CURSOR], 1u), task, end);
}

// trace_append writes a record at place r, when the buffer holds it, and
// the head of its run when it is the run's first.
fn trace_append(r: u32, task: TraceTask, end: u32) {
    if (r >= trace_cap) {
        return;
    }
    trace_buf.body[r] = vec4<u32>(task.slot, task.op_tenant, task.outcome, task.parent);
    if ((task.outcome >> TRACE_OFFSET_SHIFT) == 0u) {
        trace_buf.body[trace_cap + r] = vec4<u32>(trace_group, task.start, end, trace_lane);
    }
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
    var held = 0u;
    if (first_try) {
        held = trace_claimed;
    }
    let got = trace_got(first, tail, need);
    var at = vec2<u32>(0u, 0u);
    if (held + got != 0u) {
        at.x = atomicAdd(&trace_buf.header[TRACE_CLOCK], held + got);
    }
    if (held != 0u) {
        at.y = atomicAdd(&trace_buf.header[TRACE_CURSOR], held);
    }
    trace_round_at = at;
}

// trace_took is every lane's part, after that uniform load: a lane that
// held a record writes it with its end ticket, a lane this partition gave
// a slot (of rank below got) keeps its start ticket and its offset in the
// partition's run (its lanes, of rank 0 … got − 1, are consecutive and
// hold consecutive records, start and end tickets), and every lane counts
// the round's claims (the same on each: got is uniform).
fn trace_took(lane: u32, first_try: bool, rank: u32, first: u32, tail: u32, need: u32, owned: bool) {
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
    let got = trace_got(first, tail, need);
    if (!owned && rank < got) {
        trace_start_ticket = at.x + held + rank;
        trace_offset = rank % TRACE_OFFSET_SPAN;
    }
    trace_claimed += got;
}

// trace_got is claim_next's count of the lanes a partition gives slots.
fn trace_got(first: u32, tail: u32, need: u32) -> u32 {
    if (first < tail) {
        return min(need, tail - first);
    }
    return 0u;
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
    trace_took(lane, true, 0u, 0u, 0u, 0u, true);
}
