package decode

// Decoder decodes the readbacks of one ring, the way http2.Framer owns its
// buffers: it holds the decode scratch, the ring's window opcodes and its
// readback mode, and decodes each readback into its own RingTelemetry and
// Log, reusing their storage, so that decoding the same shape again
// allocates nothing.
//
// What Decode returns is the Decoder's: valid until its next Decode, and
// overwritten by it. Copy what must outlive that. A Decoder is not safe
// for concurrent use.
type Decoder struct {
	mode    Readback
	windows []uint32
	tel     RingTelemetry
	log     Log
	scratch DecodeScratch
}

// Readback is what a readback of a ring holds besides control and log.
type Readback uint8

const (
	// FullReadback reads the whole ring back (64 bytes a slot).
	FullReadback Readback = iota
	// SummaryReadback reads the GPU summary and the status map instead
	// (docs/SUMMARY.md).
	SummaryReadback
)

// NewDecoder returns a decoder of mode readbacks whose ring counts the
// windows of windowOpcodes (copied; nil: none).
func NewDecoder(mode Readback, windowOpcodes []uint32) *Decoder {
	return &Decoder{mode: mode, windows: append([]uint32(nil), windowOpcodes...)}
}

// Buffers are one readback's bytes: Control always, Ring for a full
// readback, Summary and StatusMap for a summary one, Log when the ring has
// one (empty: no log).
type Buffers struct {
	Control, Ring, Summary, StatusMap, Log []byte
}

// Mode is the decoder's readback mode.
func (d *Decoder) Mode() Readback { return d.mode }

// WindowOpcodes are the opcodes the decoder groups into windows.
func (d *Decoder) WindowOpcodes() []uint32 { return d.windows }

// Decode strictly decodes one readback in the decoder's mode (DecodeInto
// or DecodeSummaryInto, then DecodeLogInto). log is nil when b has no log.
// On error the decoder's telemetry is unchanged and the error is a
// *DecodeError naming the buffer and offset.
func (d *Decoder) Decode(b Buffers) (tel *RingTelemetry, log *Log, err error) {
	if d.mode == SummaryReadback {
		err = DecodeSummaryInto(&d.tel, &d.scratch, b.Control, b.Summary, b.StatusMap, d.windows)
	} else {
		err = DecodeInto(&d.tel, &d.scratch, b.Control, b.Ring, d.windows)
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

// Telemetry is the last telemetry Decode returned (zero before the first).
func (d *Decoder) Telemetry() *RingTelemetry { return &d.tel }
