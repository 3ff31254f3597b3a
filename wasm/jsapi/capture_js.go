//go:build js && wasm

package captureapi

import (
	"errors"
	"fmt"
	"strings"
	"syscall/js"
	"time"

	"github.com/gowebapi/webapi/file"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/browser"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/wasm/jsarg"
	"github.com/ringscope/ringscope/wasm/jsmethod"
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

// Page is what the capture adapter needs of the page: the dashboard, under
// its lock, and the live loop.
type Page interface {
	// Update runs f on the dashboard and re-renders it; UpdateQuiet runs
	// f without asking for a render (a frame's Apply follows).
	Update(f func(d *ui.Dashboard))
	UpdateQuiet(f func(d *ui.Dashboard))
	// PauseLive stops the live loop so that a replayed frame stays on
	// screen, and says whether it ran; ResumeLive runs it again.
	PauseLive() bool
	ResumeLive()
	// TaskTrace is the live ring's trace window, nil when it is not traced.
	TaskTrace() *capture.TaskTrace
}

// Adapter is the capture concern of the ringscope object: the studio
// (recorder, replay, exports), the subscribers, and the file import from
// the page (picker, drag and drop).
type Adapter struct {
	studio  *capture.Studio
	page    Page
	subs    subscribers
	cleanup *browser.Cleanup
}

// replayReassertDelay is how long after entering a replay (or after a live
// frame arrived during one) the replayed frame is shown again: a live frame
// already in flight when the loop was paused is applied after the replay's
// frame, and must not stay on screen.
const replayReassertDelay = 120 * time.Millisecond

// Install adds the capture methods to obj, wires the dashboard's capture
// bar (dash, before it first renders) and listens for dropped or picked
// files; cleanup removes the listeners.
func Install(obj js.Value, studio *capture.Studio, dash *ui.Dashboard, page Page, cleanup *browser.Cleanup) *Adapter {
	a := &Adapter{studio: studio, page: page, cleanup: cleanup}
	m := dash.CaptureModel()
	info := a.studio.Info()
	m.Recording, m.MaxFrames, m.MaxBytes = info.Recording, info.MaxFrames, info.MaxBytes
	m.OnRecord = func(on bool) { go a.setRecording(on) }
	m.OnExport = func(kind string) { go a.download(kind) }
	m.OnScrub = func(i int) { go a.showReplay(i) }
	m.OnLive = func() { go a.backToLive() }

	jsmethod.Method(obj, "decode", a.apiDecode)
	jsmethod.RawMethod(obj, "exportCapture", func([]js.Value) (js.Value, error) {
		b, _, err := a.studio.Export(capture.ExportCapture, time.Now())
		if err != nil {
			return js.Undefined(), err
		}
		return browser.BytesToJS(b), nil
	})
	jsmethod.Method(obj, "exportTrace", func([]js.Value) (any, error) {
		b, _, err := a.studio.ExportWith(capture.ExportTrace, time.Now(), a.page.TaskTrace())
		return string(b), err
	})
	jsmethod.Method(obj, "exportMetrics", a.apiExportMetrics)
	jsmethod.Method(obj, "importCapture", a.apiImport)
	jsmethod.Method(obj, "captureInfo", func([]js.Value) (any, error) { return a.studio.Info(), nil })
	jsmethod.Method(obj, "captureFrame", a.apiCaptureFrame)
	jsmethod.Method(obj, "setRecording", func(args []js.Value) (any, error) {
		v := jsarg.Arg(args, 0)
		if t := jsarg.TypeName(v); t != "boolean" {
			return nil, errors.New("setRecording: on must be a boolean, got " + t)
		}
		a.setRecording(v.Bool())
		return a.studio.Info(), nil
	})
	jsmethod.Method(obj, "replay", func(args []js.Value) (any, error) {
		i, err := jsarg.Index(jsarg.Arg(args, 0), "replay")
		if err != nil {
			return nil, err
		}
		if err := a.showReplay(i); err != nil {
			return nil, err
		}
		return a.studio.Info(), nil
	})
	jsmethod.Method(obj, "live", func([]js.Value) (any, error) {
		a.backToLive()
		return a.studio.Info(), nil
	})
	obj.Set("subscribe", js.FuncOf(a.subs.subscribe))
	browser.ListenForFiles(a.cleanup, js.Global().Get("document"), a.importFiles)
	return a
}

// Observe records the frame the session just assembled and tells the
// subscribers. The page calls it under its lock, while f.Raw's views are
// valid.
func (a *Adapter) Observe(f *frame.Frame) {
	if a.studio.Observe(f) {
		// A live frame while replaying (one in flight when the loop
		// paused, or the API's step): it is shown, then the replay again.
		go a.reassertReplay(a.studio.Bar().Index)
		return
	}
	a.subs.tell(f)
	a.updateCaptureBar(true)
}

// updateCaptureBar copies the studio's state into the capture bar. quiet
// skips the re-render (the app's own Apply follows a recorded frame, so
// per frame it does not ask for one).
func (a *Adapter) updateCaptureBar(quiet bool) {
	b := a.studio.Bar()
	set := func(d *ui.Dashboard) {
		m := d.CaptureModel()
		m.Recording, m.Frames, m.Bytes, m.Dropped = b.Recording, b.Frames, b.Bytes, b.Dropped
		m.SpanMillis, m.Compact = b.SpanMillis, b.Compact
		m.Replaying, m.Count, m.Index, m.Seq, m.Source = b.Replaying, b.Count, b.Index, b.Seq, b.Source
		m.RingFrom, m.RingSeq, m.ShownCompact = b.RingFrom, b.RingSeq, b.ShownCompact
		m.Error, m.Notice = b.Error, b.Notice
	}
	if quiet {
		a.page.UpdateQuiet(set)
		return
	}
	a.page.Update(set)
}

func (a *Adapter) setRecording(on bool) {
	a.studio.SetRecording(on)
	a.updateCaptureBar(false)
}

var downloadTypes = map[string]string{
	capture.ExportCapture: "application/octet-stream",
	capture.ExportTrace:   "application/json",
	capture.ExportMetrics: "application/openmetrics-text; version=1.0.0; charset=utf-8",
}

// download exports kind and hands it to the browser as a file download
// (files_js.go).
func (a *Adapter) download(kind string) {
	b, name, err := a.studio.ExportWith(kind, time.Now(), a.page.TaskTrace())
	a.studio.Exported(kind, name, ui.Bytes(uint64(len(b))), err)
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
func (a *Adapter) apiCaptureFrame(args []js.Value) (any, error) {
	i, err := jsarg.Index(jsarg.Arg(args, 0), "captureFrame")
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

func (a *Adapter) importFailed(name string, err error) {
	a.studio.ImportFailed(name, err)
	a.updateCaptureBar(false)
}

// startReplay replays c (an import) from frame 0.
func (a *Adapter) startReplay(c *capture.Capture, name string) error {
	was := a.page.PauseLive()
	if err := a.studio.Import(c, name, was); err != nil {
		if was {
			a.page.ResumeLive()
		}
		return err
	}
	return a.applyReplay(0, true)
}

// showReplay shows frame i: of the replay in progress, or of the recording
// (entering a replay of it).
func (a *Adapter) showReplay(i int) error {
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
func (a *Adapter) applyReplay(i int, reassert bool) error {
	f, hist, err := a.studio.Show(i, ui.HistoryLen-1)
	if err != nil {
		return err
	}
	a.updateCaptureBar(true)
	a.page.Update(func(dash *ui.Dashboard) {
		dash.ClearHistory()
		for k := range hist {
			dash.History().Push(&hist[k])
		}
		dash.Apply(f)
	})
	browser.SetValue(`[data-testid="capture-scrubber"]`, i)
	if reassert {
		go a.reassertReplay(i)
	}
	return nil
}

// reassertReplay shows replay frame i again after a live frame in flight
// may have replaced it.
func (a *Adapter) reassertReplay(i int) {
	time.Sleep(replayReassertDelay)
	if a.studio.Showing(i) {
		a.applyReplay(i, false)
	}
}

// backToLive leaves the replay: the history is rebuilt from the recording,
// the last live frame is shown, and the live loop resumes if it ran.
func (a *Adapter) backToLive() {
	last, was, left := a.studio.BackToLive()
	if !left {
		return
	}
	a.updateCaptureBar(true)
	a.page.Update(func(d *ui.Dashboard) {
		d.ClearHistory()
		if last != nil {
			d.Apply(last)
		}
	})
	browser.SetValue(`[data-testid="capture-scrubber"]`, 1<<30)
	if was {
		a.page.ResumeLive()
	}
}

// importFiles imports one capture file, or two files as a vyre control +
// ring dump pair: the file whose name contains "ring" (or the other one's
// "control") is the ring, else the first is the control.
func (a *Adapter) importFiles(files []*file.File) {
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
