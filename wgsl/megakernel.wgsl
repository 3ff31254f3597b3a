// megakernel.wgsl: entry point `drain`, one bounded drain of the ringscope
// ring (shared/docs/PROTOCOL.md §3–§5, ABI v1). Assembled after abi_gen.wgsl,
// which declares every UPPER_SNAKE name used here except the overrides below.
//
// Bindings (group BIND_GROUP):
//
//   BINDING_CONTROL  control  storage, read_write  array<atomic<u32>>, its real length
//                                                  (CONTROL_MIN_WORDS + observable words)
//   BINDING_RING     ring     storage, read_write  array<atomic<u32>>, slots × SLOT_WORDS
//   BINDING_LOG      log      storage, read_write  array<atomic<u32>>, LOG_HEADER_WORDS +
//                                                  LOG_RECORD_WORDS × capacity
//   BINDING_PARAMS   params   uniform              vec4<u32> (PARAMS_WORDS, pinned by a Go
//                                                  test) indexed by PARAM_EPOCH, PARAM_BUDGET,
//                                                  PARAM_OBSERVABLE, PARAM_FLAGS
//   BINDING_DATA     data     storage, read        array<u32>: DFA tables, hash input
//
// Overrides (pipeline constants):
//
//   WORKGROUP_SIZE_X  the workgroup width (64, 128 or 256; PROTOCOL §6 geometry).
//   WORKGROUP_CLAIMS  claims by workgroup (true) or by lane (false, the default).
//   ENABLE_OP_*       one bool per opcode this kernel implements, all true by
//                     default. The JIT variant is this same source with the
//                     flags of the opcodes absent from the ring set to false:
//                     the backend compiler drops those cases, and such an
//                     opcode, if met anyway, faults UNKNOWN_OPCODE like any
//                     unknown opcode.
//
// Invariants:
//
// - Bounded: a lane runs at most params[PARAM_BUDGET] iterations; every inner
//   loop is bounded by an argument checked against a buffer length (SPIN's
//   rounds against SPIN_MAX_ROUNDS). No lane waits on another lane,
//   workgroup or the host.
// - Exactly once: partition p's k-th claim ticket (atomicAdd on HEAD[p]) owns
//   slot OFF[p] + k % C when k < TAIL[p]; any grid size drains the ring.
//   HEAD[p] overshoots TAIL[p] by the failed tickets; finalize.wgsl clamps it.
// - Every index is checked before use: control reads against
//   arrayLength(&control) (W), opcode writes against the N = min(
//   params[PARAM_OBSERVABLE], W − CTRL_OBSERVABLE) OBSERVABLE words, data
//   against arrayLength(&data) (D), the log against min(CAPACITY, its
//   length), partitions against arrayLength(&ring). Faults are reported in
//   the slot status, FAULTS and a log record, never clamped silently.
// - Writes by opcodes touch only OBSERVABLE[0 .. N).
// - Partition p is usable when OFF[p] < OFF[p+1] ≤ the ring's slots; a
//   malformed or empty partition is never claimed from and never counts as
//   remaining work.
// - Hot counters (CLAIMS, DONE_COUNT, TENANT_CLAIMS, PRIORITY_CLAIMS,
//   OPCODE_METRICS) are summed per lane in registers (LaneCounts: tenant
//   and opcode per run of one value), then in workgroup memory, and added
//   to control once per workgroup after the loop; rare ones (FAULTS,
//   DENIED, EPOCH, BUDGET_EXHAUSTED, DISPATCHES) go straight to control.
//
// The semantics are those of the Go reference interpreter (wgsl/ref, its
// doc comment is the detailed spec; tests compare the two on the same bytes).
// Checks run in argument order (a0, a1, …), all before any effect, so a
// faulting opcode has no effect but the fault. Index arithmetic is exact:
// every check below is written so that it cannot wrap around.
//
// - A write to control word w faults PROTECTED when w < CTRL_OBSERVABLE,
//   OUT_OF_BOUNDS when w − CTRL_OBSERVABLE ≥ N; a read faults OUT_OF_BOUNDS
//   when w ≥ W; a result index i (OBSERVABLE[i]) faults when i ≥ N.
// - MEMCPY: a0 + a2 ≤ W, then a1 ≥ CTRL_OBSERVABLE (else PROTECTED), then
//   a1 + a2 ≤ CTRL_OBSERVABLE + N, even when a2 = 0; copies word by word in
//   ascending order, so an overlapping copy with a1 > a0 repeats words.
// - DFA_STEP a0 state word (a write target), a1 table offset (words of data),
//   a2 input offset and a3 length (bytes of data; byte j is bits 8(j % 4) of
//   word j / 4): a2 + a3 ≤ 4D; state = control[a0]; per byte b:
//   t = a1 + 256 × state + b must be < D (else OUT_OF_BOUNDS, nothing
//   stored), state = data[t]; finally control[a0] = state.
// - HASH a0 data word, a1 word count, a2 result: a0 + a1 ≤ D; FNV-1a-32
//   (offset basis 0x811C9DC5, prime 0x01000193) over the little-endian bytes
//   of data[a0 .. a0 + a1), i.e. Go's hash/fnv New32a over those bytes.
// - SPIN a0 rounds (≤ SPIN_MAX_ROUNDS, else OUT_OF_BOUNDS), a1 result, a2
//   seed: x = a2; a0 times { x += 0x9E3779B9; x ^= x >> 16;
//   x *= 0x21F0AAAD; x ^= x >> 15; x *= 0x735A2D97; x ^= x >> 15 } (mod 2^32);
//   OBSERVABLE[a1] = x (ref.Spin).
// - COMPARE_SWAP retries atomicCompareExchangeWeak only while it fails
//   spuriously (old == expected, not exchanged), at most CAS_RETRIES times.
// - The claim of a slot is exclusive (claim_slot): STATUS goes PUBLISHED →
//   CLAIMED by a compare-exchange, so when two tickets of one submission
//   name the same slot one runs it and the other faults BAD_STATE; the
//   slot ends FAULT (finish_slot never overwrites that FAULT), as in ref.
//   When params[PARAM_FLAGS] has PARAM_FLAG_UNLAPPED, the host vouches
//   that no two tickets name one slot, and the claim is a load of STATUS
//   (PUBLISHED, or BAD_STATE) and the finish a store: the same results,
//   without a read-modify-write that waits on memory per slot.
// - BATCH_FENCE: EPOCH += 1 and OBSERVABLE[a2] = a1.
// - The slot's PRIORITY word is not read (PRIORITY_CLAIMS counts the
//   partition), TENANT_BASE is not followed, STARVATION is not written.

