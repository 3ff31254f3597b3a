// attach-host.wgsl: the example host app's own kernel (static/attach-host.js),
// written for the example, not ringscope's megakernel. One dispatch per
// frame, one lane per slot of the app's ring, in ringscope's ABI v1 layout
// (docs/PROTOCOL.md; with MAGIC 0 it is vyre's):
//
//   - a slot PUBLISHED by the previous frame is claimed and run: CLAIMED
//     counters (HEAD, CLAIMS, TENANT_CLAIMS, PRIORITY_CLAIMS,
//     OPCODE_METRICS), then NOP and ATOMIC_ADD end DONE, YIELD ends YIELD,
//     an opcode the app does not know ends FAULT with a log record;
//   - a slot in this frame's wave (params.wave slots from frame × wave,
//     round the ring) that is EMPTY, DONE, YIELD or FAULT is published anew
//     with an item that is a function of (slot, frame) only, TAIL + 1.
//
// Everything is a function of the frame number and the buffers, so two runs
// of the same frames produce the same bytes (the e2e test compares them).
//
// Traced (attach-host.html?trace=N), the lines that start with the trace
// hook comment below are code (attach-host.js strips the comment, as
// ringscope's own traced drain does its hooks): every claimed slot takes a
// ticket of one global clock before its claim and another once its final
// status is stored, and appends a record in docs/TRACE.md §1.1's record
// layout, which ringscope.attach({trace}) reads. The TRACE_ constants are the generated
// wgsl/trace_abi_gen.wgsl's (wgsl.TestAttachHostTraceLayout compares them).
//
// Bindings (group 0):
//   0 control  storage, read_write  array<atomic<u32>>  160 + observable words
//   1 ring     storage, read_write  array<u32>          slots × 16 words
//   2 log      storage, read_write  array<atomic<u32>>  4 + 4 × capacity words
//   3 params   uniform              frame, slots, wave, legacy
//   4 trace    storage, read_write  array<atomic<u32>>  4 + 8 × capacity words (traced only)

struct Params { frame: u32, slots: u32, wave: u32, legacy: u32 }

@group(0) @binding(0) var<storage, read_write> control: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> ring: array<u32>;
@group(0) @binding(2) var<storage, read_write> logbuf: array<atomic<u32>>;
@group(0) @binding(3) var<uniform> params: Params;

const DONE_COUNT = 1u;
const TENANT_CLAIMS = 64u;
const OPCODE_METRICS = 96u;
const PRIORITY_OFFSETS = 129u;
const PRIORITY_CLAIMS = 136u;
const DISPATCHES = 144u;
const CLAIMS = 145u;
const FAULTS = 146u;
const HEAD = 149u;
const TAIL = 154u;
const OBSERVABLE = 160u;

const EMPTY = 0u;
const PUBLISHED = 1u;
const DONE = 3u;
const YIELD = 5u;
const FAULT = 7u;

const OP_NOP = 0u;
const OP_ATOMIC_ADD = 2u;
const OP_YIELD = 0xFFF0u;
const OP_BOGUS = 0x7777u; // not an opcode: faults UNKNOWN_OPCODE

// @trace: @group(0) @binding(4) var<storage, read_write> trace_buf: array<atomic<u32>>;
// @trace: const TRACE_HEADER_WORDS: u32 = 4u;
// @trace: const TRACE_CURSOR: u32 = 0u;
// @trace: const TRACE_CAPACITY: u32 = 1u;
// @trace: const TRACE_CLOCK: u32 = 2u;
// @trace: const TRACE_RECORD_WORDS: u32 = 8u;
// @trace: const TRACE_REC_SLOT: u32 = 0u;
// @trace: const TRACE_REC_OP_TENANT: u32 = 1u;
// @trace: const TRACE_REC_GROUP: u32 = 2u;
// @trace: const TRACE_REC_LANE: u32 = 3u;
// @trace: const TRACE_REC_START: u32 = 4u;
// @trace: const TRACE_REC_END: u32 = 5u;
// @trace: const TRACE_REC_OUTCOME: u32 = 6u;
// @trace: const TRACE_REC_PARENT: u32 = 7u;
// @trace: const TRACE_OP_MASK: u32 = 0xFFFFu;
// @trace: const TRACE_TENANT_SHIFT: u32 = 16u;
// @trace: const TRACE_FAULT_SHIFT: u32 = 8u;
// @trace: const TRACE_NO_PARENT: u32 = 0xFFFFFFFFu;
// @trace:
// @trace: fn traceTicket() -> u32 { return atomicAdd(&trace_buf[TRACE_CLOCK], 1u); }
// @trace:
// @trace: // traceRecord takes the slot's end ticket and appends its record, when
// @trace: // the buffer holds it (else the cursor alone counts it: the overflow).
// @trace: fn traceRecord(slot: u32, op: u32, tenant: u32, group: u32, lane: u32, start: u32, status: u32, fault: u32) {
// @trace:   let end = traceTicket();
// @trace:   let r = atomicAdd(&trace_buf[TRACE_CURSOR], 1u);
// @trace:   let held = (arrayLength(&trace_buf) - TRACE_HEADER_WORDS) / TRACE_RECORD_WORDS;
// @trace:   if (r >= min(atomicLoad(&trace_buf[TRACE_CAPACITY]), held)) { return; }
// @trace:   let w = TRACE_HEADER_WORDS + r * TRACE_RECORD_WORDS;
// @trace:   atomicStore(&trace_buf[w + TRACE_REC_SLOT], slot);
// @trace:   atomicStore(&trace_buf[w + TRACE_REC_OP_TENANT], (op & TRACE_OP_MASK) | (tenant << TRACE_TENANT_SHIFT));
// @trace:   atomicStore(&trace_buf[w + TRACE_REC_GROUP], group);
// @trace:   atomicStore(&trace_buf[w + TRACE_REC_LANE], lane);
// @trace:   atomicStore(&trace_buf[w + TRACE_REC_START], start);
// @trace:   atomicStore(&trace_buf[w + TRACE_REC_END], end);
// @trace:   atomicStore(&trace_buf[w + TRACE_REC_OUTCOME], status | (fault << TRACE_FAULT_SHIFT));
// @trace:   atomicStore(&trace_buf[w + TRACE_REC_PARENT], TRACE_NO_PARENT);
// @trace: }

