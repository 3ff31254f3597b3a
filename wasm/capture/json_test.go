package capture

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The oracle of the hand-written codec is encoding/json with the struct
// tags (json.go): the same bytes out, the same values in.

func randString(rng *rand.Rand) string {
	const chars = "aZ09 _-\"\\/<>&\n\t\x00é中😀\u2028"
	var b strings.Builder
	for range rng.IntN(10) {
		r := []rune(chars)
		b.WriteRune(r[rng.IntN(len(r))])
	}
	if rng.IntN(8) == 0 {
		b.WriteString("\xff") // invalid UTF-8: both write U+FFFD
	}
	return b.String()
}

func randFloat(rng *rand.Rand) float64 {
	switch rng.IntN(4) {
	case 0:
		return 0
	case 1:
		return float64(rng.IntN(1000)) / 8
	case 2:
		return rng.Float64() * math.Pow(10, float64(rng.IntN(50)-25))
	}
	f := math.Float64frombits(rng.Uint64())
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return -1.5
	}
	return f
}

func randHeader(rng *rand.Rand) Header {
	h := Header{Format: randString(rng), Version: rng.IntN(5) - 1, Ringscope: randString(rng), ABIVersion: rng.Uint32(),
		Source: randString(rng), FrameCount: int(rng.Int64()) - math.MaxInt/2, DroppedFrames: rng.Uint64()}
	if rng.IntN(2) == 0 {
		h.CreatedAt = randString(rng)
	}
	if n := rng.IntN(4); n > 0 {
		h.WindowOpcodes = make([]uint32, n-1) // nil, empty or some
		for i := range h.WindowOpcodes {
			h.WindowOpcodes[i] = rng.Uint32()
		}
	}
	if rng.IntN(2) == 0 {
		h.Adapter = &Adapter{Vendor: randString(rng), Architecture: randString(rng), Device: randString(rng),
			Description: randString(rng), IsFallback: rng.IntN(2) == 0, IsCPU: rng.IntN(2) == 0}
	}
	for range rng.IntN(3) {
		h.UserOpcodes = append(h.UserOpcodes, NamedOpcode{Opcode: rng.Uint32(), Name: randString(rng)})
	}
	if rng.IntN(2) == 0 {
		h.Coverage = &Coverage{Frames: rng.IntN(1 << 20), FirstSeq: rng.Uint64(), LastSeq: rng.Uint64(),
			FirstMillis: randFloat(rng), LastMillis: randFloat(rng), SpanMillis: randFloat(rng), Missing: rng.Uint64()}
		if n := rng.IntN(4); n > 0 {
			h.Coverage.Runs = make([]CoverageRun, n-1) // nil, empty or some
			for i := range h.Coverage.Runs {
				h.Coverage.Runs[i] = CoverageRun{FirstSeq: rng.Uint64(), LastSeq: rng.Uint64(), Frames: rng.IntN(1000),
					Every: rng.Uint64(), Slots: rng.IntN(2) == 0}
			}
		}
	}
	return h
}

func randMeta(rng *rand.Rand) Meta {
	m := Meta{Published: rng.Uint64(), Timings: frame.Timings{PublishMS: randFloat(rng), DispatchMS: randFloat(rng),
		ReadbackMS: randFloat(rng), DecodeMS: randFloat(rng), RoundTripMS: randFloat(rng), GPUMS: randFloat(rng)}}
	if rng.IntN(3) > 0 {
		m.Dispatch = &Dispatch{BytesUploaded: rng.Uint64(), BytesReadBack: rng.Uint64(), BytesMoved: rng.Uint64(),
			ResidentAllocations: rng.Uint32(), KernelLaunches: rng.Uint32(), SyncPoints: rng.Uint32(),
			OccupancyProxyBps: uint16(rng.Uint32()), FrontierDensityBps: uint16(rng.Uint32()), ReadbackBuffers: rng.Uint32(),
			CompiledPipelineCacheHit: rng.IntN(2) == 0, ResidentInputCacheHit: rng.IntN(2) == 0,
			Topology: decode.Topology(rng.IntN(6)), Pressure: decode.QueuePressure(rng.IntN(4)),
			ExecutionMode: decode.ExecutionMode(rng.IntN(2)), HitCapacity: rng.Uint32(),
			EstimatedPeakDeviceBytes: rng.Uint64(), DeviceMemoryBudgetBytes: rng.Uint64()}
	}
	if rng.IntN(2) == 0 {
		m.Occupancy = new(Occupancy)
		for i := range m.Occupancy {
			m.Occupancy[i] = rng.Uint32()
		}
	}
	return m
}

func TestHeaderJSONAgreesWithEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		h := randHeader(rng)
		want, err := json.Marshal(h)
		require.NoError(t, err)
		got, err := encodeHeader(&h)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
		var ours, theirs Header
		require.NoError(t, decodeHeader(want, &ours))
		require.NoError(t, json.Unmarshal(got, &theirs))
		require.Nil(t, ours.Coverage, "coverage is written, not read")
		theirs.Coverage = nil
		require.Equal(t, theirs, ours)
	}
}

func TestMetaJSONAgreesWithEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 500 {
		m := randMeta(rng)
		want, err := json.Marshal(m)
		require.NoError(t, err)
		got, err := encodeMeta(&m)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
		var ours, theirs Meta
		require.NoError(t, decodeMeta(want, &ours))
		require.NoError(t, json.Unmarshal(got, &theirs))
		require.Equal(t, m, ours)
		require.Equal(t, theirs, ours)
	}
}

// What json.Marshal refuses, the codec refuses.
func TestMetaJSONRefusesWhatMarshalDoes(t *testing.T) {
	for _, m := range []Meta{
		{Timings: frame.Timings{GPUMS: math.NaN()}},
		{Timings: frame.Timings{DecodeMS: math.Inf(-1)}},
		{Dispatch: &Dispatch{Topology: 99}},
		{Dispatch: &Dispatch{ExecutionMode: 2}},
	} {
		_, wantErr := json.Marshal(m)
		_, err := encodeMeta(&m)
		assert.Error(t, wantErr)
		assert.Error(t, err, "%+v", m)
	}
}

// Input written by hand: unknown members, nulls, duplicates, white space.
// The codec reads what json.Unmarshal reads, to the same values, and
// refuses what it refuses.
func TestMetaDecodeAgreesWithUnmarshal(t *testing.T) {
	for _, in := range []string{
		`{}`, ` {"published": 3} `, `{"published": 3, "later": [1, {"x": null}]}`, `{"published":1,"published":2}`,
		`{"timings": {"publishMs": 1.5, "gpuMs": -2e-9}}`, `{"timings": null, "dispatch": null, "published": null}`,
		`{"dispatch": {"topology": "fused_dense", "pressure": "saturated", "executionMode": "jit", "hitCapacity": 7}}`,
		`{"dispatch": {"kernelLaunches": 1}, "dispatch": {"syncPoints": 2}}`, `{"dispatch": {"topology": null}}`,
		`{"dispatch": {"occupancyProxyBps": 65535, "bytesMoved": 18446744073709551615}}`, "{\"a\":\"\xff\"}",
		`{"dispatch": {"kernelLaunches": 1}, "dispatch": null}`, `{"timings": {"publishMs": 0.1, "publishMs": null}}`,
		// refused:
		`{"published": -1}`, `{"published": "x"}`, `{"published": 1.5}`, `{"published": 1e2}`,
		`{"published": 18446744073709551616}`, `{"dispatch": {"occupancyProxyBps": 65536}}`,
		`{"dispatch": {"topology": "bogus"}}`, `{"dispatch": {"topology": 1}}`, `{"dispatch": []}`,
		`{"dispatch": {"compiledPipelineCacheHit": 1}}`, `{"timings": {"gpuMs": 1e999}}`, `{"timings": []}`,
		`{"timings": {"gpuMs": "1"}}`, `{"published": 1`, `{"a":1,}`, `{"a":x}`, `{} x`, `{"a":"\u00"}`,
	} {
		var got, want Meta
		err, wantErr := decodeMeta([]byte(in), &got), json.Unmarshal([]byte(in), &want)
		if wantErr != nil {
			assert.Error(t, err, "%q", in)
			continue
		}
		if assert.NoError(t, err, "%q", in) {
			assert.Equal(t, want, got, "%q", in)
		}
	}
}

