//go:build js && wasm

package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/capture"
)

// importSeq numbers the timelines of imports apart from the live ring's
// (the panel refits the view to a new number).
const importSeq = 1 << 40

// timeline is t as the timeline panel draws it, numbered seq, with the
// report of the hang it holds; export downloads that hang (nil: a
// replayed one, already a file).
func timeline(seq uint64, t *capture.TaskTrace, export func()) *ui.Timeline {
	tl := ui.BuildTimeline(seq, t.Passes, t.Budget, t.Records, t.OpcodeName)
	tl.Live = t.Live
	h := t.Hang
	if h == nil {
		return tl
	}
	title := fmt.Sprintf("%s at frame %d", h.Health, h.Seq)
	sep := " ("
	for _, k := range h.Causes {
		title += sep + k.String()
		sep = ", "
	}
	if len(h.Causes) > 0 {
		title += ")"
	}
	th := &ui.TimelineHang{Title: title, Export: export}
	for _, g := range h.Workgroups {
		w := strconv.Itoa(int(g.Workgroup))
		th.Rows = append(th.Rows, ui.TimelineHangRow{Key: w, Workgroup: w,
			Task: fmt.Sprintf("slot %d %s %s, lane %d, ticket %d", g.Last.Slot, g.Last.Name, g.Last.Status, g.Last.Lane, g.Last.StartTicket)})
	}
	th.Running = "running at the dump: none"
	if n := len(h.Running); n > 0 {
		parts := make([]string, 0, min(n, 8))
		for _, r := range h.Running[:min(n, 8)] {
			parts = append(parts, fmt.Sprintf("slot %d %s", r.Slot, r.Name))
		}
		th.Running = fmt.Sprintf("running at the dump (%d CLAIMED; a task's record lands when it ends, so its workgroup is unknown): %s", n, strings.Join(parts, ", "))
		if n > 8 {
			th.Running += fmt.Sprintf(", … %d more", n-8)
		}
	}
	th.Suspects = h.SuspectText()
	tl.Hang = th
	return tl
}

// ShowTasks puts an import's trace window, and its hang, on the timeline
// panel (no export: it is a file already), or none for an import without
// one, until ShowLiveTasks; the live ring's updates meanwhile wait in
// liveTasks.
func (p capturePage) ShowTasks(t *capture.TaskTrace) {
	var tl *ui.Timeline
	if t != nil {
		p.a.imports++
		tl = timeline(importSeq+p.a.imports, t, nil)
	}
	p.a.ui(func(d *ui.Dashboard) {
		p.a.showingImport = true
		d.Tasks = tl
	})
}

// ShowLiveTasks puts the live ring's timeline back after a replay.
func (p capturePage) ShowLiveTasks() {
	p.a.ui(func(d *ui.Dashboard) {
		p.a.showingImport = false
		d.Tasks = p.a.liveTasks
	})
}
