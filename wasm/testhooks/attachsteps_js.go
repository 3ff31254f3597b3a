//go:build js && wasm && ringscope_testhooks

package testhooks

import (
	"context"
	"fmt"
	"syscall/js"
	"time"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wasm/browser"
	"github.com/ringscope/ringscope/wasm/jsapi"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/webgpu/megakernel"
)

// attachSteps is __test.attachSteps({device, control, ring, log?, frames,
// readback?, detach?, gapMS?, raf?}): a megakernel.Attachment of its own
// over the host's buffers, stepped frames times (after gapMS of
// time.Sleep and, with raf, an animation frame before each), then detached
// unless detach is false. No controller, session or dashboard takes part:
// the attach benchmark (e2e/tests/attach-bench.spec.mjs, mode gostep)
// tells an attached frame's GPU and decode path from the page's. Resolves
// to the frames read.
func attachSteps(args []js.Value) (any, error) {
	o := jsapi.Arg(args, 0)
	frames, err := jsapi.OptUint32(o, "__test.attachSteps", "frames", 1)
	if err != nil {
		return nil, err
	}
	dev, err := webgpu.WrapDevice(o.Get("device"))
	if err != nil {
		return nil, err
	}
	var opts megakernel.AttachOptions
	for _, b := range []struct {
		name string
		dst  **webgpu.Buffer
	}{{"control", &opts.Control}, {"ring", &opts.Ring}, {"log", &opts.Log}} {
		v := o.Get(b.name)
		if v.IsUndefined() {
			continue
		}
		if *b.dst, err = webgpu.WrapBuffer(dev, v, b.name); err != nil {
			return nil, err
		}
	}
	if rb := o.Get("readback"); rb.Type() == js.TypeString {
		mode, ok := decode.ParseReadback(rb.String())
		if !ok {
			return nil, fmt.Errorf("__test.attachSteps: readback %q", rb.String())
		}
		opts.Readback = mode
	}
	gap, err := jsapi.OptUint32(o, "__test.attachSteps", "gapMS", 0)
	if err != nil {
		return nil, err
	}
	var frameWait *browser.AnimationFrames
	var cleanup browser.Cleanup
	defer cleanup.Run()
	if jsapi.Truthy(o.Get("raf")) {
		frameWait = browser.NewAnimationFrames(&cleanup, 100*time.Millisecond)
	}
	ctx := context.Background()
	at, err := megakernel.Attach(ctx, dev, opts)
	if err != nil {
		return nil, err
	}
	read := 0
	for read < int(frames) {
		time.Sleep(time.Duration(gap) * time.Millisecond)
		if frameWait != nil {
			frameWait.Wait()
		}
		ok, err := at.Step(ctx)
		if err != nil {
			at.Detach()
			return nil, err
		}
		if ok {
			read++
		} else {
			// A host buffer is mapped: give the event loop the turn that
			// unmaps it (a Sleep of 0 would spin without yielding to JS).
			time.Sleep(time.Millisecond)
		}
	}
	if d := o.Get("detach"); d.IsUndefined() || jsapi.Truthy(d) {
		at.Detach()
	}
	return read, nil
}
