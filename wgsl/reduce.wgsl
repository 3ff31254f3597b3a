// reduce.wgsl: entry points `reduce` and `reduce_windows`, the GPU
// telemetry reduction of docs/SUMMARY.md: they read the ring and control
// after a drain (in the same submission, after finalize) and write a
// summary (occupancy, active slots per tenant, priority and opcode, five
// Count-Min sketches, the ticketed window table) and the packed status map,
// so a frame reads back a few kilobytes instead of 64 bytes per slot.
// `reduce` writes everything but the window table's counts and places the
// open windows; `reduce_windows`, the next dispatch, counts the window
// slots. Assembled after abi_gen.wgsl.
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

// The u32 sketches, in summary order (SUMMARY_HEADER_WORDS + s × cells).
const SK_RING_OPCODE: u32 = 0u;
const SK_TENANT: u32 = 1u;
const SK_STATUS: u32 = 2u;
const SK_ACTIVE_OPCODE: u32 = 3u;
// The small keys hashed at the flush: ring opcodes, tenants, statuses,
// active opcodes, one after the other.
const SMALL_TENANT: u32 = METRIC_OPCODES;
const SMALL_STATUS: u32 = SMALL_TENANT + TENANT_SLOTS;
const SMALL_ACTIVE_OPCODE: u32 = SMALL_STATUS + STATUS_COUNT;
const SMALL_KEYS: u32 = SMALL_ACTIVE_OPCODE + METRIC_OPCODES;

@group(BIND_GROUP) @binding(BINDING_CONTROL) var<storage, read> control: array<u32>;
@group(BIND_GROUP) @binding(BINDING_RING) var<storage, read> ring: array<u32>;
@group(BIND_GROUP) @binding(BINDING_SUMMARY) var<storage, read_write> summary: array<atomic<u32>>;
@group(BIND_GROUP) @binding(BINDING_STATUS_MAP) var<storage, read_write> status_map: array<u32>;
@group(BIND_GROUP) @binding(BINDING_SUMMARY_PARAMS) var<storage, read> sparams: array<u32>;

// Slots per status code (the last: unknown), over every slot.
var<workgroup> wg_occupancy: array<atomic<u32>, STATUS_COUNT + 1u>;
// Active slots per tenant, priority and opcode (the last word of each:
// every larger value); wg_opcode's first METRIC_OPCODES words are also the
// active-opcode sketch's small keys.
var<workgroup> wg_tenant: array<atomic<u32>, TENANT_SLOTS + 1u>;
var<workgroup> wg_priority: array<atomic<u32>, PRIORITY_LEVELS + 1u>;
var<workgroup> wg_opcode: array<atomic<u32>, METRIC_OPCODES + 1u>;
// Non-EMPTY slots per small opcode and tenant: the ring-opcode and tenant
// sketches' small keys.
var<workgroup> wg_ring_opcode: array<atomic<u32>, METRIC_OPCODES>;
var<workgroup> wg_ring_tenant: array<atomic<u32>, TENANT_SLOTS>;

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
// follow (a grid-stride order over words ran 2-3× slower on SwiftShader).
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

