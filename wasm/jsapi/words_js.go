//go:build js && wasm

package jsapi

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"syscall/js"
)

// Words reads an array of at most max numbers as the little-endian
// 32-bit words of a buffer whose
// element is el: u32 (0…4294967295), i32 (−2147483648…2147483647) or f32
// (any number, rounded to float32); atomic<u32> and atomic<i32> as their
// base type. A bad word is refused naming it: "what[3]".
//
// It costs no allocation per element: one Float64Array.prototype.set
// converts the whole array in JS (element reads by index, never the
// caller's iterator), Array.prototype.filter(Number.isFinite) checks in
// one call that every element is a finite number, and the doubles come
// to Go in chunks of a reused buffer. Only an array that fails that check
// is walked element by element, to name the first bad word. The loop it
// replaced formatted a label per element, seconds for 4 Mi words.
func Words(v js.Value, what string, max int, el string) ([]byte, error) {
	el = strings.TrimSuffix(strings.TrimPrefix(el, "atomic<"), ">")
	if el == "" {
		el = "u32"
	}
	n, err := Array(v, what, max)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 4*n)
	if n == 0 {
		return out, nil
	}
	f64 := jsFloat64Array.New(n)
	var finite int
	err = Catch(func() {
		jsReflectApply.Invoke(jsFloat64Set, f64, jsArrayOf.Invoke(v))
		finite = jsReflectApply.Invoke(jsFilter, v, jsArrayOf.Invoke(jsIsFinite)).Get("length").Int()
	})
	if err != nil || finite != n {
		return wordsSlow(v, what, n, el, out)
	}
	bytes := jsUint8Array.New(f64.Get("buffer"))
	const chunk = 8 << 10 // doubles per copy: a 64 KiB Go buffer
	buf := make([]byte, 8*min(n, chunk))
	for at := 0; at < n; at += chunk {
		m := min(chunk, n-at)
		js.CopyBytesToGo(buf[:8*m], bytes.Call("subarray", 8*at, 8*(at+m)))
		for i := range m {
			f := math.Float64frombits(binary.LittleEndian.Uint64(buf[8*i:]))
			w, ok := word(f, el)
			if !ok {
				return nil, wordError(what, at+i, f, el)
			}
			binary.LittleEndian.PutUint32(out[4*(at+i):], w)
		}
	}
	return out, nil
}

// wordsSlow is Words element by element, for an array with an element
// that is not a finite number (or whose reads throw): the first bad one
// is named.
func wordsSlow(v js.Value, what string, n int, el string, out []byte) ([]byte, error) {
	for i := range n {
		e, err := RawGet(v, i)
		if err != nil {
			return nil, readError(fmt.Sprintf("%s[%d]", what, i), err)
		}
		if t := TypeName(e); t != "number" {
			return nil, fmt.Errorf("%s[%d] must be a number (%s), got %s", what, i, wordRange(el), t)
		}
		f := e.Float()
		w, ok := word(f, el)
		if !ok {
			return nil, wordError(what, i, f, el)
		}
		binary.LittleEndian.PutUint32(out[4*i:], w)
	}
	return out, nil
}

// word is f as a word of element el, and whether f is one.
func word(f float64, el string) (uint32, bool) {
	switch el {
	case "f32":
		return math.Float32bits(float32(f)), true
	case "i32":
		if f != math.Trunc(f) || f < math.MinInt32 || f > math.MaxInt32 {
			return 0, false
		}
		return uint32(int32(f)), true
	}
	if f != math.Trunc(f) || f < 0 || f > math.MaxUint32 {
		return 0, false
	}
	return uint32(f), true
}

func wordError(what string, i int, f float64, el string) error {
	return fmt.Errorf("%s[%d] is %v, not %s", what, i, f, wordRange(el))
}

func wordRange(el string) string {
	switch el {
	case "f32":
		return "an f32"
	case "i32":
		return "an i32 (an integer -2147483648…2147483647)"
	}
	return "a u32 (an integer 0…4294967295)"
}

var (
	jsFloat64Array = jsGlobal.Get("Float64Array")
	jsFloat64Set   = jsFloat64Array.Get("prototype").Get("set")
	jsFilter       = jsGlobal.Get("Array").Get("prototype").Get("filter")
	jsIsFinite     = jsGlobal.Get("Number").Get("isFinite")
	jsArrayOf      = jsGlobal.Get("Array").Get("of")
)