fn partitionOf(slot: u32) -> u32 {
  for (var p = 0u; p < 4u; p++) {
    if (slot < atomicLoad(&control[PRIORITY_OFFSETS + p + 1u])) { return p; }
  }
  return 4u;
}

fn mix(x: u32) -> u32 {
  var h = x * 0x9E3779B1u;
  h ^= h >> 15u;
  h *= 0x85EBCA77u;
  h ^= h >> 13u;
  return h;
}

// v1 counters live in words 141–159; a vyre-layout ring has none there.
fn v1Add(word: u32, n: u32) {
  if (params.legacy == 0u) { atomicAdd(&control[word], n); }
}

@compute @workgroup_size(64)
fn frame(@builtin(global_invocation_id) id: vec3u, @builtin(workgroup_id) group: vec3u, @builtin(local_invocation_index) lane: u32) {
  let s = id.x;
  if (s == 0u) {
    v1Add(DISPATCHES, 1u);
    if (arrayLength(&control) > OBSERVABLE) { atomicStore(&control[OBSERVABLE], params.frame); }
  }
  if (s >= params.slots || s * 16u + 15u >= arrayLength(&ring)) { return; }
  let base = s * 16u;
  let st = ring[base];
  let p = partitionOf(s);
  if (st == PUBLISHED) {
    // @trace: let start = traceTicket();
    let op = ring[base + 1u];
    let tenant = ring[base + 2u];
    v1Add(HEAD + p, 1u);
    v1Add(CLAIMS, 1u);
    atomicAdd(&control[TENANT_CLAIMS + tenant % 32u], 1u);
    atomicAdd(&control[PRIORITY_CLAIMS + p], 1u);
    if (op < 32u) { atomicAdd(&control[OPCODE_METRICS + op], 1u); }
    if (op == OP_NOP || op == OP_ATOMIC_ADD) {
      if (op == OP_ATOMIC_ADD && arrayLength(&control) > OBSERVABLE + 1u) {
        atomicAdd(&control[OBSERVABLE + 1u], ring[base + 4u]);
      }
      ring[base] = DONE;
      atomicAdd(&control[DONE_COUNT], 1u);
    } else if (op == OP_YIELD) {
      ring[base] = YIELD;
    } else {
      ring[base] = FAULT;
      atomicAdd(&control[DONE_COUNT], 1u);
      v1Add(FAULTS, 1u);
      let cap = atomicLoad(&logbuf[1]);
      let at = atomicAdd(&logbuf[0], 1u);
      if (at < cap && 4u + at * 4u + 3u < arrayLength(&logbuf)) {
        atomicStore(&logbuf[4u + at * 4u], 0xFFFF0001u); // fault tag | UNKNOWN_OPCODE
        atomicStore(&logbuf[5u + at * 4u], s);
        atomicStore(&logbuf[6u + at * 4u], op);
        atomicStore(&logbuf[7u + at * 4u], params.frame);
      }
    }
    // @trace: traceRecord(s, op, tenant, group.x, lane, start, ring[base], select(0u, 1u, ring[base] == FAULT)); // 1: UNKNOWN_OPCODE
    return;
  }
  let inWave = (s + params.slots - (params.frame * params.wave) % params.slots) % params.slots < params.wave;
  if (inWave && (st == EMPTY || st == DONE || st == YIELD || st == FAULT)) {
    let h = mix(s ^ mix(params.frame));
    var op = OP_ATOMIC_ADD;
    switch (h % 16u) {
      case 0u, 1u, 2u, 3u, 4u: { op = OP_NOP; }
      case 5u: { op = OP_YIELD; }
      case 6u: { op = OP_BOGUS; }
      default: {}
    }
    ring[base + 1u] = op;
    ring[base + 2u] = (h >> 8u) % 4u;
    ring[base + 3u] = p;
    ring[base + 4u] = 1u + (h >> 16u) % 7u;
    for (var w = 5u; w < 16u; w++) { ring[base + w] = 0u; }
    ring[base] = PUBLISHED;
    v1Add(TAIL + p, 1u);
  }
}
