package decode

import (
	"fmt"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/abi/spawn"
)

// Log is a decoded log buffer (PROTOCOL §5). Cursor counts the records the
// GPU attempted, Capacity those the buffer holds; Records are the
// min(Cursor, Capacity) records that landed, in record order, and Dropped =
// Cursor − Capacity those that did not. The zero value is an empty log.
type Log struct {
	Cursor   uint32
	Capacity uint32
	Dropped  uint32
	Records  []LogRecord
}

// LogRecord is one log record. For a PRINTF, Format is the format id (a0)
// and A, B its arguments; for a fault, Format is abi.LogFaultTag | code, A
// the slot's opcode and B the epoch (params.epoch) of the dispatch. Slot is
// the ring slot index either way.
type LogRecord struct {
	Format uint32
	Slot   uint32
	A      uint32
	B      uint32
}

// IsFault reports whether r was written by a fault rather than a PRINTF.
// PRINTF format ids therefore must not carry the fault tag bits.
func (r LogRecord) IsFault() bool { return r.Format&abi.LogFaultMask == abi.LogFaultTag }

// FaultCode is the code of a fault record, or 0 for a PRINTF record.
func (r LogRecord) FaultCode() FaultCode {
	if !r.IsFault() {
		return 0
	}
	return FaultCode(r.Format &^ abi.LogFaultMask)
}

// FaultCode says why a slot ended FAULT (PROTOCOL §5). Zero is no fault.
type FaultCode uint32

// Fault codes of PROTOCOL §5.
const (
	FaultUnknownOpcode FaultCode = abi.FaultUnknownOpcode
	FaultOutOfBounds   FaultCode = abi.FaultOutOfBounds
	FaultProtected     FaultCode = abi.FaultProtected
	FaultBadTenant     FaultCode = abi.FaultBadTenant
	FaultBadState      FaultCode = abi.FaultBadState
	FaultUserFault     FaultCode = abi.FaultUserFault
	// A refused spawn's record (docs/PROTOCOL-SPAWN.md §4): the spawner
	// goes on, spawn returned false.
	FaultSpawnOpcode   FaultCode = spawn.FaultSpawnOpcode
	FaultSpawnTenant   FaultCode = spawn.FaultSpawnTenant
	FaultSpawnPriority FaultCode = spawn.FaultSpawnPriority
)

var faultNames = [...]struct{ name, reason string }{
	FaultUnknownOpcode: {"UNKNOWN_OPCODE", "the slot's opcode is not one the kernel implements"},
	FaultOutOfBounds:   {"OUT_OF_BOUNDS", "an argument indexed past the end of a buffer"},
	FaultProtected:     {"PROTECTED", "the opcode tried to write a protected control word (below OBSERVABLE)"},
	FaultBadTenant:     {"BAD_TENANT", "the tenant id is 29 or more and has no mask"},
	FaultBadState:      {"BAD_STATE", "the claimed slot was not PUBLISHED"},
	FaultUserFault:     {"USER_FAULT", "the work item raised a fault (RAISE opcode)"},
	FaultSpawnOpcode:   {"SPAWN_OPCODE", "spawn refused: the kernel does not implement the opcode (the spawner went on)"},
	FaultSpawnTenant:   {"SPAWN_TENANT", "spawn refused: the tenant is 29 or more or masked off (the spawner went on)"},
	FaultSpawnPriority: {"SPAWN_PRIORITY", "spawn refused: the priority is 5 or more or its partition is empty (the spawner went on)"},
}

// String returns the protocol name of c, or FAULT(0x…) for other values.
func (c FaultCode) String() string {
	if c != 0 && int(c) < len(faultNames) {
		return faultNames[c].name
	}
	if code, ok := c.User(); ok {
		return fmt.Sprintf("USER_FAULT(%d)", code)
	}
	return fmt.Sprintf("FAULT(0x%x)", uint32(c))
}

