//go:build js && wasm

package jsapi

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"syscall/js"
)

// Reading what a caller passed to the API, which may be anything: a
// BigInt, a Proxy whose traps throw, an object with a throwing getter, an
// array of 2^30 holes. syscall/js is not safe on such values:
//
//   - js.Value.Get, Index, Length and InstanceOf run the JS operation
//     outside any try/catch (wasm_exec.js's valueGet, valueIndex,
//     valueLength, valueInstanceOf), so a getter or trap that throws
//     unwinds through the Go program's wasm frames and ends it;
//   - js.Value.Type panics ("bad type flag") on a BigInt, since wasm_exec
//     stores typeof "bigint" with no type flag (Go 1.26).
//
// So every read of an argument goes through Reflect.get or Reflect.apply
// called with Invoke, which wasm_exec wraps in try/catch and turns into a Go
// panic (js.Error) that Catch recovers; types come from TypeName. Byte
// buffers are recognised by the intrinsic getters of ArrayBuffer and the
// views (a brand check: a Proxy or an own "byteLength" property can neither
// pass it nor lie to it), and their size is known before anything is
// copied.
var (
	jsGlobal       = js.Global()
	jsObject       = jsGlobal.Get("Object")
	jsReflectGet   = jsGlobal.Get("Reflect").Get("get")
	jsReflectApply = jsGlobal.Get("Reflect").Get("apply")
	jsIsArray      = jsGlobal.Get("Array").Get("isArray")
	jsString       = jsGlobal.Get("String")
	jsBoolean      = jsGlobal.Get("Boolean")
	TypeError      = jsGlobal.Get("TypeError")
	jsUint8Array   = jsGlobal.Get("Uint8Array")
	jsIsView       = jsGlobal.Get("ArrayBuffer").Get("isView")
	jsToString     = jsObject.Get("prototype").Get("toString")
	jsNoArgs       = jsGlobal.Get("Array").New()

	abByteLength  = getter(jsGlobal.Get("ArrayBuffer"), "byteLength")
	sabByteLength = getter(jsGlobal.Get("SharedArrayBuffer"), "byteLength")
	taProto       = jsObject.Call("getPrototypeOf", jsUint8Array)
	taByteLength  = getter(taProto, "byteLength")
	taByteOffset  = getter(taProto, "byteOffset")
	taBuffer      = getter(taProto, "buffer")
	dvByteLength  = getter(jsGlobal.Get("DataView"), "byteLength")
	dvByteOffset  = getter(jsGlobal.Get("DataView"), "byteOffset")
	dvBuffer      = getter(jsGlobal.Get("DataView"), "buffer")
	elTagName     = getter(jsGlobal.Get("Element"), "tagName")
)

// getter returns the getter of ctor.prototype[name] (undefined where the
// page has no such constructor: SharedArrayBuffer without cross-origin
// isolation, Element under Node).
func getter(ctor js.Value, name string) js.Value {
	if ctor.Type() != js.TypeFunction && ctor.Type() != js.TypeObject {
		return js.Undefined()
	}
	proto := ctor
	if p := ctor.Get("prototype"); p.Type() == js.TypeObject {
		proto = p
	}
	d := jsObject.Call("getOwnPropertyDescriptor", proto, name)
	if d.Type() != js.TypeObject {
		return js.Undefined()
	}
	return d.Get("get")
}

// Catch runs f and returns what it threw: a JS exception (js.Error) or a
// Go panic of syscall/js (a value of the wrong type), as an error.
func Catch(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = PanicError(r)
		}
	}()
	f()
	return nil
}

// PanicError turns a recovered value into an error without reading the
// thrown value's properties the unsafe way (js.Error.Error reads
// .message with Get, which a thrown Proxy can make throw again).
func PanicError(r any) error {
	switch e := r.(type) {
	case js.Error:
		return errors.New(Text(e.Value))
	case error:
		return e
	}
	return fmt.Errorf("%v", r)
}

// Text is String(v), or a placeholder when even that throws.
func Text(v js.Value) (s string) {
	defer func() {
		if recover() != nil {
			s = "(a value that cannot be converted to a string)"
		}
	}()
	return jsString.Invoke(v).String()
}

// TypeName is v's JavaScript type as typeof says it, except "null" and
// "array"; it never panics (a BigInt is "bigint").
func TypeName(v js.Value) (name string) {
	defer func() {
		if recover() != nil {
			name = "bigint" // the only typeof wasm_exec stores without a flag
		}
	}()
	switch t := v.Type(); t {
	case js.TypeNull:
		return "null"
	case js.TypeObject:
		if IsArray(v) {
			return "array"
		}
		return "object"
	default:
		return t.String()
	}
}

