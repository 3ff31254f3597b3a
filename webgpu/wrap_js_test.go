//go:build js && wasm

package webgpu

import (
	"syscall/js"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A device and buffers JavaScript created wrap with what they are; values
// that are not one are refused, naming what they got, without a panic.
func TestWrapDeviceAndBuffer(t *testing.T) {
	d := testDevice(t, DeviceDescriptor{Label: "host"})
	w, err := WrapDevice(d.JSValue())
	require.NoError(t, err)
	assert.True(t, w.SameDevice(d.JSValue()))
	assert.Equal(t, d.Limits(), w.Limits())
	assert.Equal(t, "host", w.Label())
	require.NoError(t, w.Err())

	raw := d.JSValue().Call("createBuffer", map[string]any{"size": 640, "usage": uint32(BufferUsageCopySrc | BufferUsageStorage), "label": "ctl"})
	b, err := WrapBuffer(w, raw, "control")
	require.NoError(t, err)
	assert.Equal(t, uint64(640), b.Size())
	assert.Equal(t, BufferUsageCopySrc|BufferUsageStorage, b.Usage())
	assert.Equal(t, "ctl", b.Label())
	assert.False(t, b.Mapped())
	b.Destroy() // borrowed: the host's buffer lives on
	assert.Equal(t, 640, raw.Get("size").Int())
	scope, err := w.ValidationScope(func() {
		enc := w.v.Call("createCommandEncoder")
		dst := d.JSValue().Call("createBuffer", map[string]any{"size": 640, "usage": uint32(BufferUsageCopyDst)})
		enc.Call("copyBufferToBuffer", raw, 0, dst, 0, 640)
		w.queue.v.Call("submit", []any{enc.Call("finish")})
	})
	require.NoError(t, err)
	require.NoError(t, scope.Wait(ctxT(t)), "a copy from the borrowed buffer after Destroy is valid: Destroy left it alone")

	// Once JavaScript destroys it, the same copy is caught by the scope.
	raw.Call("destroy")
	scope, err = w.ValidationScope(func() {
		enc := w.v.Call("createCommandEncoder")
		dst := d.JSValue().Call("createBuffer", map[string]any{"size": 640, "usage": uint32(BufferUsageCopyDst)})
		enc.Call("copyBufferToBuffer", raw, 0, dst, 0, 640)
		w.queue.v.Call("submit", []any{enc.Call("finish")})
	})
	require.NoError(t, err)
	var verr *ValidationError
	require.ErrorAs(t, scope.Wait(ctxT(t)), &verr)
	assert.NotEmpty(t, verr.Message)

	for name, v := range map[string]js.Value{
		"number":    js.ValueOf(3),
		"null":      js.Null(),
		"object":    js.Global().Get("Object").New(),
		"a buffer":  raw,
		"undefined": js.Undefined(),
	} {
		_, err := WrapDevice(v)
		assert.ErrorContains(t, err, "want a GPUDevice", name)
	}
	// A value whose getters throw is refused, not a panic.
	throwing := js.Global().Get("Function").New("return new Proxy({}, {get() { throw new Error('boom'); }})").Invoke()
	_, err = WrapDevice(throwing)
	assert.ErrorContains(t, err, "webgpu: device: ")
	_, err = WrapBuffer(w, throwing, "log")
	assert.ErrorContains(t, err, "webgpu: log: ")
	posing := js.Global().Get("Object").Call("create", js.Global().Get("GPUDevice").Get("prototype"))
	_, err = WrapDevice(posing)
	assert.ErrorContains(t, err, "webgpu: device: ", "an object with GPUDevice's prototype is not a device")

	for name, v := range map[string]js.Value{
		"string": js.ValueOf("ring"),
		"device": d.JSValue(),
		"object": js.Global().Get("Object").New(),
	} {
		_, err := WrapBuffer(w, v, "ring")
		assert.ErrorContains(t, err, "webgpu: ring: want a GPUBuffer", name)
	}
}
