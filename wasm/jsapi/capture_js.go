//go:build js && wasm

package jsapi

import (
	"errors"
	"fmt"
	"strings"
	"syscall/js"
	"time"

	"github.com/gowebapi/webapi/file"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/browser"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/wgsl/workload"
)

// Capture and replay in the page (docs/EMBEDDING.md, docs/CAPTURE.md):
// the flight recorder of live frames, the exports, the import of capture
// files and vyre dumps, the replay of any frame through the dashboard's
// panels, and the per-frame subscription.
//
//	decode(control, ring, options)  decodes raw buffers, no GPU
//	exportCapture()                 → Uint8Array, a capture file
//	importCapture(bytes | {control, ring, name})
//	                                validates, then replays frame 0
//	exportTrace()                   → string, Chrome trace / Perfetto JSON
//	exportMetrics()                 → string, OpenMetrics text
//	captureInfo()                   the recorder and replay state
//	captureFrame(i)                 frame i of the scrubbed capture, decoded
//	setRecording(on)                records live frames or not
//	replay(i)                       shows frame i (of the import, or of the
//	                                recording); the live loop pauses
//	live()                          back to live
//	subscribe(callback)             → unsubscribe(); callback(frameSummary)
//	                                per live frame
//
// The page calls Observe with every frame the session assembles.

// CapturePage is what the capture concern needs of the page: its
// dashboard, in Go values (the page keeps the dashboard itself), and the
// live loop.
type CapturePage interface {
	// ShowBar shows the studio's capture bar state b; quiet asks no
	// render (a frame's Apply follows).
	ShowBar(b capture.Bar, quiet bool)
	// ShowFrames replaces the dashboard's history with hist and shows f
	// (nil: keeps what it shows), and re-renders: a replayed frame, or
	// the last live one on the way back.
	ShowFrames(hist []frame.Frame, f *frame.Frame)
	// HistoryLen is how many frames the dashboard's time series hold.
	HistoryLen() int
	// FormatBytes writes a byte count as the capture bar does.
	FormatBytes(n uint64) string
	// PauseLive stops the live loop so that a replayed frame stays on
	// screen, and says whether it ran; ResumeLive runs it again.
	PauseLive() bool
	ResumeLive()
	// TaskTrace is the live ring's trace window, nil when it is not traced.
	TaskTrace() *capture.TaskTrace
	// ShowTasks shows an import's trace window on the timeline panel
	// while it replays (nil: the import has none, so the panel shows
	// none); ShowLiveTasks puts the live ring's back.
	ShowTasks(t *capture.TaskTrace)
	ShowLiveTasks()
}

// Capture is the capture concern of the ringscope object: the studio
// (recorder, replay, exports), the subscribers, and the file import from
// the page (picker, drag and drop). The dashboard's capture bar drives it
// too (SetRecording, Download, Replay, BackToLive).
type Capture struct {
	studio  *capture.Studio
	page    CapturePage
	subs    subscribers
	cleanup *browser.Cleanup
}

// replayReassertDelay is how long after entering a replay (or after a live
// frame arrived during one) the replayed frame is shown again: a live frame
// already in flight when the loop was paused is applied after the replay's
// frame, and must not stay on screen.
const replayReassertDelay = 120 * time.Millisecond

