// Package decode turns readbacks of a ringscope megakernel into telemetry:
// the control and ring buffers into RingTelemetry (control words, occupancy,
// slots, ticketed windows), the log buffer into Log records and fault codes,
// and snapshots into runtime counters, watchdog health, Count-Min sketches
// and priority-requeue accounting.
//
// The wire contract is ABI v1 (docs/PROTOCOL.md), every number of
// which comes from package wgsl/abi; the derivations are vyre's, with the
// v1 changes of PROTOCOL §6. A control buffer whose MAGIC word is 0 is a legacy vyre dump:
// words 0–140 keep vyre's meaning and words 141–159 are ignored.
//
// Strict decoders (Decoder.Decode, DecodeInto, DecodeLogInto) reject buffers of the
// wrong size with a *DecodeError that says which buffer, where and why; they
// never panic on bad bytes, and unknown slot statuses are kept, not
// rejected. A polling loop uses a Decoder: it owns
// the scratch, the window opcodes and the readback mode (full ring, or GPU
// summary and status map), and decodes each readback, log included, into
// its own reused telemetry, so that the loop allocates nothing; what it
// returns is valid until its next Decode. DecodeInto, DecodeSummaryInto
// and DecodeLogInto are the same decoders over the caller's storage
// (SketchTelemetry.FromSummary the summary's sketches); DecodeSlot decodes
// one slot, DecodeSpawn a spawn pass's words. These five and Decoder are
// the package's decode functions.
//
// Slot statuses have one vocabulary: package abi's name table. Status's
// String and Label (WAIT_IO, wait-io, wait_io, waitIO) derive every label
// the page, the exports and the captures use from it, and RingOccupancy
// is an array indexed by Status, StatusUnknown last, so a status added to
// the ABI is counted, named and exported without a change here.
//
// The package is pure Go: it imports only the standard library and
// wgsl/abi, so it builds natively and for GOOS=js GOARCH=wasm alike.
package decode
