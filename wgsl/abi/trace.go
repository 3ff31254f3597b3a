package abi

// Task tracing (docs/TRACE.md): a traced drain takes a ticket of one
// global clock when it starts each claimed slot and another when it ends
// it, and appends one record per slot to the trace buffer. These constants
// go to trace_abi_gen.wgsl, not abi_gen.wgsl, so that a drain without
// tracing compiles the very source it compiled before the feature.
const (
	// BindingTrace is the trace buffer's binding in group BindGroup, past
	// every user buffer a device allows (BindingFirstUser + i stays below
	// it for i < BindingTrace − BindingFirstUser).
	BindingTrace = 64
	// TraceStorageBuffers is the storage buffers a traced drain binds
	// besides DrainStorageBuffers: the trace buffer.
	TraceStorageBuffers = 1
	// TraceHeaderWords is the trace buffer's header: cursor, capacity,
	// clock and the parent table's place.
	TraceHeaderWords = 4
	// TraceCursor counts every record a lane tried to append: records
	// [0, min(cursor, capacity)) are written, and cursor − capacity, when
	// positive, is the overflow (records dropped, never written past).
	TraceCursor = 0
	// TraceCapacity is the records the host sized the buffer for.
	TraceCapacity = 1
	// TraceClock is the ticket clock: each ticket is one atomicAdd on it,
	// so tickets are unique and ordered across every lane of the device.
	TraceClock = 2
	// TraceParents is the word offset of the parent table, 0 for none (a
	// kernel that does not spawn): an entry of TraceVecWords per ring slot
	// after the records, its first word slot s's spawning slot + 1 (0:
	// none), written by a traced spawn and taken (zeroed) by the child's
	// record.
	TraceParents = 3
	// TraceVecWords is the words of the vec4<u32> in which a traced drain
	// writes what follows the header: a record is two of them, written
	// whole by the lane that ran its slot (plain stores, not atomics), and
	// a parent table entry one.
	TraceVecWords = 4
	// TraceRecordWords is the size of one record in words.
	TraceRecordWords = 8
	// MaxTraceCapacity bounds the records of one trace buffer: 4 Mi
	// records (128 MiB of trace buffer and as much of readback staging).
	MaxTraceCapacity = 1 << 22
)

// Words of one trace record.
const (
	TraceRecSlot     = 0 // the slot's index in the ring
	TraceRecOpTenant = 1 // opcode (low 16 bits) | tenant << 16
	TraceRecGroup    = 2 // the workgroup that ran it (workgroup_id.x)
	TraceRecLane     = 3 // the lane within that workgroup
	TraceRecStart    = 4 // ticket taken before the claim of the slot
	TraceRecEnd      = 5 // ticket taken after its final status was stored
	TraceRecOutcome  = 6 // final status | fault code << 8
	TraceRecParent   = 7 // the spawning slot, or TraceNoParent
	// TraceOpMask and TraceTenantShift split TraceRecOpTenant.
	TraceOpMask      = 0xFFFF
	TraceTenantShift = 16
	// TraceFaultShift places the fault code in TraceRecOutcome, above the
	// status (every status is below 1 << TraceFaultShift).
	TraceFaultShift = 8
	// TraceNoParent marks a slot the host published, not the GPU.
	TraceNoParent = 0xFFFFFFFF
)

// The layout ringscope's own traced drain writes (docs/TRACE.md §1,
// "packed"): the same buffer, its body split in two halves of capacity
// vec4s each. Record r is a task in the first half; the second half holds,
// at place r, the head of the run of records that starts there: the
// records a claim round gave one partition's consecutive lanes, whose
// workgroup is one, and whose lanes, start tickets and end tickets are each
// the head's plus the record's offset in the run. A run's first record has
// offset 0 and writes the head; the others write only their record. Half
// the bytes of a record above, at the cost of one head a claim round.
const (
	TraceTaskSlot     = 0 // the slot's index in the ring
	TraceTaskOpTenant = 1 // as TraceRecOpTenant
	TraceTaskOutcome  = 2 // status | fault << TraceFaultShift | offset << TraceOffsetShift
	TraceTaskParent   = 3 // as TraceRecParent
	TraceHeadGroup    = 0 // the run's workgroup
	TraceHeadStart    = 1 // the start ticket of the run's first record
	TraceHeadEnd      = 2 // its end ticket
	TraceHeadLane     = 3 // its lane
	// TraceFaultMask bounds the fault code in TraceTaskOutcome: every
	// code is below 1 << 16 (FaultUserFirst + FaultUserCodes).
	TraceFaultMask = 0xFFFF
	// TraceOffsetShift places a record's offset in its run above the
	// fault code; a run holds at most TraceOffsetSpan records (a wider
	// claim round starts a new run every TraceOffsetSpan lanes).
	TraceOffsetShift = 24
	TraceOffsetSpan  = 256
)