override WORKGROUP_SIZE_X: u32 = 64u;
// WORKGROUP_CLAIMS: claims by workgroup (claim_next: one atomicAdd per
// round for all lanes, handed out through workgroup memory, with two
// barriers per round) instead of one atomicAdd per lane and claim
// (lane_loop). The runner turns it on for GPUs; a CPU adapter
// (SwiftShader) pays more for the barriers than for the atomics, and the
// code without it is shaped for such an adapter (lane_loop, args).
override WORKGROUP_CLAIMS: bool = false;

override ENABLE_OP_NOP: bool = true;
override ENABLE_OP_STORE_U32: bool = true;
override ENABLE_OP_ATOMIC_ADD: bool = true;
override ENABLE_OP_LOAD_U32: bool = true;
override ENABLE_OP_COMPARE_SWAP: bool = true;
override ENABLE_OP_MEMCPY: bool = true;
override ENABLE_OP_DFA_STEP: bool = true;
override ENABLE_OP_BATCH_FENCE: bool = true;
override ENABLE_OP_HASH: bool = true;
override ENABLE_OP_SPIN: bool = true;
override ENABLE_OP_YIELD: bool = true;
override ENABLE_OP_REQUEUE: bool = true;
override ENABLE_OP_WAIT_IO: bool = true;
override ENABLE_OP_RAISE: bool = true;
override ENABLE_OP_PRINTF: bool = true;
override ENABLE_OP_SHUTDOWN: bool = true;

// DFA tables have one row of 256 entries per state: one per input byte value.
const DFA_ROW: u32 = 256u;
const BITS_PER_BYTE: u32 = 8u;
const BYTE_MASK: u32 = 0xFFu;
const FNV_OFFSET_BASIS: u32 = 0x811C9DC5u;
const FNV_PRIME: u32 = 0x01000193u;
// SPIN's round: a golden-ratio increment, then a lowbias32-style finaliser.
const SPIN_STEP: u32 = 0x9E3779B9u;
const SPIN_MUL_A: u32 = 0x21F0AAADu;
const SPIN_MUL_B: u32 = 0x735A2D97u;
const SPIN_SHIFT_A: u32 = 16u;
const SPIN_SHIFT_B: u32 = 15u;
// Bounds the spurious-failure retries of a weak compare-exchange.
const CAS_RETRIES: u32 = 1024u;

@group(BIND_GROUP) @binding(BINDING_CONTROL) var<storage, read_write> control: array<atomic<u32>>;
@group(BIND_GROUP) @binding(BINDING_RING) var<storage, read_write> ring: array<atomic<u32>>;
@group(BIND_GROUP) @binding(BINDING_LOG) var<storage, read_write> debug_log: array<atomic<u32>>;
@group(BIND_GROUP) @binding(BINDING_PARAMS) var<uniform> params: vec4<u32>;
@group(BIND_GROUP) @binding(BINDING_DATA) var<storage, read> data: array<u32>;

// Per-workgroup sums of the hot counters (zero-initialised by WebGPU).
var<workgroup> wg_claims: atomic<u32>;
var<workgroup> wg_done: atomic<u32>;
var<workgroup> wg_tenant_claims: array<atomic<u32>, TENANT_SLOTS>;
var<workgroup> wg_priority_claims: array<atomic<u32>, PRIORITY_LEVELS>;
var<workgroup> wg_opcode_metrics: array<atomic<u32>, METRIC_OPCODES>;

// Outcome is how a slot ends: a status and, for STATUS_FAULT, a fault code.
struct Outcome {
    status: u32,
    fault: u32,
}

fn ends(status: u32) -> Outcome {
    return Outcome(status, 0u);
}

fn faults(code: u32) -> Outcome {
    return Outcome(STATUS_FAULT, code);
}

// Claim is the result of one claim attempt over the priority partitions.
struct Claim {
    owned: bool, // a ticket below TAIL[priority] was taken
    priority: u32,
    slot: u32,
}

// observable is N: the OBSERVABLE words opcodes may write, the smaller of
// the params word and what the control binding holds. drain has checked
// arrayLength(&control) ≥ CONTROL_MIN_WORDS.
fn observable() -> u32 {
    return min(params[PARAM_OBSERVABLE], arrayLength(&control) - CTRL_OBSERVABLE);
}

// read_fault is 0 when control[word] may be read, else the fault code.
fn read_fault(word: u32) -> u32 {
    if (word >= arrayLength(&control)) {
        return FAULT_OUT_OF_BOUNDS;
    }
    return 0u;
}

// write_fault is 0 when an opcode may write control[word], else the fault code.
fn write_fault(word: u32) -> u32 {
    if (word < CTRL_OBSERVABLE) {
        return FAULT_PROTECTED;
    }
    if (word - CTRL_OBSERVABLE >= observable()) {
        return FAULT_OUT_OF_BOUNDS;
    }
    return 0u;
}

