//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/capture"
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
func (p capturePage) PauseLive() bool                     { return p.a.ring.PauseLive() }
func (p capturePage) ResumeLive()                         { p.a.ring.Resume() }
func (p capturePage) TaskTrace() *capture.TaskTrace       { return p.a.ring.TaskTrace() }

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
