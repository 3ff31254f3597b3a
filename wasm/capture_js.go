//go:build js && wasm

package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/gowebapi/webapi/file"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/wgsl/abi"
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
// The app calls recordFrame after each captured frame.
func init() { apiExtensions = append(apiExtensions, installCaptureAPI) }

// replayReassertDelay is how long after entering a replay (or after a live
// frame arrived during one) the replayed frame is shown again: a live frame
// already in flight when the loop was paused is applied after the replay's
// frame, and must not stay on screen.
const replayReassertDelay = 120 * time.Millisecond

// captureState is the page's recorder, replay and subscribers. Lock order:
// app.mu before captureState.mu; never app.mu while holding mu.
type captureState struct {
	mu        sync.Mutex
	rec       *capture.Recorder
	recording bool
	frame     capture.Frame // scratch of recordFrame
	// patch and runs are recordFrame's scratch for a ring patch.
	patch   []byte
	windows []uint32
	sketchD int
	sketchW int
	adapter *capture.Adapter

	subs    map[int]js.Value
	nextSub int

	// run sums every live frame's dispatch, recorded or not: the exported
	// counters (capture.Totals), which must not shrink as the recorder
	// evicts frames.
	run capture.Totals

	// Replay: replay is non-nil while replaying; imported is set when it
	// replays an imported capture (not the recording).
	replay     *capture.Replay
	imported   bool
	source     string
	index      int
	wasRunning bool
	decoded    capture.Decoded
	frames     frame.Store
	lastLive   *frame.Frame
	lastErr    string
	lastNote   string

	// recReplay caches recordingReplay for a recording of recReplayLen
	// frames ending at seq recReplaySeq.
	recReplay    *capture.Replay
	recReplayLen int
	recReplaySeq uint64
}

var (
	capOnce  sync.Once
	capState *captureState
)

// captures returns the page's capture state.
func (a *app) captures() *captureState {
	capOnce.Do(func() {
		capState = &captureState{rec: capture.NewRecorder(0, 0), recording: true, subs: map[int]js.Value{},
			sketchD: ui.DefaultSettings().SketchDepth, sketchW: ui.DefaultSettings().SketchWidth}
	})
	return capState
}

func installCaptureAPI(a *app, obj js.Value) {
	st := a.captures()
	m := a.dash.CaptureModel()
	m.Recording, m.MaxFrames, m.MaxBytes = st.recording, st.rec.MaxFrames(), st.rec.MaxBytes()
	m.OnRecord = func(on bool) { go a.setRecording(on) }
	m.OnExport = func(kind string) { go a.download(kind) }
	m.OnScrub = func(i int) { go a.showReplay(i) }
	m.OnLive = func() { go a.backToLive() }

	method(obj, "decode", a.apiDecode)
	rawMethod(obj, "exportCapture", func([]js.Value) (js.Value, error) {
		b, _, err := a.exportBytes("capture")
		if err != nil {
			return js.Undefined(), err
		}
		return bytesToJS(b), nil
	})
	method(obj, "exportTrace", func([]js.Value) (any, error) {
		b, _, err := a.exportBytes("trace")
		return string(b), err
	})
	method(obj, "exportMetrics", a.apiExportMetrics)
	method(obj, "importCapture", a.apiImport)
	method(obj, "captureInfo", func([]js.Value) (any, error) { return a.captureInfo(), nil })
	method(obj, "captureFrame", a.apiCaptureFrame)
	method(obj, "setRecording", func(args []js.Value) (any, error) {
		v := arg(args, 0)
		if t := typeName(v); t != "boolean" {
			return nil, errors.New("setRecording: on must be a boolean, got " + t)
		}
		a.setRecording(v.Bool())
		return a.captureInfo(), nil
	})
	method(obj, "replay", func(args []js.Value) (any, error) {
		i, err := indexArg(arg(args, 0), "replay")
		if err != nil {
			return nil, err
		}
		if err := a.showReplay(i); err != nil {
			return nil, err
		}
		return a.captureInfo(), nil
	})
	method(obj, "live", func([]js.Value) (any, error) {
		a.backToLive()
		return a.captureInfo(), nil
	})
	obj.Set("subscribe", js.FuncOf(func(_ js.Value, args []js.Value) any {
		cb := arg(args, 0)
		if t := typeName(cb); t != "function" {
			// A panic here, in the JS call itself, would end the Go
			// program; static/guard.js throws the TypeError returned.
			return jsTypeError.New("subscribe: callback must be a function, got " + t)
		}
		st.mu.Lock()
		id := st.nextSub
		st.nextSub++
		st.subs[id] = cb
		st.mu.Unlock()
		// The unsubscribe function is not released: a host may call it
		// again (it then returns false), and a released js.Func throws.
		return js.FuncOf(func(js.Value, []js.Value) any {
			st.mu.Lock()
			_, ok := st.subs[id]
			delete(st.subs, id)
			st.mu.Unlock()
			return ok
		})
	}))
	installImportListeners(a)
}

