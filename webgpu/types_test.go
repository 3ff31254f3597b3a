package webgpu

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLimitFieldsCoverStruct(t *testing.T) {
	var l Limits
	fields := l.fields()
	require.Len(t, fields, reflect.TypeOf(l).NumField(), "every Limits field has a WebGPU name")
	seen := map[string]bool{}
	for i, f := range fields {
		assert.False(t, seen[f.name], "duplicate %s", f.name)
		seen[f.name] = true
		*f.p = uint64(i + 1)
	}
	v := reflect.ValueOf(l)
	for i := range v.NumField() {
		// Each field got its own pointer, and the Go name matches the WebGPU one.
		assert.Equal(t, uint64(i+1), v.Field(i).Uint())
		assert.Equal(t, reflect.TypeOf(l).Field(i).Name, upperFirst(fields[i].name))
	}
}

func upperFirst(s string) string { return string(s[0]-'a'+'A') + s[1:] }

func TestAdapterInfoIsCPU(t *testing.T) {
	for _, tc := range []struct {
		name string
		info AdapterInfo
		cpu  bool
	}{
		{"fallback flag", AdapterInfo{Vendor: "x", IsFallbackAdapter: true}, true},
		{"swiftshader without flag (Dawn in Node)", AdapterInfo{Vendor: "google", Architecture: "swiftshader"}, true},
		{"llvmpipe description", AdapterInfo{Description: "llvmpipe (LLVM 15.0.6, 256 bits)"}, true},
		{"nvidia", AdapterInfo{Vendor: "nvidia", Architecture: "hopper"}, false},
		{"withheld", AdapterInfo{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.cpu, tc.info.IsCPU()) })
	}
}

func TestErrorMessages(t *testing.T) {
	lost := &DeviceLostError{Op: "create buffer", Reason: "destroyed", Message: "device was destroyed"}
	wrapped := fmt.Errorf("runner: publish: %w", lost)
	assert.ErrorIs(t, wrapped, ErrDeviceLost)
	assert.Equal(t, "webgpu: create buffer: device lost (destroyed): device was destroyed", lost.Error())
	assert.Equal(t, "webgpu: device lost (unknown)", (&DeviceLostError{Reason: "unknown"}).Error())
	assert.NotErrorIs(t, errors.New("other"), ErrDeviceLost)

	se := &ShaderError{Label: "k", Messages: []CompilationMessage{
		{Type: "warning", Line: 1, Column: 2, Message: "unused"},
		{Type: "error", Line: 3, Column: 16, Message: "bad type\n"},
		{Type: "error", Line: 9, Column: 1, Message: "unknown identifier"},
	}}
	assert.Equal(t, `webgpu: shader module "k": 3:16: bad type; 9:1: unknown identifier`, se.Error())
	assert.Len(t, se.Errors(), 2)
	assert.Equal(t, "1:2: warning: unused", se.Messages[0].String())

	assert.Equal(t, "GPUPipelineError(validation): no entry point", (&JSError{Name: "GPUPipelineError", Reason: "validation", Message: "no entry point\n"}).Error())
	assert.Equal(t, "TypeError: boom", (&JSError{Name: "TypeError", Message: "boom"}).Error())
	assert.Equal(t, "42", (&JSError{Message: "42"}).Error())
	assert.Equal(t, "webgpu: validation error: x", (&ValidationError{Message: "x\n"}).Error())
	assert.Equal(t, "webgpu: out of memory: x", (&OutOfMemoryError{Message: "x"}).Error())
	assert.Equal(t, "webgpu: internal error: x", (&InternalError{Message: "x"}).Error())
}

func TestTimestamps(t *testing.T) {
	b := []byte{1, 0, 0, 0, 0, 0, 0, 0, 0x10, 0x27, 0, 0, 0, 0, 0, 0, 0xff}
	buf := make([]uint64, 0, 4)
	ts := DecodeTimestamps(buf, b)
	assert.Equal(t, []uint64{1, 10000}, ts)
	assert.Equal(t, &buf[:1][0], &ts[0], "reuses dst")

	for _, tc := range []struct {
		name       string
		begin, end uint64
		d          time.Duration
		ok         bool
	}{
		{"forward", 1000, 251000, 250 * time.Microsecond, true},
		{"equal", 5, 5, 0, true},
		{"backwards", 10, 5, 0, false},
		{"unwritten", 0, 5, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, ok := TimestampInterval(tc.begin, tc.end)
			assert.Equal(t, tc.d, d)
			assert.Equal(t, tc.ok, ok)
		})
	}
}
