//go:build js && wasm

package jsapi

import (
	"fmt"
	"syscall/js"

	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/capture"
)

// What decode and importCapture accept: raw buffers and capture files,
// checked type, then size, then content, so that a refused call copies
// nothing into Go (the wasm memory, once grown, never shrinks: before these
// checks a refused import of a file larger than the bound left the page's
// memory that large for good, as e2e/tests/api-robust.spec.mjs checks).

// maxDecodeBytes bounds decode's buffers together. Its result holds one JS
// object per slot, so the bound is a ring of 1,048,576 slots (64 MiB) with
// its control and log, sixteen times the page's default ring; a larger
// dump imports as a capture (importCapture's bound is capture.MaxFileBytes)
// and is read frame by frame.
const maxDecodeBytes = 64 << 20

// apiDecode: decode(control, ring, {windowOpcodes, log}) decodes raw
// buffers without any GPU.
func (a *Capture) apiDecode(args []js.Value) (any, error) {
	cs, err := BytesSpan(Arg(args, 0), "decode: control", maxDecodeBytes)
	if err != nil {
		return nil, err
	}
	rs, err := BytesSpan(Arg(args, 1), "decode: ring", maxDecodeBytes)
	if err != nil {
		return nil, err
	}
	opts := Arg(args, 2)
	if err := Known(opts, &api.DecodeOptions, ""); err != nil {
		return nil, err
	}
	windows, err := OptUint32Array(opts, "decode", "windowOpcodes", MaxOptionArray)
	if err != nil {
		return nil, err
	}
	var ls Span
	l, err := OptProp(opts, "decode", "log")
	if err != nil {
		return nil, err
	}
	if !l.IsUndefined() && !l.IsNull() {
		if ls, err = BytesSpan(l, "decode: options.log", maxDecodeBytes); err != nil {
			return nil, err
		}
	}
	if total := cs.Len() + rs.Len() + ls.Len(); total > maxDecodeBytes {
		return nil, fmt.Errorf("decode: control, ring and log hold %d bytes together, more than the %d-byte limit; nothing was copied", total, maxDecodeBytes)
	}
	control, err := cs.Copy("decode: control")
	if err != nil {
		return nil, err
	}
	ring, err := rs.Copy("decode: ring")
	if err != nil {
		return nil, err
	}
	var log []byte
	if ls.Len() > 0 || !l.IsUndefined() && !l.IsNull() {
		if log, err = ls.Copy("decode: options.log"); err != nil {
			return nil, err
		}
	}
	var d capture.Decoded
	if err := capture.DecodeBuffers(&d, control, ring, log, windows); err != nil {
		return nil, fmt.Errorf("%w (control: at least 640 bytes of whole 4-byte words; ring: whole 64-byte slots)", err)
	}
	return decodedResult(&d, false, a.studio.OpcodeName), nil
}

// apiImport: importCapture(bytes | {control, ring, name}) validates the
// capture file (or the vyre dump pair) and replays its first frame.
func (a *Capture) apiImport(args []js.Value) (any, error) {
	var name importName
	c, err := importArg(Arg(args, 0), &name)
	if err == nil {
		err = a.startReplay(c, name.source())
	}
	if err != nil {
		a.importFailed(name.label(), err)
		return nil, err
	}
	return a.studio.Info(), nil
}

// importName is what an API import is called: the name option when it was
// given (and was a string of the allowed length), else what was passed.
type importName struct {
	given string
	dump  bool // {control, ring}: a vyre dump pair
}

// source names a replayed import in captureInfo and the capture bar.
func (n importName) source() string {
	switch {
	case n.given != "":
		return n.given
	case n.dump:
		return "vyre dump"
	}
	return "import"
}

// label names a refused import in the capture bar, which reads "import
// <label> refused: …": not "import", which doubled the word, nor "" (a
// name refused as too long), which left a gap where the name goes.
func (n importName) label() string {
	if n.given == "" && !n.dump {
		return "from importCapture()"
	}
	return n.source()
}

// Blob.prototype.size's getter: a brand check for a Blob or a File, which
// an options object must not be mistaken for (its inherited bytes()
// method read as the bytes option said "got function").
var blobSize = getter(jsGlobal.Get("Blob"), "size")

// IsBlob reports a Blob or a File, without running the caller's code.
func IsBlob(v js.Value) bool {
	_, ok := applyInt(blobSize, v)
	return ok && TypeName(v) == "object"
}

// errBlob refuses a Blob (or File) where bytes go: reading one is
// asynchronous and the caller's, and one await gives the bytes.
func errBlob(what string, v js.Value) error {
	return fmt.Errorf("%s: pass bytes (an ArrayBuffer or Uint8Array), not a %s: await blob.arrayBuffer()", what, Describe(v))
}

// importArg reads importCapture's argument into a capture, and what the
// import is called into name. Of an options object only its own
// properties are read: an inherited one (a Blob's bytes() method) is no
// option.
func importArg(v js.Value, name *importName) (*capture.Capture, error) {
	const what = "importCapture"
	if IsBlob(v) {
		return nil, errBlob(what, v)
	}
	if TypeName(v) == "object" && !IsBytes(v) {
		if err := Known(v, &api.ImportOptions, ""); err != nil {
			return nil, err
		}
		n, err := OwnGet(v, what+": name", "name")
		if err != nil {
			return nil, err
		}
		if !n.IsUndefined() {
			if name.given, err = String(n, what+": name", MaxText); err != nil {
				return nil, err
			}
		}
		b, err := OwnGet(v, what+": bytes", "bytes")
		if err != nil {
			return nil, err
		}
		if IsBlob(b) {
			return nil, errBlob(what+": bytes", b)
		}
		if !b.IsUndefined() {
			return importBytes(b, what+": bytes")
		}
		return importDump(v, name)
	}
	if IsBytes(v) {
		return importBytes(v, what)
	}
	return nil, fmt.Errorf("%s: expected the bytes of a capture file (Uint8Array or ArrayBuffer) or {control, ring} of a vyre dump, got %s", what, Describe(v))
}

// importBytes decodes a capture file's bytes.
func importBytes(v js.Value, what string) (*capture.Capture, error) {
	b, err := Bytes(v, what, capture.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	return capture.Decode(b)
}

// importDump reads o's {control, ring}, a vyre dump pair, checking both
// sizes before either is copied.
func importDump(o js.Value, name *importName) (*capture.Capture, error) {
	const what = "importCapture"
	control, err := OwnGet(o, what+": control", "control")
	if err != nil {
		return nil, err
	}
	if control.IsUndefined() {
		return nil, fmt.Errorf("%s: expected the bytes of a capture file (Uint8Array or ArrayBuffer) or {control, ring} of a vyre dump, got an object with neither bytes nor control", what)
	}
	name.dump = true
	ring, err := OwnGet(o, what+": ring", "ring")
	if err != nil {
		return nil, err
	}
	cs, err := BytesSpan(control, what+": control", capture.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	rs, err := BytesSpan(ring, what+": ring", capture.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	if total := cs.Len() + rs.Len(); total > capture.MaxFileBytes {
		return nil, fmt.Errorf("%s: control and ring hold %d bytes together, more than the %d-byte import limit; nothing was copied", what, total, capture.MaxFileBytes)
	}
	cb, err := cs.Copy(what + ": control")
	if err != nil {
		return nil, err
	}
	rb, err := rs.Copy(what + ": ring")
	if err != nil {
		return nil, err
	}
	return capture.FromDump(cb, rb, nil)
}
