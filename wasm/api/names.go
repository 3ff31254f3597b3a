package api

import (
	"encoding"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/ringscope/ringscope/decode"
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

var (
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	errorType     = reflect.TypeFor[error]()
)

// Plain converts v into values js.ValueOf accepts: map[string]any for
// structs (exported fields under their LowerCamel names), []any for slices
// and arrays (but for decode.RingOccupancy, by status: {"waitIO": 1, …}),
// float64 for numbers, string for TextMarshalers (enums),
// bool, nil for nil pointers. A []byte becomes an array of numbers; an
// error becomes its message.
func Plain(v any) any {
	if v == nil {
		return nil
	}
	return plain(reflect.ValueOf(v))
}

func plain(v reflect.Value) any {
	info := infoOf(v.Type())
	if info.text && (v.Kind() != reflect.Pointer || !v.IsNil()) {
		if text, err := v.Interface().(encoding.TextMarshaler).MarshalText(); err == nil {
			return string(text)
		}
	}
	if info.err && !v.IsNil() {
		return v.Interface().(error).Error()
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return plain(v.Elem())
	case reflect.Struct:
		m := make(map[string]any, len(info.fields))
		for _, f := range info.fields {
			if !f.omitted(v) {
				m[f.name] = plain(v.Field(f.index))
			}
		}
		return m
	case reflect.Slice:
		if v.IsNil() {
			return []any{}
		}
		fallthrough
	case reflect.Array:
		if info.keys != nil {
			m := make(map[string]any, len(info.keys))
			for i, k := range info.keys {
				m[k] = plain(v.Index(i))
			}
			return m
		}
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

// typeInfo is what plain needs to know of a type, worked out once per type:
// a snapshot converts 65,536 slot structs, and naming each field and asking
// Implements per value was half of its time.
type typeInfo struct {
	text   bool // a TextMarshaler
	err    bool // an error behind a pointer
	fields []fieldName
	// keys name the elements of an array written as an object:
	// decode.RingOccupancy's statuses ({"done": 7, "waitIO": 1, …}).
	keys []string
}

type fieldName struct {
	index int
	name  string // LowerCamel
	// omitEmpty: the field is left out when it is "" (a json:",omitempty"
	// string: decode.Metric's Name, which only a user opcode has).
	omitEmpty bool
}

// omitted reports whether f of struct v is left out.
func (f *fieldName) omitted(v reflect.Value) bool {
	return f.omitEmpty && v.Field(f.index).String() == ""
}

var typeInfos sync.Map // reflect.Type → *typeInfo

func infoOf(t reflect.Type) *typeInfo {
	if info, ok := typeInfos.Load(t); ok {
		return info.(*typeInfo)
	}
	info := &typeInfo{
		text: t.Implements(textMarshaler),
		err:  t.Kind() == reflect.Pointer && t.Implements(errorType),
	}
	if t == reflect.TypeFor[decode.RingOccupancy]() {
		for s := range t.Len() {
			info.keys = append(info.keys, decode.Status(s).Label(decode.StatusCamel))
		}
	}
	if t.Kind() == reflect.Struct {
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() {
				omit := f.Type.Kind() == reflect.String && strings.Contains(f.Tag.Get("json"), ",omitempty")
				info.fields = append(info.fields, fieldName{i, LowerCamel(f.Name), omit})
			}
		}
	}
	typeInfos.Store(t, info)
	return info
}

// keyString is a map key as a JS object's key: a number in its shortest
// decimal form, as JS writes it ({1: 500} has the key "1").
func keyString(k reflect.Value) string {
	switch v := plain(k).(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	return reflect.ValueOf(plain(k)).String()
}