// range_fault is 0 when [start, start + n) lies inside length words.
fn range_fault(start: u32, n: u32, length: u32) -> u32 {
    if (start > length || n > length - start) {
        return FAULT_OUT_OF_BOUNDS;
    }
    return 0u;
}

// write_range_fault is 0 when an opcode may write control[start .. start + n).
fn write_range_fault(start: u32, n: u32) -> u32 {
    if (start < CTRL_OBSERVABLE) {
        return FAULT_PROTECTED;
    }
    return range_fault(start - CTRL_OBSERVABLE, n, observable());
}

// result_fault is 0 when an opcode may write OBSERVABLE[index].
fn result_fault(index: u32) -> u32 {
    if (index >= observable()) {
        return FAULT_OUT_OF_BOUNDS;
    }
    return 0u;
}

// log_append appends one record (PROTOCOL §5): the cursor counts every
// attempt, a record at or past CAPACITY (or past the binding) is dropped.
fn log_append(format: u32, slot: u32, a: u32, b: u32) {
    let len = arrayLength(&debug_log);
    if (len < LOG_HEADER_WORDS) {
        return;
    }
    let r = atomicAdd(&debug_log[LOG_CURSOR], 1u);
    let capacity = min(atomicLoad(&debug_log[LOG_CAPACITY]), (len - LOG_HEADER_WORDS) / LOG_RECORD_WORDS);
    if (r >= capacity) {
        return;
    }
    let record = array<u32, LOG_RECORD_WORDS>(format, slot, a, b);
    let w = LOG_HEADER_WORDS + r * LOG_RECORD_WORDS;
    for (var i = 0u; i < LOG_RECORD_WORDS; i++) {
        atomicStore(&debug_log[w + i], record[i]);
    }
}

// data_byte is byte b of the data binding, little-endian within its word.
fn data_byte(b: u32) -> u32 {
    return (data[b / WORD_BYTES] >> ((b % WORD_BYTES) * BITS_PER_BYTE)) & BYTE_MASK;
}

fn op_store_u32(value: u32, word: u32) -> Outcome {
    let f = write_fault(word);
    if (f != 0u) {
        return faults(f);
    }
    atomicStore(&control[word], value);
    return ends(STATUS_DONE);
}

fn op_atomic_add(delta: u32, word: u32) -> Outcome {
    let f = write_fault(word);
    if (f != 0u) {
        return faults(f);
    }
    atomicAdd(&control[word], delta);
    return ends(STATUS_DONE);
}

fn op_load_u32(word: u32, result: u32) -> Outcome {
    var f = read_fault(word);
    if (f == 0u) {
        f = result_fault(result);
    }
    if (f != 0u) {
        return faults(f);
    }
    atomicStore(&control[CTRL_OBSERVABLE + result], atomicLoad(&control[word]));
    return ends(STATUS_DONE);
}

fn op_compare_swap(word: u32, expected: u32, desired: u32, result: u32) -> Outcome {
    var f = write_fault(word);
    if (f == 0u) {
        f = result_fault(result);
    }
    if (f != 0u) {
        return faults(f);
    }
    var old = 0u;
    for (var i = 0u; i < CAS_RETRIES; i++) {
        let r = atomicCompareExchangeWeak(&control[word], expected, desired);
        old = r.old_value;
        if (r.exchanged || r.old_value != expected) {
            break;
        }
    }
    atomicStore(&control[CTRL_OBSERVABLE + result], old);
    return ends(STATUS_DONE);
}

fn op_memcpy(src: u32, dst: u32, count: u32) -> Outcome {
    var f = range_fault(src, count, arrayLength(&control));
    if (f == 0u) {
        f = write_range_fault(dst, count);
    }
    if (f != 0u) {
        return faults(f);
    }
    for (var i = 0u; i < count; i++) {
        atomicStore(&control[dst + i], atomicLoad(&control[src + i]));
    }
    return ends(STATUS_DONE);
}

fn op_dfa_step(word: u32, table: u32, input: u32, length: u32) -> Outcome {
    let words = arrayLength(&data);
    var f = write_fault(word);
    if (f == 0u) {
        f = range_fault(input, length, words * WORD_BYTES);
    }
    if (f != 0u) {
        return faults(f);
    }
    var state = atomicLoad(&control[word]);
    for (var i = 0u; i < length; i++) {
        // a miss: table + state × DFA_ROW + byte ≥ words, computed without overflow.
        if (table >= words) {
            return faults(FAULT_OUT_OF_BOUNDS);
        }
        let last = words - table - 1u;
        if (state > last / DFA_ROW) {
            return faults(FAULT_OUT_OF_BOUNDS);
        }
        let index = state * DFA_ROW + data_byte(input + i);
        if (index > last) {
            return faults(FAULT_OUT_OF_BOUNDS);
        }
        state = data[table + index];
    }
    atomicStore(&control[word], state);
    return ends(STATUS_DONE);
}

fn op_batch_fence(tag: u32, result: u32) -> Outcome {
    let f = result_fault(result);
    if (f != 0u) {
        return faults(f);
    }
    atomicAdd(&control[CTRL_EPOCH], 1u);
    atomicStore(&control[CTRL_OBSERVABLE + result], tag);
    return ends(STATUS_DONE);
}

fn op_hash(first: u32, count: u32, result: u32) -> Outcome {
    var f = range_fault(first, count, arrayLength(&data));
    if (f == 0u) {
        f = result_fault(result);
    }
    if (f != 0u) {
        return faults(f);
    }
    var h = FNV_OFFSET_BASIS;
    for (var i = 0u; i < count; i++) {
        let w = data[first + i];
        for (var k = 0u; k < WORD_BYTES; k++) {
            h = (h ^ ((w >> (k * BITS_PER_BYTE)) & BYTE_MASK)) * FNV_PRIME;
        }
    }
    atomicStore(&control[CTRL_OBSERVABLE + result], h);
    return ends(STATUS_DONE);
}

