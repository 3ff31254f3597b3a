package api

import (
	"encoding"
	"math"
	"reflect"
	"strconv"

	"github.com/ringscope/ringscope/internal/jsontext"
)

// RawJSON is a result already written as the JSON of its Plain form. The
// page's bridge hands it to one JSON.parse instead of building the JS value
// field by field through syscall/js: for a 65,536-slot snapshot that is one
// call instead of about ten per slot.
type RawJSON []byte

// Encode returns v's Plain form as RawJSON, or, where JSON cannot carry a
// value of it (NaN, ±Inf, which Plain hands to JS as they are), Plain(v).
// Either way the JS value is the same, and neither shares memory with v.
func Encode(v any) any {
	if v == nil {
		return nil
	}
	if b, ok := appendJSON(nil, reflect.ValueOf(v)); ok {
		return RawJSON(b)
	}
	return Plain(v)
}

// appendJSON appends v as plain would convert it; ok is false at a NaN or
// an infinity.
func appendJSON(b []byte, v reflect.Value) (_ []byte, ok bool) {
	info := infoOf(v.Type())
	if info.text && (v.Kind() != reflect.Pointer || !v.IsNil()) {
		if text, err := v.Interface().(encoding.TextMarshaler).MarshalText(); err == nil {
			return jsontext.AppendString(b, string(text)), true
		}
	}
	if info.err && !v.IsNil() {
		return jsontext.AppendString(b, v.Interface().(error).Error()), true
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return append(b, "null"...), true
		}
		return appendJSON(b, v.Elem())
	case reflect.Struct:
		b = append(b, '{')
		first := true
		for _, f := range info.fields {
			if f.omitted(v) {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = jsontext.AppendString(b, f.name)
			b = append(b, ':')
			if b, ok = appendJSON(b, v.Field(f.index)); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	case reflect.Slice, reflect.Array:
		if info.keys != nil {
			b = append(b, '{')
			for i, k := range info.keys {
				if i > 0 {
					b = append(b, ',')
				}
				b = jsontext.AppendString(b, k)
				b = append(b, ':')
				if b, ok = appendJSON(b, v.Index(i)); !ok {
					return b, false
				}
			}
			return append(b, '}'), true
		}
		b = append(b, '[')
		for i := range v.Len() { // a nil slice is [], as in plain
			if i > 0 {
				b = append(b, ',')
			}
			if b, ok = appendJSON(b, v.Index(i)); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case reflect.Map:
		b = append(b, '{')
		iter := v.MapRange()
		for i := 0; iter.Next(); i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsontext.AppendString(b, keyString(iter.Key()))
			b = append(b, ':')
			if b, ok = appendJSON(b, iter.Value()); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool()), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return appendNumber(b, float64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return appendNumber(b, float64(v.Uint()))
	case reflect.Float32, reflect.Float64:
		return appendNumber(b, v.Float())
	case reflect.String:
		return jsontext.AppendString(b, v.String()), true
	}
	return append(b, "null"...), true
}

// appendNumber writes f as JS would read it back exactly (plain converts
// every number to float64 first, so the two agree past 2^53 too).
func appendNumber(b []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, false
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		if f == 0 && math.Signbit(f) {
			return append(b, "-0"...), true
		}
		return strconv.AppendInt(b, int64(f), 10), true
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64), true
}