// Describe is TypeName, with the class of an object ("Object", "Map",
// "Int32Array") from Object.prototype.toString, for error messages.
func Describe(v js.Value) string {
	t := TypeName(v)
	if t != "object" {
		return t
	}
	var tag string
	if Catch(func() { tag = jsReflectApply.Invoke(jsToString, v, jsNoArgs).String() }) != nil {
		return t
	}
	tag = strings.TrimSuffix(strings.TrimPrefix(tag, "[object "), "]")
	if tag == "" || tag == "Object" {
		return "object"
	}
	return tag
}

// IsObject reports an object or a function (something with properties).
func IsObject(v js.Value) bool {
	t := TypeName(v)
	return t == "object" || t == "array" || t == "function"
}

// IsArray is Array.isArray(v); false where it throws (a revoked Proxy).
func IsArray(v js.Value) (ok bool) {
	Catch(func() { ok = jsIsArray.Invoke(v).Bool() })
	return ok
}

// Truthy is Boolean(v), which never runs user code.
func Truthy(v js.Value) bool { return jsBoolean.Invoke(v).Bool() }

// Get reads v[key] with Reflect.get; err is what it threw, named.
func Get(v js.Value, what string, key any) (js.Value, error) {
	out, err := RawGet(v, key)
	if err != nil {
		return out, readError(what, err)
	}
	return out, nil
}

var jsHasOwn = jsObject.Get("hasOwn")

// OwnGet is Get of an own property of v: undefined where v has no such
// own property (an inherited one is not the caller's option). Both steps
// may run a Proxy's traps, whose throw is returned, named.
func OwnGet(v js.Value, what, key string) (js.Value, error) {
	var own bool
	if err := Catch(func() { own = jsHasOwn.Invoke(v, key).Bool() }); err != nil {
		return js.Undefined(), readError(what, err)
	}
	if !own {
		return js.Undefined(), nil
	}
	return Get(v, what, key)
}

// RawGet is Get for hot loops, which name the property only when the
// read fails (readError): a key given as a js.Value (keyOpcode …) is not
// converted again on every call.
func RawGet(v js.Value, key any) (out js.Value, err error) {
	if err = Catch(func() { out = jsReflectGet.Invoke(v, key) }); err != nil {
		return js.Undefined(), err
	}
	return out, nil
}

// readError names a property whose read threw.
func readError(what string, err error) error {
	return fmt.Errorf("%s: reading it threw: %w", what, err)
}

// IsObjectType reports an object (arrays included) without calling into
// JS, for loops that read many; BigInts and all else are false.
func IsObjectType(v js.Value) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return v.Type() == js.TypeObject
}

// Options checks an optional options argument: undefined, null or an
// object (not an array or a function).
func Options(v js.Value, what string) error {
	switch t := TypeName(v); t {
	case "undefined", "null", "object":
		return nil
	default:
		return fmt.Errorf("%s: options must be an object, got %s", what, t)
	}
}

// OptProp reads o[name] of an optional options object: undefined when o is
// absent; an error when o is not an object or the read throws.
func OptProp(o js.Value, what, name string) (js.Value, error) {
	if o.IsUndefined() || o.IsNull() {
		return js.Undefined(), nil
	}
	if err := Options(o, what); err != nil {
		return js.Undefined(), err
	}
	return Get(o, what+": "+name, name)
}

// Array checks that v is an array of at most max elements and returns
// its length: type, then size, before any element is read (an Array of
// 2^30 holes is refused, not walked).
func Array(v js.Value, what string, max int) (int, error) {
	if !IsArray(v) {
		return 0, fmt.Errorf("%s must be an array, got %s", what, Describe(v))
	}
	l, err := Get(v, what+".length", "length")
	if err != nil {
		return 0, err
	}
	if TypeName(l) != "number" {
		return 0, fmt.Errorf("%s.length must be a number, got %s", what, TypeName(l))
	}
	n := l.Float()
	if n != math.Trunc(n) || n < 0 {
		return 0, fmt.Errorf("%s.length is %v, not a length", what, n)
	}
	if n > float64(max) {
		return 0, fmt.Errorf("%s has %.0f elements, more than the %d it may have", what, n, max)
	}
	return int(n), nil
}

// Span is an ArrayBuffer (or SharedArrayBuffer) region a caller
// passed: a buffer, an offset and a length, read by the intrinsic getters.
type Span struct {
	buf    js.Value
	off, n int
}

// Len is the span's size in bytes.
func (s Span) Len() int { return s.n }

// applyInt calls the intrinsic getter g on v; ok is false when v is not
// of g's class (the getter throws) or the page has no such getter.
func applyInt(g, v js.Value) (n int, ok bool) {
	if g.IsUndefined() {
		return 0, false
	}
	err := Catch(func() { n = jsReflectApply.Invoke(g, v, jsNoArgs).Int() })
	return n, err == nil
}