// installCapture adds the capture methods to obj and listens for the
// files picked in the capture bar or dropped on drops (an instance's own
// dashboard, or the page's document: one drop reaches one program);
// cleanup removes the listeners.
func installCapture(obj js.Value, studio *capture.Studio, page CapturePage, drops js.Value, cleanup *browser.Cleanup) *Capture {
	a := &Capture{studio: studio, page: page, cleanup: cleanup}

	Method(obj, "decode", a.apiDecode)
	RawMethod(obj, "exportCapture", func([]js.Value) (js.Value, error) {
		b, _, err := a.studio.Export(capture.ExportCapture, time.Now())
		if err != nil {
			return js.Undefined(), err
		}
		return browser.BytesToJS(b), nil
	})
	Method(obj, "exportTrace", func([]js.Value) (any, error) {
		b, _, err := a.studio.ExportWith(capture.ExportTrace, time.Now(), a.page.TaskTrace())
		return string(b), err
	})
	Method(obj, "exportMetrics", a.apiExportMetrics)
	Method(obj, "importCapture", a.apiImport)
	Method(obj, "captureInfo", func([]js.Value) (any, error) { return a.studio.Info(), nil })
	Method(obj, "captureFrame", a.apiCaptureFrame)
	Method(obj, "setRecording", func(args []js.Value) (any, error) {
		on, err := Bool(Arg(args, 0), "setRecording: on")
		if err != nil {
			return nil, err
		}
		a.SetRecording(on)
		return a.studio.Info(), nil
	})
	Method(obj, "replay", func(args []js.Value) (any, error) {
		i, err := Index(Arg(args, 0), "replay")
		if err != nil {
			return nil, err
		}
		if err := a.Replay(i); err != nil {
			return nil, err
		}
		return a.studio.Info(), nil
	})
	Method(obj, "live", func([]js.Value) (any, error) {
		a.BackToLive()
		return a.studio.Info(), nil
	})
	obj.Set("subscribe", js.FuncOf(a.subs.subscribe))
	browser.ListenForFiles(a.cleanup, drops, a.importFiles)
	return a
}

// Observe records the frame the session just assembled and tells the
// subscribers. The page calls it under its lock, while f.Raw's views are
// valid.
func (a *Capture) Observe(f *frame.Frame) {
	if a.studio.Observe(f) {
		// A live frame while replaying (one in flight when the loop
		// paused, or the API's step): it is shown, then the replay again.
		go a.reassertReplay(a.studio.Bar().Index)
		return
	}
	a.subs.tell(f)
	a.updateCaptureBar(true)
}

// Retell tells the subscribers f's verdict, given anew in place (a loss,
// a stuck submission and its end), unless they heard it already.
func (a *Capture) Retell(f *frame.Frame) { a.subs.retell(f) }

// updateCaptureBar copies the studio's state into the capture bar. quiet
// skips the re-render (the app's own Apply follows a recorded frame, so
// per frame it does not ask for one).
func (a *Capture) updateCaptureBar(quiet bool) {
	a.page.ShowBar(a.studio.Bar(), quiet)
}

// SetRecording records live frames or not (setRecording, the capture
// bar's record button).
func (a *Capture) SetRecording(on bool) {
	a.studio.SetRecording(on)
	a.updateCaptureBar(false)
}

var downloadTypes = map[string]string{
	capture.ExportCapture: "application/octet-stream",
	capture.ExportTrace:   "application/json",
	capture.ExportMetrics: "application/openmetrics-text; version=1.0.0; charset=utf-8",
}

// Download exports kind and hands it to the browser as a file download
// (wasm/browser; the capture bar's export buttons).
func (a *Capture) Download(kind string) {
	b, name, err := a.studio.ExportWith(kind, time.Now(), a.page.TaskTrace())
	a.studio.Exported(kind, name, a.page.FormatBytes(uint64(len(b))), err)
	a.updateCaptureBar(false)
	if err == nil {
		browser.SaveFile(name, downloadTypes[kind], b)
	}
}

// Decoded is what decode and captureFrame resolve to.
type Decoded struct {
	Legacy     bool
	Telemetry  *decode.RingTelemetry
	Counters   *decode.RuntimeCounters
	Observable []uint32
	Log        *api.Log // as drain's
	Seq        uint64
	AtMillis   float64
	Dispatch   *decode.MegakernelTelemetry
	Watchdog   *decode.WatchdogState
}

func decodedResult(d *capture.Decoded, framed bool, name func(op uint32) string) Decoded {
	r := Decoded{Legacy: d.Ring.Control.Legacy, Telemetry: &d.Ring, Counters: &d.Counters, Observable: d.Ring.Control.Observable}
	if d.HasLog {
		r.Log = api.LogOf(&d.Log, workload.Formats, name)
	}
	if framed {
		r.Watchdog = &d.Watchdog
		if d.HasDispatch {
			r.Dispatch = &d.Dispatch
		}
	}
	return r
}

