//go:build js && wasm

package webgpu

import (
	"context"
	"sync"
	"syscall/js"
)

// abandonedDevices keeps every abandoned GPUDevice reachable until the
// page closes, so that no garbage collection destroys one, and counts
// those whose work still runs.
var abandonedDevices struct {
	sync.Mutex
	v []js.Value
	// running counts the abandoned devices whose queue has not said its
	// work is done.
	running int
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
		d.behind = abandonedDevices.running
		abandonedDevices.Unlock()
		d.markLost(reason, msg)
		close(d.abandoned)
		d.watchAbandonedWork()
	})
}

// AbandonedBehind is the number of other abandoned devices whose work
// still ran when Abandon gave d up (0 before): on a CPU adapter d's work
// may have waited behind theirs rather than run away itself.
func (d *Device) AbandonedBehind() int {
	abandonedDevices.Lock()
	defer abandonedDevices.Unlock()
	return d.behind
}

// watchAbandonedWork counts d among the abandoned devices still running
// until its queue says the work submitted so far is done (which a
// runaway's queue never says, a finite one's does).
func (d *Device) watchAbandonedWork() {
	var done js.Value
	if try(func() { done = d.queue.v.Call("onSubmittedWorkDone") }) != nil {
		return // a queue that cannot answer runs nothing we can count
	}
	a := &abandonedDevices
	a.Lock()
	a.running++
	a.Unlock()
	go func() {
		_, _ = await(context.Background(), done) // settled either way: no longer running
		a.Lock()
		a.running--
		a.Unlock()
	}()
}

// AbandonedRunning is the number of abandoned devices (Abandon) whose work
// still runs. On a CPU adapter such work holds a thread until the page
// closes, and a new device's work can wait behind it.
func AbandonedRunning() int {
	abandonedDevices.Lock()
	defer abandonedDevices.Unlock()
	return abandonedDevices.running
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