func applyValue(g, v js.Value) (out js.Value, ok bool) {
	err := Catch(func() { out = jsReflectApply.Invoke(g, v, jsNoArgs) })
	return out, err == nil
}

// spanOf recognises an ArrayBuffer, a SharedArrayBuffer or a view of one
// (typed arrays, DataView) without running any of the caller's code.
func spanOf(v js.Value) (Span, bool) {
	if TypeName(v) != "object" {
		return Span{}, false
	}
	if n, ok := applyInt(abByteLength, v); ok {
		return Span{buf: v, n: n}, true
	}
	if n, ok := applyInt(sabByteLength, v); ok {
		return Span{buf: v, n: n}, true
	}
	var view bool
	if Catch(func() { view = jsIsView.Invoke(v).Bool() }) != nil || !view {
		return Span{}, false
	}
	for _, g := range [][3]js.Value{{taBuffer, taByteOffset, taByteLength}, {dvBuffer, dvByteOffset, dvByteLength}} {
		n, ok := applyInt(g[2], v)
		if !ok {
			continue
		}
		off, _ := applyInt(g[1], v)
		buf, _ := applyValue(g[0], v)
		return Span{buf: buf, off: off, n: n}, true
	}
	return Span{}, false
}

// BytesSpan checks that v is bytes (an ArrayBuffer or a view) of at
// most max bytes, without copying them.
func BytesSpan(v js.Value, what string, max int) (Span, error) {
	s, ok := spanOf(v)
	if !ok {
		return s, fmt.Errorf("%s must be an ArrayBuffer or a Uint8Array, got %s", what, Describe(v))
	}
	if s.n > max {
		return s, fmt.Errorf("%s: %d bytes exceeds the %d-byte limit; nothing was copied", what, s.n, max)
	}
	return s, nil
}

// copy copies the span into a new Go slice.
func (s Span) Copy(what string) ([]byte, error) {
	var u js.Value
	if err := Catch(func() { u = jsUint8Array.New(s.buf, s.off, s.n) }); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err) // a detached buffer
	}
	b := make([]byte, s.n)
	js.CopyBytesToGo(b, u)
	return b, nil
}

// Bytes copies an ArrayBuffer or a view of at most max bytes into Go,
// checking the size before it allocates.
func Bytes(v js.Value, what string, max int) ([]byte, error) {
	s, err := BytesSpan(v, what, max)
	if err != nil {
		return nil, err
	}
	return s.Copy(what)
}

// IsBytes reports an ArrayBuffer or a view of one (Uint8Array, DataView…).
func IsBytes(v js.Value) bool {
	_, ok := spanOf(v)
	return ok
}

// IsElement reports a DOM Element (the tagName getter's brand check).
func IsElement(v js.Value) bool {
	if TypeName(v) != "object" {
		return false
	}
	_, ok := applyValue(elTagName, v)
	return ok && !elTagName.IsUndefined()
}

// MaxName bounds the short strings the API reads (modes, formats, panel
// names, labels), MaxText the longer ones (an import's name, a URL).
const (
	MaxName = 128
	MaxText = 4096
)

// String reads a string of at most max UTF-16 units; the length is
// checked before the string is copied into Go. js.Value.Length refuses a
// primitive string, so it is read from the String object Object(v), whose
// length is an own, read-only property: no user code runs.
func String(v js.Value, what string, max int) (string, error) {
	if t := TypeName(v); t != "string" {
		return "", fmt.Errorf("%s must be a string, got %s", what, t)
	}
	var n int
	if err := Catch(func() { n = jsObject.Invoke(v).Get("length").Int() }); err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	if n > max {
		return "", fmt.Errorf("%s is %d characters long, more than the %d it may be", what, n, max)
	}
	return v.String(), nil
}

// Index reads a frame index argument: an integer 0, 1, ….
func Index(v js.Value, what string) (int, error) {
	if TypeName(v) != "number" {
		return 0, fmt.Errorf("%s: index must be a frame index 0, 1, …, got %s", what, TypeName(v))
	}
	f := v.Float()
	if f != math.Trunc(f) || f < 0 || f > math.MaxInt32 {
		return 0, fmt.Errorf("%s: index must be a frame index 0, 1, …, got %v", what, f)
	}
	return int(f), nil
}

// DescribeArgs lists the arguments' types, for the message of a call that
// failed in a way its own checks did not foresee.
func DescribeArgs(args []js.Value) string {
	parts := make([]string, len(args))
	for i, v := range args {
		parts[i] = Describe(v)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
