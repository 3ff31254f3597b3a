package api

import (
	"encoding"
	"reflect"
	"unicode"
	"unicode/utf8"
)

// LowerCamel turns an exported Go name into the API's JSON name: the leading
// run of capitals is lowered, keeping the last one when a lower-case letter
// follows it, so initialisms read naturally ("DoneCount" → "doneCount",
// "GPUIdlePPM" → "gpuIdlePPM", "ABIVersion" → "abiVersion", "ID" → "id").
func LowerCamel(name string) string {
	runes := []rune(name)
	n := 0
	for n < len(runes) && unicode.IsUpper(runes[n]) {
		n++
	}
	if n > 1 && n < len(runes) && unicode.IsLower(runes[n]) {
		n-- // the last capital starts the next word
	}
	for i := range n {
		runes[i] = unicode.ToLower(runes[i])
	}
	if n == 0 && len(runes) > 0 {
		r, _ := utf8.DecodeRuneInString(name)
		runes[0] = unicode.ToLower(r)
	}
	return string(runes)
}

var textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()

// Plain converts v into values js.ValueOf accepts: map[string]any for
// structs (exported fields under their LowerCamel names), []any for slices
// and arrays, float64 for numbers, string for TextMarshalers (enums),
// bool, nil for nil pointers. A []byte becomes an array of numbers; an
// error becomes its message.
func Plain(v any) any {
	if v == nil {
		return nil
	}
	return plain(reflect.ValueOf(v))
}

func plain(v reflect.Value) any {
	if v.Type().Implements(textMarshaler) && (v.Kind() != reflect.Pointer || !v.IsNil()) {
		if text, err := v.Interface().(encoding.TextMarshaler).MarshalText(); err == nil {
			return string(text)
		}
	}
	if err, ok := v.Interface().(error); ok && v.Kind() == reflect.Pointer && !v.IsNil() {
		return err.Error()
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return plain(v.Elem())
	case reflect.Struct:
		m := make(map[string]any, v.NumField())
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			m[LowerCamel(f.Name)] = plain(v.Field(i))
		}
		return m
	case reflect.Slice:
		if v.IsNil() {
			return []any{}
		}
		fallthrough
	case reflect.Array:
		s := make([]any, v.Len())
		for i := range s {
			s[i] = plain(v.Index(i))
		}
		return s
	case reflect.Map:
		m := make(map[string]any, v.Len())
		iter := v.MapRange()
		for iter.Next() {
			m[keyString(iter.Key())] = plain(iter.Value())
		}
		return m
	case reflect.Bool:
		return v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(v.Uint())
	case reflect.Float32, reflect.Float64:
		return v.Float()
	case reflect.String:
		return v.String()
	}
	return nil
}

func keyString(k reflect.Value) string {
	if s, ok := plain(k).(string); ok {
		return s
	}
	return reflect.ValueOf(plain(k)).String()
}
