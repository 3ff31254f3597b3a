//go:build js && wasm

package megakernel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/webgpu"
)

// Buffers of another device are refused by Attach, naming the buffer,
// before any frame (issue 35); the device's own attach.
func TestAttachRefusesAnotherDevicesBuffers(t *testing.T) {
	all := webgpu.BufferUsageStorage | webgpu.BufferUsageCopySrc | webgpu.BufferUsageCopyDst
	type host struct {
		dev            *webgpu.Device
		ctl, ring, log *webgpu.Buffer
	}
	mk := func(tag string) host {
		dev := testDevice(t)
		w, err := webgpu.WrapDevice(dev.JSValue())
		require.NoError(t, err)
		b := func(name string, size uint64) *webgpu.Buffer {
			raw, err := dev.CreateBuffer(webgpu.BufferDescriptor{Label: name + "-" + tag, Size: size, Usage: all})
			require.NoError(t, err)
			t.Cleanup(raw.Destroy)
			wb, err := webgpu.WrapBuffer(w, raw.JSValue(), name)
			require.NoError(t, err)
			return wb
		}
		return host{dev: w, ctl: b("ctl", 640), ring: b("ring", 64*64), log: b("log", 64)}
	}
	a, b := mk("a"), mk("b")
	for name, tc := range map[string]struct {
		o     AttachOptions
		field string
	}{
		"control": {AttachOptions{Control: b.ctl, Ring: a.ring}, `control buffer "ctl-b"`},
		"ring":    {AttachOptions{Control: a.ctl, Ring: b.ring}, `ring buffer "ring-b"`},
		"log":     {AttachOptions{Control: a.ctl, Ring: a.ring, Log: b.log}, `log buffer "log-b"`},
	} {
		before := a.dev.Stats().Submits
		att, err := Attach(ctxT(t), a.dev, tc.o)
		assert.Nil(t, att, name)
		var ae *AttachError
		require.ErrorAs(t, err, &ae, name)
		assert.Equal(t, name, ae.Field)
		assert.ErrorContains(t, err, "megakernel: attach: "+tc.field+": belongs to another GPUDevice than the device passed", name)
		assert.Equal(t, before, a.dev.Stats().Submits, "%s: nothing submitted", name)
	}
	att, err := Attach(ctxT(t), a.dev, AttachOptions{Control: a.ctl, Ring: a.ring, Log: a.log})
	require.NoError(t, err)
	att.Detach()
}