// recorderObserver is the flight recorder and the subscribers as the
// session's Observer.
type recorderObserver struct{ a *app }

func (o recorderObserver) Observe(f *frame.Frame) { o.a.recordFrame(f) }

// recordFrame records the frame the session just assembled and tells the
// subscribers. It runs with mu held, while f.Raw's views are valid.
func (a *app) recordFrame(f *frame.Frame) {
	st := a.captures()
	st.mu.Lock()
	defer st.mu.Unlock()
	st.countFrame(f)
	if st.replay != nil {
		// A live frame while replaying (one in flight when the loop paused,
		// or the API's step): it is shown, then the replay again.
		go a.reassertReplay(st.index)
		return
	}
	st.lastLive = f
	raw := &f.Raw
	st.windows = raw.WindowOpcodes
	if s := a.settingsNow; s.SketchDepth > 0 && s.SketchWidth > 0 {
		st.sketchD, st.sketchW = s.SketchDepth, s.SketchWidth
	}
	if st.adapter == nil && a.dash.Adapter != nil {
		ad := a.dash.Adapter
		st.adapter = &capture.Adapter{Vendor: ad.Vendor, Architecture: ad.Architecture, Device: ad.Device,
			Description: ad.Description, IsFallback: ad.IsFallback, IsCPU: ad.IsCPU}
	}
	if len(st.subs) > 0 {
		notify(st.subs, frameSummary(f))
	}
	if !st.recording {
		return
	}
	fr := &st.frame
	fr.Seq, fr.AtMillis = f.Seq, f.AtMillis
	fr.Generation = f.Ring.Control.Generation
	fr.Control, fr.Ring, fr.Patch, fr.Log = raw.Control, nil, nil, raw.Log
	// The host copy is the truth; its GENERATION is the frame's.
	if len(fr.Control) >= capture.MinControlBytes {
		fr.Generation = binary.LittleEndian.Uint32(fr.Control[abi.CtrlGeneration*abi.WordBytes:])
	}
	// A frame that read the ring carries it whole. A summary frame carries
	// the host copy, which equals the GPU's ring (it follows the status
	// map), so recording it costs a copy, not a ring read: as a patch of
	// the slots that changed since the frame before, when the recorder
	// holds that one, else whole (a recording's first frame, a new ring).
	fr.Ring = raw.Ring
	if n := st.rec.Len(); raw.Patchable && n > 0 && st.rec.At(n-1).Seq == f.Seq-1 {
		if p, err := capture.AppendPatch(st.patch[:0], raw.Ring, raw.ChangedSlots); err == nil {
			st.patch, fr.Patch, fr.Ring = p, p, nil
		}
	}
	fr.Meta = capture.Meta{Published: raw.Published, Timings: f.Timings.Finite()}
	var d capture.Dispatch
	if f.Dispatch != nil {
		d = capture.DispatchOf(*f.Dispatch)
		fr.Meta.Dispatch = &d
	}
	if !st.rec.Record(fr) && fr.Patch != nil {
		// The patch did not apply (a new generation) or fit beside its
		// base: record the ring whole.
		fr.Ring, fr.Patch = raw.Ring, nil
		st.rec.Record(fr)
	}
	a.updateModelLocked(st, true)
}

