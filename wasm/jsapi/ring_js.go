//go:build js && wasm

package main

import (
	"errors"
	"syscall/js"
	"time"

	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/wasm/jsarg"
	"github.com/ringscope/ringscope/wasm/jsmethod"
	"github.com/ringscope/ringscope/wasm/openopts"
	"github.com/ringscope/ringscope/wasm/push"
)

// installAPI defines the global ringscope object (docs/EMBEDDING.md).
// Every method returns a Promise; they run one at a time with the live
// loop, under the controller's lock. The adapters here read the
// arguments; wasm/controller does the work.
func installAPI(a *app) {
	obj := jsObject.New()
	obj.Set("ready", a.ready.Promise())
	installRingAPI(a, obj)
	for _, install := range apiConcerns {
		if install != nil { // testHooks outside the e2e build
			install(a, obj)
		}
	}
	if a.boot.Truthy() {
		installDispose(a, obj)
		a.boot.Call("deliver", obj) // an instance of createRingscope's
		return
	}
	jsGlobal.Set("ringscope", obj)
}

// apiConcerns add the rest of the ringscope object, one concern each,
// beside its code: the whole API is this list and installRingAPI.
var apiConcerns = []func(a *app, obj js.Value){
	installLiveAPI,    // start, stop, step, setShutdown (live_js.go)
	installCaptureAPI, // decode, exports, import, replay, subscribe (wasm/captureapi)
	installAttachAPI,  // attach, detach, attachInfo (attach_js.go)
	installEmbedAPI,   // panels, mount (wasm/mount)
	installKernelAPI,  // readBuffer, examples, example, publishWorkload, checkExample (wasm/kernelapi)
	installPushAPI,    // pushMetrics, ?push= (wasm/push)
	testHooks,         // __test, the e2e build only: fault injection (wasm/testhooks)
}

// installRingAPI adds the ring's methods:
//
//	open(options)           a fresh ring and generation (wasm/openopts reads
//	                        the options); invalid ones reject before any GPU
//	                        work, the previous ring untouched
//	publish(items, {allowUnknownOpcodes})
//	                        validates the whole batch, then publishes it;
//	                        resolves to the number published, rejects
//	                        publishing nothing
//	setTenantMask(tenant, on)
//	drain({maxSubmissions}) submissions until drained, no progress or the
//	                        cap (64); resolves with the outcome, the work
//	                        left (stuck) and the diagnosis
//	snapshot({slots})       the last decoded state; slots: the host copy
//	                        of the ring decoded, under summary readback
//	status()                the page's status and the submission it waits
//	                        on past the busy grace, at once (no lock)
func installRingAPI(a *app, obj js.Value) {
	r := a.ring
	jsmethod.Method(obj, "open", func(args []js.Value) (any, error) {
		opts, err := openopts.Read(jsarg.Arg(args, 0), r.OpenDefaults())
		if err != nil {
			return nil, err
		}
		return r.Open(opts)
	})
	jsmethod.Method(obj, "publish", func(args []js.Value) (any, error) {
		if err := jsarg.Known(jsarg.Arg(args, 1), &api.PublishOptions, ""); err != nil {
			return nil, err
		}
		max := r.Slots()
		if max == 0 {
			return nil, api.ErrNotReady
		}
		items, err := jsarg.Items(jsarg.Arg(args, 0), max)
		if err != nil {
			return nil, err
		}
		return r.Publish(items, jsarg.OptBool(jsarg.Arg(args, 1), "allowUnknownOpcodes"))
	})
	jsmethod.Method(obj, "setTenantMask", func(args []js.Value) (any, error) {
		t := jsarg.Arg(args, 0)
		if jsarg.TypeName(t) != "number" {
			return nil, errors.New("setTenantMask: tenant must be a number, got " + jsarg.TypeName(t))
		}
		tenant, err := api.Uint32("setTenantMask: tenant", t.Float())
		if err != nil {
			return nil, err
		}
		return r.SetTenantMask(tenant, jsarg.Truthy(jsarg.Arg(args, 1)))
	})
	jsmethod.Method(obj, "drain", func(args []js.Value) (any, error) {
		if err := jsarg.Known(jsarg.Arg(args, 0), &api.DrainOptions, ""); err != nil {
			return nil, err
		}
		max, err := jsarg.OptUint32(jsarg.Arg(args, 0), "drain", "maxSubmissions", 64)
		if err != nil {
			return nil, err
		}
		if max == 0 {
			return nil, errors.New("drain: maxSubmissions must be at least 1")
		}
		return r.Drain(int(max))
	})
	jsmethod.Method(obj, "snapshot", func(args []js.Value) (any, error) {
		o := jsarg.Arg(args, 0)
		if err := jsarg.Known(o, &api.SnapshotOptions, ""); err != nil {
			return nil, err
		}
		return r.Snapshot(jsarg.OptBool(o, "slots"), jsarg.OptBool(o, "trace"))
	})
	jsmethod.Method(obj, "status", func([]js.Value) (any, error) { return r.Status(), nil })
}

// installPushAPI adds pushMetrics (wasm/push), which pushes the studio's
// Prometheus export.
func installPushAPI(a *app, obj js.Value) {
	push.Install(obj, func() ([]byte, error) {
		b, _, err := a.studio.Export(capture.ExportPrometheus, time.Now())
		return b, err
	}, a.query)
}
