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
// Bindings (group 0):
//   0 control  storage, read_write  array<atomic<u32>>  160 + observable words
//   1 ring     storage, read_write  array<u32>          slots × 16 words
//   2 log      storage, read_write  array<atomic<u32>>  4 + 4 × capacity words
//   3 params   uniform              frame, slots, wave, legacy

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
fn frame(@builtin(global_invocation_id) id: vec3u) {
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
