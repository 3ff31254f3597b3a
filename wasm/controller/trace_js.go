//go:build js && wasm

package controller

import (
	"slices"

	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/webgpu/megakernel"
)

// taskTrace is a copy of r's trace window for the API and the exports,
// opcodes named as the page names them; nil when r does not trace.
func taskTrace(r *megakernel.Runner) *capture.TaskTrace {
	if r == nil {
		return nil
	}
	w := r.Trace()
	if w == nil {
		return nil
	}
	o := r.Options()
	return &capture.TaskTrace{Capacity: o.TraceCapacity, Overflow: w.Overflow, Evicted: w.Evicted,
		Passes: slices.Clone(w.Passes), Budget: slices.Clone(w.Budget), Records: slices.Clone(w.Records),
		Name: opcodeNamer(o.Kernel)}
}

// hunt is the hang hunter (docs/TRACE.md §7): at the first frame of
// stalled or lost health, it keeps the traced ring's window and a state
// dump of f's buffers, and shows them on the timeline panel with a report
// of each workgroup's last claimed task. Called with mu held, while f's
// buffers are the host copies.
func (c *Controller) hunt(f *frame.Frame) {
	if f == nil || !c.hunter.Enter(f) {
		return
	}
	if tt := taskTrace(c.runner); tt != nil {
		tt.Hang = capture.NewHang(f, tt)
		c.showTasks(tt)
	}
}

// showTasks puts tt on the timeline panel (nil hides it).
func (c *Controller) showTasks(tt *capture.TaskTrace) {
	c.taskSeq++
	c.display.Tasks(c.taskSeq, tt)
}

// TaskTrace is the running ring's trace window (docs/TRACE.md), nil when
// it does not trace or the page is attached to a host's ring.
func (c *Controller) TaskTrace() *capture.TaskTrace {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.attached != nil {
		return nil
	}
	return taskTrace(c.runner)
}
