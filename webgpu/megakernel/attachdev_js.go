//go:build js && wasm

package megakernel

import (
	"context"
	"strings"

	"github.com/ringscope/ringscope/webgpu"
)

// checkHostDevice refuses, up front, a host buffer that belongs to another
// GPUDevice than dev: WebGPU has no buffer.device to ask, and such a
// buffer used to be refused only by the first frame's copy, which ended
// the attachment as "can no longer be copied (destroyed?)". So each buffer
// is the source of a copy of 0 bytes into probe (ringscope's own staging
// on dev), encoded and finished inside a validation scope, never
// submitted: finishing checks that every buffer is dev's (the usage was
// checked before), and costs no GPU work.
func checkHostDevice(ctx context.Context, dev *webgpu.Device, probe *webgpu.Buffer, o AttachOptions) error {
	bufs := []struct {
		field string
		b     *webgpu.Buffer
	}{{"control", o.Control}, {"ring", o.Ring}, {"log", o.Log}, {"trace", o.Trace}}
	for _, hb := range bufs {
		if hb.b == nil {
			continue
		}
		var encErr error
		scope, err := dev.ValidationScope(func() {
			enc, err := dev.CreateCommandEncoder("ringscope attach check")
			if err != nil {
				encErr = err
				return
			}
			enc.CopyBufferToBuffer(hb.b, 0, probe, 0, 0)
			_, encErr = enc.Finish()
		})
		if err == nil {
			err = encErr
		}
		if err != nil {
			return failOn(dev, "attach: check "+hb.field, err)
		}
		verr := scope.Wait(ctx)
		if verr == nil {
			continue
		}
		msg, _, _ := strings.Cut(strings.TrimSpace(verr.Error()), "\n")
		reason := "cannot be copied on the device passed: " + msg
		if strings.Contains(msg, "associated with") || strings.Contains(msg, "device") {
			reason = "belongs to another GPUDevice than the device passed (attach's device must be the one that created control, ring and log): " + msg
		}
		return &AttachError{Field: hb.field, Label: hb.b.Label(), Reason: reason}
	}
	return nil
}
