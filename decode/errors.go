package decode

// DecodeError reports a buffer that cannot be decoded: which buffer
// ("control", "ring", "log"), the byte offset where decoding stopped, and
// why. Its message starts with "decode: ".
type DecodeError struct {
	Buffer string
	Offset int
	Msg    string
}

func (e *DecodeError) Error() string { return "decode: " + e.Msg }

// Buffer names used in DecodeError.Buffer.
const (
	BufferControl = "control"
	BufferRing    = "ring"
	BufferLog     = "log"
)
