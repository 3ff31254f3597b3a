//go:build js && wasm

package jsapi

import (
	"errors"
	"syscall/js"
	"time"

	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/wasm/controller"
)

// installRing adds the ring's methods:
//
//	open(options)           a fresh ring and generation (readOpen reads the
//	                        options, open_js.go); invalid ones reject before any GPU
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
func installRing(obj js.Value, r *controller.Controller) {
	Method(obj, "open", func(args []js.Value) (any, error) {
		opts, err := readOpen(Arg(args, 0), r.OpenDefaults())
		if err != nil {
			return nil, err
		}
		v, err := r.Open(opts)
		return v, openError(err)
	})
	Method(obj, "publish", func(args []js.Value) (any, error) {
		if err := Known(Arg(args, 1), &api.PublishOptions, ""); err != nil {
			return nil, err
		}
		max := r.Slots()
		if max == 0 {
			return nil, api.ErrNotReady
		}
		items, err := Items(Arg(args, 0), max)
		if err != nil {
			return nil, err
		}
		allow, err := OptBool(Arg(args, 1), "publish", "allowUnknownOpcodes")
		if err != nil {
			return nil, err
		}
		return r.Publish(items, allow)
	})
	Method(obj, "setTenantMask", func(args []js.Value) (any, error) {
		t := Arg(args, 0)
		if TypeName(t) != "number" {
			return nil, errors.New("setTenantMask: tenant must be a number, got " + TypeName(t))
		}
		tenant, err := api.Uint32("setTenantMask: tenant", t.Float())
		if err != nil {
			return nil, err
		}
		on, err := Bool(Arg(args, 1), "setTenantMask: on")
		if err != nil {
			return nil, err
		}
		return r.SetTenantMask(tenant, on)
	})
	Method(obj, "drain", func(args []js.Value) (any, error) {
		if err := Known(Arg(args, 0), &api.DrainOptions, ""); err != nil {
			return nil, err
		}
		max, err := OptUint32(Arg(args, 0), "drain", "maxSubmissions", 64)
		if err != nil {
			return nil, err
		}
		if max == 0 {
			return nil, errors.New("drain: maxSubmissions must be at least 1")
		}
		return r.Drain(int(max))
	})
	Method(obj, "snapshot", func(args []js.Value) (any, error) {
		o := Arg(args, 0)
		if err := Known(o, &api.SnapshotOptions, ""); err != nil {
			return nil, err
		}
		slots, err := OptBool(o, "snapshot", "slots")
		if err != nil {
			return nil, err
		}
		trace, err := OptBool(o, "snapshot", "trace")
		if err != nil {
			return nil, err
		}
		return r.Snapshot(slots, trace)
	})
	Method(obj, "status", func([]js.Value) (any, error) { return r.Status(), nil })
}

// pushMetrics is the studio's Prometheus export, which pushMetrics and
// ?push= send.
func pushMetrics(studio *capture.Studio) ([]byte, error) {
	b, _, err := studio.Export(capture.ExportPrometheus, time.Now())
	return b, err
}
