package capture

import (
	"fmt"

	"github.com/ringscope/ringscope/internal/heapsort"
	"github.com/ringscope/ringscope/internal/jsontext"
)

// encodeTrace writes t as json.Marshal wrote it (the tests compare the
// bytes): the struct tags of TraceFile and TraceEvent are the schema, and
// map members are in key order, so that the same capture gives the same
// file. By hand for the page's size (json.go says why).
func encodeTrace(t *TraceFile) ([]byte, error) {
	var w jsontext.Writer
	w.Buf = make([]byte, 0, 256*len(t.TraceEvents)+256)
	var keys []string
	w.BeginObject()
	w.Key("traceEvents")
	if t.TraceEvents == nil {
		w.Null()
	} else {
		w.BeginArray()
		for i := range t.TraceEvents {
			keys = writeTraceEvent(&w, &t.TraceEvents[i], keys)
		}
		w.EndArray()
	}
	w.Key("displayTimeUnit")
	w.String(t.DisplayTimeUnit)
	w.Key("otherData")
	writeArgs(&w, t.OtherData, keys)
	w.EndObject()
	return w.Bytes()
}

func writeTraceEvent(w *jsontext.Writer, e *TraceEvent, keys []string) []string {
	w.BeginObject()
	w.Key("name")
	w.String(e.Name)
	if e.Cat != "" {
		w.Key("cat")
		w.String(e.Cat)
	}
	w.Key("ph")
	w.String(e.Ph)
	w.Key("ts")
	w.Float(e.Ts)
	if e.Dur != nil {
		w.Key("dur")
		w.Float(*e.Dur)
	}
	w.Key("pid")
	w.Int(int64(e.Pid))
	w.Key("tid")
	w.Int(int64(e.Tid))
	if e.S != "" {
		w.Key("s")
		w.String(e.S)
	}
	if e.ID != "" {
		w.Key("id")
		w.String(e.ID)
	}
	if e.BP != "" {
		w.Key("bp")
		w.String(e.BP)
	}
	if len(e.Args) > 0 {
		w.Key("args")
		keys = writeArgs(w, e.Args, keys)
	}
	w.EndObject()
	return keys
}

// writeArgs writes m with its keys sorted, reusing keys' array; the
// values are the types traceOf puts there.
func writeArgs(w *jsontext.Writer, m map[string]any, keys []string) []string {
	if m == nil {
		w.Null()
		return keys
	}
	keys = keys[:0]
	for k := range m {
		keys = append(keys, k)
	}
	heapsort.Ordered(keys)
	w.BeginObject()
	for _, k := range keys {
		w.Key(k)
		switch v := m[k].(type) {
		case string:
			w.String(v)
		case bool:
			w.Bool(v)
		case int:
			w.Int(int64(v))
		case uint16:
			w.Uint(uint64(v))
		case uint32:
			w.Uint(uint64(v))
		case uint64:
			w.Uint(v)
		case float64:
			w.Float(v)
		default:
			w.Null()
			w.Fail(fmt.Errorf("capture: trace arg %q: no JSON form for %T", k, v))
		}
	}
	w.EndObject()
	return keys
}
