// reduce_shared.wgsl: no entry point: what the two passes of the GPU
// telemetry reduction of docs/SUMMARY.md share (the bindings, the shape
// of the params, each lane's block, the hashes, the window table),
// assembled after abi_gen.wgsl and before reduce.wgsl (entry `reduce`)
// and reduce_windows.wgsl (entry `reduce_windows`), one shader module.
// The passes read the ring and control
// after a drain (in the same submission, after finalize) and write a
// summary (occupancy, active slots per tenant, priority and opcode, five
// Count-Min sketches, the ticketed window table) and the packed status map,
// so a frame reads back a few kilobytes instead of 64 bytes per slot.
// `reduce` writes everything but the window table's counts and places the
// open windows; `reduce_windows`, the next dispatch, counts the window
// slots.
//
// Bindings (group BIND_GROUP):
//
//   BINDING_CONTROL         control     storage, read        array<u32>, its real length
//   BINDING_RING            ring        storage, read        array<u32>, slots × SLOT_WORDS
//   BINDING_SUMMARY         summary     storage, read_write  array<atomic<u32>>, at least
//                                                            SummaryWords(depth, width, capacity)
//                                                            words, zeroed before the pass
//                                                            (clearBuffer in the same encoder)
//   BINDING_STATUS_MAP      status_map  storage, read_write  array<u32>, at least
//                                                            ceil(slots / STATUS_MAP_PER_WORD) words
//   BINDING_SUMMARY_PARAMS  sparams     storage, read        array<u32>, SUMMARY_PARAMS_WORDS:
//                                                            depth, width, window capacity,
//                                                            window opcode count, opcodes
//
// Overrides (pipeline constants):
//
//   WORKGROUP_SIZE_X  the workgroup width: 64, 128 or 256 (any width works).
//
// Invariants:
//
// - Bounded: each lane owns a contiguous block of whole status-map words
//   (STATUS_MAP_PER_WORD consecutive slots each), ceil(words / lanes) of
//   them, so any grid covers the ring; size the grid to what the device
//   holds resident, not to the ring. Every probe loop is bounded by its table's
//   size (plus CAS_RETRIES for spurious weak-CAS failures). No lane waits
//   on another.
// - One barrier (besides the zero-initialisation of workgroup memory):
//   after the grid-stride loop, before the workgroup's flush, in uniform
//   control flow. Barriers are what a CPU adapter (SwiftShader) pays most
//   for, so the loop has none.
// - Checked: the whole grid returns before any barrier when the params are
//   out of the ABI's bounds (depth ≤ SKETCH_MAX_DEPTH, width ≤
//   SKETCH_MAX_WIDTH, capacity a power of two ≤ WINDOW_MAX_CAPACITY, opcode
//   count ≤ SUMMARY_MAX_WINDOW_OPCODES) or a binding is too short; the
//   header then keeps SUM_MAGIC = 0 and the decoder refuses the summary.
// - Per-lane runs, per-workgroup aggregation (shared/docs/STYLE.md): a lane
//   counts consecutive slots with the same key (status, opcode, tenant,
//   priority; ticket and class for a window opcode) in a private run and
//   updates the tables only when the run ends, so a stretch of equal slots
//   costs one compare per slot and no atomic. The hot loop holds nothing
//   else: SwiftShader executes every instruction of a loop body under lane
//   masks, taken or not, so atomics and hashes inside it cost on every
//   slot. The workgroup's tables are added to the summary once per
//   workgroup (one atomic per non-zero word).
// - Sketches are functions of key histograms: a key below its table's
//   size (opcode < METRIC_OPCODES, tenant < TENANT_SLOTS, status <
//   STATUS_COUNT) is counted in a workgroup histogram and hashed once per
//   workgroup at the flush, one global atomic per (row, key); a larger key
//   (rare: unknown statuses, high opcodes and tenants) is hashed when its
//   run ends and added to its rows with global atomics directly.
// - The status map: a lane assembles its word privately and stores it with
//   a plain store; no other lane writes that word.
// - Window slots go to the global window table directly: each window has
//   its own entry, so there is no shared hot address. An entry is claimed
//   by a compare-exchange of WIN_OWNER from 0 to 1 + slot; its key (ARG0,
//   OPCODE) is read from the owner's ring slot, so a lane never waits for
//   another to publish a key. Open windows (a slot neither EMPTY nor DONE)
//   are placed by reduce, before any other; reduce_windows counts every
//   window slot and places the other windows while the table is less than
//   WindowClosedLimit full, so when the table overflows it keeps the
//   windows still running or faulted, and a key that finds no entry stops
//   at the first free entry of its probe sequence (which it seals) instead
//   of walking the whole table. Its slots count in SUM_WINDOW_DROPPED.
// - Exactness: every counter is exact. Sketch counters equal decode's
//   SketchInto bit for bit: the same slots (non-EMPTY; active for the
//   active-opcode sketch), the same keys and the same splitmix64 row index,
//   computed in u32 pairs (ref.SketchIndex is the Go twin); additions
//   commute, so how counts are grouped before the atomics does not matter.
// - Workgroup 0 also writes the header words and the dispatch-metrics
//   sketch (u64 counters as lo, hi word pairs, carries from the atomics'
//   old values). Window tenants are filled by window_tenants.wgsl, the
//   next dispatch.