fn op_spin(rounds: u32, result: u32, seed: u32) -> Outcome {
    var f = 0u;
    if (rounds > SPIN_MAX_ROUNDS) {
        f = FAULT_OUT_OF_BOUNDS;
    }
    if (f == 0u) {
        f = result_fault(result);
    }
    if (f != 0u) {
        return faults(f);
    }
    var x = seed;
    for (var i = 0u; i < rounds; i++) {
        x += SPIN_STEP;
        x ^= x >> SPIN_SHIFT_A;
        x *= SPIN_MUL_A;
        x ^= x >> SPIN_SHIFT_B;
        x *= SPIN_MUL_B;
        x ^= x >> SPIN_SHIFT_B;
    }
    atomicStore(&control[CTRL_OBSERVABLE + result], x);
    return ends(STATUS_DONE);
}

// The user kernel's prelude, buffers, overrides and functions
// (docs/OPCODES.md) replace the next line; without one it stays a comment.
// @user-declarations

// args4 loads ARG0..ARG3 of a claimed slot.
fn args4(slot: u32) -> vec4<u32> {
    let arg = slot * SLOT_WORDS + SLOT_ARG0;
    return vec4<u32>(atomicLoad(&ring[arg]), atomicLoad(&ring[arg + 1u]),
                     atomicLoad(&ring[arg + 2u]), atomicLoad(&ring[arg + 3u]));
}

// args is a case's arguments: with WORKGROUP_CLAIMS (a GPU) only the cases
// that read arguments load them (a NOP loads none); without, pre, which
// execute loaded once for all cases: a CPU adapter runs every case's
// block, taken or not, so nine loads in the cases cost nine times one.
fn args(slot: u32, pre: vec4<u32>) -> vec4<u32> {
    if (WORKGROUP_CLAIMS) {
        return args4(slot);
    }
    return pre;
}

// execute runs opcode op of a claimed slot; the built-in cases take the
// arguments they use through args. User opcodes' cases replace the @user-cases
// line, each calling its function with all SLOT_ARGS argument words.
fn execute(op: u32, slot: u32) -> Outcome {
    var pre = vec4<u32>();
    if (!WORKGROUP_CLAIMS) {
        pre = args4(slot);
    }
    switch op {
        case OP_NOP: {
            if (ENABLE_OP_NOP) { return ends(STATUS_DONE); }
        }
        case OP_STORE_U32: {
            if (ENABLE_OP_STORE_U32) { let a = args(slot, pre); return op_store_u32(a.x, a.y); }
        }
        case OP_ATOMIC_ADD: {
            if (ENABLE_OP_ATOMIC_ADD) { let a = args(slot, pre); return op_atomic_add(a.x, a.y); }
        }
        case OP_LOAD_U32: {
            if (ENABLE_OP_LOAD_U32) { let a = args(slot, pre); return op_load_u32(a.x, a.y); }
        }
        case OP_COMPARE_SWAP: {
            if (ENABLE_OP_COMPARE_SWAP) { let a = args(slot, pre); return op_compare_swap(a.x, a.y, a.z, a.w); }
        }
        case OP_MEMCPY: {
            if (ENABLE_OP_MEMCPY) { let a = args(slot, pre); return op_memcpy(a.x, a.y, a.z); }
        }
        case OP_DFA_STEP: {
            if (ENABLE_OP_DFA_STEP) { let a = args(slot, pre); return op_dfa_step(a.x, a.y, a.z, a.w); }
        }
        case OP_BATCH_FENCE: {
            if (ENABLE_OP_BATCH_FENCE) { let a = args(slot, pre); return op_batch_fence(a.y, a.z); }
        }
        case OP_HASH: {
            if (ENABLE_OP_HASH) { let a = args(slot, pre); return op_hash(a.x, a.y, a.z); }
        }
        case OP_SPIN: {
            if (ENABLE_OP_SPIN) { let a = args(slot, pre); return op_spin(a.x, a.y, a.z); }
        }
        case OP_YIELD: {
            if (ENABLE_OP_YIELD) { return ends(STATUS_YIELD); }
        }
        case OP_REQUEUE: {
            if (ENABLE_OP_REQUEUE) { return ends(STATUS_REQUEUE); }
        }
        case OP_WAIT_IO: {
            if (ENABLE_OP_WAIT_IO) { return ends(STATUS_WAIT_IO); }
        }
        case OP_RAISE: {
            if (ENABLE_OP_RAISE) { return faults(FAULT_USER_FAULT); }
        }
        case OP_PRINTF: {
            if (ENABLE_OP_PRINTF) {
                let a = args(slot, pre);
                log_append(a.x, slot, a.y, a.z);
                return ends(STATUS_DONE);
            }
        }
        case OP_SHUTDOWN: {
            if (ENABLE_OP_SHUTDOWN) {
                atomicStore(&control[CTRL_SHUTDOWN], 1u);
                atomicStore(&wg_shutdown, 1u); // claim_next
                return ends(STATUS_DONE);
            }
        }
        // @user-cases
        default: {}
    }
    return faults(FAULT_UNKNOWN_OPCODE);
}

// Partition is one priority partition's slots [start, end).
struct Partition {
    start: u32,
    end: u32,
}

fn partition_at(p: u32) -> Partition {
    return Partition(atomicLoad(&control[CTRL_PRIORITY_OFFSETS + p]),
                     atomicLoad(&control[CTRL_PRIORITY_OFFSETS + p + 1u]));
}

// usable: OFF[p] < OFF[p+1] ≤ slots.
fn usable(q: Partition, slots: u32) -> bool {
    return q.start < q.end && q.end <= slots;
}

