//go:build js && wasm

package jsapi

import (
	"syscall/js"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wasm/api"
)

// Argument reading on real JavaScript values (make test-wasm runs this
// under Node): what a caller may pass, hostile values included, and the
// messages each refusal gives.

// val evaluates a JS expression.
func val(src string) js.Value {
	return js.Global().Get("Function").New("return (" + src + ");").Invoke()
}

func TestTypeName(t *testing.T) {
	for src, want := range map[string]string{
		"1n": "bigint", "null": "null", "undefined": "undefined", "[]": "array", "({})": "object",
		"'s'": "string", "() => 1": "function", "Symbol('x')": "symbol", "1.5": "number", "true": "boolean",
	} {
		assert.Equal(t, want, TypeName(val(src)), src)
	}
	assert.Equal(t, "Map", Describe(val("new Map()")))
	assert.Equal(t, "Int32Array", Describe(val("new Int32Array(2)")))
}

func TestKnown(t *testing.T) {
	drain := &api.DrainOptions
	assert.NoError(t, Known(js.Undefined(), drain, ""))
	assert.NoError(t, Known(js.Null(), drain, ""))
	assert.NoError(t, Known(val("({maxSubmissions: 4})"), drain, ""))
	assert.EqualError(t, Known(val("({maxSubmission: 4})"), drain, ""),
		`drain: unknown option "maxSubmission" (did you mean "maxSubmissions"?)`)
	assert.EqualError(t, Known(val("({slot: 1024})"), &api.OpenOptions, ""),
		`open: unknown option "slot" (did you mean "slots"?)`)
	assert.EqualError(t, Known(val("({code: 1})"), &api.OpcodeOptions, "open: opcodes[2]"),
		`open: opcodes[2]: unknown option "code" (did you mean "opcode"?)`)
	assert.EqualError(t, Known(val("({zzz: 1})"), &api.OpcodeOptions, "open: opcodes[2]"),
		`open: opcodes[2]: unknown option "zzz"; the options are opcode, name, wgsl`)
	assert.EqualError(t, Known(val("5"), drain, ""), "drain: options must be an object, got number")
	// Symbols and non-enumerable keys are not options (Object.keys).
	assert.NoError(t, Known(val("Object.defineProperty({[Symbol('s')]: 1}, 'hidden', {value: 1})"), drain, ""))
	// A Proxy whose ownKeys trap throws is refused, not a crash.
	assert.EqualError(t, Known(val("new Proxy({}, {ownKeys() { throw new RangeError('trap'); }})"), drain, ""),
		"drain: options: reading it threw: RangeError: trap")
	assert.EqualError(t, Known(val("Object.fromEntries(Array.from({length: 300}, (_, i) => ['k' + i, i]))"), drain, ""),
		"drain: options have 300 keys, more than the 256 it may have")
}

func TestOptUint32(t *testing.T) {
	got, err := OptUint32(val("({})"), "open", "slots", 64)
	require.NoError(t, err)
	assert.Equal(t, uint32(64), got)
	got, err = OptUint32(val("({slots: 4096})"), "open", "slots", 64)
	require.NoError(t, err)
	assert.Equal(t, uint32(4096), got)
	for src, want := range map[string]string{
		"({slots: 4096n})": "open: slots must be a number, got bigint",
		"({slots: '64'})":  "open: slots must be a number, got string",
		"({get slots() { throw new Error('boom'); }})":                                 "open: slots: reading it threw: Error: boom",
		"(() => { const p = Proxy.revocable({}, {}); p.revoke(); return p.proxy; })()": "open: slots: reading it threw: TypeError",
	} {
		_, err := OptUint32(val(src), "open", "slots", 64)
		require.Error(t, err, src)
		assert.Contains(t, err.Error(), want, src)
	}
	_, err = OptUint32(val("({slots: 1.5})"), "open", "slots", 64)
	assert.Error(t, err)
	_, err = OptUint32(val("({slots: -1})"), "open", "slots", 64)
	assert.Error(t, err)
}

func TestArrayChecksTheLengthFirst(t *testing.T) {
	_, err := Array(val("new Array(2 ** 30)"), "open: masks", MaxOptionArray)
	assert.EqualError(t, err, "open: masks has 1073741824 elements, more than the 4096 it may have")
	_, err = Array(val("new Proxy([1, 2], {get(t, k) { if (k === 'length') throw new Error('length trap'); return t[k]; }})"),
		"open: masks", MaxOptionArray)
	assert.EqualError(t, err, "open: masks.length: reading it threw: Error: length trap")
	n, err := Array(val("[1, 2, 3]"), "x", 3)
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	_, err = Array(val("({length: 3})"), "x", 3)
	assert.EqualError(t, err, "x must be an array, got object")
}

func TestBytes(t *testing.T) {
	// A view's own region, not its whole buffer.
	b, err := Bytes(val("new Uint8Array([9, 1, 2, 3, 9]).subarray(1, 4)"), "data", 16)
	require.NoError(t, err)
	assert.Equal(t, []byte{1, 2, 3}, b)
	b, err = Bytes(val("new DataView(new Uint8Array([5, 6, 7]).buffer, 1)"), "data", 16)
	require.NoError(t, err)
	assert.Equal(t, []byte{6, 7}, b)
	// A Proxy cannot pass for bytes, nor lie about its size.
	_, err = Bytes(val("new Proxy(new Uint8Array(4), {})"), "data", 16)
	assert.Error(t, err)
	_, err = Bytes(val("new Uint8Array(17)"), "data", 16)
	assert.Error(t, err)
}

func TestItemsAndWords(t *testing.T) {
	items, err := Items(val("[{opcode: 0x101, tenant: 1, priority: 2, args: [100, 0, 7]}, {opcode: 0}]"), 16)
	require.NoError(t, err)
	require.Len(t, items, 2)
	_, err = Items(val("[{tenant: 1}]"), 16)
	assert.EqualError(t, err, "publish: item 0: opcode is missing")
	_, err = Items(val("[{opcode: 1}, 5]"), 16)
	assert.EqualError(t, err, "publish: item 1 must be an object {opcode, tenant, priority, args}, got number")
	_, err = Items(val("new Array(17)"), 16)
	assert.ErrorContains(t, err, "(the ring holds 16 slots)")

	w, err := Words(val("[-1, 5]"), "w", 8, "i32")
	require.NoError(t, err)
	assert.Equal(t, []byte{0xff, 0xff, 0xff, 0xff, 5, 0, 0, 0}, w)
	_, err = Words(val("[1, -1]"), "w", 8, "u32")
	assert.EqualError(t, err, "w[1] is -1, not a u32 (an integer 0…4294967295)")
	_, err = Words(val("[1, 'x']"), "w", 8, "u32")
	assert.Error(t, err)
}