override WORKGROUP_SIZE_X: u32 = 64u;

const WORD_BITS: u32 = WORD_BYTES * 8u;
const HALF_BITS: u32 = 16u;
const HALF_MASK: u32 = (1u << HALF_BITS) - 1u;
// Bounds the spurious-failure retries of a weak compare-exchange.
const CAS_RETRIES: u32 = 1024u;

// splitmix64's constants as (lo, hi) u32 pairs.
const GOLDEN_GAMMA: vec2<u32> = vec2<u32>(0x7F4A7C15u, 0x9E3779B9u);
const MIX_MUL_A: vec2<u32> = vec2<u32>(0x1CE4E5B9u, 0xBF58476Du);
const MIX_MUL_B: vec2<u32> = vec2<u32>(0x133111EBu, 0x94D049BBu);
const MIX_SHIFT_A: u32 = 30u;
const MIX_SHIFT_B: u32 = 27u;
const MIX_SHIFT_C: u32 = 31u;
// Multipliers of the window table's hash (any odd constants).
const TABLE_MUL_A: u32 = 0x9E3779B1u;
const TABLE_MUL_B: u32 = 0x85EBCA6Bu;

@group(BIND_GROUP) @binding(BINDING_CONTROL) var<storage, read> control: array<u32>;
@group(BIND_GROUP) @binding(BINDING_RING) var<storage, read> ring: array<u32>;
@group(BIND_GROUP) @binding(BINDING_SUMMARY) var<storage, read_write> summary: array<atomic<u32>>;
@group(BIND_GROUP) @binding(BINDING_STATUS_MAP) var<storage, read_write> status_map: array<u32>;
@group(BIND_GROUP) @binding(BINDING_SUMMARY_PARAMS) var<storage, read> sparams: array<u32>;

// Shape is the validated params.
struct Shape {
    ok: bool,
    slots: u32,
    depth: u32,
    width: u32,
    capacity: u32,
    opcodes: u32,
    windows: u32,   // first word of the window table
    map_words: u32, // status-map words: ceil(slots / STATUS_MAP_PER_WORD)
}

fn shape() -> Shape {
    var s: Shape;
    s.ok = false;
    if (arrayLength(&sparams) < SUMMARY_PARAMS_WORDS || arrayLength(&control) < CONTROL_MIN_WORDS) {
        return s;
    }
    s.slots = arrayLength(&ring) / SLOT_WORDS;
    s.depth = sparams[SPARAM_DEPTH];
    s.width = sparams[SPARAM_WIDTH];
    s.capacity = sparams[SPARAM_WINDOW_CAPACITY];
    s.opcodes = sparams[SPARAM_WINDOW_OPCODES];
    if (s.depth == 0u || s.depth > SKETCH_MAX_DEPTH || s.width == 0u || s.width > SKETCH_MAX_WIDTH ||
        s.capacity > WINDOW_MAX_CAPACITY || (s.capacity & (s.capacity - 1u)) != 0u ||
        s.opcodes > SUMMARY_MAX_WINDOW_OPCODES) {
        return s;
    }
    // Bounded above, so none of these products overflows.
    let cells = s.depth * s.width;
    s.windows = SUMMARY_HEADER_WORDS + (SUMMARY_SKETCHES + 2u) * cells;
    let words = s.windows + s.capacity * WINDOW_ENTRY_WORDS;
    s.map_words = s.slots / STATUS_MAP_PER_WORD + select(0u, 1u, s.slots % STATUS_MAP_PER_WORD != 0u);
    s.ok = arrayLength(&summary) >= words && arrayLength(&status_map) >= s.map_words;
    return s;
}