// LaneRing is the workgroup's view of the partitions. OFF and TAIL do not
// change during a dispatch (only the host writes them; an opcode's write to
// them faults PROTECTED), and a partition whose HEAD reached its TAIL stays
// drained (HEAD only grows), so they are loaded once per workgroup, and a
// partition seen drained is never tried again: a claim round touches only
// the HEAD it takes tickets from, not all fifteen words of the five
// partitions on the line every workgroup's atomicAdd hits.
struct LaneRing {
    start: array<u32, PRIORITY_LEVELS>,
    size: array<u32, PRIORITY_LEVELS>,
    tail: array<u32, PRIORITY_LEVELS>,
    live: u32, // bit p: partition p is usable and not yet seen drained
}

fn lane_ring(slots: u32) -> LaneRing {
    var r: LaneRing;
    r.live = 0u;
    for (var p = 0u; p < PRIORITY_LEVELS; p++) {
        let q = partition_at(p);
        r.start[p] = q.start;
        r.size[p] = q.end - q.start;
        r.tail[p] = atomicLoad(&control[CTRL_TAIL + p]);
        if (usable(q, slots)) {
            r.live |= 1u << p;
        }
    }
    return r;
}

// The workgroup's view of the partitions (lane 0 loads it; every lane
// takes a copy that the uniformity analysis knows is uniform), the words
// through which lane 0 hands out what one atomic gave the workgroup
// (x: non-zero to stop for SHUTDOWN, y: the first ticket), and whether a
// lane of this workgroup ran SHUTDOWN in this dispatch.
var<workgroup> wg_ring: LaneRing;
var<workgroup> wg_hand: vec2<u32>;
var<workgroup> wg_shutdown: atomic<u32>;

fn workgroup_ring(slots: u32, lane: u32) -> LaneRing {
    if (lane == 0u) {
        wg_ring = lane_ring(slots);
    }
    return workgroupUniformLoad(&wg_ring);
}

// claim_next gives each lane of the workgroup that still needs one (need
// of them, ranked by lane index) the first ticket below TAIL of the live
// partitions 0..4, in order, as PROTOCOL §3's per-lane loop does, but with
// one atomicAdd of need per partition tried for the whole workgroup
// instead of one per lane: the lane of rank k among those without a
// ticket owns first + k while that is below TAIL. A partition that could
// not give every lane a ticket leaves the live set. need is left at the
// number of lanes that got none; then every partition is drained. Called
// in uniform control flow, after a barrier that follows every lane's read
// of wg_hand in the previous round; need, the live set and *stop stay
// uniform.
//
// The iteration's SHUTDOWN check comes before its first ticket: lane 0
// stops the round when *shut (the SHUTDOWN word as lane 0 last read it)
// or wg_shutdown is set, and then takes no ticket. *shut is read again
// right after the round's first atomicAdd, while it is in flight, not
// before it: one round trip to memory per round, not two. A value read
// that early is one that a read at the top of the next iteration may
// return, since nothing orders another workgroup's store of SHUTDOWN
// before it (atomics are relaxed); this workgroup's own SHUTDOWN opcode
// is seen exactly, through wg_shutdown and the barrier after the round.
fn claim_next(r: ptr<function, LaneRing>, lane: u32, need: ptr<function, u32>,
              shut: ptr<function, u32>, stop: ptr<function, bool>) -> Claim {
    var rank = lane;
    var claim = Claim(false, 0u, 0u);
    var first_try = true;
    for (var p = 0u; p < PRIORITY_LEVELS; p++) {
        let bit = 1u << p;
        if (*need == 0u || ((*r).live & bit) == 0u) {
            continue;
        }
        if (!first_try) {
            workgroupBarrier(); // every lane read wg_hand before lane 0 reuses it
        }
        if (lane == 0u) {
            var h = vec2<u32>(0u, 0u);
            if (first_try && (*shut != 0u || atomicLoad(&wg_shutdown) != 0u)) {
                h.x = 1u;
            } else {
                h.y = atomicAdd(&control[CTRL_HEAD + p], *need);
                if (first_try) {
                    *shut = atomicLoad(&control[CTRL_SHUTDOWN]);
                }
                // @trace: trace_claim_round(first_try, h.y, (*r).tail[p], *need);
            }
            wg_hand = h;
        }
        let h = workgroupUniformLoad(&wg_hand);
        if (h.x != 0u) {
            *stop = true;
            return claim;
        }
        // @trace: trace_took(lane, first_try, rank, h.y, (*r).tail[p], *need, claim.owned);
        first_try = false;
        let first = h.y;
        let tail = (*r).tail[p];
        var got = 0u;
        if (first < tail) {
            got = min(*need, tail - first);
        }
        if (!claim.owned) {
            if (rank < got) {
                claim = Claim(true, p, (*r).start[p] + (first + rank) % (*r).size[p]);
            } else {
                rank -= got;
            }
        }
        if (got < *need) {
            (*r).live &= ~bit;
        }
        *need -= got;
    }
    return claim;
}

// LaneClaim is a claim and its partition's bounds: OFF, size and TAIL.
struct LaneClaim {
    claim: Claim,
    start: u32,
    size: u32,
    tail: u32,
}

// claim_lane is claim_next for one lane (WORKGROUP_CLAIMS off): the first
// ticket below TAIL of the lane's live partitions 0..4, in order, one
// atomicAdd per ticket; a partition whose ticket failed leaves the lane's
// live set. It reads TAIL and OFF from control, not from a LaneRing, so
// lane_loop carries no arrays through its loops.
fn claim_lane(live: ptr<function, u32>) -> LaneClaim {
    var l = LaneClaim(Claim(false, 0u, 0u), 0u, 1u, 0u);
    for (var p = 0u; p < PRIORITY_LEVELS && !l.claim.owned; p++) {
        let bit = 1u << p;
        if ((*live & bit) != 0u) {
            let c = atomicAdd(&control[CTRL_HEAD + p], 1u);
            let q = partition_at(p);
            l = LaneClaim(Claim(false, p, 0u), q.start, q.end - q.start, atomicLoad(&control[CTRL_TAIL + p]));
            if (c < l.tail) {
                l.claim = Claim(true, p, l.start + c % l.size);
            } else {
                *live &= ~bit;
            }
        }
    }
    return l;
}

