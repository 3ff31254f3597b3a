//go:build js && wasm

package captureapi

import (
	"fmt"
	"syscall/js"

	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/wasm/jsarg"
)

// What decode and importCapture accept: raw buffers and capture files,
// checked type, then size, then content, so that a refused call copies
// nothing into Go (the wasm memory, once grown, never shrinks: before these
// checks a refused 600 MiB import left the page at 619 MiB for good).

// maxDecodeBytes bounds decode's buffers together. Its result holds one JS
// object per slot, so the bound is a ring of 1,048,576 slots (64 MiB) with
// its control and log, sixteen times the page's default ring; a larger
// dump imports as a capture (importCapture's bound is capture.MaxFileBytes)
// and is read frame by frame.
const maxDecodeBytes = 64 << 20

// apiDecode: decode(control, ring, {windowOpcodes, log}) decodes raw
// buffers without any GPU.
func (a *Adapter) apiDecode(args []js.Value) (any, error) {
	cs, err := jsarg.BytesSpan(jsarg.Arg(args, 0), "decode: control", maxDecodeBytes)
	if err != nil {
		return nil, err
	}
	rs, err := jsarg.BytesSpan(jsarg.Arg(args, 1), "decode: ring", maxDecodeBytes)
	if err != nil {
		return nil, err
	}
	opts := jsarg.Arg(args, 2)
	if err := jsarg.Known(opts, &api.DecodeOptions, ""); err != nil {
		return nil, err
	}
	windows, err := jsarg.OptUint32Array(opts, "decode", "windowOpcodes", jsarg.MaxOptionArray)
	if err != nil {
		return nil, err
	}
	var ls jsarg.Span
	l, err := jsarg.OptProp(opts, "decode", "log")
	if err != nil {
		return nil, err
	}
	if !l.IsUndefined() && !l.IsNull() {
		if ls, err = jsarg.BytesSpan(l, "decode: options.log", maxDecodeBytes); err != nil {
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
func (a *Adapter) apiImport(args []js.Value) (any, error) {
	name := "import"
	c, err := a.importArg(jsarg.Arg(args, 0), &name)
	if err == nil {
		err = a.startReplay(c, name)
	}
	if err != nil {
		a.importFailed(name, err)
		return nil, err
	}
	return a.studio.Info(), nil
}

// importArg reads importCapture's argument into a capture; *name becomes
// the import's name ({name} or "vyre dump").
func (a *Adapter) importArg(v js.Value, name *string) (*capture.Capture, error) {
	const what = "importCapture"
	if jsarg.TypeName(v) == "object" && !jsarg.IsBytes(v) {
		n, err := jsarg.Get(v, what+": name", "name")
		if err != nil {
			return nil, err
		}
		if jsarg.TypeName(n) == "string" {
			if *name, err = jsarg.String(n, what+": name", jsarg.MaxText); err != nil {
				return nil, err
			}
		}
		b, err := jsarg.Get(v, what+": bytes", "bytes")
		if err != nil {
			return nil, err
		}
		if !b.IsUndefined() {
			v = b
		}
	}
	if jsarg.IsBytes(v) {
		b, err := jsarg.Bytes(v, what, capture.MaxFileBytes)
		if err != nil {
			return nil, err
		}
		return capture.Decode(b)
	}
	var control, ring js.Value
	var err error
	if jsarg.TypeName(v) == "object" {
		if control, err = jsarg.Get(v, what+": control", "control"); err != nil {
			return nil, err
		}
	}
	if control.IsUndefined() {
		return nil, fmt.Errorf("%s: expected the bytes of a capture file (Uint8Array or ArrayBuffer) or {control, ring} of a vyre dump, got %s", what, jsarg.Describe(v))
	}
	if ring, err = jsarg.Get(v, what+": ring", "ring"); err != nil {
		return nil, err
	}
	cs, err := jsarg.BytesSpan(control, what+": control", capture.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	rs, err := jsarg.BytesSpan(ring, what+": ring", capture.MaxFileBytes)
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
	if *name == "import" {
		*name = "vyre dump"
	}
	return capture.FromDump(cb, rb, nil)
}
