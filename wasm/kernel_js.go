//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"

	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// The user kernel's part of the JS API (docs/OPCODES.md): open's opcodes
// and buffers options, and readBuffer(name).
func init() {
	apiExtensions = append(apiExtensions, func(a *app, obj js.Value) {
		rawMethod(obj, "readBuffer", a.apiReadBuffer)
	})
}

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
//
// size defaults to the initial bytes' length; bytes is a Uint8Array or
// ArrayBuffer, words an array of u32 (one of the two).
func kernelOption(o js.Value) (wgsl.Kernel, error) {
	var k wgsl.Kernel
	ops, err := optProp(o, "open", "opcodes")
	if err != nil {
		return k, err
	}
	if !ops.IsUndefined() && !ops.IsNull() {
		n, err := arrayArg(ops, "open: opcodes", maxKernelOpcodes)
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
	bufs, err := optProp(o, "open", "buffers")
	if err != nil {
		return k, err
	}
	if !bufs.IsUndefined() && !bufs.IsNull() {
		n, err := arrayArg(bufs, "open: buffers", maxKernelBuffers)
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
	v, err := getProp(arr, "open: "+field, i)
	if err != nil {
		return v, field, err
	}
	if typeName(v) != "object" {
		return v, field, fmt.Errorf("open: %s must be an object, got %s", field, typeName(v))
	}
	return v, field, nil
}

func readOpcode(ops js.Value, i int) (wgsl.Opcode, error) {
	var op wgsl.Opcode
	e, field, err := element(ops, "opcodes", i)
	if err != nil {
		return op, err
	}
	if op.Value, err = optUint32(e, "open: "+field, "opcode", 0); err != nil {
		return op, err
	}
	if v, _ := getProp(e, "", "opcode"); v.IsUndefined() {
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
	bytes, err := getProp(e, "open: "+field+".bytes", "bytes")
	if err != nil {
		return b, err
	}
	if !bytes.IsUndefined() && !bytes.IsNull() {
		if b.Init, err = bytesArg(bytes, "open: "+field+".bytes", maxUserBufferBytes); err != nil {
			return b, err
		}
	}
	words, err := optUint32Array(e, "open: "+field, "words", maxUserBufferBytes/abi.WordBytes)
	if err != nil {
		return b, err
	}
	if words != nil {
		if b.Init != nil {
			return b, fmt.Errorf("open: %s: give bytes or words, not both", field)
		}
		b.Init = make([]byte, len(words)*abi.WordBytes)
		for j, w := range words {
			b.Init[4*j], b.Init[4*j+1], b.Init[4*j+2], b.Init[4*j+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
		}
	}
	size, err := optUint64(e, "open: "+field, "size", uint64(len(b.Init)))
	b.Size = size
	return b, err
}

// stringProp reads a required string property of at most max bytes.
func stringProp(o js.Value, field, name string, max int) (string, error) {
	v, err := getProp(o, "open: "+field+"."+name, name)
	if err != nil {
		return "", err
	}
	return stringArg(v, "open: "+field+"."+name, max)
}

// optStringProp is stringProp with a default for an absent property.
func optStringProp(o js.Value, field, name, def string) (string, error) {
	v, err := getProp(o, "open: "+field+"."+name, name)
	if err != nil || v.IsUndefined() || v.IsNull() {
		return def, err
	}
	return stringArg(v, "open: "+field+"."+name, 64)
}

// apiReadBuffer: readBuffer(name) resolves to a Uint8Array of the user
// buffer as the last submission left it. It does not pause the live loop.
func (a *app) apiReadBuffer(args []js.Value) (js.Value, error) {
	name, err := stringArg(arg(args, 0), "readBuffer: name", wgsl.MaxNameBytes)
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
func setKernelNames(k *wgsl.Kernel) {
	names := map[uint32]string{}
	for _, op := range k.Opcodes {
		names[op.Value] = op.Name
	}
	ui.SetUserOpcodeNames(names)
}

// implements reports whether the running kernel runs op (publish's check).
func (a *app) implements(op uint32) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.runner != nil && a.runner.Implements(op)
}