// lane_words is the lane's block of status-map words, [x, y), the same in
// both entry points (one grid): each lane owns a contiguous block of
// ceil(words / lanes) words, so any grid covers the ring. A CPU adapter
// runs a lane's loop as one stream, which its caches and prefetchers
// follow (a grid-stride order over words ran slower on SwiftShader).
// Below 2^25 words and 2^24 lanes (maxComputeWorkgroupsPerDimension × the
// width), (g + 1) × per < words + lanes never wraps.
fn lane_words(wid: u32, groups: u32, lane: u32, words: u32) -> vec2<u32> {
    let lanes = groups * WORKGROUP_SIZE_X;
    let per = words / lanes + select(0u, 1u, words % lanes != 0u);
    let g = wid * WORKGROUP_SIZE_X + lane;
    return vec2<u32>(min(words, g * per), min(words, (g + 1u) * per));
}

// mul_hi is the high word of the 64-bit product a × b.
fn mul_hi(a: u32, b: u32) -> u32 {
    let a0 = a & HALF_MASK;
    let a1 = a >> HALF_BITS;
    let b0 = b & HALF_MASK;
    let b1 = b >> HALF_BITS;
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let mid = (p00 >> HALF_BITS) + (p01 & HALF_MASK) + (p10 & HALF_MASK);
    return a1 * b1 + (p01 >> HALF_BITS) + (p10 >> HALF_BITS) + (mid >> HALF_BITS);
}

// 64-bit arithmetic on (lo, hi) pairs, mod 2^64.
fn mul64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    return vec2<u32>(a.x * b.x, mul_hi(a.x, b.x) + a.x * b.y + a.y * b.x);
}

fn add64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let lo = a.x + b.x;
    return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}

// xor_shr64 is v ^ (v >> n) for 0 < n < 32.
fn xor_shr64(v: vec2<u32>, n: u32) -> vec2<u32> {
    return v ^ vec2<u32>((v.x >> n) | (v.y << (WORD_BITS - n)), v.y >> n);
}

fn splitmix64(x: vec2<u32>) -> vec2<u32> {
    var v = add64(x, GOLDEN_GAMMA);
    v = mul64(xor_shr64(v, MIX_SHIFT_A), MIX_MUL_A);
    v = mul64(xor_shr64(v, MIX_SHIFT_B), MIX_MUL_B);
    return xor_shr64(v, MIX_SHIFT_C);
}

// mod64 is v mod w for 0 < w ≤ SKETCH_MAX_WIDTH: (hi mod w)(2^32 mod w) + lo
// mod w stays far below 2^32.
fn mod64(v: vec2<u32>, w: u32) -> u32 {
    let r = (~0u % w + 1u) % w;
    return ((v.y % w) * r + v.x % w) % w;
}

// sketch_index is decode's CountMinSketch.Index: row × width +
// splitmix64(key ^ row × GOLDEN_GAMMA) mod width.
fn sketch_index(row: u32, width: u32, key: u32) -> u32 {
    let salt = mul64(vec2<u32>(row, 0u), GOLDEN_GAMMA);
    return row * width + mod64(splitmix64(vec2<u32>(key ^ salt.x, salt.y)), width);
}

// is_active says whether a slot in status st still has work pending: a
// bit of STATUS_ACTIVE_MASK, the ABI's one list of active statuses.
fn is_active(st: u32) -> bool {
    return st < STATUS_COUNT && ((STATUS_ACTIVE_MASK >> st) & 1u) != 0u;
}

fn is_window_opcode(op: u32, n: u32) -> bool {
    for (var i = 0u; i < n; i++) {
        if (sparams[SPARAM_OPCODE_LIST + i] == op) {
            return true;
        }
    }
    return false;
}

// A lane's last window key and the entry it found (NO_ENTRY: none, for
// good). Both are final within a pass: an entry's key never changes, an
// owned entry is never freed, and a key found absent at a sealed entry or
// in a full table never gets one. A lane's slots are consecutive, and a
// window's slots mostly are too, so the memo saves the probes (a load or
// compare-exchange and an owner's ring read each) of every run of a key
// after its first.
var<private> memo_valid: bool = false;
var<private> memo_ticket: u32;
var<private> memo_opcode: u32;
var<private> memo_entry: u32;

// window_find's answers besides an entry's first word (which is at least
// SUMMARY_HEADER_WORDS): the key has no entry and never will in this pass,
// or the compare-exchange retries ran out (try again with the next run).
const NO_ENTRY: u32 = 0u;
const NO_ENTRY_RETRY: u32 = 1u;

// window_open says whether a window slot in status st makes its window
// open (placed first, by reduce): every status but EMPTY and DONE, so
// the windows still running and those that faulted or hold an unknown
// status keep their entries when the table overflows.
fn window_open(st: u32) -> bool {
    return st != STATUS_EMPTY && st != STATUS_DONE;
}