// FrameSummary is what subscribe's callback gets per live frame.
type FrameSummary struct {
	Seq        uint64
	AtMillis   float64
	Generation uint32
	Epoch      uint32
	DoneCount  uint32
	Claims     uint32
	Faults     uint32
	Dispatches uint32
	QueueDepth uint32
	TotalSlots uint32
	Published  uint64
	// Stalled is the watchdog's verdict; DonePerSecond its rate.
	Stalled       bool
	DonePerSecond float64
	// PublishMS, RoundTripMS and DecodeMS are the frame's host times:
	// publishing and uploading its items, submit to the readback mapped,
	// and decoding it; GPUTimeMS the drain pass's device time, from
	// timestamp queries (0 where the adapter has none) (ui.Timings).
	PublishMS   float64
	RoundTripMS float64
	DecodeMS    float64
	GPUTimeMS   float64
}

func frameSummary(f *frame.Frame) FrameSummary {
	t := &f.Timings
	s := FrameSummary{Seq: f.Seq, AtMillis: f.AtMillis, Published: f.Raw.Published,
		PublishMS: t.PublishMS, RoundTripMS: t.RoundTripMS, DecodeMS: t.DecodeMS, GPUTimeMS: t.GPUMS}
	if r := f.Ring; r != nil {
		c := &r.Control
		s.Generation, s.Epoch, s.DoneCount, s.Claims, s.Faults, s.Dispatches = c.Generation, c.Epoch, c.DoneCount, c.Claims, c.Faults, c.Dispatches
		s.QueueDepth, s.TotalSlots = r.Occupancy.QueueDepth(), r.Occupancy.TotalSlots()
	}
	if w := f.Watchdog; w != nil {
		s.Stalled, s.DonePerSecond = w.Stalled, w.DonePerSecond
	}
	return s
}

// notify calls every subscriber with v; a callback that throws is
// reported on the console and stays subscribed.
func notify(subs map[int]js.Value, v any) {
	obj := js.ValueOf(api.Plain(v))
	for _, cb := range subs {
		func() {
			defer func() {
				if r := recover(); r != nil {
					// panicError, not fmt.Sprint: js.Error's Error reads the
					// thrown value's .message with Get, which a thrown Proxy
					// makes throw again, outside any try/catch.
					jsGlobal.Get("console").Call("error", "ringscope: subscriber threw:", panicError(r).Error())
				}
			}()
			cb.Invoke(obj)
		}()
	}
}

// updateModelLocked copies the recorder's numbers into the capture bar.
// Called with st.mu held; render asks for a re-render (the app's own Apply
// follows a recorded frame, so per frame it does not).
func (a *app) updateModelLocked(st *captureState, quiet bool) {
	frames, bytes, dropped := st.rec.Len(), st.rec.Bytes(), st.rec.Dropped()
	rec, replaying, count, index, source := st.recording, st.replay != nil, 0, st.index, st.source
	var seq, ringSeq uint64
	ringFrom := index
	if st.replay != nil {
		count = st.replay.Len()
		if index < count {
			s := st.replay.Summary(index)
			seq, ringFrom = s.Seq, s.RingFrom
			if ringFrom >= 0 {
				ringSeq = st.replay.Summary(ringFrom).Seq
			}
		}
	}
	errText, note := st.lastErr, st.lastNote
	set := func(d *ui.Dashboard) {
		m := d.CaptureModel()
		m.Recording, m.Frames, m.Bytes, m.Dropped = rec, frames, bytes, dropped
		m.Replaying, m.Count, m.Index, m.Seq, m.Source = replaying, count, index, seq, source
		m.RingFrom, m.RingSeq = ringFrom, ringSeq
		m.Error, m.Notice = errText, note
	}
	if a.env == nil {
		return // not mounted yet; the next update shows it
	}
	if quiet {
		a.env.Lock()
		set(a.dash)
		a.env.UnlockOnly()
		return
	}
	a.ui(set)
}

