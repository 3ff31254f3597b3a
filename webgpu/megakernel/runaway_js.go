//go:build js && wasm

package megakernel

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ringscope/ringscope/webgpu"
)

// The runner's own watchdog for runaway work. The drain is bounded only
// as far as every user opcode is (docs/OPCODES.md §1): a function that
// loops forever keeps its submission running until a driver's watchdog
// resets the device, and SwiftShader, Chromium's CPU adapter, has none, so
// the readback would never come and every call waiting on the page's lock
// would hang. So each submission's readback wait is bounded
// (Options.SubmissionTimeout): past the bound the device is abandoned
// (webgpu.Device.Abandon, not destroyed: destroying a device whose work
// never ends blocks SwiftShader's GPU process for good), the wait returns
// a *RunawayError, which matches webgpu.ErrDeviceLost, and the page
// recovers on a new device as from any loss.

// LostRunaway is the LostReason of a device the watchdog abandoned.
const LostRunaway = "runaway"

// RunawayError is a submission that did not complete within the bound.
// It wraps the device's loss (errors.Is(err, webgpu.ErrDeviceLost)).
type RunawayError struct {
	Bound time.Duration
	// Opcodes names the user opcodes the submission could run (those
	// pending when it was submitted: InFlightUserOpcodes); empty when
	// none was (a built-in opcode cannot run away: each is bounded).
	Opcodes []string
	// Behind counts the earlier runaways whose abandoned work still ran
	// when this submission was given up (Device.AbandonedBehind): on a
	// CPU adapter they hold its threads, and this submission may have
	// waited behind them rather than run away itself.
	Behind int
	Err    error
}

func (e *RunawayError) Error() string {
	what := "no user opcode was in flight"
	if len(e.Opcodes) > 0 {
		what = "user opcodes in flight: " + strings.Join(e.Opcodes, ", ")
	}
	behind := ""
	if e.Behind > 0 {
		behind = fmt.Sprintf("; %d earlier runaway(s) still ran on the adapter, which this submission may have waited behind", e.Behind)
	}
	return fmt.Sprintf("megakernel: runaway: a submission did not complete within %v (the submission bound, submissionTimeoutMs); %s; its device was abandoned%s",
		e.Bound, what, behind)
}

func (e *RunawayError) Unwrap() error { return e.Err }

// watchdog abandons the device of a submission that outlives its bound.
// Its timer is made once and re-armed per submission: no allocation per
// Step.
type watchdog struct {
	timer *time.Timer
	dev   *webgpu.Device
	bound time.Duration
	fired atomic.Bool
}

// arm starts the bound of the submission just made on dev.
func (w *watchdog) arm(dev *webgpu.Device, bound time.Duration) {
	w.dev, w.bound = dev, bound
	w.fired.Store(false)
	if w.timer == nil {
		w.timer = time.AfterFunc(bound, w.expire)
		return
	}
	w.timer.Reset(bound)
}

// disarm stops the bound and reports whether it expired.
func (w *watchdog) disarm() bool {
	if w.timer != nil {
		w.timer.Stop()
	}
	return w.fired.Load()
}

func (w *watchdog) expire() {
	w.fired.Store(true)
	w.dev.Abandon(LostRunaway, fmt.Sprintf("a submission did not complete within %v", w.bound))
}

// runaway is the error of the submission w expired on, which could run
// the user opcodes inFlight.
func (w *watchdog) runaway(inFlight []string) error {
	return &RunawayError{Bound: w.bound, Opcodes: inFlight, Behind: w.dev.AbandonedBehind(), Err: w.dev.Err()}
}
