//go:build js && wasm

package controller

import (
	"slices"
	"time"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/webgpu/megakernel"
)

// tasks is a copy of the trace window of the ring the page watches, for
// the API, the exports and the timeline panel: the attachment's while
// attached (the host's trace buffer), else the runner's; opcodes named as
// the page names them; nil when it does not trace. Called with mu held.
func (c *Controller) tasks() *capture.TaskTrace {
	var w *megakernel.TraceWindow
	name := decode.OpcodeName
	if c.attached != nil {
		w = c.attached.att.Trace()
	} else if c.runner != nil {
		if w = c.runner.Trace(); w != nil {
			name = opcodeNamer(c.runner.Options().Kernel)
		}
	}
	if w == nil {
		return nil
	}
	return &capture.TaskTrace{Capacity: w.Capacity, Overflow: w.Overflow, Evicted: w.Evicted,
		Passes: slices.Clone(w.Passes), Budget: slices.Clone(w.Budget), Records: slices.Clone(w.Records), Name: name}
}

// attachTasksEvery spaces the timeline panel's updates from an attached
// ring's trace while the live loop runs: each rebuilds the panel's lanes
// from the whole window, too much work for every frame of the page's
// main-thread budget, and a person reads the panel at this rate anyway.
const attachTasksEvery = 500 * time.Millisecond

// showAttachedTasks keeps the timeline panel on the attachment's trace
// window (docs/TRACE.md §8): after a frame that changed it, at most every
// attachTasksEvery while the live loop runs, at once when it is stopped
// (step); a hang the hunter shows stays while its episode lasts. The
// panel keeps a person's zoom across the updates (TaskTrace.Live). Called
// with mu held.
func (c *Controller) showAttachedTasks() {
	st := c.attached
	if st == nil || c.hunter.Hunting() {
		return
	}
	w, now := st.att.Trace(), time.Now()
	if w == nil || w.Changes == st.shown || c.running && now.Sub(st.shownAt) < attachTasksEvery {
		return
	}
	st.shown, st.shownAt = w.Changes, now
	tt := c.tasks()
	tt.Live = true
	c.showTasks(tt)
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
	if tt := c.tasks(); tt != nil {
		tt.Hang = capture.NewHang(f, tt)
		c.showTasks(tt)
	}
}

// showTasks puts tt on the timeline panel (nil hides it).
func (c *Controller) showTasks(tt *capture.TaskTrace) {
	c.taskSeq++
	c.display.Tasks(c.taskSeq, tt)
}

// TaskTrace is the watched ring's trace window (docs/TRACE.md): the
// runner's, or the attachment's; nil when it does not trace.
func (c *Controller) TaskTrace() *capture.TaskTrace {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tasks()
}