func (a *app) setRecording(on bool) {
	st := a.captures()
	st.mu.Lock()
	defer st.mu.Unlock()
	st.recording = on
	st.lastErr, st.lastNote = "", ""
	a.updateModelLocked(st, false)
}

// CaptureInfo is what captureInfo resolves to.
type CaptureInfo struct {
	Recording bool
	// Frames, Bytes, Dropped: the recorder's; MaxFrames, MaxBytes its bounds.
	Frames, MaxFrames int
	Bytes, MaxBytes   int
	Dropped           uint64
	// Replaying, Source ("recording" or the import's name), Count frames
	// in it and Index the frame shown.
	Replaying bool
	Source    string
	Count     int
	Index     int
}

func (a *app) captureInfo() CaptureInfo {
	st := a.captures()
	st.mu.Lock()
	defer st.mu.Unlock()
	info := CaptureInfo{Recording: st.recording, Frames: st.rec.Len(), MaxFrames: st.rec.MaxFrames(),
		Bytes: st.rec.Bytes(), MaxBytes: st.rec.MaxBytes(), Dropped: st.rec.Dropped(),
		Replaying: st.replay != nil, Source: st.source, Index: st.index}
	if st.replay != nil {
		info.Count = st.replay.Len()
	}
	return info
}

// ringscopeVersion is the build's version, which captures record: the
// Makefile sets it to git describe's answer (revision, "-dirty" for
// uncommitted changes) with -X. Reading it from debug.ReadBuildInfo instead
// would link the build-info parser (8 KB of main.wasm gzipped).
var ringscopeVersion = "unknown"

// currentCapture is what the exports and the scrubber work on: the
// replayed import, or the recording. Called with st.mu held; the frames
// alias storage valid until st.mu is released.
func (st *captureState) currentCapture() *capture.Capture {
	if st.replay != nil && st.imported {
		return st.replay.Capture()
	}
	w := st.windows
	if w == nil {
		w = []uint32{}
	}
	return &capture.Capture{
		Header: capture.Header{Ringscope: ringscopeVersion, ABIVersion: abi.Version, Source: capture.SourceLive, WindowOpcodes: w,
			Adapter: st.adapter, DroppedFrames: st.rec.Dropped(), CreatedAt: time.Now().UTC().Format(time.RFC3339),
			UserOpcodes: namedUserOpcodes()},
		Frames: st.rec.Frames(),
	}
}

// recordingReplay is a replay of the recording, kept until the next
// recorded frame (one pass over every frame per call would make a loop over
// captureFrame quadratic). Called with st.mu held.
func (st *captureState) recordingReplay() (*capture.Replay, error) {
	n := st.rec.Len()
	var last uint64
	if n > 0 {
		last = st.rec.At(n - 1).Seq
	}
	if st.recReplay != nil && st.recReplayLen == n && st.recReplaySeq == last {
		return st.recReplay, nil
	}
	r, err := capture.NewReplay(st.currentCapture())
	if err != nil {
		return nil, err
	}
	st.recReplay, st.recReplayLen, st.recReplaySeq = r, n, last
	return r, nil
}

