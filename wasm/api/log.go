package api

import "github.com/ringscope/ringscope/internal/nocompare"

import "github.com/ringscope/ringscope/decode"

// Log is a log buffer as the API returns it (drain, snapshot, decode,
// captureFrame): decode.Log's numbers, and each record with its name and
// text as the page's log panel shows them, so that an embedder need not
// know the fault tag bits or the workload's PRINTF formats.
type Log struct {
	Cursor   uint32
	Capacity uint32
	Dropped  uint32
	Records  []LogRecord
}

// LogRecord is one record: the raw words (decode.LogRecord) and
//
//	Name   "PRINTF", or the fault's code name (BAD_TENANT, UNKNOWN_OPCODE, …)
//	Text   the PRINTF's format resolved with a and b ("fmt#id a=… b=…" for
//	       an id the page has no format for), or the fault's message
//	       ("OPCODE at epoch N: reason")
//	Fault  whether the kernel wrote it for a fault
type LogRecord struct {
	_ nocompare.T

	Format uint32
	Slot   uint32
	A      uint32
	B      uint32
	Name   string
	Text   string
	Fault  bool
}

// LogOf describes l with the PRINTF formats of the page and the opcode
// names of name (nil: decode.OpcodeName's); nil for nil.
func LogOf(l *decode.Log, formats map[uint32]string, name func(op uint32) string) *Log {
	if l == nil {
		return nil
	}
	out := &Log{Cursor: l.Cursor, Capacity: l.Capacity, Dropped: l.Dropped, Records: make([]LogRecord, len(l.Records))}
	if name == nil {
		name = decode.OpcodeName
	}
	for i := range l.Records {
		r := &l.Records[i]
		out.Records[i] = LogRecord{Format: r.Format, Slot: r.Slot, A: r.A, B: r.B, Name: r.Kind(), Text: r.Text(formats, name), Fault: r.IsFault()}
	}
	return out
}
