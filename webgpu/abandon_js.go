//go:build js && wasm

package webgpu

import (
	"sync"
	"syscall/js"
)

// abandonedDevices keeps every abandoned GPUDevice reachable until the
// page closes, so that no garbage collection destroys one.
var abandonedDevices struct {
	sync.Mutex
	v []js.Value
}

// Abandon gives the device up without destroying it: it counts as lost at
// once (LostReason reports reason and msg), every await on it returns a
// *DeviceLostError now, whether or not its promise ever settles, and its
// buffers are no longer destroyed. It is for a device whose queue runs work
// that never ends (a runaway shader): on SwiftShader, Chromium's CPU
// adapter, destroying such a device (or a buffer it uses, or letting the
// GPUDevice be collected) blocks the browser's GPU process until the work
// ends, which it never does, and no other device can be made meanwhile;
// abandoned, the work runs on (a CPU thread of SwiftShader's, until the page
// closes) but a new device works. A GPU driver's own watchdog, where there
// is one, resets the stuck device by itself.
func (d *Device) Abandon(reason, msg string) {
	d.abandonOnce.Do(func() {
		abandonedDevices.Lock()
		abandonedDevices.v = append(abandonedDevices.v, d.v)
		abandonedDevices.Unlock()
		d.markLost(reason, msg)
		close(d.abandoned)
	})
}

// isAbandoned reports whether Abandon was called.
func (d *Device) isAbandoned() bool {
	select {
	case <-d.abandoned:
		return true
	default:
		return false
	}
}