// window_find returns the entry of key (ticket, op), probing linearly from
// the key's hash. A key lies before the first free entry of its probe
// sequence (entries are never freed during the passes), so a free entry
// means the key is absent: the lane creates the entry there, owned by
// slot, while the table holds fewer than limit entries, and otherwise
// seals it (WIN_OWNER_SEALED), so that no lane creates the key after it
// was counted as dropped. A lane that meets an entry claimed first by
// another compares the owner's key, read from the owner's ring slot (the
// ring is read-only here), so it joins an entry of its key that another
// lane created in the meantime, whether it meant to create or to seal.
fn window_find(slot: u32, op: u32, ticket: u32, limit: u32, s: Shape) -> u32 {
    if (s.capacity == 0u) {
        return NO_ENTRY;
    }
    var h = ((ticket * TABLE_MUL_A) ^ (op * TABLE_MUL_B)) & (s.capacity - 1u);
    var probes = 0u;
    for (var it = 0u; it < s.capacity + CAS_RETRIES && probes < s.capacity; it++) {
        let e = s.windows + h * WINDOW_ENTRY_WORDS;
        var owner = atomicLoad(&summary[e + WIN_OWNER]);
        if (owner == 0u) {
            let seal = atomicLoad(&summary[SUM_WINDOW_ENTRIES]) >= limit;
            let r = atomicCompareExchangeWeak(&summary[e + WIN_OWNER], 0u, select(slot + 1u, WIN_OWNER_SEALED, seal));
            if (r.exchanged) {
                if (seal) {
                    return NO_ENTRY;
                }
                atomicStore(&summary[e + WIN_TICKET], ticket);
                atomicStore(&summary[e + WIN_OPCODE], op);
                atomicAdd(&summary[SUM_WINDOW_ENTRIES], 1u);
                return e;
            }
            if (r.old_value == 0u) {
                continue; // spurious failure: retry the same entry
            }
            owner = r.old_value;
        }
        if (owner == WIN_OWNER_SEALED) {
            return NO_ENTRY;
        }
        let o = (owner - 1u) * SLOT_WORDS;
        if (ring[o + SLOT_OPCODE] == op && ring[o + SLOT_ARG0] == ticket) {
            return e;
        }
        h = (h + 1u) & (s.capacity - 1u);
        probes++;
    }
    return select(NO_ENTRY_RETRY, NO_ENTRY, probes == s.capacity);
}

// window_run adds n slots of a window opcode, the lowest first, all with
// the same ticket, class and status, to their entry (reduce_windows): the
// entry reduce reserved, or one created while the table holds fewer than
// capacity − capacity / WINDOW_FREE_SHARE entries (abi.WindowClosedLimit);
// otherwise they count as dropped.
fn window_run(slot: u32, n: u32, op: u32, ticket: u32, kind: u32, st: u32, s: Shape) {
    var e = memo_entry;
    if (!memo_valid || memo_ticket != ticket || memo_opcode != op) {
        e = window_find(slot, op, ticket, s.capacity - s.capacity / WINDOW_FREE_SHARE, s);
        memo_valid = e != NO_ENTRY_RETRY;
        memo_ticket = ticket;
        memo_opcode = op;
        memo_entry = e;
    }
    if (e < SUMMARY_HEADER_WORDS) {
        atomicAdd(&summary[SUM_WINDOW_DROPPED], n);
        return;
    }
    window_add(e, slot, n, kind, st);
}

// window_add adds n slots (slot the lowest) of one class and status to the
// window entry at word entry.
fn window_add(entry: u32, slot: u32, n: u32, kind: u32, st: u32) {
    atomicMax(&summary[entry + WIN_FIRST_INV], ~slot);
    if (kind == WINDOW_CLASS_REQUIRED) {
        atomicAdd(&summary[entry + WIN_REQUIRED], n);
    } else if (kind == WINDOW_CLASS_LOOKAHEAD) {
        atomicAdd(&summary[entry + WIN_LOOKAHEAD], n);
    }
    if (st >= STATUS_PUBLISHED && st <= STATUS_FAULT) {
        atomicAdd(&summary[entry + WIN_STATUS + st - STATUS_PUBLISHED], n);
    }
}

// Run is a lane's current run: consecutive slots (in the lane's order, so
// ascending) with the same key, the fields every table reads: status,
// opcode, tenant, priority and, for a window opcode, ticket and class.
// Counting a run costs one compare per slot; its tables are updated once,
// when it ends.
struct Run {
    status: u32,
    opcode: u32,
    tenant: u32,
    priority: u32,
    ticket: u32,
    kind: u32,
    window: bool, // opcode is a window opcode
    first: u32,   // the run's first (lowest) slot
    n: u32,       // its slots; 0: no run yet
}
