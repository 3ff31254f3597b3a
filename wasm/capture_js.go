//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/captureapi"
)

// installCaptureAPI adds the capture concern (wasm/captureapi): decode,
// exports, import, replay, subscribe, over the page's studio.
func installCaptureAPI(a *app, obj js.Value) {
	a.capture = captureapi.Install(obj, a.studio, a.dash, capturePage{a}, &a.cleanup)
}

// capturePage is the page as wasm/captureapi's Page.
type capturePage struct{ a *app }

func (p capturePage) Update(f func(d *ui.Dashboard))      { p.a.ui(f) }
func (p capturePage) UpdateQuiet(f func(d *ui.Dashboard)) { p.a.view.updateQuiet(f) }
func (p capturePage) ResumeLive()                         { p.a.commands <- cmdRun }

// PauseLive stops the live loop (remembering whether it ran) so that a
// replayed frame stays on screen.
func (p capturePage) PauseLive() bool {
	a := p.a
	a.mu.Lock()
	was := a.running
	a.running = false
	a.mu.Unlock()
	if was {
		a.ui(func(d *ui.Dashboard) { d.Running = false })
	}
	return was
}

// recorderObserver is the flight recorder and the subscribers as the
// session's Observer.
type recorderObserver struct{ a *app }

// Observe records the frame the session just assembled, with the sketch
// shape of the ring that made it. It runs with mu held.
func (o recorderObserver) Observe(f *frame.Frame) {
	a := o.a
	a.studio.SetSketchShape(a.settingsNow.SketchDepth, a.settingsNow.SketchWidth)
	if a.capture != nil { // installAPI sets it before the first frame
		a.capture.Observe(f)
	}
}
