// Package spawn declares the numbers of the spawn extension of ABI v1
// (docs/PROTOCOL-SPAWN.md): the spawn state buffer a kernel binds when one
// of its user opcodes calls spawn, its words, the extension's version and
// the fault codes of refused spawns. `go generate ./wgsl` writes them to
// wgsl/spawn_gen.wgsl, which only a spawning kernel includes, so the
// built-in kernel and every kernel that does not spawn stay byte for byte
// what they were (a v1 ring).
//
// The package imports nothing, so the generator can type-check it alone;
// wgsl/abi/spawn's tests pin the numbers that must agree with wgsl/abi.
package spawn

// Identity of the spawn state buffer (PROTOCOL-SPAWN §2, words 0 and 1).
const (
	// SpawnMagic is the little-endian bytes "RSP1" in word SpawnWordMagic.
	SpawnMagic uint32 = 0x31505352
	// SpawnVersion is the extension's version in word SpawnWordVersion.
	SpawnVersion = 1
)

// Words of the spawn state buffer (PROTOCOL-SPAWN §2). Per-partition words
// take PriorityLevels (5) words from their first.
const (
	SpawnWordMagic   = 0
	SpawnWordVersion = 1
	// SpawnGenerations counts drain passes run with the extension (the
	// spawn finalize adds 1 per pass); the history entry of pass g is g mod
	// SpawnHistory.
	SpawnGenerations = 2
	// SpawnRefusedFull counts spawns refused because the partition had no
	// free slot below its bound.
	SpawnRefusedFull = 3
	// SpawnRefusedBad counts spawns refused for a bad opcode, tenant or
	// priority (each also a log record with a SpawnFault code).
	SpawnRefusedBad = 4
	// SpawnTotal counts every item spawned and published, all passes.
	SpawnTotal = 5
	// SpawnRefusedSeen is SpawnRefusedFull + SpawnRefusedBad as the last
	// finalize saw them: the next one's history entry counts the rest.
	SpawnRefusedSeen = 6
	// SpawnReserve is RESERVE[p]: the next ticket a spawn takes in
	// partition p; the scan sets it to TAIL[p], the finalize publishes
	// min(RESERVE, TAIL + FREE) as the new TAIL.
	SpawnReserve = 8
	// SpawnFree is FREE[p]: the free positions from TAIL[p] on, found by
	// the scan (an atomicMin of each non-free slot's distance), reset to
	// SpawnFreeUnset by the finalize.
	SpawnFree = 13
	// SpawnHeadStart is HEAD[p] as the pass began, for the frontier count.
	SpawnHeadStart = 18
	// SpawnOpcodeCounts is SPAWNED[op] for op < SpawnMetricOpcodes.
	SpawnOpcodeCounts = 32
	// SpawnMetricOpcodes is the opcodes counted one by one.
	SpawnMetricOpcodes = 32
	// SpawnHistoryFirst is the first word of the generation history:
	// SpawnHistory entries of SpawnEntryWords words.
	SpawnHistoryFirst = 64
	// SpawnHistory is the entries the history keeps (the newest passes).
	SpawnHistory = 64
	// SpawnEntryWords is one entry: pass number + 1 (0: never written),
	// items the pass claimed (the frontier it drained), items it spawned,
	// spawns it refused.
	SpawnEntryWords = 4
	// SpawnWords is the buffer's length in words.
	SpawnWords = SpawnHistoryFirst + SpawnHistory*SpawnEntryWords
)

// Fields of a history entry.
const (
	SpawnEntryPass    = 0
	SpawnEntryClaimed = 1
	SpawnEntrySpawned = 2
	SpawnEntryRefused = 3
)

// SpawnFreeUnset is FREE[p] before a scan: no non-free slot seen.
const SpawnFreeUnset uint32 = 0xFFFFFFFF

// Fault codes of refused spawns (PROTOCOL §5's log record, written by the
// spawning slot, which goes on: the refusal is spawn's false, not a FAULT
// of the spawner).
const (
	// FaultSpawnOpcode: the spawned opcode is not one the kernel implements.
	FaultSpawnOpcode = 7
	// FaultSpawnTenant: the tenant is 29 or more, or its mask is 0.
	FaultSpawnTenant = 8
	// FaultSpawnPriority: the priority is 5 or more, or its partition is
	// empty or malformed.
	FaultSpawnPriority = 9
)

// SpawnScanWidth is the workgroup width of the scan and finalize passes.
const SpawnScanWidth = 64