// lane_loop is the drain's loop without WORKGROUP_CLAIMS: up to budget
// claims of one ticket each, in claim_lane's order, SHUTDOWN read before
// each. live is the usable partitions not seen drained, and left so.
// Returns true when it stopped for SHUTDOWN or found every partition
// drained (not for the budget).
//
// It is two loops for a CPU adapter's sake (the one that runs it: the
// runner claims by workgroup on GPUs). SwiftShader runs a group of lanes
// in lockstep through every block of a loop's body, taken or not, so a
// claim there costs all of run_slot: every opcode's checks and atomics.
// The inner loop holds only the claim and run_plain, on the lane's
// current partition (l: its bounds in scalars, not a LaneRing's arrays);
// a slot run_plain leaves, or a drained partition (or none yet), ends it,
// and the outer loop's claim_lane and run_slot run once per such slot,
// not once per claim.
fn lane_loop(budget: u32, k: ptr<function, LaneCounts>, live: ptr<function, u32>) -> bool {
    var l = LaneClaim(Claim(false, 0u, 0u), 0u, 1u, 0u); // tail 0: no partition yet
    var it = 0u;
    var stopped = false;
    // Every round takes at least one of the budget's iterations.
    for (var round = 0u; round < budget && it < budget && !stopped; round++) {
        var c = Claim(false, 0u, 0u);
        var fresh = false; // this iteration's ticket by claim_lane
        for (; it < budget; it++) {
            if (atomicLoad(&control[CTRL_SHUTDOWN]) != 0u) {
                stopped = true;
                break;
            }
            if (l.tail == 0u) {
                fresh = true;
                break;
            }
            let p = l.claim.priority;
            let t = atomicAdd(&control[CTRL_HEAD + p], 1u);
            if (t >= l.tail) {
                *live &= ~(1u << p);
                fresh = true;
                break;
            }
            c = Claim(true, p, l.start + t % l.size);
            if (!run_plain(c, k)) {
                it++;
                break;
            }
            c.owned = false;
        }
        if (fresh) {
            l = claim_lane(live);
            c = l.claim;
            stopped = !c.owned;
            it++;
        }
        if (c.owned) {
            run_slot(c, k);
        }
    }
    return stopped;
}

// plain_end is the final status of an opcode that does nothing but end
// (NOP, YIELD, REQUEUE, WAIT_IO, each when enabled), else 0.
fn plain_end(op: u32) -> u32 {
    if (op == OP_NOP && ENABLE_OP_NOP) {
        return STATUS_DONE;
    }
    if (op == OP_YIELD && ENABLE_OP_YIELD) {
        return STATUS_YIELD;
    }
    if (op == OP_REQUEUE && ENABLE_OP_REQUEUE) {
        return STATUS_REQUEUE;
    }
    if (op == OP_WAIT_IO && ENABLE_OP_WAIT_IO) {
        return STATUS_WAIT_IO;
    }
    return 0u;
}

// run_plain is run_slot for the common case, in far less code: an
// unlapped ring, a PUBLISHED slot with a plain_end opcode, of the
// partition, tenant and opcode of the runs the lane counts (so the tenant
// is valid and enabled: its mask was non-zero at the run's first claim,
// and masks do not change during a dispatch). It returns false, having
// changed nothing, for any other slot, which run_slot takes, starting
// new runs.
fn run_plain(c: Claim, k: ptr<function, LaneCounts>) -> bool {
    let base = c.slot * SLOT_WORDS;
    let op = atomicLoad(&ring[base + SLOT_OPCODE]);
    let tenant = atomicLoad(&ring[base + SLOT_TENANT]);
    let end = plain_end(op);
    if (end == 0u || (*k).op_n == 0u || (*k).op != op || (*k).tenant_n == 0u || (*k).tenant != tenant ||
        (*k).prio_n == 0u || (*k).prio != c.priority || !unlapped() ||
        atomicLoad(&ring[base + SLOT_STATUS]) != STATUS_PUBLISHED) {
        return false;
    }
    (*k).claims += 1u;
    (*k).prio_n += 1u;
    (*k).tenant_n += 1u;
    (*k).op_n += 1u;
    // @trace: let trace_start = trace_ticket();
    atomicStore(&ring[base + SLOT_STATUS], end);
    // @trace: trace_record(c.slot, op, tenant, trace_start, ends(end));
    if (end == STATUS_DONE) {
        (*k).done += 1u;
    }
    return true;
}

// work_remains reports whether some live partition still has HEAD < TAIL.
fn work_remains(r: ptr<function, LaneRing>) -> bool {
    for (var p = 0u; p < PRIORITY_LEVELS; p++) {
        if (((*r).live & (1u << p)) != 0u &&
            atomicLoad(&control[CTRL_HEAD + p]) < (*r).tail[p]) {
            return true;
        }
    }
    return false;
}

// unlapped reports PARAM_FLAG_UNLAPPED: no two tickets of this submission
// name one slot (wgsl/abi ParamFlagUnlapped), so a slot's STATUS has one
// writer in it. The STATUS of a slot being run then stays PUBLISHED until
// its finish, where the compare-exchange path shows CLAIMED.
fn unlapped() -> bool {
    return (params[PARAM_FLAGS] & PARAM_FLAG_UNLAPPED) != 0u;
}

