//go:build js && wasm

package main

import (
	"errors"
	"syscall/js"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/jsarg"
	"github.com/ringscope/ringscope/wasm/jsmethod"
)

// The live loop from the API: an embedder opens a ring, publishes, and lets
// the page's frame loop submit, read back and observe it (the watchdog
// included) at display rate, as a person's Run button does.
//
//	start()           runs the live loop; resolves to {running: true}
//	stop()            pauses it; resolves once no frame is in flight
//	step()            pauses it and runs one frame; resolves to a LiveStep
//	setShutdown(on)   sets or clears the SHUTDOWN word for the following
//	                  submissions (the SHUTDOWN opcode sets it from the GPU)
//
// After open the live loop publishes nothing itself; it drains what the
// embedder published. setShutdown and setTenantMask keep it running.
func installLiveAPI(a *app, obj js.Value) {
	jsmethod.Method(obj, "start", func([]js.Value) (any, error) { return a.apiStart() })
	jsmethod.Method(obj, "stop", func([]js.Value) (any, error) { return a.apiStop() })
	jsmethod.Method(obj, "step", func([]js.Value) (any, error) { return a.apiStep() })
	jsmethod.Method(obj, "setShutdown", a.apiSetShutdown)
}

// LiveState is what start and stop resolve to.
type LiveState struct {
	Running bool
}

func (a *app) apiStart() (any, error) {
	a.mu.Lock()
	ready := a.runner != nil
	a.mu.Unlock()
	if !ready {
		return nil, api.ErrNotReady
	}
	a.commands <- cmdRun // the loop may be blocked waiting for a command
	return LiveState{Running: true}, nil
}

func (a *app) apiStop() (any, error) {
	a.mu.Lock() // taken once the frame in flight, if any, is done
	if a.runner == nil {
		a.mu.Unlock()
		return nil, api.ErrNotReady
	}
	a.running = false
	a.mu.Unlock()
	a.ui(func(d *ui.Dashboard) { d.Running = false })
	return LiveState{Running: false}, nil
}

// LiveStep is what step resolves to: the frame's numbers an embedder (or a
// test) most often wants, without the whole snapshot.
type LiveStep struct {
	Seq       uint64
	DoneCount uint32
	Published uint64
	Pending   uint32
	Watchdog  decode.WatchdogState
	// Recovered is set when the device was lost during the step and the
	// page recovered (the step ran again on the new device).
	Recovered bool
}

func (a *app) apiStep() (any, error) {
	var res LiveStep
	var f *frame.Frame
	wasRunning := false
	recovered, err := a.runLocked(maxRetriesAfterLoss, func() error {
		if a.runner == nil {
			return api.ErrNotReady
		}
		wasRunning = wasRunning || a.running
		a.running = false
		var err error
		if f, err = a.liveFrame(); err != nil {
			return err
		}
		if f == nil { // attached, and the host has a buffer mapped
			return errors.New("step: the host has a watched buffer mapped; no frame this time, try again")
		}
		src := a.sess.Source()
		res = LiveStep{Seq: f.Seq, DoneCount: f.Ring.Control.DoneCount, Published: src.Published(),
			Pending: src.Pending(), Watchdog: *f.Watchdog}
		return nil
	})
	if err != nil {
		if wasRunning {
			a.ui(func(d *ui.Dashboard) { d.Running = false })
		}
		return nil, err
	}
	res.Recovered = recovered
	a.ui(func(d *ui.Dashboard) {
		d.Running = false
		d.Apply(f)
	})
	return res, nil
}

func (a *app) apiSetShutdown(args []js.Value) (any, error) {
	v := jsarg.Arg(args, 0)
	if t := jsarg.TypeName(v); t != "boolean" {
		return nil, errors.New("setShutdown: on must be a boolean, got " + t)
	}
	on := v.Bool()
	return a.withRunnerLive(false, func() (any, error) {
		a.runner.SetShutdown(on)
		return on, nil
	})
}
