package kerneldef

import "github.com/ringscope/ringscope/internal/jsontext"

// AppendJSON appends d's JSON, byte for byte what json.Marshal writes for
// it (the struct tags are the schema), without encoding/json: the page
// hands a definition to JavaScript (example()) and links no JSON
// reflection for it, for its size (issue 21).
func (d Definition) AppendJSON(dst []byte) ([]byte, error) {
	w := jsontext.Writer{Buf: dst}
	w.BeginObject()
	w.Key("format")
	w.String(d.Format)
	if d.Title != "" {
		w.Key("title")
		w.String(d.Title)
	}
	if d.Slots != 0 {
		w.Key("slots")
		w.Uint(uint64(d.Slots))
	}
	if d.Tenants != 0 {
		w.Key("tenants")
		w.Uint(uint64(d.Tenants))
	}
	w.Key("opcodes")
	if d.Opcodes == nil {
		w.Null()
	} else {
		w.BeginArray()
		for _, op := range d.Opcodes {
			w.BeginObject()
			w.Key("opcode")
			w.Uint(uint64(op.Opcode))
			w.Key("name")
			w.String(op.Name)
			w.Key("wgsl")
			w.String(op.WGSL)
			w.EndObject()
		}
		w.EndArray()
	}
	w.Key("buffers")
	if d.Buffers == nil {
		w.Null()
	} else {
		w.BeginArray()
		for _, b := range d.Buffers {
			w.BeginObject()
			w.Key("name")
			w.String(b.Name)
			w.Key("access")
			w.String(b.Access)
			if b.Element != "" {
				w.Key("element")
				w.String(b.Element)
			}
			w.Key("size")
			w.Uint(b.Size)
			if len(b.Words) > 0 {
				w.Key("words")
				w.Uint32s(b.Words)
			}
			w.EndObject()
		}
		w.EndArray()
	}
	if len(d.Data) > 0 {
		w.Key("data")
		w.Uint32s(d.Data)
	}
	w.Key("workload")
	wl := d.Workload
	w.BeginObject()
	for _, f := range [...]struct {
		k string
		v uint32
	}{{"opcode", wl.Opcode}, {"count", wl.Count}, {"tenants", wl.Tenants}, {"priorities", wl.Priorities}} {
		w.Key(f.k)
		w.Uint(uint64(f.v))
	}
	w.Key("args")
	if wl.Args == nil {
		w.Null()
	} else {
		w.BeginArray()
		for _, e := range wl.Args {
			w.String(e.src) // Expr's MarshalText
		}
		w.EndArray()
	}
	w.EndObject()
	if d.Example != "" {
		w.Key("example")
		w.String(d.Example)
	}
	w.EndObject()
	return w.Bytes()
}
