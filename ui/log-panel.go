package ui

import (
	"sort"
	"strconv"
	"strings"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
)

// LogPanel shows the newest log records (PRINTF messages resolved through
// Formats, faults with their reasons), a count of faults by code and,
// prominently, how many records were dropped.
type LogPanel struct {
	Frame *frame.Frame
	// Formats maps PRINTF format ids to format strings with %d / %x
	// placeholders for the record's a and b.
	Formats map[uint32]string
}

// LogRow is one record of the table.
type LogRow struct {
	_ noCompare

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
		") filled up; the GPU attempted " + Thousands(uint64(l.Cursor)) + ". Raise the log capacity or drain it more often."
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
		rows[k] = LogRecordRow(i, &l.Records[i], c.Formats)
	}
	return rows
}

// LogRecordRow formats record i.
func LogRecordRow(i int, r *decode.LogRecord, formats map[uint32]string) LogRow {
	row := LogRow{Key: strconv.Itoa(i), Num: strconv.Itoa(i), Slot: Thousands(uint64(r.Slot))}
	if r.IsFault() {
		code := r.FaultCode()
		row.Kind = code.String()
		row.Class = "row-fault"
		row.Message = OpcodeName(r.A) + " at epoch " + Thousands(uint64(r.B)) + ": " + code.Reason()
		row.Title = "fault record: format " + Hex32(r.Format) + ", slot " + Thousands(uint64(r.Slot)) + ", opcode " + Hex32(r.A) + ", epoch " + Thousands(uint64(r.B))
		return row
	}
	row.Kind = "PRINTF"
	row.Message = FormatPrintf(r.Format, r.A, r.B, formats)
	row.Title = "PRINTF record: format id " + strconv.FormatUint(uint64(r.Format), 10) + ", a = " + Hex32(r.A) + ", b = " + Hex32(r.B)
	return row
}

// FormatPrintf resolves a PRINTF record: the format string of id with its
// %d / %x placeholders filled by a, then b (%% is a literal %); an unknown
// id reads "fmt#id a=… b=…". Extra placeholders print "?".
func FormatPrintf(id, a, b uint32, formats map[uint32]string) string {
	f, ok := formats[id]
	if !ok {
		return "fmt#" + strconv.FormatUint(uint64(id), 10) + " a=" + strconv.FormatUint(uint64(a), 10) + " b=" + strconv.FormatUint(uint64(b), 10)
	}
	args := [2]uint32{a, b}
	next := 0
	var out strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 == len(f) {
			out.WriteByte(f[i])
			continue
		}
		verb := f[i+1]
		switch verb {
		case 'd', 'x':
			if next >= len(args) {
				out.WriteByte('?')
			} else if verb == 'd' {
				out.WriteString(strconv.FormatUint(uint64(args[next]), 10))
			} else {
				out.WriteString(strconv.FormatUint(uint64(args[next]), 16))
			}
			next++
			i++
		case '%':
			out.WriteByte('%')
			i++
		default:
			out.WriteByte('%')
		}
	}
	return out.String()
}
