package ui

import (
	"github.com/ringscope/ringscope/internal/nocompare"
	"sort"
	"strconv"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
)

// LogPanel shows the newest log records (PRINTF messages resolved through
// Formats, faults with their reasons), a count of faults by code and,
// prominently, how many records were dropped.
type LogPanel struct {
	// Names name the kernel's user opcodes.
	Names Names
	Frame *frame.Frame
	// Formats maps PRINTF format ids to format strings with %d / %x
	// placeholders for the record's a and b.
	Formats map[uint32]string
}

// LogRow is one record of the table.
type LogRow struct {
	_ nocompare.T

	Key, Num, Slot, Kind, Message, Class, Title string
}

func (c *LogPanel) log() *decode.Log {
	if c.Frame == nil {
		return nil
	}
	return c.Frame.Log
}

// Sub summarises the buffer.
func (c *LogPanel) Sub() string {
	l := c.log()
	if l == nil {
		return "no log yet"
	}
	return Thousands(uint64(len(l.Records))) + " of " + Thousands(uint64(l.Capacity)) + " records · cursor " + Thousands(uint64(l.Cursor))
}

// Dropped is the banner text when records were lost, else "".
func (c *LogPanel) Dropped() string {
	l := c.log()
	if l == nil || l.Dropped == 0 {
		return ""
	}
	return "DROPPED " + Thousands(uint64(l.Dropped)) + " records: the log (capacity " + Thousands(uint64(l.Capacity)) +
		") is full: it keeps a generation's first records; the GPU attempted " + Thousands(uint64(l.Cursor)) + ". Raise the log capacity, or reset the ring."
}

// FaultSummary counts fault records by code.
func (c *LogPanel) FaultSummary() []KV {
	l := c.log()
	if l == nil {
		return nil
	}
	counts := map[decode.FaultCode]uint64{}
	for _, r := range l.Records {
		if r.IsFault() {
			counts[r.FaultCode()]++
		}
	}
	codes := make([]decode.FaultCode, 0, len(counts))
	for k := range counts {
		codes = append(codes, k)
	}
	sort.Slice(codes, func(i, j int) bool {
		return counts[codes[i]] > counts[codes[j]] || (counts[codes[i]] == counts[codes[j]] && codes[i] < codes[j])
	})
	out := make([]KV, len(codes))
	for i, k := range codes {
		out[i] = KV{Label: k.String(), Value: k.String() + " × " + Thousands(counts[k]), Title: k.Reason()}
	}
	return out
}

// Rows lists the newest records first, at most maxRows.
func (c *LogPanel) Rows() []LogRow {
	l := c.log()
	if l == nil || len(l.Records) == 0 {
		return nil
	}
	n := min(len(l.Records), maxRows)
	rows := make([]LogRow, n)
	for k := 0; k < n; k++ {
		i := len(l.Records) - 1 - k
		rows[k] = LogRecordRow(i, &l.Records[i], c.Formats, c.Names)
	}
	return rows
}

// LogRecordRow formats record i.
func LogRecordRow(i int, r *decode.LogRecord, formats map[uint32]string, names Names) LogRow {
	row := LogRow{Key: strconv.Itoa(i), Num: strconv.Itoa(i), Slot: Thousands(uint64(r.Slot)),
		Kind: r.Kind(), Message: r.Text(formats, names.Opcode)}
	if r.IsFault() {
		row.Class = "row-fault"
		row.Title = "fault record: format " + Hex32(r.Format) + ", slot " + Thousands(uint64(r.Slot)) + ", opcode " + Hex32(r.A) + ", host epoch " + Thousands(uint64(r.B))
		return row
	}
	row.Title = "PRINTF record: format id " + strconv.FormatUint(uint64(r.Format), 10) + ", a = " + Hex32(r.A) + ", b = " + Hex32(r.B)
	return row
}
