package capture

import (
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/internal/jsontext"
)

// The header and frame meta are written and read by hand, not by
// encoding/json: its reflection and the code it reaches were the largest
// saving of the page's gzipped wasm (bench/results-render.md, the "no
// encoding/json at all" row; issue 21). The struct tags in format.go
// and decode/frame stay the documented schema, and the tests hold this
// code to them: what it writes is byte for byte json.Marshal's output,
// and it reads what json.Unmarshal reads into the same values.

func encodeHeader(h *Header) ([]byte, error) {
	var w jsontext.Writer
	w.BeginObject()
	w.Key("format")
	w.String(h.Format)
	w.Key("version")
	w.Int(int64(h.Version))
	w.Key("ringscope")
	w.String(h.Ringscope)
	w.Key("abiVersion")
	w.Uint(uint64(h.ABIVersion))
	w.Key("source")
	w.String(h.Source)
	if h.CreatedAt != "" {
		w.Key("createdAt")
		w.String(h.CreatedAt)
	}
	w.Key("windowOpcodes")
	w.Uint32s(h.WindowOpcodes)
	if a := h.Adapter; a != nil {
		w.Key("adapter")
		w.BeginObject()
		w.Key("vendor")
		w.String(a.Vendor)
		w.Key("architecture")
		w.String(a.Architecture)
		w.Key("device")
		w.String(a.Device)
		w.Key("description")
		w.String(a.Description)
		w.Key("isFallback")
		w.Bool(a.IsFallback)
		w.Key("isCPU")
		w.Bool(a.IsCPU)
		w.EndObject()
	}
	w.Key("frameCount")
	w.Int(int64(h.FrameCount))
	w.Key("droppedFrames")
	w.Uint(h.DroppedFrames)
	if len(h.UserOpcodes) > 0 {
		w.Key("userOpcodes")
		w.BeginArray()
		for _, n := range h.UserOpcodes {
			w.BeginObject()
			w.Key("opcode")
			w.Uint(uint64(n.Opcode))
			w.Key("name")
			w.String(n.Name)
			w.EndObject()
		}
		w.EndArray()
	}
	if c := h.Coverage; c != nil {
		w.Key("coverage")
		writeCoverage(&w, c)
	}
	w.EndObject()
	return w.Bytes()
}

func writeCoverage(w *jsontext.Writer, c *Coverage) {
	w.BeginObject()
	w.Key("frames")
	w.Int(int64(c.Frames))
	w.Key("firstSeq")
	w.Uint(c.FirstSeq)
	w.Key("lastSeq")
	w.Uint(c.LastSeq)
	w.Key("firstMillis")
	w.Float(c.FirstMillis)
	w.Key("lastMillis")
	w.Float(c.LastMillis)
	w.Key("spanMillis")
	w.Float(c.SpanMillis)
	w.Key("missing")
	w.Uint(c.Missing)
	w.Key("runs")
	if c.Runs == nil {
		w.Null()
	} else {
		w.BeginArray()
		for _, r := range c.Runs {
			w.BeginObject()
			w.Key("firstSeq")
			w.Uint(r.FirstSeq)
			w.Key("lastSeq")
			w.Uint(r.LastSeq)
			w.Key("frames")
			w.Int(int64(r.Frames))
			w.Key("every")
			w.Uint(r.Every)
			w.Key("slots")
			w.Bool(r.Slots)
			w.EndObject()
		}
		w.EndArray()
	}
	w.EndObject()
}

