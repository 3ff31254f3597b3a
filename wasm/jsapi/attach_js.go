//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/controller"
	"github.com/ringscope/ringscope/wasm/jsarg"
	"github.com/ringscope/ringscope/wasm/jsmethod"
	"github.com/ringscope/ringscope/wasm/pace"
	"github.com/ringscope/ringscope/webgpu/megakernel"
)

// Attach: the live telemetry of a ring the host page's own kernel drives
// (wasm/controller's Attach does it).
//
//	attach({device, control, ring, log?, slots?, windowOpcodes?, readback?, budget?, submissionTimeoutMs?})
//	        watches the host's GPUBuffers on the host's GPUDevice: the live
//	        loop (start, stop, step), every panel, the watchdog, the flight
//	        recorder and the exports follow it instead of ringscope's own
//	        runner, which stays paused; resolves to an AttachInfo. budget
//	        is the share of the page's main thread its frames and renders
//	        may take (wasm/pace; default pace.DefaultBudget);
//	        submissionTimeoutMs bounds each frame's copy as open's does a
//	        submission
//	detach()      stops watching and releases what attach created; the
//	        host's buffers and device are left as they were
//	attachInfo()  the attachment's state
func installAttachAPI(a *app, obj js.Value) {
	jsmethod.Method(obj, "attach", func(args []js.Value) (any, error) {
		req, err := attachRequest(jsarg.Arg(args, 0))
		if err != nil {
			return nil, err
		}
		return a.ring.Attach(req)
	})
	jsmethod.Method(obj, "detach", func([]js.Value) (any, error) { return a.ring.Detach() })
	jsmethod.Method(obj, "attachInfo", func([]js.Value) (any, error) { return a.ring.AttachInfo() })
}

// attachRequest reads attach's options, naming each bad one.
func attachRequest(o js.Value) (controller.AttachRequest, error) {
	var req controller.AttachRequest
	if t := jsarg.TypeName(o); t != "object" {
		return req, fmt.Errorf("attach: options must be an object {device, control, ring, log?, slots?, windowOpcodes?, readback?, budget?}, got %s", t)
	}
	if err := jsarg.Known(o, &api.AttachOptions, ""); err != nil {
		return req, err
	}
	var err error
	if req.Slots, err = jsarg.OptUint32(o, "attach", "slots", 0); err != nil {
		return req, err
	}
	if req.WindowOpcodes, err = jsarg.OptUint32Array(o, "attach", "windowOpcodes", jsarg.MaxOptionArray); err != nil {
		return req, err
	}
	rb, err := jsarg.OptProp(o, "attach", "readback")
	if err != nil {
		return req, err
	}
	if req.Readback, err = attachReadback(rb); err != nil {
		return req, err
	}
	budget, ok, err := jsarg.OptNumber(o, "attach", "budget")
	if err != nil {
		return req, err
	}
	if !ok {
		budget = pace.DefaultBudget
	}
	req.Budget = budget
	ms, err := jsarg.OptUint32(o, "attach", "submissionTimeoutMs", 0)
	if err != nil {
		return req, err
	}
	if req.SubmissionTimeout, err = megakernel.SubmissionTimeoutMs(ms); err != nil {
		return req, fmt.Errorf("attach: %w", err)
	}
	for _, p := range []struct {
		name string
		dst  *js.Value
	}{{"device", &req.Device}, {"control", &req.Control}, {"ring", &req.Ring}, {"log", &req.Log}} {
		if *p.dst, err = jsarg.OptProp(o, "attach", p.name); err != nil {
			return req, err
		}
	}
	return req, nil
}

// attachReadback reads attach's readback: "auto" (the default), "full" or
// "summary".
func attachReadback(v js.Value) (decode.Readback, error) {
	const names = "auto, full, summary"
	switch {
	case v.IsUndefined() || v.IsNull():
		return decode.ReadbackAuto, nil
	case jsarg.TypeName(v) != "string":
		return 0, fmt.Errorf("attach: readback must be a string, one of %s; got %s", names, jsarg.TypeName(v))
	}
	mode, ok := decode.ParseReadback(v.String())
	if !ok || v.String() == "" {
		return 0, fmt.Errorf("attach: readback %q: want one of %s", v.String(), names)
	}
	return mode, nil
}
