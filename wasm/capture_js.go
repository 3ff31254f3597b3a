//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/internal/heapsort"
	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/capture"
)

// The dashboard as the API's concerns see it (wasm/jsapi): the capture
// concern shows its bar and replayed frames through capturePage, mount
// moves the view through mountView. Only this package holds the
// dashboard.

// capturePage is the page as wasm/jsapi's CapturePage.
type capturePage struct{ a *app }

func (p capturePage) ShowBar(b capture.Bar, quiet bool) {
	set := func(d *ui.Dashboard) {
		m := d.CaptureModel()
		m.Recording, m.Frames, m.Bytes, m.Dropped = b.Recording, b.Frames, b.Bytes, b.Dropped
		m.SpanMillis, m.Compact = b.SpanMillis, b.Compact
		m.Replaying, m.Count, m.Index, m.Seq, m.Source = b.Replaying, b.Count, b.Index, b.Seq, b.Source
		m.RingFrom, m.RingSeq, m.ShownCompact = b.RingFrom, b.RingSeq, b.ShownCompact
		m.Error, m.Notice = b.Error, b.Notice
	}
	if quiet {
		p.a.view.updateQuiet(set)
		return
	}
	p.a.ui(set)
}

func (p capturePage) ShowFrames(hist []frame.Frame, f *frame.Frame) {
	p.a.ui(func(d *ui.Dashboard) {
		d.ClearHistory()
		for k := range hist {
			d.History().Push(&hist[k])
		}
		if f != nil {
			d.Apply(f)
		}
	})
}

func (capturePage) HistoryLen() int                 { return ui.HistoryLen }
func (capturePage) FormatBytes(n uint64) string     { return ui.Bytes(n) }
func (p capturePage) PauseLive() bool               { return p.a.ring.PauseLive() }
func (p capturePage) ResumeLive()                   { p.a.ring.Resume() }
func (p capturePage) TaskTrace() *capture.TaskTrace { return p.a.ring.TaskTrace() }

// wireCaptureBar points the dashboard's capture bar at the capture
// concern, before the dashboard first renders.
func (a *app) wireCaptureBar() {
	c, m, info := a.capture, a.dash.CaptureModel(), a.studio.Info()
	m.Recording, m.MaxFrames, m.MaxBytes = info.Recording, info.MaxFrames, info.MaxBytes
	m.OnRecord = func(on bool) { go c.SetRecording(on) }
	m.OnExport = func(kind string) { go c.Download(kind) }
	m.OnScrub = func(i int) { go c.Replay(i) }
	m.OnLive = func() { go c.BackToLive() }
}

// recorderObserver is the flight recorder and the subscribers as the
// session's Observer.
type recorderObserver struct{ a *app }

// Observe records the frame the session just assembled. It runs with the
// controller's lock held, while f.Raw's views are valid.
func (o recorderObserver) Observe(f *frame.Frame) {
	if c := o.a.capture; c != nil { // installAPI sets it before the first frame
		c.Observe(f)
	}
}

// mountView is the view as wasm/jsapi's Dashboard (mount).
type mountView struct{ v *view }

func (m mountView) Root() js.Value { return m.v.root() }
func (m mountView) Redraw()        { m.v.update(func(*ui.Dashboard) {}) }

// namedUserOpcodes lists a kernel's user opcodes by number, for a
// capture's header (and so its metrics and trace).
func namedUserOpcodes(names ui.Names) []capture.NamedOpcode {
	out := make([]capture.NamedOpcode, 0, len(names))
	for op, name := range names {
		out = append(out, capture.NamedOpcode{Opcode: op, Name: name})
	}
	heapsort.Func(out, func(a, b capture.NamedOpcode) bool { return a.Opcode < b.Opcode }) // no pdqsort linked for this type
	return out
}
