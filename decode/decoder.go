package decode

// Decoder decodes the readbacks of one ring, the way http2.Framer owns its
// buffers: it holds the decode scratch and the ring's window opcodes, and
// decodes each readback into its own RingTelemetry and Log, reusing their
// storage, so that decoding the same shape again allocates nothing. It is
// the one entry point of a ring's readbacks: the runner's, an
// attachment's, whatever each frame brought back (the whole ring, the GPU
// summary, or control alone).
//
// What Decode returns is the Decoder's: valid until its next Decode or
// Reset, and overwritten by it. Copy what must outlive that. A Decoder is
// not safe for concurrent use.
type Decoder struct {
	windows []uint32
	tel     RingTelemetry
	log     Log
	scratch DecodeScratch
}

// NewDecoder returns a decoder whose ring counts the windows of
// windowOpcodes (copied; nil: none).
func NewDecoder(windowOpcodes []uint32) *Decoder {
	d := &Decoder{}
	d.SetWindowOpcodes(windowOpcodes)
	return d
}

// SetWindowOpcodes makes the ring count the windows of ops (copied), from
// the next Decode on: a ring re-opened with other options.
func (d *Decoder) SetWindowOpcodes(ops []uint32) { d.windows = append(d.windows[:0], ops...) }

// Buffers are one readback's bytes. Control always; Ring, when not nil,
// the whole ring read back; else Summary and StatusMap, when not nil, the
// GPU summary's (docs/SUMMARY.md); neither: control alone came back, and
// the fields the slots give (Slots, Occupancy, Active, Windows, StatusMap)
// stay as the last Decode left them. Log when the ring has one (empty: no
// log).
type Buffers struct {
	Control, Ring, Summary, StatusMap, Log []byte
}

// WindowOpcodes are the opcodes the decoder groups into windows.
func (d *Decoder) WindowOpcodes() []uint32 { return d.windows }

// Decode strictly decodes one readback: DecodeInto, DecodeSummaryInto or
// decodeControlInto, as b holds, then DecodeLogInto. log is nil when b has
// no log. On error the error is a *DecodeError naming the buffer and
// offset, and a telemetry or log that failed to decode is unchanged.
func (d *Decoder) Decode(b Buffers) (tel *RingTelemetry, log *Log, err error) {
	switch {
	case b.Ring != nil:
		err = DecodeInto(&d.tel, &d.scratch, b.Control, b.Ring, d.windows)
	case b.Summary != nil || b.StatusMap != nil:
		err = DecodeSummaryInto(&d.tel, &d.scratch, b.Control, b.Summary, b.StatusMap, d.windows)
	default:
		err = decodeControlInto(&d.tel, b.Control)
	}
	if err != nil {
		return nil, nil, err
	}
	if len(b.Log) == 0 {
		return &d.tel, nil, nil
	}
	if err := DecodeLogInto(&d.log, b.Log); err != nil {
		return nil, nil, err
	}
	return &d.tel, &d.log, nil
}

// DecodeRing decodes control and ring into dst (every slot) with the
// decoder's window opcodes and dst's own scratch: a second view of the
// same ring (the host copy beside a summary's telemetry) that the next
// Decode does not overwrite.
func (d *Decoder) DecodeRing(dst *RingTelemetry, scratch *DecodeScratch, control, ring []byte) error {
	return DecodeInto(dst, scratch, control, ring, d.windows)
}

// Reset forgets the last telemetry and log (a fresh ring), keeping the
// storage for the next Decode.
func (d *Decoder) Reset() { d.tel, d.log = RingTelemetry{}, Log{} }

// Telemetry is the last telemetry Decode returned (zero before the first).
func (d *Decoder) Telemetry() *RingTelemetry { return &d.tel }

// Log is the last log Decode returned (zero before the first).
func (d *Decoder) Log() *Log { return &d.log }
