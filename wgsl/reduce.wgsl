// reduce.wgsl: entry point `reduce`, the GPU telemetry reduction of
// docs/SUMMARY.md: it reads the ring and control after a drain (in the same
// submission, after finalize) and writes a summary (occupancy, active slots
// per tenant, priority and opcode, five Count-Min sketches, the ticketed
// window table) and the packed status map, so a frame reads back a few
// kilobytes instead of 64 bytes per slot. Assembled after abi_gen.wgsl.
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
//   WORKGROUP_SIZE_X  the workgroup width: 64, 128 or 256 (at most WG_MAX).
//
// Invariants:
//
// - Bounded: a workgroup reduces chunks of WORKGROUP_SIZE_X consecutive
//   slots, chunk = workgroup + round × workgroups, for a uniform number of
//   rounds; every probe loop is bounded by its table's size (plus
//   CAS_RETRIES for spurious weak-CAS failures). No lane waits on another.
// - Checked: the whole grid returns before any barrier when the params are
//   out of the ABI's bounds (depth ≤ SKETCH_MAX_DEPTH, width ≤
//   SKETCH_MAX_WIDTH, capacity a power of two ≤ WINDOW_MAX_CAPACITY, opcode
//   count ≤ SUMMARY_MAX_WINDOW_OPCODES) or a binding is too short; the
//   header then keeps SUM_MAGIC = 0 and the decoder refuses the summary.
// - Per-workgroup aggregation (shared/docs/STYLE.md): occupancy and the
//   active tables are summed in workgroup memory and added to the summary
//   once per workgroup. Sketch keys are deduplicated per chunk in a
//   workgroup hash table (one owner lane per distinct key counts its key's
//   slots), so a sketch row gets one global atomic per distinct key per
//   chunk, not one per slot. The status map's word is assembled in
//   workgroup memory and stored once, by one lane, with a plain store.
// - Window slots go to the global window table directly: each window has
//   its own entry, so there is no shared hot address. An entry is claimed
//   by a compare-exchange of WIN_OWNER from 0 to 1 + slot; its key (ARG0,
//   OPCODE) is read from the owner's ring slot, so a lane never waits for
//   another to publish a key. A slot that finds no entry after capacity
//   probes is counted in SUM_WINDOW_DROPPED.
// - Exactness: every counter is exact. Sketch counters equal decode's
//   SketchInto bit for bit: the same slots (non-EMPTY; active for the
//   active-opcode sketch), the same keys and the same splitmix64 row index,
//   computed in u32 pairs (ref.SketchIndex is the Go twin).
// - Workgroup 0 also writes the header words and the dispatch-metrics
//   sketch (u64 counters as lo, hi word pairs, carries from the atomics'
//   old values). Window tenants are filled by window_tenants.wgsl, the
//   next dispatch.

override WORKGROUP_SIZE_X: u32 = 64u;

// WG_MAX bounds WORKGROUP_SIZE_X; the workgroup tables are sized for it.
const WG_MAX: u32 = 256u;
// WG_TABLE is the workgroup dedup table: twice the lanes, so a probe
// sequence always meets a free entry or its key.
const WG_TABLE: u32 = WG_MAX * 2u;
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
// Multipliers of the workgroup and window tables' hashes (any odd constants).
const TABLE_MUL_A: u32 = 0x9E3779B1u;
const TABLE_MUL_B: u32 = 0x85EBCA6Bu;

@group(BIND_GROUP) @binding(BINDING_CONTROL) var<storage, read> control: array<u32>;
@group(BIND_GROUP) @binding(BINDING_RING) var<storage, read> ring: array<u32>;
@group(BIND_GROUP) @binding(BINDING_SUMMARY) var<storage, read_write> summary: array<atomic<u32>>;
@group(BIND_GROUP) @binding(BINDING_STATUS_MAP) var<storage, read_write> status_map: array<u32>;
@group(BIND_GROUP) @binding(BINDING_SUMMARY_PARAMS) var<storage, read> sparams: array<u32>;

var<workgroup> wg_occupancy: array<atomic<u32>, STATUS_COUNT + 1u>;
var<workgroup> wg_tenant: array<atomic<u32>, TENANT_SLOTS + 1u>;
var<workgroup> wg_priority: array<atomic<u32>, PRIORITY_LEVELS + 1u>;
var<workgroup> wg_opcode: array<atomic<u32>, METRIC_OPCODES + 1u>;
var<workgroup> wg_sketched: atomic<u32>;
var<workgroup> wg_active: atomic<u32>;
var<workgroup> wg_map: array<atomic<u32>, WG_MAX / STATUS_MAP_PER_WORD>;
// The dedup table: 1 + the owner lane, 0 = free; each lane's key; each
// owner's count.
var<workgroup> wg_owner: array<atomic<u32>, WG_TABLE>;
var<workgroup> wg_key: array<u32, WG_MAX>;
var<workgroup> wg_count: array<atomic<u32>, WG_MAX>;

