// Package host is the host side of the ringscope megakernel ABI v1
// (docs/PROTOCOL.md): it encodes a fresh control buffer, publishes
// work items into the priority partitions of the ring, and between
// submissions takes the GPU's readback as the new truth and republishes the
// slots the kernel parked (YIELD, REQUEUE, WAIT_IO).
//
// A Queue owns the host copies of the control, ring and log buffers of one
// generation. Every method that changes a word records the word's byte range,
// so a runner uploads only what changed:
//
//	q, _ := host.NewQueue(cfg, 64)
//	q.Publish(items)
//	for _, r := range q.Dirty(host.RingBuffer) { upload(ring, r.Start, q.Ring()[r.Start:r.End]) }
//	… control and log likewise, then q.ClearDirty()
//	submit; read back; q.Absorb(control, ring, log)
//	q.Requeue(nil); if q.NeedsSubmit() { … again }
//
// A summary frame absorbs control and the GPU's 4-bit status map instead
// of the ring (AbsorbStatusMap). Separately from the upload's dirty ranges,
// the Queue keeps the ring's changed slots since ClearRingChanges
// (RingChanges): what a flight recorder needs to record a frame's ring as a
// patch of the one before.
//
// Given a clock (TrackWaits), the Queue also measures queue waits: when
// each item was published and in which absorb its slot ended (Waits).
//
// The package is pure Go (std, wgsl/abi and internal/loghist only) and
// builds for GOOS=js
// GOARCH=wasm. Nothing in it is safe for concurrent use.
package host
