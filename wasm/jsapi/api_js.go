//go:build js && wasm

package jsapi

import (
	"syscall/js"

	"github.com/ringscope/ringscope/wasm/browser"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/wasm/controller"
)

// Page is what the API object acts on: the page's parts, made by the
// composition root (package main), which keeps the dashboard to itself.
type Page struct {
	// Ring is the page's ring: runner, session, attachment.
	Ring *controller.Controller
	// Studio is the flight recorder, replay and exports; Show the page's
	// dashboard as the capture methods show replayed frames on it.
	Studio *capture.Studio
	Show   CapturePage
	// Dashboard is the view as mount moves it.
	Dashboard Dashboard
	// Ready is the ready Promise.
	Ready js.Value
	// Query is the configuration's URL parameters (?push=).
	Query map[string][]string
	// Drops is the element (or document) whose dropped files the capture
	// import takes: an instance's own dashboard, the page's document.
	Drops js.Value
	// Cleanup removes the listeners and releases the js.Funcs the API
	// adds beyond its methods.
	Cleanup *browser.Cleanup
	// Dispose, when set, is dispose(): an instance of createRingscope's.
	Dispose func()
}

// New makes the ringscope object (docs/EMBEDDING.md) over p: every
// method returns a Promise, and they run one at a time with the live
// loop, under the controller's lock. It returns the capture concern too,
// which the page tells every frame (Capture.Observe) and its capture bar
// drives.
func New(p Page) (obj js.Value, c *Capture) {
	obj = jsObject.New()
	obj.Set("ready", p.Ready)
	// One concern a file: ring_js.go open, publish, setTenantMask, drain,
	// snapshot, status; live_js.go start, stop, step, setShutdown,
	// setIOService; capture_js.go decode, the exports, importCapture,
	// replay, subscribe; attach_js.go attach, detach, attachInfo;
	// mount_js.go panels, mount; kernel_js.go readBuffer, the examples;
	// push_js.go pushMetrics and ?push=; dispose_js.go dispose.
	installRing(obj, p.Ring)
	installLive(obj, p.Ring)
	c = installCapture(obj, p.Studio, p.Show, p.Drops, p.Cleanup)
	installAttach(obj, p.Ring)
	installMount(obj, p.Dashboard)
	installKernel(obj, p.Ring)
	installPush(obj, func() ([]byte, error) { return pushMetrics(p.Studio) }, p.Query)
	if p.Dispose != nil {
		installDispose(obj, p.Dispose)
	}
	return obj, c
}