// Shape is the validated params.
struct Shape {
    ok: bool,
    slots: u32,
    depth: u32,
    width: u32,
    capacity: u32,
    opcodes: u32,
    windows: u32, // first word of the window table
}

fn shape() -> Shape {
    var s: Shape;
    s.ok = false;
    if (arrayLength(&sparams) < SUMMARY_PARAMS_WORDS || arrayLength(&control) < CONTROL_MIN_WORDS ||
        WORKGROUP_SIZE_X > WG_MAX || WORKGROUP_SIZE_X % STATUS_MAP_PER_WORD != 0u) {
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
    let map_words = s.slots / STATUS_MAP_PER_WORD + select(0u, 1u, s.slots % STATUS_MAP_PER_WORD != 0u);
    s.ok = arrayLength(&summary) >= words && arrayLength(&status_map) >= map_words;
    return s;
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

// sketch_phase adds the keys of the lanes with has set to the u32 sketch
// that starts at word base: duplicates are counted by one owner lane, which
// then adds its count to each row. Call it in uniform control flow.
fn sketch_phase(lane: u32, has: bool, key: u32, base: u32, s: Shape) {
    wg_key[lane] = key;
    workgroupBarrier();
    if (has) {
        var placed = false;
        var h = (key * TABLE_MUL_A) % WG_TABLE;
        var probes = 0u;
        for (var it = 0u; it < WG_TABLE + CAS_RETRIES && probes < WG_TABLE; it++) {
            let r = atomicCompareExchangeWeak(&wg_owner[h], 0u, lane + 1u);
            if (r.exchanged) {
                atomicAdd(&wg_count[lane], 1u);
                placed = true;
                break;
            }
            if (r.old_value == 0u) {
                continue; // spurious failure: retry the same entry
            }
            if (wg_key[r.old_value - 1u] == key) {
                atomicAdd(&wg_count[r.old_value - 1u], 1u);
                placed = true;
                break;
            }
            h = (h + 1u) % WG_TABLE;
            probes++;
        }
        if (!placed) {
            // Never for want of room (the table has twice the lanes); only
            // after CAS_RETRIES spurious failures. Count straight to the sketch.
            for (var row = 0u; row < s.depth; row++) {
                atomicAdd(&summary[base + sketch_index(row, s.width, key)], 1u);
            }
        }
    }
    workgroupBarrier();
    let n = atomicLoad(&wg_count[lane]);
    if (n != 0u) {
        for (var row = 0u; row < s.depth; row++) {
            atomicAdd(&summary[base + sketch_index(row, s.width, key)], n);
        }
        atomicStore(&wg_count[lane], 0u);
    }
    for (var i = lane; i < WG_TABLE; i += WORKGROUP_SIZE_X) {
        atomicStore(&wg_owner[i], 0u);
    }
    workgroupBarrier();
}

// window_slot adds one slot of a window opcode to its entry of the table.
fn window_slot(slot: u32, op: u32, ticket: u32, kind: u32, st: u32, s: Shape) {
    if (s.capacity == 0u) {
        atomicAdd(&summary[SUM_WINDOW_DROPPED], 1u);
        return;
    }
    var h = ((ticket * TABLE_MUL_A) ^ (op * TABLE_MUL_B)) & (s.capacity - 1u);
    var entry = 0u;
    var found = false;
    var probes = 0u;
    for (var it = 0u; it < s.capacity + CAS_RETRIES && probes < s.capacity; it++) {
        let e = s.windows + h * WINDOW_ENTRY_WORDS;
        let r = atomicCompareExchangeWeak(&summary[e + WIN_OWNER], 0u, slot + 1u);
        if (r.exchanged) {
            atomicStore(&summary[e + WIN_TICKET], ticket);
            atomicStore(&summary[e + WIN_OPCODE], op);
            atomicAdd(&summary[SUM_WINDOW_ENTRIES], 1u);
            entry = e;
            found = true;
            break;
        }
        if (r.old_value == 0u) {
            continue; // spurious failure: retry the same entry
        }
        // The owner's key is in its ring slot, which no lane writes here.
        let o = (r.old_value - 1u) * SLOT_WORDS;
        if (ring[o + SLOT_OPCODE] == op && ring[o + SLOT_ARG0] == ticket) {
            entry = e;
            found = true;
            break;
        }
        h = (h + 1u) & (s.capacity - 1u);
        probes++;
    }
    if (!found) {
        atomicAdd(&summary[SUM_WINDOW_DROPPED], 1u);
        return;
    }
    atomicMax(&summary[entry + WIN_FIRST_INV], ~slot);
    if (kind == WINDOW_CLASS_REQUIRED) {
        atomicAdd(&summary[entry + WIN_REQUIRED], 1u);
    } else if (kind == WINDOW_CLASS_LOOKAHEAD) {
        atomicAdd(&summary[entry + WIN_LOOKAHEAD], 1u);
    }
    if (st >= STATUS_PUBLISHED && st <= STATUS_FAULT) {
        atomicAdd(&summary[entry + WIN_STATUS + st - STATUS_PUBLISHED], 1u);
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
    for (var i = lane; i < METRIC_OPCODES * s.depth; i += WORKGROUP_SIZE_X) {
        let op = i / s.depth;
        let row = i % s.depth;
        let n = control[CTRL_OPCODE_METRICS + op];
        if (n != 0u) {
            let w = base + 2u * sketch_index(row, s.width, op);
            let old = atomicAdd(&summary[w], n);
            if (old + n < old) {
                atomicAdd(&summary[w + 1u], 1u);
            }
        }
    }
}

// flush adds the workgroup's tables to the summary, one atomic per non-zero word.
fn flush(lane: u32) {
    if (lane == 0u) {
        let sketched = atomicLoad(&wg_sketched);
        if (sketched != 0u) {
            atomicAdd(&summary[SUM_SKETCHED], sketched);
        }
        let act = atomicLoad(&wg_active);
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
}

@compute @workgroup_size(WORKGROUP_SIZE_X)
fn reduce(@builtin(workgroup_id) wid: vec3<u32>,
          @builtin(num_workgroups) groups: vec3<u32>,
          @builtin(local_invocation_index) lane: u32) {
    // Every value below is uniform: a bad shape returns the whole grid
    // before any barrier.
    let s = shape();
    if (!s.ok) {
        return;
    }
    if (wid.x == 0u) {
        header(lane, s);
    }
    let cells = s.depth * s.width;
    let chunks = s.slots / WORKGROUP_SIZE_X + select(0u, 1u, s.slots % WORKGROUP_SIZE_X != 0u);
    let rounds = chunks / groups.x + select(0u, 1u, chunks % groups.x != 0u);
    let map_words = WORKGROUP_SIZE_X / STATUS_MAP_PER_WORD;
    for (var round = 0u; round < rounds; round++) {
        let chunk = wid.x + round * groups.x;
        let slot = chunk * WORKGROUP_SIZE_X + lane;
        let valid = chunk < chunks && slot < s.slots;
        var st = STATUS_EMPTY;
        var op = 0u;
        var tenant = 0u;
        if (valid) {
            let base = slot * SLOT_WORDS;
            st = ring[base + SLOT_STATUS];
            op = ring[base + SLOT_OPCODE];
            tenant = ring[base + SLOT_TENANT];
            let code = min(st, STATUS_COUNT);
            atomicAdd(&wg_occupancy[code], 1u);
            atomicOr(&wg_map[lane / STATUS_MAP_PER_WORD],
                     code << (STATUS_MAP_BITS * (lane % STATUS_MAP_PER_WORD)));
            if (st != STATUS_EMPTY) {
                atomicAdd(&wg_sketched, 1u);
            }
            if (is_active(st)) {
                atomicAdd(&wg_active, 1u);
                atomicAdd(&wg_tenant[min(tenant, TENANT_SLOTS)], 1u);
                atomicAdd(&wg_priority[min(ring[base + SLOT_PRIORITY], PRIORITY_LEVELS)], 1u);
                atomicAdd(&wg_opcode[min(op, METRIC_OPCODES)], 1u);
            }
            if (is_window_opcode(op, s.opcodes)) {
                window_slot(slot, op, ring[base + SLOT_ARG0], ring[base + SLOT_ARG0 + 1u], st, s);
            }
        }
        let sketched = valid && st != STATUS_EMPTY;
        sketch_phase(lane, sketched, op, SUMMARY_HEADER_WORDS, s);
        sketch_phase(lane, sketched, tenant, SUMMARY_HEADER_WORDS + cells, s);
        sketch_phase(lane, sketched, st, SUMMARY_HEADER_WORDS + 2u * cells, s);
        sketch_phase(lane, valid && is_active(st), op, SUMMARY_HEADER_WORDS + 3u * cells, s);
        // sketch_phase ended on a barrier: the chunk's map words are complete.
        if (lane < map_words) {
            let w = chunk * map_words + lane;
            if (chunk < chunks && w < arrayLength(&status_map)) {
                status_map[w] = atomicLoad(&wg_map[lane]);
            }
            atomicStore(&wg_map[lane], 0u);
        }
        workgroupBarrier();
    }
    flush(lane);
}
