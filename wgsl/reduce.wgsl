// reduce.wgsl: entry point `reduce`, the first pass of the telemetry
// reduction (reduce_shared.wgsl, assembled before it, describes both
// passes): it writes the summary but for the window table's counts, the
// status map, and places the open windows in the window table.
//
// Bindings: those of reduce_shared.wgsl.
//
// Invariants: reduce_shared.wgsl's; the workgroup tables below are this
// pass's alone (reduce_windows declares none), zeroed at its start and
// added to the summary by flush, once per workgroup.

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
