//go:build js && wasm

package jsapi

import (
	"slices"
	"sync"
	"syscall/js"

	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wasm/api"
)

// subscribe(callback) → unsubscribe(): callback(frameSummary) per live
// frame, told by the recorder's observer (Capture.Observe) after the frame
// is recorded, and again when the verdict on the last frame is given anew
// in place (a loss, a stuck submission: Capture.Retell).

// subscribers are subscribe's callbacks, each told every live frame.
type subscribers struct {
	mu   sync.Mutex
	subs map[int]js.Value
	next int
	// calling is tell's copy of subs, called without mu: a callback may
	// unsubscribe.
	calling []js.Value
	// told is the summary told last, which retell does not tell twice.
	told FrameSummary
}

// tell calls every subscriber with f's summary; a callback that throws
// is reported on the console and stays subscribed. Frames and verdicts
// come one at a time (under the page's lock), so calling and told are
// tell's own.
func (s *subscribers) tell(f *frame.Frame) { s.say(f, false) }

// retell tells f again after its verdict was given anew in place
// (session.MarkLost, MarkStuck, ClearStuck): the same seq with the new
// health and causes. A verdict the subscribers heard already (a loss that
// assembled a ring's first frame, told as it was made) is not told twice.
func (s *subscribers) retell(f *frame.Frame) { s.say(f, true) }

func (s *subscribers) say(f *frame.Frame, again bool) {
	s.mu.Lock()
	s.calling = s.calling[:0]
	for _, cb := range s.subs {
		s.calling = append(s.calling, cb)
	}
	s.mu.Unlock()
	if len(s.calling) == 0 {
		return
	}
	sum := frameSummary(f)
	if again && sum.Seq == s.told.Seq && sum.Health == s.told.Health && slices.Equal(sum.Causes, s.told.Causes) {
		return
	}
	s.told = sum
	obj := ToJS(api.Plain(sum))
	for _, cb := range s.calling {
		func() {
			defer func() {
				if r := recover(); r != nil {
					// PanicError, not fmt.Sprint: js.Error's Error reads the
					// thrown value's .message with Get, which a thrown Proxy
					// makes throw again, outside any try/catch.
					js.Global().Get("console").Call("error", "ringscope: subscriber threw:", PanicError(r).Error())
				}
			}()
			cb.Invoke(obj)
		}()
	}
}

// subscribe is subscribe(callback) → unsubscribe().
func (s *subscribers) subscribe(_ js.Value, args []js.Value) any {
	cb := Arg(args, 0)
	if t := TypeName(cb); t != "function" {
		// A panic here, in the JS call itself, would end the Go
		// program; static/guard.js throws the TypeError returned.
		return TypeError.New("subscribe: callback must be a function, got " + t)
	}
	s.mu.Lock()
	id := s.next
	s.next++
	if s.subs == nil {
		s.subs = map[int]js.Value{}
	}
	s.subs[id] = cb
	s.mu.Unlock()
	// The unsubscribe function is not released: a host may call it
	// again (it then returns false), and a released js.Func throws.
	return js.FuncOf(func(js.Value, []js.Value) any {
		s.mu.Lock()
		_, ok := s.subs[id]
		delete(s.subs, id)
		s.mu.Unlock()
		return ok
	})
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
	// Health is the diagnosis's one word and Causes its cause kinds,
	// most explanatory first (snapshot().diagnosis has the evidence).
	Health string
	Causes []string
	// PublishMS, RoundTripMS and DecodeMS are the frame's host times:
	// publishing and uploading its items, submit to the readback mapped,
	// and decoding it; GPUTimeMS the drain pass's device time, from
	// timestamp queries (0 where the adapter has none) (frame.Timings).
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
	if d := f.Diagnosis; d != nil {
		s.Health = d.Health.String()
		for i := range d.Causes {
			s.Causes = append(s.Causes, d.Causes[i].Kind.String())
		}
	}
	return s
}