fn is_active(st: u32) -> bool {
    return st == STATUS_PUBLISHED || st == STATUS_CLAIMED || st == STATUS_WAIT_IO ||
           st == STATUS_YIELD || st == STATUS_REQUEUE;
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

// window_reserve gives the key of an open window run its entry (reduce:
// open windows are placed before any other, with no limit but the table's
// size). It counts nothing: reduce_windows counts every window slot.
fn window_reserve(slot: u32, op: u32, ticket: u32, s: Shape) {
    if (memo_valid && memo_ticket == ticket && memo_opcode == op) {
        return;
    }
    let e = window_find(slot, op, ticket, ~0u, s);
    memo_valid = e != NO_ENTRY_RETRY;
    memo_ticket = ticket;
    memo_opcode = op;
    memo_entry = e;
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

// header writes the shape words and the dispatch-metrics sketch (workgroup 0).
fn header(lane: u32, s: Shape) {
    if (lane == 0u) {
        atomicStore(&summary[SUM_SLOTS], s.slots);
        atomicStore(&summary[SUM_DEPTH], s.depth);
        atomicStore(&summary[SUM_WIDTH], s.width);
        atomicStore(&summary[SUM_WINDOW_CAPACITY], s.capacity);
        atomicStore(&summary[SUM_WINDOW_OPCODES], s.opcodes);
        atomicStore(&summary[SUM_MAGIC], SUMMARY_MAGIC);
    }
    let base = SUMMARY_HEADER_WORDS + SUMMARY_SKETCHES * s.depth * s.width;
    for (var op = lane; op < METRIC_OPCODES; op += WORKGROUP_SIZE_X) {
        let n = control[CTRL_OPCODE_METRICS + op];
        // No trips (and no hashes) for an opcode that did not run.
        for (var row = 0u; row < select(0u, s.depth, n != 0u); row++) {
            let w = base + 2u * sketch_index(row, s.width, op);
            let old = atomicAdd(&summary[w], n);
            if (old + n < old) {
                atomicAdd(&summary[w + 1u], 1u);
            }
        }
    }
}

// sketch_add adds n to key's counter in every row of the u32 sketch s.
fn sketch_add(sk: u32, key: u32, n: u32, s: Shape) {
    let base = SUMMARY_HEADER_WORDS + sk * s.depth * s.width;
    for (var row = 0u; row < s.depth; row++) {
        atomicAdd(&summary[base + sketch_index(row, s.width, key)], n);
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

// slot_run is the run of one slot.
fn slot_run(slot: u32) -> Run {
    let base = slot * SLOT_WORDS;
    var r: Run;
    r.status = ring[base + SLOT_STATUS];
    r.opcode = ring[base + SLOT_OPCODE];
    r.tenant = ring[base + SLOT_TENANT];
    r.priority = ring[base + SLOT_PRIORITY];
    r.ticket = ring[base + SLOT_ARG0];
    r.kind = ring[base + SLOT_ARG0 + 1u];
    r.first = slot;
    r.n = 1u;
    return r;
}

// same_run says whether slot x continues run r (r.window is r.opcode's);
// no slot continues the empty run.
fn same_run(x: Run, r: Run) -> bool {
    return r.n != 0u && x.status == r.status && x.opcode == r.opcode && x.tenant == r.tenant && x.priority == r.priority &&
           (!r.window || (x.ticket == r.ticket && x.kind == r.kind));
}

// end_run adds a finished run to the workgroup's tables; keys without a
// table word go to their sketches' rows directly, an open window's key
// to the window table (its slots are counted by reduce_windows).
fn end_run(r: Run, s: Shape) {
    if (r.n == 0u) {
        return;
    }
    atomicAdd(&wg_occupancy[min(r.status, STATUS_COUNT)], r.n);
    if (r.status >= STATUS_COUNT) {
        sketch_add(SK_STATUS, r.status, r.n, s);
    }
    if (r.status != STATUS_EMPTY) {
        if (r.opcode < METRIC_OPCODES) {
            atomicAdd(&wg_ring_opcode[r.opcode], r.n);
        } else {
            sketch_add(SK_RING_OPCODE, r.opcode, r.n, s);
        }
        if (r.tenant < TENANT_SLOTS) {
            atomicAdd(&wg_ring_tenant[r.tenant], r.n);
        } else {
            sketch_add(SK_TENANT, r.tenant, r.n, s);
        }
    }
    if (is_active(r.status)) {
        atomicAdd(&wg_tenant[min(r.tenant, TENANT_SLOTS)], r.n);
        atomicAdd(&wg_priority[min(r.priority, PRIORITY_LEVELS)], r.n);
        atomicAdd(&wg_opcode[min(r.opcode, METRIC_OPCODES)], r.n);
        if (r.opcode >= METRIC_OPCODES) {
            sketch_add(SK_ACTIVE_OPCODE, r.opcode, r.n, s);
        }
    }
    if (r.window) {
        if (s.capacity == 0u) {
            atomicAdd(&summary[SUM_WINDOW_DROPPED], r.n); // no table: reduce_windows does not run
        } else if (window_open(r.status)) {
            window_reserve(r.first, r.opcode, r.ticket, s);
        }
    }
}

// flush adds the workgroup's tables to the summary, one atomic per
// non-zero word, and hashes the small keys into the sketches: one global
// atomic per (row, key) with a non-zero count.
fn flush(lane: u32, s: Shape) {
    if (lane == 0u) {
        var sketched = 0u;
        for (var c = STATUS_EMPTY + 1u; c <= STATUS_COUNT; c++) {
            sketched += atomicLoad(&wg_occupancy[c]);
        }
        if (sketched != 0u) {
            atomicAdd(&summary[SUM_SKETCHED], sketched);
        }
        var act = 0u;
        for (var p = 0u; p <= PRIORITY_LEVELS; p++) {
            act += atomicLoad(&wg_priority[p]);
        }
        if (act != 0u) {
            atomicAdd(&summary[SUM_ACTIVE], act);
        }
    }
    for (var i = lane; i <= STATUS_COUNT; i += WORKGROUP_SIZE_X) {
        let v = atomicLoad(&wg_occupancy[i]);
        if (v != 0u) {
            atomicAdd(&summary[SUM_OCCUPANCY + i], v);
        }
    }
    for (var i = lane; i <= TENANT_SLOTS; i += WORKGROUP_SIZE_X) {
        let v = atomicLoad(&wg_tenant[i]);
        if (v != 0u) {
            atomicAdd(&summary[SUM_ACTIVE_TENANT + i], v);
        }
    }
    for (var i = lane; i <= PRIORITY_LEVELS; i += WORKGROUP_SIZE_X) {
        let v = atomicLoad(&wg_priority[i]);
        if (v != 0u) {
            atomicAdd(&summary[SUM_ACTIVE_PRIORITY + i], v);
        }
    }
    for (var i = lane; i <= METRIC_OPCODES; i += WORKGROUP_SIZE_X) {
        let v = atomicLoad(&wg_opcode[i]);
        if (v != 0u) {
            atomicAdd(&summary[SUM_ACTIVE_OPCODE + i], v);
        }
    }
    // Lane i counts small key i's rows: a row loop of 0 trips when the key
    // has no slots, so a CPU adapter skips its hashes too (it runs an
    // if's body under a mask, but leaves a loop when no lane is in it).
    let cells = s.depth * s.width;
    for (var k = lane; k < SMALL_KEYS; k += WORKGROUP_SIZE_X) {
        var n = 0u;
        var key = 0u;
        var sk = SK_RING_OPCODE;
        if (k < SMALL_TENANT) {
            key = k;
            n = atomicLoad(&wg_ring_opcode[key]);
        } else if (k < SMALL_STATUS) {
            key = k - SMALL_TENANT;
            sk = SK_TENANT;
            n = atomicLoad(&wg_ring_tenant[key]);
        } else if (k < SMALL_ACTIVE_OPCODE) {
            key = k - SMALL_STATUS;
            sk = SK_STATUS;
            if (key != STATUS_EMPTY) { // EMPTY slots are not sketched
                n = atomicLoad(&wg_occupancy[key]);
            }
        } else {
            key = k - SMALL_ACTIVE_OPCODE;
            sk = SK_ACTIVE_OPCODE;
            n = atomicLoad(&wg_opcode[key]);
        }
        let base = SUMMARY_HEADER_WORDS + sk * cells;
        for (var row = 0u; row < select(0u, s.depth, n != 0u); row++) {
            atomicAdd(&summary[base + sketch_index(row, s.width, key)], n);
        }
    }
}

@compute @workgroup_size(WORKGROUP_SIZE_X)
fn reduce(@builtin(workgroup_id) wid: vec3<u32>,
          @builtin(num_workgroups) groups: vec3<u32>,
          @builtin(local_invocation_index) lane: u32) {
    // Every value below is uniform: a bad shape returns the whole grid
    // before the barrier.
    let s = shape();
    if (!s.ok) {
        return;
    }
    if (wid.x == 0u) {
        header(lane, s);
    }
    var run: Run; // n = 0: no run yet
    let block = lane_words(wid.x, groups.x, lane, s.map_words);
    for (var w = block.x; w < block.y; w++) {
        let first = w * STATUS_MAP_PER_WORD;
        let n = min(STATUS_MAP_PER_WORD, s.slots - first);
        var word = 0u;
        var j = 0u;
        // Each pass consumes at least one slot. The inner loop, the hot
        // one, only compares and counts: a CPU adapter runs every
        // instruction of a loop body whatever the branches, so the run's
        // end (atomics, hashes, the window table) stays out of it.
        while (j < n) {
            var x: Run;
            while (j < n) {
                x = slot_run(first + j);
                if (!same_run(x, run)) {
                    break;
                }
                word |= min(x.status, STATUS_COUNT) << (STATUS_MAP_BITS * j);
                run.n++;
                j++;
            }
            if (j == n) {
                break;
            }
            // Slot first + j starts a new run.
            end_run(run, s);
            x.window = is_window_opcode(x.opcode, s.opcodes);
            run = x;
            word |= min(x.status, STATUS_COUNT) << (STATUS_MAP_BITS * j);
            j++;
        }
        status_map[w] = word;
    }
    end_run(run, s);
    workgroupBarrier();
    flush(lane, s);
}

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
