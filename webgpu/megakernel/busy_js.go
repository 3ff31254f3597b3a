//go:build js && wasm

package megakernel

import (
	"context"
	"time"

	"github.com/ringscope/ringscope/webgpu"
)

// A submission outstanding past a short grace is told to whoever watches
// the runner (OnWait), long before the runaway bound gives its device up:
// the page then says it is busy, waiting on the GPU, instead of ready, and
// how long. The readback's map is waited for on a goroutine of the
// runner's own while the Step watches the clock, so the observer runs on
// the Step's goroutine, with whatever its caller holds (the page's lock):
// it may read and change what that lock guards, and must not take it.

// Wait is a submission outstanding past the busy grace (BusyGrace of its
// bound): Waited so far, its Bound, and the user Opcodes it could run
// (InFlightUserOpcodes). Done marks the end of a wait that was told:
// the readback came, or failed (Lost: the device was lost meanwhile, as
// the watchdog does to a runaway).
type Wait struct {
	Waited, Bound time.Duration
	Opcodes       []string
	Done, Lost    bool
}

// BusyGrace is how long a submission under bound may be outstanding
// before it is told (OnWait): 1 s, at most a quarter of the bound. A drain
// pass of the largest ring on SwiftShader, the slowest adapter here, takes
// well under it (bench/results.md, rows 2 and 4).
func BusyGrace(bound time.Duration) time.Duration { return min(time.Second, bound/4) }

// busyTick is how often a wait past the grace is told again.
const busyTick = 250 * time.Millisecond

// OnWait makes f the runner's wait observer (nil: none, and the readback
// is waited for on the Step's goroutine). f is called on the Step's
// goroutine once the submission is outstanding past BusyGrace, every
// busyTick after, and once with Done when the wait ends.
func (r *Runner) OnWait(f func(Wait)) { r.waits.observer = f }

// waiter waits for a readback's map on a goroutine of its own, made on
// the first watched Step and ended by Close; its channels and timer are
// made once: no allocation per Step.
type waiter struct {
	observer func(Wait)
	req      chan mapRead
	done     chan error
	timer    *time.Timer
}

// mapRead is one map for the waiter's goroutine.
type mapRead struct {
	ctx   context.Context
	stage *webgpu.Buffer
	dst   []byte
	off   uint64
}

// mapRead maps stage, of a submission on dev under bound, into dst
// (MapReadInto), telling the observer while it waits past the grace which
// user opcodes the submission could run (inFlight).
func (w *waiter) mapRead(ctx context.Context, dev *webgpu.Device, stage *webgpu.Buffer, dst []byte, off uint64, bound time.Duration, inFlight func() []string) error {
	if w.observer == nil {
		return stage.MapReadInto(ctx, dst, off)
	}
	if w.req == nil {
		w.req, w.done = make(chan mapRead), make(chan error)
		go w.serve()
		w.timer = time.NewTimer(BusyGrace(bound))
	} else {
		w.timer.Reset(BusyGrace(bound))
	}
	t0 := time.Now()
	w.req <- mapRead{ctx: ctx, stage: stage, dst: dst, off: off}
	told := false
	for {
		select {
		case err := <-w.done:
			w.timer.Stop()
			if told {
				w.observer(Wait{Waited: time.Since(t0), Bound: bound, Done: true, Lost: dev.Err() != nil})
			}
			return err
		case <-w.timer.C:
			told = true
			w.observer(Wait{Waited: time.Since(t0), Bound: bound, Opcodes: inFlight()})
			w.timer.Reset(busyTick)
		}
	}
}

func (w *waiter) serve() {
	for m := range w.req {
		w.done <- m.stage.MapReadInto(m.ctx, m.dst, m.off)
	}
}

// stop ends the waiter's goroutine (Close).
func (w *waiter) stop() {
	if w.req != nil {
		close(w.req)
		w.req = nil
		w.timer.Stop()
	}
}