// decodeHeader reads the header JSON into h (a zero Header: absent
// members stay zero). It skips coverage, which Encode computes from the
// frames: a file's own says nothing a reader can trust.
func decodeHeader(b []byte, h *Header) error {
	return jsontext.DecodeObject(b, func(d *jsontext.Decoder, key string) {
		switch key {
		case "format":
			d.String(&h.Format)
		case "version":
			d.Int(&h.Version)
		case "ringscope":
			d.String(&h.Ringscope)
		case "abiVersion":
			d.Uint32(&h.ABIVersion)
		case "source":
			d.String(&h.Source)
		case "createdAt":
			d.String(&h.CreatedAt)
		case "windowOpcodes":
			h.WindowOpcodes = uint32s(d)
		case "adapter":
			if d.IsNull() {
				h.Adapter = nil
				return
			}
			if h.Adapter == nil {
				h.Adapter = new(Adapter)
			}
			decodeAdapter(d, h.Adapter)
		case "frameCount":
			d.Int(&h.FrameCount)
		case "droppedFrames":
			d.Uint64(&h.DroppedFrames)
		case "userOpcodes":
			if d.IsNull() {
				h.UserOpcodes = nil
				return
			}
			h.UserOpcodes = []NamedOpcode{}
			d.Array(func(i int) {
				h.UserOpcodes = append(h.UserOpcodes, NamedOpcode{})
				n := &h.UserOpcodes[i]
				d.Object(func(key string) {
					switch key {
					case "opcode":
						d.Uint32(&n.Opcode)
					case "name":
						d.String(&n.Name)
					}
				})
			})
		}
	})
}

func decodeAdapter(d *jsontext.Decoder, a *Adapter) {
	d.Object(func(key string) {
		switch key {
		case "vendor":
			d.String(&a.Vendor)
		case "architecture":
			d.String(&a.Architecture)
		case "device":
			d.String(&a.Device)
		case "description":
			d.String(&a.Description)
		case "isFallback":
			d.Bool(&a.IsFallback)
		case "isCPU":
			d.Bool(&a.IsCPU)
		}
	})
}

// uint32s reads an array of uint32 as json.Unmarshal reads it into a
// slice: null is nil, [] an empty slice that is not nil.
func uint32s(d *jsontext.Decoder) []uint32 {
	if d.IsNull() {
		return nil
	}
	dst := []uint32{}
	d.Array(func(int) {
		var v uint32
		d.Uint32(&v)
		dst = append(dst, v)
	})
	return dst
}

func encodeMeta(m *Meta) ([]byte, error) {
	var w jsontext.Writer
	w.Buf = make([]byte, 0, 640)
	w.BeginObject()
	if m.Dispatch != nil {
		w.Key("dispatch")
		writeDispatch(&w, m.Dispatch)
	}
	w.Key("timings")
	writeTimings(&w, &m.Timings)
	w.Key("published")
	w.Uint(m.Published)
	if o := m.Occupancy; o != nil {
		w.Key("occupancy")
		w.Uint32s(o[:])
	}
	if m.Spawn != nil {
		w.Key("spawn")
		writeSpawn(&w, m.Spawn)
	}
	w.EndObject()
	return w.Bytes()
}

func writeDispatch(w *jsontext.Writer, d *Dispatch) {
	w.BeginObject()
	for _, f := range [...]struct {
		k string
		v uint64
	}{{"bytesUploaded", d.BytesUploaded}, {"bytesReadBack", d.BytesReadBack}, {"bytesMoved", d.BytesMoved},
		{"residentAllocations", uint64(d.ResidentAllocations)}, {"kernelLaunches", uint64(d.KernelLaunches)},
		{"syncPoints", uint64(d.SyncPoints)}, {"occupancyProxyBps", uint64(d.OccupancyProxyBps)},
		{"frontierDensityBps", uint64(d.FrontierDensityBps)}, {"readbackBuffers", uint64(d.ReadbackBuffers)}} {
		w.Key(f.k)
		w.Uint(f.v)
	}
	w.Key("compiledPipelineCacheHit")
	w.Bool(d.CompiledPipelineCacheHit)
	w.Key("residentInputCacheHit")
	w.Bool(d.ResidentInputCacheHit)
	// Each enum's own MarshalText, called on its type: a call through an
	// interface would keep every MarshalText in the binary (time.Time's
	// formatter among them), as Decoder.Text says.
	topology, err1 := d.Topology.MarshalText()
	pressure, err2 := d.Pressure.MarshalText()
	mode, err3 := d.ExecutionMode.MarshalText()
	for _, f := range [...]struct {
		k    string
		name []byte
		err  error
	}{{"topology", topology, err1}, {"pressure", pressure, err2}, {"executionMode", mode, err3}} {
		w.Key(f.k)
		w.Fail(f.err) // an unknown enum value, as json.Marshal refuses it
		w.String(string(f.name))
	}
	w.Key("hitCapacity")
	w.Uint(uint64(d.HitCapacity))
	w.Key("estimatedPeakDeviceBytes")
	w.Uint(d.EstimatedPeakDeviceBytes)
	w.Key("deviceMemoryBudgetBytes")
	w.Uint(d.DeviceMemoryBudgetBytes)
	w.EndObject()
}