// User reports the user's code of a fault a user opcode raised with
// user_fault(code): fault codes abi.FaultUserFirst and up.
func (c FaultCode) User() (code uint32, ok bool) {
	if c < abi.FaultUserFirst || c >= abi.FaultUserFirst+abi.FaultUserCodes {
		return 0, false
	}
	return uint32(c) - abi.FaultUserFirst, true
}

// SpawnRefusal reports whether c is a refused spawn's record
// (docs/PROTOCOL-SPAWN.md §4), which logs a spawner that went on, not a
// slot that faulted.
func (c FaultCode) SpawnRefusal() bool {
	return c == FaultSpawnOpcode || c == FaultSpawnTenant || c == FaultSpawnPriority
}

// Reason explains c to a person.
func (c FaultCode) Reason() string {
	if c != 0 && int(c) < len(faultNames) {
		return faultNames[c].reason
	}
	if c == 0 {
		return "no fault"
	}
	if code, ok := c.User(); ok {
		return fmt.Sprintf("a user opcode ended its slot with user_fault(%d) (docs/OPCODES.md)", code)
	}
	return fmt.Sprintf("unknown fault code %d", uint32(c))
}

// DecodeLogInto decodes a log buffer into dst, reusing dst.Records. The
// buffer must be whole words, hold the 4-word header and whole 4-word
// records, and hold at least CAPACITY records (a larger buffer is fine). An
// overflowing cursor is not an error: the first CAPACITY records are read
// and the rest counted as Dropped. On error dst is left untouched.
func DecodeLogInto(dst *Log, log []byte) error {
	const headerBytes = abi.LogHeaderWords * abi.WordBytes
	const recordBytes = abi.LogRecordWords * abi.WordBytes
	n := len(log)
	if rem := n % abi.WordBytes; rem != 0 {
		return &DecodeError{Buffer: BufferLog, Offset: n - rem, Msg: fmt.Sprintf(
			"log length %d bytes is not a whole number of %d-byte words", n, abi.WordBytes)}
	}
	if n < headerBytes {
		return &DecodeError{Buffer: BufferLog, Offset: n, Msg: fmt.Sprintf(
			"log of %d bytes is shorter than its %d-byte header", n, headerBytes)}
	}
	if rem := (n - headerBytes) % recordBytes; rem != 0 {
		return &DecodeError{Buffer: BufferLog, Offset: n - rem, Msg: fmt.Sprintf(
			"log length %d bytes is not a %d-byte header and whole %d-byte records", n, headerBytes, recordBytes)}
	}
	cursor := abi.Word(log, abi.LogCursor)
	capacity := abi.Word(log, abi.LogCapacity)
	held := (n - headerBytes) / recordBytes
	if uint64(capacity) > uint64(held) {
		return &DecodeError{Buffer: BufferLog, Offset: n, Msg: fmt.Sprintf(
			"log header claims a capacity of %d records but the buffer holds %d", capacity, held)}
	}
	records := int(min(cursor, capacity))
	dst.Cursor, dst.Capacity = cursor, capacity
	dst.Dropped = 0
	if cursor > capacity {
		dst.Dropped = cursor - capacity
	}
	if cap(dst.Records) >= records {
		dst.Records = dst.Records[:records]
	} else {
		dst.Records = make([]LogRecord, records)
	}
	for i := range dst.Records {
		r := log[headerBytes+i*recordBytes : headerBytes+(i+1)*recordBytes]
		dst.Records[i] = LogRecord{
			Format: abi.Word(r, 0),
			Slot:   abi.Word(r, 1),
			A:      abi.Word(r, 2),
			B:      abi.Word(r, 3),
		}
	}
	return nil
}

// AppendFaults appends the fault records of l to dst and returns it.
func (l *Log) AppendFaults(dst []LogRecord) []LogRecord {
	for _, r := range l.Records {
		if r.IsFault() {
			dst = append(dst, r)
		}
	}
	return dst
}