// claim_slot takes the slot's STATUS from PUBLISHED to CLAIMED, exclusively:
// two tickets of one submission may name the same slot (a TAIL more than
// a lap ahead of HEAD), and only one of them may run it. It retries only
// on a spurious weak-CAS failure (old == PUBLISHED, not exchanged), at most
// CAS_RETRIES times; any other old value means the slot is not ours.
fn claim_slot(status: u32) -> bool {
    if (unlapped()) {
        return atomicLoad(&ring[status]) == STATUS_PUBLISHED;
    }
    for (var i = 0u; i < CAS_RETRIES; i++) {
        let r = atomicCompareExchangeWeak(&ring[status], STATUS_PUBLISHED, STATUS_CLAIMED);
        if (r.exchanged) {
            return true;
        }
        if (r.old_value != STATUS_PUBLISHED) {
            return false;
        }
    }
    return false;
}

// finish_slot stores the owner's final status (unlapped: a plain store),
// unless a second ticket of the same slot faulted it in the meantime: the
// reference interpreter runs that ticket after the owner, so its FAULT is
// the slot's final status. The slot holds CLAIMED (ours) or FAULT (a second ticket's), so for an
// end in (CLAIMED, FAULT] a maximum is that compare-exchange: CLAIMED
// becomes end, FAULT stays (FAULT is the largest status, const_assert
// below). An atomicMax whose result is unused does not wait for its
// answer, where the compare-exchange held the lane for a round trip to
// memory on every slot. Other ends (a user function's hand-made Outcome)
// take the compare-exchange.
const_assert STATUS_CLAIMED < STATUS_DONE && STATUS_CLAIMED < STATUS_WAIT_IO && STATUS_CLAIMED < STATUS_YIELD;
const_assert STATUS_CLAIMED < STATUS_REQUEUE && STATUS_FAULT > STATUS_DONE && STATUS_FAULT > STATUS_WAIT_IO;
const_assert STATUS_FAULT > STATUS_YIELD && STATUS_FAULT > STATUS_REQUEUE;

fn finish_slot(status: u32, end: u32) {
    if (unlapped()) {
        atomicStore(&ring[status], end);
        return;
    }
    if (end > STATUS_CLAIMED && end <= STATUS_FAULT) {
        atomicMax(&ring[status], end);
        return;
    }
    for (var i = 0u; i < CAS_RETRIES; i++) {
        let r = atomicCompareExchangeWeak(&ring[status], STATUS_CLAIMED, end);
        if (r.exchanged || r.old_value != STATUS_CLAIMED) {
            return;
        }
    }
}

// LaneCounts are one lane's hot counters, kept in registers and added to
// the workgroup's once per run (a run of claims of one tenant, or of one
// opcode, is one atomicAdd, and the scalar counts one each at the end),
// and the mask of the tenant it saw last: masks do not change during a
// dispatch (only the host writes them; an opcode's write faults
// PROTECTED), so a lane reloads one only when the tenant changes.
struct LaneCounts {
    claims: u32,
    done: u32,
    prio: u32, // the current priority run's partition, prio_n claims
    prio_n: u32,
    tenant: u32, // the current tenant run's tenant, tenant_n claims
    tenant_n: u32,
    op: u32, // the current opcode run's opcode (< METRIC_OPCODES), op_n claims
    op_n: u32,
    mask_tenant: u32, // the tenant whose mask is mask; TENANT_COUNT: none yet
    mask: u32,
}

fn lane_counts() -> LaneCounts {
    var k: LaneCounts;
    k.mask_tenant = TENANT_COUNT;
    return k;
}

fn tenant_mask(k: ptr<function, LaneCounts>, tenant: u32) -> u32 {
    if ((*k).mask_tenant != tenant) {
        (*k).mask = atomicLoad(&control[CTRL_TENANT_MASK + tenant]);
        (*k).mask_tenant = tenant;
    }
    return (*k).mask;
}

// count_priority, count_tenant and count_opcode count one claim in the
// lane's current run of that value, first adding the run that ends to the
// workgroup's counter (a run, not an array: a dynamically indexed array
// in a function would live in memory, not registers).
fn count_priority(k: ptr<function, LaneCounts>, p: u32) {
    if ((*k).prio_n != 0u && (*k).prio != p) {
        atomicAdd(&wg_priority_claims[(*k).prio], (*k).prio_n);
        (*k).prio_n = 0u;
    }
    (*k).prio = p;
    (*k).prio_n += 1u;
}

fn count_tenant(k: ptr<function, LaneCounts>, tenant: u32) {
    if ((*k).tenant_n != 0u && (*k).tenant != tenant) {
        atomicAdd(&wg_tenant_claims[(*k).tenant % TENANT_SLOTS], (*k).tenant_n);
        (*k).tenant_n = 0u;
    }
    (*k).tenant = tenant;
    (*k).tenant_n += 1u;
}

fn count_opcode(k: ptr<function, LaneCounts>, op: u32) {
    if (op >= METRIC_OPCODES) {
        return;
    }
    if ((*k).op_n != 0u && (*k).op != op) {
        atomicAdd(&wg_opcode_metrics[(*k).op], (*k).op_n);
        (*k).op_n = 0u;
    }
    (*k).op = op;
    (*k).op_n += 1u;
}

// lane_flush adds what the lane counted to the workgroup's counters.
fn lane_flush(k: ptr<function, LaneCounts>) {
    if ((*k).claims != 0u) {
        atomicAdd(&wg_claims, (*k).claims);
    }
    if ((*k).done != 0u) {
        atomicAdd(&wg_done, (*k).done);
    }
    if ((*k).prio_n != 0u) {
        atomicAdd(&wg_priority_claims[(*k).prio], (*k).prio_n);
    }
    if ((*k).tenant_n != 0u) {
        atomicAdd(&wg_tenant_claims[(*k).tenant % TENANT_SLOTS], (*k).tenant_n);
    }
    if ((*k).op_n != 0u) {
        atomicAdd(&wg_opcode_metrics[(*k).op], (*k).op_n);
    }
}