// exportBytes renders the current capture as kind: "capture", "trace" or
// "metrics" (OpenMetrics) or "prometheus". It returns the bytes and the download's file name.
func (a *app) exportBytes(kind string) ([]byte, string, error) {
	st := a.captures()
	st.mu.Lock()
	defer st.mu.Unlock()
	c := st.currentCapture()
	stamp := time.Now().UTC().Format("20060102-150405")
	switch kind {
	case "capture":
		b, err := capture.Encode(c)
		return b, "ringscope-" + stamp + ".rscap", err
	case "trace":
		b, err := capture.Trace(c)
		return b, "ringscope-" + stamp + ".trace.json", err
	case "metrics":
		b, err := capture.Metrics(c, st.runTotals(), capture.FormatOpenMetrics)
		return b, "ringscope-" + stamp + ".om.txt", err
	case "prometheus":
		b, err := capture.Metrics(c, st.runTotals(), capture.FormatPrometheus)
		return b, "ringscope-" + stamp + ".prom", err
	}
	return nil, "", fmt.Errorf("export: unknown kind %q", kind)
}

var downloadTypes = map[string]string{
	"capture": "application/octet-stream",
	"trace":   "application/json",
	"metrics": "application/openmetrics-text; version=1.0.0; charset=utf-8",
}