func writeTimings(w *jsontext.Writer, t *frame.Timings) {
	w.BeginObject()
	for _, f := range [...]struct {
		k string
		v float64
	}{{"publishMs", t.PublishMS}, {"dispatchMs", t.DispatchMS}, {"readbackMs", t.ReadbackMS},
		{"decodeMs", t.DecodeMS}, {"roundTripMs", t.RoundTripMS}, {"gpuMs", t.GPUMS}} {
		w.Key(f.k)
		w.Float(f.v)
	}
	w.EndObject()
}

// decodeMeta reads a frame's meta JSON into m (a zero Meta).
func decodeMeta(b []byte, m *Meta) error {
	return jsontext.DecodeObject(b, func(d *jsontext.Decoder, key string) {
		switch key {
		case "dispatch":
			if d.IsNull() {
				m.Dispatch = nil
				return
			}
			if m.Dispatch == nil {
				m.Dispatch = new(Dispatch)
			}
			decodeDispatch(d, m.Dispatch)
		case "timings":
			decodeTimings(d, &m.Timings)
		case "published":
			d.Uint64(&m.Published)
		case "occupancy":
			if d.IsNull() {
				m.Occupancy = nil
				return
			}
			if m.Occupancy == nil {
				m.Occupancy = new(Occupancy)
			}
			if vs := uint32s(d); len(vs) == len(m.Occupancy) {
				copy(m.Occupancy[:], vs)
			} else {
				d.Fail("want 9 counts, one a status")
			}
		case "spawn":
			m.Spawn = decodeSpawn(d)
		}
	})
}

func decodeTimings(d *jsontext.Decoder, t *frame.Timings) {
	d.Object(func(key string) {
		switch key {
		case "publishMs":
			d.Float64(&t.PublishMS)
		case "dispatchMs":
			d.Float64(&t.DispatchMS)
		case "readbackMs":
			d.Float64(&t.ReadbackMS)
		case "decodeMs":
			d.Float64(&t.DecodeMS)
		case "roundTripMs":
			d.Float64(&t.RoundTripMS)
		case "gpuMs":
			d.Float64(&t.GPUMS)
		}
	})
}

func decodeDispatch(d *jsontext.Decoder, x *Dispatch) {
	d.Object(func(key string) {
		switch key {
		case "bytesUploaded":
			d.Uint64(&x.BytesUploaded)
		case "bytesReadBack":
			d.Uint64(&x.BytesReadBack)
		case "bytesMoved":
			d.Uint64(&x.BytesMoved)
		case "residentAllocations":
			d.Uint32(&x.ResidentAllocations)
		case "kernelLaunches":
			d.Uint32(&x.KernelLaunches)
		case "syncPoints":
			d.Uint32(&x.SyncPoints)
		case "occupancyProxyBps":
			d.Uint16(&x.OccupancyProxyBps)
		case "frontierDensityBps":
			d.Uint16(&x.FrontierDensityBps)
		case "readbackBuffers":
			d.Uint32(&x.ReadbackBuffers)
		case "compiledPipelineCacheHit":
			d.Bool(&x.CompiledPipelineCacheHit)
		case "residentInputCacheHit":
			d.Bool(&x.ResidentInputCacheHit)
		case "topology":
			d.Text(x.Topology.UnmarshalText)
		case "pressure":
			d.Text(x.Pressure.UnmarshalText)
		case "executionMode":
			d.Text(x.ExecutionMode.UnmarshalText)
		case "hitCapacity":
			d.Uint32(&x.HitCapacity)
		case "estimatedPeakDeviceBytes":
			d.Uint64(&x.EstimatedPeakDeviceBytes)
		case "deviceMemoryBudgetBytes":
			d.Uint64(&x.DeviceMemoryBudgetBytes)
		}
	})
}
