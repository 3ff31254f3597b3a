// Package wgsl holds the ringscope megakernel: WGSL compute kernels that
// drain the ring of docs/PROTOCOL.md (ABI v1), embedded in the
// binary, with the constants they share with Go.
//
// abi_gen.wgsl is generated from package wgsl/abi by go generate ./wgsl and
// is prepended to every kernel, so the kernels name ABI words
// (CTRL_DONE_COUNT, SLOT_WORDS, BINDING_RING) and never restate numbers.
// The binary embeds min/, copies of the .wgsl files without their comments
// that go generate ./wgsl writes too (package wgsl/internal/wgslmin); the
// files here are the source to read and edit.
//
// Each .wgsl file holds one entry point, or says it holds none: a file the
// entry points of one shader module share (reduce_shared.wgsl before
// reduce.wgsl and reduce_windows.wgsl; spawn_shared.wgsl before
// spawn_scan.wgsl and spawn_finalize.wgsl), or one spliced into the drain
// (user_prelude.wgsl, trace.wgsl, spawn_prelude.wgsl).
//
// A runner creates one shader module per source and one compute pipeline per
// Program: Drain for the bounded drain, JIT for the same drain specialised
// to the opcodes a ring holds, Finalize for the HEAD clamp that ends each
// submission. Tunables are WGSL override constants, set through
// Program.Constants at pipeline creation, never by editing source text.
package wgsl
