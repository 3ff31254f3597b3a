package frame

// Raw is the bytes a frame was decoded from, as views of its producer's
// host copies: valid until that producer's next frame. The flight
// recorder copies what it keeps (wasm/capture.Recorder.Record).
type Raw struct {
	Control, Ring, Log []byte
	// Patchable reports that Ring differs from the previous frame's ring
	// (of the same producer) only in the slots ChangedSlots lists, so a
	// recorder holding that frame may store this one as a patch: a frame
	// that read no ring back, whose host copy changed only where the host
	// published and the status map said.
	Patchable    bool
	ChangedSlots []SlotRun
	// Published is the items published since the ring was opened.
	Published uint64
	// WindowOpcodes are the opcodes the ring's windows count.
	WindowOpcodes []uint32
}

// SlotRun is the slots [First, First+Count) of a ring.
type SlotRun struct {
	First, Count uint32
}