// The errors Decode reports inside "invalid JSON: …", as docs/CAPTURE.md
// §1.4 shows them: the member named, its offset in the header or meta.
func TestMetaDecodeErrors(t *testing.T) {
	for in, want := range map[string]string{
		`{"published": "x"}`:                         "published: want an unsigned integer, got a string at offset 14",
		`{"dispatch": {"occupancyProxyBps": 65536}}`: "dispatch.occupancyProxyBps: 65536 is out of range for an unsigned 16-bit integer at offset 35",
		`{"dispatch": {"topology": "bogus"}}`:        `dispatch.topology: decode: unknown topology "bogus" (want one of ["empty" "sparse_frontier" "hybrid_frontier" "dense_frontier" "fused_dense" "memory_constrained"]) at offset 26`,
		`{"timings": {"gpuMs": 1e999}}`:              "timings.gpuMs: 1e999 is out of range for a float64 at offset 22",
		`{"published": 1`:                            "unexpected EOF",
		`{"published": `:                             "unexpected EOF",
		`{"published"`:                               "unexpected EOF",
		`{`:                                          "unexpected EOF",
		`{} x`:                                       "data after the object at offset 3",
		`{}}`:                                        "data after the object at offset 2",
		`{} ]`:                                       "data after the object at offset 3",
		`[]`:                                         "not a JSON object",
		``:                                           "not a JSON object",
		`null`:                                       "not a JSON object",
		`{"a":1,}`:                                   `want a member's quoted key, found '}' at offset 7`,
		`{"dispatch": {"hitCapacity": 1, "x": [}]}}`: `invalid character '}' looking for a value at offset 38`,
	} {
		assert.EqualError(t, decodeMeta([]byte(in), &Meta{}), want, "%q", in)
	}
}

func TestHeaderDecodeNamesTheMember(t *testing.T) {
	for in, want := range map[string]string{
		`{"windowOpcodes": [1, "2"]}`:            `windowOpcodes[1]: want an unsigned integer, got a string at offset 22`,
		`{"userOpcodes": [{"opcode": -3}]}`:      `userOpcodes[0].opcode: -3 is not an unsigned 32-bit integer at offset 28`,
		`{"adapter": {"isCPU": "yes"}}`:          `adapter.isCPU: want a boolean, got a string at offset 22`,
		`{"version": 99999999999999999999}`:      `version: 99999999999999999999 is out of range for an integer at offset 12`,
		`{"adapter": {"vendor": "x"}, "adapter"`: "unexpected EOF",
	} {
		assert.EqualError(t, decodeHeader([]byte(in), &Header{}), want, "%q", in)
	}
	var h Header
	require.NoError(t, decodeHeader([]byte(`{"windowOpcodes": [], "userOpcodes": null, "adapter": {"vendor": "v"}, "future": {"x": [1]}}`), &h))
	assert.Equal(t, Header{WindowOpcodes: []uint32{}, Adapter: &Adapter{Vendor: "v"}}, h)
}

// The trace export is json.Marshal's bytes of the same TraceFile.
func TestTraceJSONIsMarshals(t *testing.T) {
	dump, err := FromDump(control(-1, 4, 2, 0), ring(4, 1, 3), nil)
	require.NoError(t, err)
	for _, c := range []*Capture{sample(), dump, patched(evolving(rand.New(rand.NewPCG(3, 4)), 8, true)), {}} {
		r, err := NewReplay(c)
		require.NoError(t, err)
		tf := traceOf(r)
		want, err := json.Marshal(tf)
		require.NoError(t, err)
		got, err := Trace(c)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
	}
	tf := TraceFile{TraceEvents: []TraceEvent{{Name: "x", Args: map[string]any{"bad": []int{1}}}}}
	_, err = encodeTrace(&tf)
	assert.ErrorContains(t, err, `trace arg "bad": no JSON form for []int`)
	tf = TraceFile{TraceEvents: []TraceEvent{{Name: "x", Ts: math.NaN()}}}
	_, err = encodeTrace(&tf)
	assert.Error(t, err)
}

// docs/CAPTURE.md §1.1 quotes this error.
func TestDecodeHeaderErrorAsDocumented(t *testing.T) {
	hj := `{"windowOpcodes": [1, "2"]}`
	b := []byte(Magic)
	b = append(b, 1, 0, 0, 0, byte(len(hj)), 0, 0, 0)
	_, err := Decode(append(b, hj...))
	assert.EqualError(t, err, `capture: byte 16: header: header: invalid JSON: windowOpcodes[1]: want an unsigned integer, got a string at offset 22`)
}
