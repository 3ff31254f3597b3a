//go:build js && wasm

package main

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"syscall/js"

	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/wasm/jsarg"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// The user kernel's part of the JS API (docs/OPCODES.md): open's opcodes
// and buffers options, and readBuffer(name).
func installKernelAPI(a *app, obj js.Value) { rawMethod(obj, "readBuffer", a.apiReadBuffer) }

// Bounds of what open reads of a kernel before any of it is copied.
const (
	maxKernelOpcodes = int(abi.UserOpcodeLast - abi.UserOpcodeFirst + 1)
	maxKernelBuffers = 64
	// maxUserBufferBytes bounds one buffer's initial bytes as read from JS;
	// the device's own limit (maxStorageBufferBindingSize) is checked after.
	maxUserBufferBytes = 256 << 20
)

// kernelOption reads open's opcodes and buffers:
//
//	opcodes: [{opcode, name, wgsl}]
//	buffers: [{name, access: "read" | "read_write", element?, size?, bytes?, words?}]
//	data: Uint8Array | ArrayBuffer | [u32]   (dataOption)
//
// size defaults to the initial bytes' length; bytes is a Uint8Array or
// ArrayBuffer, words an array of u32 (one of the two).
func kernelOption(o js.Value) (wgsl.Kernel, error) {
	var k wgsl.Kernel
	ops, err := jsarg.OptProp(o, "open", "opcodes")
	if err != nil {
		return k, err
	}
	if !ops.IsUndefined() && !ops.IsNull() {
		n, err := jsarg.Array(ops, "open: opcodes", maxKernelOpcodes)
		if err != nil {
			return k, err
		}
		for i := range n {
			op, err := readOpcode(ops, i)
			if err != nil {
				return k, err
			}
			k.Opcodes = append(k.Opcodes, op)
		}
	}
	bufs, err := jsarg.OptProp(o, "open", "buffers")
	if err != nil {
		return k, err
	}
	if !bufs.IsUndefined() && !bufs.IsNull() {
		n, err := jsarg.Array(bufs, "open: buffers", maxKernelBuffers)
		if err != nil {
			return k, err
		}
		for i := range n {
			b, err := readBuffer(bufs, i)
			if err != nil {
				return k, err
			}
			k.Buffers = append(k.Buffers, b)
		}
	}
	return k, nil
}

func element(arr js.Value, what string, i int) (js.Value, string, error) {
	field := fmt.Sprintf("%s[%d]", what, i)
	v, err := jsarg.Get(arr, "open: "+field, i)
	if err != nil {
		return v, field, err
	}
	if jsarg.TypeName(v) != "object" {
		return v, field, fmt.Errorf("open: %s must be an object, got %s", field, jsarg.TypeName(v))
	}
	return v, field, nil
}

func readOpcode(ops js.Value, i int) (wgsl.Opcode, error) {
	var op wgsl.Opcode
	e, field, err := element(ops, "opcodes", i)
	if err != nil {
		return op, err
	}
	if op.Value, err = jsarg.OptUint32(e, "open: "+field, "opcode", 0); err != nil {
		return op, err
	}
	if v, _ := jsarg.Get(e, "", "opcode"); v.IsUndefined() {
		return op, fmt.Errorf("open: %s.opcode is missing: a number %#x…%#x", field, abi.UserOpcodeFirst, abi.UserOpcodeLast)
	}
	if op.Name, err = stringProp(e, field, "name", wgsl.MaxNameBytes+1); err != nil {
		return op, err
	}
	op.WGSL, err = stringProp(e, field, "wgsl", wgsl.MaxOpcodeSourceBytes+1)
	return op, err
}

func readBuffer(bufs js.Value, i int) (wgsl.Buffer, error) {
	var b wgsl.Buffer
	e, field, err := element(bufs, "buffers", i)
	if err != nil {
		return b, err
	}
	if b.Name, err = stringProp(e, field, "name", wgsl.MaxNameBytes+1); err != nil {
		return b, err
	}
	access, err := optStringProp(e, field, "access", "read")
	switch {
	case err != nil:
		return b, err
	case access == "read_write":
		b.Access = wgsl.ReadWrite
	case access != "read":
		return b, fmt.Errorf("open: %s.access %q: want \"read\" or \"read_write\"", field, access)
	}
	if b.Element, err = optStringProp(e, field, "element", "u32"); err != nil {
		return b, err
	}
	if b.Init, err = initBytes(e, field); err != nil {
		return b, err
	}
	size, err := jsarg.OptUint64(e, "open: "+field, "size", uint64(len(b.Init)))
	b.Size = size
	return b, err
}

