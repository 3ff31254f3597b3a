//go:build js && wasm

package jsapi

import (
	"fmt"
	"slices"
	"syscall/js"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/controller"
	"github.com/ringscope/ringscope/wasm/pace"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/webgpu/megakernel"
)

// Attach: the live telemetry of a ring the host page's own kernel drives
// (wasm/controller's Attach does it).
//
//	attach({device, control, ring, log?, slots?, windowOpcodes?, readback?, budget?, submissionTimeoutMs?, trace?, traceCapacity?})
//	        watches the host's GPUBuffers on the host's GPUDevice: the live
//	        loop (start, stop, step), every panel, the watchdog, the flight
//	        recorder and the exports follow it instead of ringscope's own
//	        runner, which stays paused; resolves to an AttachInfo. budget
//	        is the share of the page's main thread its frames and renders
//	        may take (wasm/pace; default pace.DefaultBudget);
//	        submissionTimeoutMs bounds each frame's copy as open's does a
//	        submission; trace is the host's trace buffer, whose records
//	        (traceCapacity of them, all it holds by default) the timeline
//	        panel shows (docs/TRACE.md §8)
//	detach()      stops watching and releases what attach created; the
//	        host's buffers and device are left as they were
//	attachInfo()  the attachment's state
func installAttach(obj js.Value, r *controller.Controller) {
	var devices hostDevices
	Method(obj, "attach", func(args []js.Value) (any, error) {
		req, err := attachRequest(Arg(args, 0), &devices)
		if err != nil {
			return nil, err
		}
		return r.Attach(req)
	})
	Method(obj, "detach", func([]js.Value) (any, error) { return r.Detach() })
	Method(obj, "attachInfo", func([]js.Value) (any, error) { return r.AttachInfo() })
}

// attachRequest reads attach's options, naming each bad one. The host's
// device and buffers are wrapped when the controller asks (Host), after
// its own refusals, through devices.
func attachRequest(o js.Value, devices *hostDevices) (controller.AttachRequest, error) {
	var req controller.AttachRequest
	if t := TypeName(o); t != "object" {
		return req, fmt.Errorf("attach: options must be an object {device, control, ring, log?, slots?, windowOpcodes?, readback?, budget?}, got %s", t)
	}
	if err := Known(o, &api.AttachOptions, ""); err != nil {
		return req, err
	}
	var err error
	if req.Slots, err = OptUint32(o, "attach", "slots", 0); err != nil {
		return req, err
	}
	if req.WindowOpcodes, err = OptUint32Array(o, "attach", "windowOpcodes", MaxOptionArray); err != nil {
		return req, err
	}
	rb, err := OptProp(o, "attach", "readback")
	if err != nil {
		return req, err
	}
	if req.Readback, err = attachReadback(rb); err != nil {
		return req, err
	}
	budget, ok, err := OptNumber(o, "attach", "budget")
	if err != nil {
		return req, err
	}
	if !ok {
		budget = pace.DefaultBudget
	}
	req.Budget = budget
	ms, err := OptUint32(o, "attach", "submissionTimeoutMs", 0)
	if err != nil {
		return req, err
	}
	if req.SubmissionTimeout, err = megakernel.SubmissionTimeoutMs(ms); err != nil {
		return req, fmt.Errorf("attach: %w", err)
	}
	if req.TraceCapacity, err = OptUint32(o, "attach", "traceCapacity", 0); err != nil {
		return req, err
	}
	var host [5]js.Value // device, control, ring, log, trace
	for i, name := range []string{"device", "control", "ring", "log", "trace"} {
		if host[i], err = OptProp(o, "attach", name); err != nil {
			return req, err
		}
	}
	req.Host = func() (controller.HostRing, error) { return devices.wrap(host) }
	return req, nil
}

// hostDevices are the host's GPUDevices wrapped so far: a later attach to
// the same device reuses its wrapper while it lives (and its one
// device.lost watcher). The controller calls wrap with its lock held, so
// calls never overlap.
type hostDevices struct{ known []*webgpu.Device }

// wrap wraps the host's device and its control, ring and (optional) log
// and trace buffers, v in that order.
func (h *hostDevices) wrap(v [5]js.Value) (controller.HostRing, error) {
	var r controller.HostRing
	var err error
	if r.Device, err = h.device(v[0]); err != nil {
		return r, err
	}
	for i, b := range []struct {
		name     string
		dst      **webgpu.Buffer
		optional bool
	}{{"control", &r.Control, false}, {"ring", &r.Ring, false}, {"log", &r.Log, true}, {"trace", &r.Trace, true}} {
		bv := v[i+1]
		if bv.IsUndefined() || bv.IsNull() {
			if b.optional {
				continue
			}
			return r, fmt.Errorf("%s is required: the host's GPUBuffer in the ABI layout", b.name)
		}
		if *b.dst, err = webgpu.WrapBuffer(r.Device, bv, b.name); err != nil {
			return r, err
		}
	}
	return r, nil
}

func (h *hostDevices) device(v js.Value) (*webgpu.Device, error) {
	for _, d := range h.known {
		if d.SameDevice(v) && d.Err() == nil {
			return d, nil
		}
	}
	h.known = slices.DeleteFunc(h.known, func(d *webgpu.Device) bool { return d.Err() != nil })
	d, err := webgpu.WrapDevice(v)
	if err != nil {
		return nil, err
	}
	h.known = append(h.known, d)
	return d, nil
}

// attachReadback reads attach's readback: "auto" (the default), "full" or
// "summary".
func attachReadback(v js.Value) (decode.Readback, error) {
	const names = "auto, full, summary"
	switch {
	case v.IsUndefined() || v.IsNull():
		return decode.ReadbackAuto, nil
	case TypeName(v) != "string":
		return 0, fmt.Errorf("attach: readback must be a string, one of %s; got %s", names, TypeName(v))
	}
	mode, ok := decode.ParseReadback(v.String())
	if !ok || v.String() == "" {
		return 0, fmt.Errorf("attach: readback %q: want one of %s", v.String(), names)
	}
	return mode, nil
}
