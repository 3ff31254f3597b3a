package decode

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// logBytes builds a log buffer with room for capacity records.
func logBytes(cursor, capacity uint32, records ...LogRecord) []byte {
	w := make([]uint32, abi.LogWords(capacity))
	w[abi.LogCursor], w[abi.LogCapacity] = cursor, capacity
	for i, r := range records {
		copy(w[abi.LogHeaderWords+i*abi.LogRecordWords:], []uint32{r.Format, r.Slot, r.A, r.B})
	}
	return wordBytes(w...)
}

func faultRecord(code FaultCode, slot, op, epoch uint32) LogRecord {
	return LogRecord{Format: abi.LogFaultTag | uint32(code), Slot: slot, A: op, B: epoch}
}

func TestDecodeLog(t *testing.T) {
	printf := LogRecord{Format: 12, Slot: 3, A: 100, B: 200}
	fault := faultRecord(FaultProtected, 5, abi.OpStoreU32, 9)
	for _, tc := range []struct {
		name string
		buf  []byte
		want Log
	}{
		{"header only", logBytes(0, 0), Log{Records: []LogRecord{}}},
		{"empty with capacity", logBytes(0, 4), Log{Capacity: 4, Records: []LogRecord{}}},
		{"two records", logBytes(2, 4, printf, fault), Log{Cursor: 2, Capacity: 4, Records: []LogRecord{printf, fault}}},
		{"full", logBytes(2, 2, printf, fault), Log{Cursor: 2, Capacity: 2, Records: []LogRecord{printf, fault}}},
		{"overflow stays readable", logBytes(65, 2, printf, fault), Log{Cursor: 65, Capacity: 2, Dropped: 63, Records: []LogRecord{printf, fault}}},
		{"buffer larger than capacity", append(logBytes(1, 1, printf), make([]byte, 32)...), Log{Cursor: 1, Capacity: 1, Records: []LogRecord{printf}}},
		{"cursor at u32 max", logBytes(0xFFFFFFFF, 1, printf), Log{Cursor: 0xFFFFFFFF, Capacity: 1, Dropped: 0xFFFFFFFE, Records: []LogRecord{printf}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decodeLog(tc.buf)
			require.NoError(t, err)
			got.Records = append([]LogRecord{}, got.Records...)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestDecodeLogErrors(t *testing.T) {
	for _, tc := range []struct {
		name       string
		buf        []byte
		wantOffset int
		wantMsg    string
	}{
		{"nil", nil, 0, "decode: log of 0 bytes is shorter than its 16-byte header"},
		{"misaligned", make([]byte, 17), 16, "decode: log length 17 bytes is not a whole number of 4-byte words"},
		{"partial record", make([]byte, 16+8), 16, "decode: log length 24 bytes is not a 16-byte header and whole 16-byte records"},
		{"capacity past the buffer", logBytes(0, 2)[:16+16], 32, "decode: log header claims a capacity of 2 records but the buffer holds 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := Log{Cursor: 1, Capacity: 1, Records: []LogRecord{{Format: 1}}}
			err := DecodeLogInto(&dst, tc.buf)
			var de *DecodeError
			require.True(t, errors.As(err, &de), "want *DecodeError, got %v", err)
			assert.Equal(t, BufferLog, de.Buffer)
			assert.Equal(t, tc.wantOffset, de.Offset)
			assert.Equal(t, tc.wantMsg, err.Error())
			assert.Equal(t, Log{Cursor: 1, Capacity: 1, Records: []LogRecord{{Format: 1}}}, dst, "untouched on error")
		})
	}
}

func TestDecodeLogIntoReuses(t *testing.T) {
	buf := logBytes(3, 8, LogRecord{Format: 1}, LogRecord{Format: 2}, LogRecord{Format: 3})
	var l Log
	require.NoError(t, DecodeLogInto(&l, buf))
	ptr := &l.Records[0]
	assert.Zero(t, testing.AllocsPerRun(10, func() {
		if err := DecodeLogInto(&l, buf); err != nil {
			panic(err)
		}
	}))
	assert.Same(t, ptr, &l.Records[0])
}

func TestFaultRecords(t *testing.T) {
	for _, tc := range []struct {
		code       FaultCode
		name       string
		reasonPart string
	}{
		{FaultUnknownOpcode, "UNKNOWN_OPCODE", "opcode"},
		{FaultOutOfBounds, "OUT_OF_BOUNDS", "past the end"},
		{FaultProtected, "PROTECTED", "protected control word"},
		{FaultBadTenant, "BAD_TENANT", "tenant id"},
		{FaultBadState, "BAD_STATE", "not PUBLISHED"},
		{FaultUserFault, "USER_FAULT", "RAISE"},
		{0x77, "FAULT(0x77)", "unknown fault code 119"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := faultRecord(tc.code, 4, 0xABC, 2)
			assert.True(t, r.IsFault())
			assert.Equal(t, tc.code, r.FaultCode())
			assert.Equal(t, tc.name, tc.code.String())
			assert.Contains(t, tc.code.Reason(), tc.reasonPart)
		})
	}
	p := LogRecord{Format: 0x0000FFFF}
	assert.False(t, p.IsFault())
	assert.Zero(t, p.FaultCode())
	assert.Equal(t, "no fault", FaultCode(0).Reason())

	l, err := decodeLog(logBytes(3, 3, p, faultRecord(FaultBadState, 1, 0, 0), p))
	require.NoError(t, err)
	assert.Equal(t, []LogRecord{faultRecord(FaultBadState, 1, 0, 0)}, l.AppendFaults(nil))
}
