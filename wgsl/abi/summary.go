package abi

// GPU telemetry summary (docs/SUMMARY.md): the reduce pass writes a summary
// buffer, a packed status map and reads its own params uniform, in bind
// group BindGroup beside control (BindingControl) and ring (BindingRing).
const (
	// BindingSummary is the summary buffer: header, sketches, window table.
	BindingSummary = BindingFirstExtension
	// BindingStatusMap is the packed status map: 4 bits per slot.
	BindingStatusMap = BindingFirstExtension + 1
	// BindingSummaryParams is the reduce pass's params uniform.
	BindingSummaryParams = BindingFirstExtension + 2
)

// Summary magic (SUMMARY §2, word 0): the little-endian bytes "RSS1". Zero
// means the reduce pass did not run since the buffer was cleared.
const SummaryMagic uint32 = 0x31535352

// Summary params uniform words (SUMMARY §1, binding BindingSummaryParams):
// four words, then SummaryMaxWindowOpcodes window opcodes.
const (
	SparamDepth          = 0
	SparamWidth          = 1
	SparamWindowCapacity = 2
	SparamWindowOpcodes  = 3
	// SparamOpcodeList is the first window opcode word.
	SparamOpcodeList = 4
	// SummaryParamsWords is the size of the params uniform in words.
	SummaryParamsWords = SparamOpcodeList + SummaryMaxWindowOpcodes
)

// Bounds of the summary shape (SUMMARY §1).
const (
	// SketchMaxDepth is the most rows a summary sketch may have.
	SketchMaxDepth = 8
	// SketchMaxWidth is the most counters per sketch row.
	SketchMaxWidth = 4096
	// SummaryMaxWindowOpcodes is the most registered window opcodes.
	SummaryMaxWindowOpcodes = 64
	// WindowMaxCapacity is the most window-table entries; a capacity is a
	// power of two.
	WindowMaxCapacity = 1 << 16
	// SummarySketches is the number of u32 sketches (ring opcode, tenant,
	// status, active opcode); the dispatch-metrics sketch follows them as
	// u64 counters (two words each).
	SummarySketches = 4
)

// Summary header words (SUMMARY §2).
const (
	SumMagic          = 0
	SumSlots          = 1 // slots reduced
	SumDepth          = 2
	SumWidth          = 3
	SumWindowCapacity = 4
	SumWindowOpcodes  = 5
	// SumWindowDropped counts window slots left out because the table was full.
	SumWindowDropped = 6
	// SumWindowEntries counts the window-table entries in use.
	SumWindowEntries = 7
	// SumSketched counts the non-EMPTY slots (the slot sketches' total).
	SumSketched = 8
	// SumActive counts the slots in an active status.
	SumActive = 9
	// SumOccupancy holds slots per status below StatusCount, then the
	// unknown ones. Each region below follows the one before it, so a
	// status added to the ABI moves them rather than overlapping them.
	SumOccupancy = 10 // 10..18, StatusCount+1 words
	// SumActiveTenant holds active slots per TENANT < TenantSlots, then
	// those of larger tenant ids.
	SumActiveTenant = SumOccupancy + StatusCount + 1 // 19..51, TenantSlots+1 words
	// SumActivePriority holds active slots per PRIORITY word < PriorityLevels,
	// then those of larger values.
	SumActivePriority = SumActiveTenant + TenantSlots + 1 // 52..57, PriorityLevels+1 words
	// SumActiveOpcode holds active slots per opcode < MetricOpcodes, then
	// those of larger opcodes.
	SumActiveOpcode = SumActivePriority + PriorityLevels + 1 // 58..90, MetricOpcodes+1 words
	SumReserved     = SumActiveOpcode + MetricOpcodes + 1    // 91..95
	// SummaryHeaderWords is where the first sketch starts.
	SummaryHeaderWords = 96
)

// Window-table entries (SUMMARY §3): WindowEntryWords words each, after
// the sketches.
const (
	// WinOwner is the claim word: 1 + the slot that created the entry; 0 is free.
	WinOwner = 0
	// WinFirstInv is 0xFFFFFFFF − the lowest slot of the window (atomicMax).
	WinFirstInv = 1
	WinTicket   = 2
	WinOpcode   = 3
	// WinTenant is the tenant of the window's lowest slot.
	WinTenant    = 4
	WinRequired  = 5
	WinLookahead = 6
	// WinStatus counts the window's slots per status PUBLISHED..FAULT
	// (index status − StatusPublished).
	WinStatus         = 7 // 7..13, then 2 reserved words
	WindowEntryWords  = 16
	WindowStatusWords = StatusFault - StatusPublished + 1
	// WinOwnerSealed is the claim word of a free entry that the counting
	// pass closed to new windows (SUMMARY §3): a lane that finds its key
	// absent once the table holds WindowClosedLimit entries seals the free
	// entry where the key would go, so no later lane puts the key there
	// either. window_tenants frees sealed entries again: a summary read
	// back never holds one.
	WinOwnerSealed = 0xFFFFFFFF
	// WindowFreeShare: a window with no open slot (every slot EMPTY or
	// DONE) gets an entry only while more than 1/WindowFreeShare of the
	// table is free (WindowClosedLimit), so the probes of a key that finds
	// no entry stay short; windows with an open slot are placed first and
	// may fill the table.
	WindowFreeShare = 4
)

// WindowClosedLimit is how many entries of a capacity-entry window table
// windows without open slots may bring it to (SUMMARY §3).
func WindowClosedLimit(capacity uint32) uint32 { return capacity - capacity/WindowFreeShare }

// Status map (SUMMARY §4): slot i is the nibble at bits 4 × (i % 8) of word
// i / 8; statuses ≥ StatusCount are stored as StatusMapUnknown.
const (
	StatusMapBits    = 4
	StatusMapPerWord = 8
	StatusMapUnknown = StatusCount
)

// SummaryWords is the length in words of a summary buffer with sketches of
// depth × width and a window table of capacity entries.
func SummaryWords(depth, width, capacity uint32) uint64 {
	d := uint64(depth) * uint64(width)
	return SummaryHeaderWords + SummarySketches*d + 2*d + uint64(capacity)*WindowEntryWords
}

// SummarySketchWord is the first word of sketch s (0..SummarySketches−1 the
// u32 sketches, SummarySketches the dispatch-metrics sketch).
func SummarySketchWord(s int, depth, width uint32) uint64 {
	return SummaryHeaderWords + uint64(s)*uint64(depth)*uint64(width)
}

// SummaryWindowWord is the first word of the window table.
func SummaryWindowWord(depth, width uint32) uint64 {
	return SummaryHeaderWords + (SummarySketches+2)*uint64(depth)*uint64(width)
}

// StatusMapWords is the length in words of the status map of slots slots.
func StatusMapWords(slots uint32) uint64 {
	return (uint64(slots) + StatusMapPerWord - 1) / StatusMapPerWord
}

// Window classes carried in ARG1 of a ticketed window slot (reference §3.5):
// anything else counts toward neither.
const (
	WindowClassRequired  = 0
	WindowClassLookahead = 1
)