// run_slot takes the slot of ticket c to its final status. The claim is a
// compare-exchange PUBLISHED → CLAIMED: a ticket that finds any other
// status (the slot was never published, or another ticket of this
// submission owns it) faults BAD_STATE and stores FAULT, whatever the
// order of the two lanes, as the reference's second ticket does.
fn run_slot(c: Claim, k: ptr<function, LaneCounts>) {
    let base = c.slot * SLOT_WORDS;
    let status = base + SLOT_STATUS;
    let op = atomicLoad(&ring[base + SLOT_OPCODE]);
    let tenant = atomicLoad(&ring[base + SLOT_TENANT]);
    var out: Outcome;
    // @trace: let trace_start = trace_ticket();
    if (!claim_slot(status)) {
        out = faults(FAULT_BAD_STATE);
        atomicStore(&ring[status], STATUS_FAULT);
    } else {
        if (tenant >= TENANT_COUNT) {
            out = faults(FAULT_BAD_TENANT);
        } else if (tenant_mask(k, tenant) == 0u) {
            atomicAdd(&control[CTRL_DENIED], 1u);
            out = ends(STATUS_YIELD);
        } else {
            (*k).claims += 1u;
            count_priority(k, c.priority);
            count_tenant(k, tenant);
            count_opcode(k, op);
            out = execute(op, c.slot);
        }
        finish_slot(status, out.status);
    }
    if (out.status == STATUS_FAULT) {
        atomicAdd(&control[CTRL_FAULTS], 1u);
        log_append(LOG_FAULT_TAG | out.fault, c.slot, op, params[PARAM_EPOCH]);
    }
    // @trace: trace_record(c.slot, op, tenant, trace_start, out);
    if (out.status == STATUS_DONE || out.status == STATUS_FAULT) {
        (*k).done += 1u;
    }
}

// flush adds the workgroup's hot counters to control, one atomic per non-zero word.
fn flush(lane: u32) {
    if (lane == 0u) {
        let claims = atomicLoad(&wg_claims);
        if (claims != 0u) {
            atomicAdd(&control[CTRL_CLAIMS], claims);
        }
        let done = atomicLoad(&wg_done);
        if (done != 0u) {
            atomicAdd(&control[CTRL_DONE_COUNT], done);
        }
    }
    for (var i = lane; i < TENANT_SLOTS; i += WORKGROUP_SIZE_X) {
        let v = atomicLoad(&wg_tenant_claims[i]);
        if (v != 0u) {
            atomicAdd(&control[CTRL_TENANT_CLAIMS + i], v);
        }
    }
    for (var i = lane; i < PRIORITY_LEVELS; i += WORKGROUP_SIZE_X) {
        let v = atomicLoad(&wg_priority_claims[i]);
        if (v != 0u) {
            atomicAdd(&control[CTRL_PRIORITY_CLAIMS + i], v);
        }
    }
    for (var i = lane; i < METRIC_OPCODES; i += WORKGROUP_SIZE_X) {
        let v = atomicLoad(&wg_opcode_metrics[i]);
        if (v != 0u) {
            atomicAdd(&control[CTRL_OPCODE_METRICS + i], v);
        }
    }
}

@compute @workgroup_size(WORKGROUP_SIZE_X)
fn drain(@builtin(global_invocation_id) gid: vec3<u32>,
         @builtin(local_invocation_index) lane: u32) {
    // A control buffer shorter than the fixed words is a host bug; the
    // condition is uniform, so the whole grid returns before any barrier.
    if (arrayLength(&control) < CONTROL_MIN_WORDS) {
        return;
    }
    if (all(gid == vec3<u32>(0u))) {
        atomicAdd(&control[CTRL_DISPATCHES], 1u);
    }
    // @trace: trace_at(gid.x / WORKGROUP_SIZE_X, lane);
    let slots = arrayLength(&ring) / SLOT_WORDS;
    var counts = lane_counts();
    let budget = params[PARAM_BUDGET];
    var stopped = false; // SHUTDOWN seen or no claim left: not a budget stop
    var lr: LaneRing;
    if (WORKGROUP_CLAIMS) {
        // The loop is the workgroup's: its exits are uniform (SHUTDOWN as
        // lane 0 read it, a claim round that left lanes without a ticket),
        // so the claims can go through workgroup memory.
        lr = workgroup_ring(slots, lane);
        var shut = 0u; // lane 0's read of SHUTDOWN (claim_next)
        if (lane == 0u) {
            shut = atomicLoad(&control[CTRL_SHUTDOWN]);
        }
        for (var it = 0u; it < budget; it++) {
            var need = WORKGROUP_SIZE_X;
            let c = claim_next(&lr, lane, &need, &shut, &stopped);
            if (stopped) {
                break;
            }
            if (c.owned) {
                run_slot(c, &counts);
            }
            if (need != 0u) {
                stopped = true; // every partition is drained
                break;
            }
            // Every lane read wg_hand, and a SHUTDOWN run this round is in
            // wg_shutdown, before lane 0 claims again.
            workgroupBarrier();
        }
        // @trace: trace_end(lane);
    } else {
        lr = lane_ring(slots);
        stopped = lane_loop(budget, &counts, &lr.live);
    }
    if (!stopped && atomicLoad(&control[CTRL_SHUTDOWN]) == 0u && work_remains(&lr)) {
        atomicAdd(&control[CTRL_BUDGET_EXHAUSTED], 1u);
    }
    lane_flush(&counts);
    // Every lane leaves the bounded loop and reaches the barrier (uniform
    // control flow), then the workgroup's sums go out once.
    workgroupBarrier();
    flush(lane);
}