// initBytes reads a buffer's initial contents: bytes (a Uint8Array or
// ArrayBuffer) or words (an array of u32), one of the two, or neither.
func initBytes(e js.Value, field string) ([]byte, error) {
	bytes, err := jsarg.Get(e, "open: "+field+".bytes", "bytes")
	if err != nil {
		return nil, err
	}
	var init []byte
	if !bytes.IsUndefined() && !bytes.IsNull() {
		if init, err = jsarg.Bytes(bytes, "open: "+field+".bytes", maxUserBufferBytes); err != nil {
			return nil, err
		}
	}
	words, err := jsarg.OptUint32Array(e, "open: "+field, "words", maxUserBufferBytes/abi.WordBytes)
	if err != nil || words == nil {
		return init, err
	}
	if init != nil {
		return nil, fmt.Errorf("open: %s: give bytes or words, not both", field)
	}
	return abi.Bytes(words), nil
}

// dataOption reads open's data, the contents of the data binding (4) that
// user opcodes read: a Uint8Array or ArrayBuffer, or an array of u32.
func dataOption(o js.Value) ([]byte, error) {
	v, err := jsarg.OptProp(o, "open", "data")
	if err != nil || v.IsUndefined() || v.IsNull() {
		return nil, err
	}
	if jsarg.IsArray(v) {
		words, err := jsarg.OptUint32Array(o, "open", "data", maxUserBufferBytes/abi.WordBytes)
		return abi.Bytes(words), err
	}
	return jsarg.Bytes(v, "open: data", maxUserBufferBytes)
}

// stringProp reads a required string property of at most max bytes.
func stringProp(o js.Value, field, name string, max int) (string, error) {
	v, err := jsarg.Get(o, "open: "+field+"."+name, name)
	if err != nil {
		return "", err
	}
	return jsarg.String(v, "open: "+field+"."+name, max)
}

// optStringProp is stringProp with a default for an absent property.
func optStringProp(o js.Value, field, name, def string) (string, error) {
	v, err := jsarg.Get(o, "open: "+field+"."+name, name)
	if err != nil || v.IsUndefined() || v.IsNull() {
		return def, err
	}
	return jsarg.String(v, "open: "+field+"."+name, 64)
}

// apiReadBuffer: readBuffer(name) resolves to a Uint8Array of the user
// buffer as the last submission left it. It does not pause the live loop.
func (a *app) apiReadBuffer(args []js.Value) (js.Value, error) {
	name, err := jsarg.String(jsarg.Arg(args, 0), "readBuffer: name", wgsl.MaxNameBytes)
	if err != nil {
		return js.Undefined(), err
	}
	var out []byte
	_, err = a.withRunnerLive(false, func() (any, error) {
		b, err := a.runner.ReadBuffer(a.ctx, name)
		out = b
		return nil, err
	})
	if err != nil {
		return js.Undefined(), fmt.Errorf("readBuffer: %w", err)
	}
	u8 := jsGlobal.Get("Uint8Array").New(len(out))
	js.CopyBytesToJS(u8, out)
	return u8, nil
}

// setKernelNames makes the panels, log and exports name k's opcodes.
func (a *app) setKernelNames(k *wgsl.Kernel) {
	names := map[uint32]string{}
	for _, op := range k.Opcodes {
		names[op.Value] = op.Name
	}
	ui.SetUserOpcodeNames(names)
	a.studio.SetUserOpcodes(namedUserOpcodes())
}

// implements reports whether the running kernel runs op (publish's check).
func (a *app) implements(op uint32) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.runner != nil && a.runner.Implements(op)
}

// errorValue is the Error a call rejects with: err's message, and for a
// kernel refusal what a tool needs to point at it without parsing the
// message: field (a wgsl.DeclError's, as open's options spell it) and
// diagnostics ([{field, opcode, line, column, type, message}] of a
// megakernel.CompileError, at the user's own lines).
func errorValue(err error) js.Value {
	e := jsError.New(err.Error())
	var de *wgsl.DeclError
	if errors.As(err, &de) {
		e.Set("field", de.Field)
	}
	var ce *megakernel.CompileError
	if errors.As(err, &ce) {
		e.Set("diagnostics", js.ValueOf(api.Plain(ce.Diagnostics)))
	}
	return e
}

// namedUserOpcodes lists the running kernel's user opcodes by number, for
// a capture's header (and so its metrics and trace).
func namedUserOpcodes() []capture.NamedOpcode {
	names := ui.UserOpcodeNames()
	out := make([]capture.NamedOpcode, 0, len(names))
	for op, name := range names {
		out = append(out, capture.NamedOpcode{Opcode: op, Name: name})
	}
	slices.SortFunc(out, func(a, b capture.NamedOpcode) int { return cmp.Compare(a.Opcode, b.Opcode) })
	return out
}