// apiCaptureFrame: captureFrame(i) decodes frame i of the current capture.
func (a *Capture) apiCaptureFrame(args []js.Value) (any, error) {
	i, err := Index(Arg(args, 0), "captureFrame")
	if err != nil {
		return nil, err
	}
	var d capture.Decoded
	s, err := a.studio.Decode(i, &d)
	if err != nil {
		return nil, err
	}
	res := decodedResult(&d, true, a.studio.OpcodeName)
	res.Seq, res.AtMillis = s.Seq, s.AtMillis
	return res, nil
}

func (a *Capture) importFailed(name string, err error) {
	a.studio.ImportFailed(name, err)
	a.updateCaptureBar(false)
}

// startReplay replays c (an import) from frame 0.
func (a *Capture) startReplay(c *capture.Capture, name string) error {
	was := a.page.PauseLive()
	if err := a.studio.Import(c, name, was); err != nil {
		if was {
			a.page.ResumeLive()
		}
		return err
	}
	a.showImportedTasks(c)
	return a.applyReplay(0, true)
}

// Replay shows frame i: of the replay in progress, or of the recording
// (entering a replay of it; replay, the capture bar's scrubber).
func (a *Capture) Replay(i int) error {
	if !a.studio.Replaying() {
		was := a.page.PauseLive()
		if err := a.studio.ReplayRecording(was); err != nil {
			return err
		}
	}
	return a.applyReplay(i, true)
}

// applyReplay shows frame i of the replay through the panels, with the
// time series of the frames before it.
func (a *Capture) applyReplay(i int, reassert bool) error {
	f, hist, err := a.studio.Show(i, a.page.HistoryLen()-1)
	if err != nil {
		return err
	}
	a.updateCaptureBar(true)
	a.page.ShowFrames(hist, f)
	browser.SetValue(`[data-testid="capture-scrubber"]`, i)
	if reassert {
		go a.reassertReplay(i)
	}
	return nil
}

// reassertReplay shows replay frame i again after a live frame in flight
// may have replaced it.
func (a *Capture) reassertReplay(i int) {
	time.Sleep(replayReassertDelay)
	if a.studio.Showing(i) {
		a.applyReplay(i, false)
	}
}

// BackToLive leaves the replay: the history is rebuilt from the recording,
// the last live frame is shown, and the live loop resumes if it ran (live,
// the capture bar's live button).
func (a *Capture) BackToLive() {
	last, was, left := a.studio.BackToLive()
	if !left {
		return
	}
	a.updateCaptureBar(true)
	a.page.ShowFrames(nil, last)
	a.page.ShowLiveTasks()
	browser.SetValue(`[data-testid="capture-scrubber"]`, 1<<30)
	if was {
		a.page.ResumeLive()
	}
}

// importFiles imports one capture file, or two files as a vyre control +
// ring dump pair: the file whose name contains "ring" (or the other one's
// "control") is the ring, else the first is the control.
func (a *Capture) importFiles(files []*file.File) {
	var err error
	name := ""
	switch len(files) {
	case 1:
		name = files[0].Name()
		var b []byte
		if b, err = browser.ReadFile(files[0], capture.MaxFileBytes); err == nil {
			var c *capture.Capture
			if c, err = capture.Decode(b); err == nil {
				err = a.startReplay(c, name)
			}
		}
	case 2:
		ci, ri := 0, 1
		n0, n1 := strings.ToLower(files[0].Name()), strings.ToLower(files[1].Name())
		c0, c1 := strings.Contains(n0, "control"), strings.Contains(n1, "control")
		if (c1 && !c0) || (c0 == c1 && strings.Contains(n0, "ring") && !strings.Contains(n1, "ring")) {
			ci, ri = 1, 0
		}
		name = files[ci].Name() + " + " + files[ri].Name()
		var control, ring []byte
		if control, err = browser.ReadFile(files[ci], capture.MaxFileBytes); err == nil {
			if ring, err = browser.ReadFile(files[ri], capture.MaxFileBytes); err == nil {
				var c *capture.Capture
				if c, err = capture.FromDump(control, ring, nil); err == nil {
					err = a.startReplay(c, name)
				}
			}
		}
	default:
		name = fmt.Sprintf("%d files", len(files))
		err = errors.New("choose one capture file, or two files: a vyre control.bin and ring.bin")
	}
	if err != nil {
		a.importFailed(name, err)
	}
}
