package decode

import (
	"strconv"
	"strings"

	"github.com/ringscope/ringscope/internal/numfmt"
)

// Kind names r: "PRINTF", or its fault's code (FaultCode.String).
func (r *LogRecord) Kind() string {
	if r.IsFault() {
		return r.FaultCode().String()
	}
	return "PRINTF"
}

// Text is r as the page's log panel and the API say it: a PRINTF's format
// resolved with its words (FormatPrintf), or a fault's opcode, named by
// name, its epoch and its reason.
func (r *LogRecord) Text(formats map[uint32]string, name func(op uint32) string) string {
	if r.IsFault() {
		return name(r.A) + " at epoch " + numfmt.Thousands(uint64(r.B)) + ": " + r.FaultCode().Reason()
	}
	return FormatPrintf(r.Format, r.A, r.B, formats)
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