// download exports kind and hands it to the browser as a file download
// (files_js.go).
func (a *app) download(kind string) {
	b, name, err := a.exportBytes(kind)
	st := a.captures()
	st.mu.Lock()
	if err != nil {
		st.lastErr, st.lastNote = "export "+kind+": "+err.Error(), ""
	} else {
		st.lastErr, st.lastNote = "", fmt.Sprintf("exported %s (%s)", name, ui.Bytes(uint64(len(b))))
	}
	a.updateModelLocked(st, false)
	st.mu.Unlock()
	if err != nil {
		return
	}
	saveFile(name, downloadTypes[kind], b)
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

func decodedResult(d *capture.Decoded, framed bool) Decoded {
	r := Decoded{Legacy: d.Ring.Control.Legacy, Telemetry: &d.Ring, Counters: &d.Counters, Observable: d.Ring.Control.Observable}
	if d.HasLog {
		r.Log = api.LogOf(&d.Log, workload.Formats)
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
func (a *app) apiCaptureFrame(args []js.Value) (any, error) {
	i, err := indexArg(arg(args, 0), "captureFrame")
	if err != nil {
		return nil, err
	}
	st := a.captures()
	st.mu.Lock()
	defer st.mu.Unlock()
	r := st.replay
	if r == nil {
		if r, err = st.recordingReplay(); err != nil {
			return nil, err
		}
	}
	var d capture.Decoded
	if err := r.Decode(i, &d); err != nil {
		return nil, fmt.Errorf("captureFrame: %w", err)
	}
	res := decodedResult(&d, true)
	s := r.Summary(i)
	res.Seq, res.AtMillis = s.Seq, s.AtMillis
	return res, nil
}

func (a *app) importFailed(name string, err error) {
	st := a.captures()
	st.mu.Lock()
	defer st.mu.Unlock()
	st.lastErr, st.lastNote = "import "+name+" refused: "+err.Error(), ""
	a.updateModelLocked(st, false)
}

// pauseLive stops the live loop (remembering whether it ran) so that a
// replayed frame stays on screen.
func (a *app) pauseLive() bool {
	a.mu.Lock()
	was := a.running
	a.running = false
	a.mu.Unlock()
	if was {
		a.ui(func(d *ui.Dashboard) { d.Running = false })
	}
	return was
}

// startReplay replays c (an import) from frame 0.
func (a *app) startReplay(c *capture.Capture, name string) error {
	r, err := capture.NewReplay(c)
	if err != nil {
		return err
	}
	if r.Len() == 0 {
		return errors.New("capture: the file holds no frames")
	}
	was := a.pauseLive()
	st := a.captures()
	st.mu.Lock()
	if st.replay == nil {
		st.wasRunning = was
	}
	st.replay, st.imported, st.source, st.index = r, true, name, 0
	st.lastErr = ""
	st.lastNote = fmt.Sprintf("imported %s: %d frames (%s)", name, r.Len(), c.Header.Source)
	if r.Summary(0).Legacy {
		st.lastNote += ", legacy vyre layout"
	}
	st.mu.Unlock()
	return a.applyReplay(0, true)
}

// showReplay shows frame i: of the replay in progress, or of the recording
// (entering a replay of it).
func (a *app) showReplay(i int) error {
	st := a.captures()
	st.mu.Lock()
	replaying := st.replay != nil
	st.mu.Unlock()
	if !replaying {
		was := a.pauseLive()
		st.mu.Lock()
		if st.replay == nil {
			r, err := st.recordingReplay()
			if err == nil && r.Len() == 0 {
				err = errors.New("replay: nothing recorded yet")
			}
			if err != nil {
				st.mu.Unlock()
				return err
			}
			st.replay, st.imported, st.source, st.wasRunning = r, false, "recording", was
		}
		st.mu.Unlock()
	}
	return a.applyReplay(i, true)
}

// applyReplay decodes frame i of the replay and shows it through the
// panels, with the time series of the frames before it.
func (a *app) applyReplay(i int, reassert bool) error {
	st := a.captures()
	st.mu.Lock()
	r := st.replay
	if r == nil {
		st.mu.Unlock()
		return errors.New("replay: not replaying")
	}
	f, err := r.Frame(i, &st.decoded, &st.frames, st.sketchD, st.sketchW)
	if err != nil {
		st.mu.Unlock()
		return err
	}
	st.index = i
	hist := r.History(i, ui.HistoryLen-1)
	a.updateModelLocked(st, true)
	st.mu.Unlock()
	a.ui(func(dash *ui.Dashboard) {
		dash.ClearHistory()
		for k := range hist {
			dash.History().Push(&hist[k])
		}
		dash.Apply(f)
	})
	setScrubber(i)
	if reassert {
		go a.reassertReplay(i)
	}
	return nil
}

// reassertReplay shows replay frame i again after a live frame in flight
// may have replaced it.
func (a *app) reassertReplay(i int) {
	time.Sleep(replayReassertDelay)
	st := a.captures()
	st.mu.Lock()
	still := st.replay != nil && st.index == i
	st.mu.Unlock()
	if still {
		a.applyReplay(i, false)
	}
}

// setScrubber moves the range input to i (the attribute alone does not move
// a slider the person has dragged).
func setScrubber(i int) {
	el := jsGlobal.Get("document").Call("querySelector", `[data-testid="capture-scrubber"]`)
	if el.Truthy() {
		el.Set("value", i)
	}
}

// backToLive leaves the replay: the history is rebuilt from the recording,
// the last live frame is shown, and the live loop resumes if it ran.
func (a *app) backToLive() {
	st := a.captures()
	st.mu.Lock()
	if st.replay == nil {
		st.mu.Unlock()
		return
	}
	was, last := st.wasRunning, st.lastLive
	st.replay, st.imported, st.source, st.index, st.wasRunning = nil, false, "", 0, false
	st.lastErr, st.lastNote = "", ""
	a.updateModelLocked(st, true)
	st.mu.Unlock()
	a.ui(func(d *ui.Dashboard) {
		d.ClearHistory()
		if last != nil {
			d.Apply(last)
		}
	})
	setScrubber(1 << 30)
	if was {
		a.commands <- cmdRun
	}
}

// importFiles imports one capture file, or two files as a vyre control +
// ring dump pair: the file whose name contains "ring" (or the other one's
// "control") is the ring, else the first is the control.
func (a *app) importFiles(files []*file.File) {
	var err error
	name := ""
	switch len(files) {
	case 1:
		name = files[0].Name()
		var b []byte
		if b, err = readFile(files[0]); err == nil {
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
		if control, err = readFile(files[ci]); err == nil {
			if ring, err = readFile(files[ri]); err == nil {
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
