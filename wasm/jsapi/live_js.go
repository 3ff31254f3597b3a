//go:build js && wasm

package jsapi

import (
	"syscall/js"

	"github.com/ringscope/ringscope/wasm/controller"
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
//	setIOService(on)  turns the page's WAIT_IO service on (the default:
//	                  every request answered at once) or off ("not ready":
//	                  WAIT_IO slots stay waiting)
//
// After open the live loop publishes nothing itself; it drains what the
// embedder publishes, before start() or after it. publish, setShutdown
// and setTenantMask keep it running.
func installLive(obj js.Value, r *controller.Controller) {
	Method(obj, "start", func([]js.Value) (any, error) { return r.Run() })
	Method(obj, "stop", func([]js.Value) (any, error) { return r.Stop() })
	Method(obj, "step", func([]js.Value) (any, error) { return r.Step() })
	Method(obj, "setShutdown", func(args []js.Value) (any, error) {
		on, err := Bool(Arg(args, 0), "setShutdown: on")
		if err != nil {
			return nil, err
		}
		return r.SetShutdown(on)
	})
	Method(obj, "setIOService", func(args []js.Value) (any, error) {
		on, err := Bool(Arg(args, 0), "setIOService: on")
		if err != nil {
			return nil, err
		}
		return r.SetIOService(on)
	})
}
