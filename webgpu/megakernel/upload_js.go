//go:build js && wasm

package megakernel

import (
	"context"

	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// The Runner's uploads: what the device lacks of the host copy, through
// writeBuffer from Go memory or, for a large ring upload, the mapped
// staging below. Apart from the submission (step_js.go) because the
// staging has a life of its own: mapped for the next upload as soon as a
// submission has copied from it.

// testCompareExchange, when set by a test, clears ParamFlagUnlapped from
// every upload: the drain claims every slot by compare-exchange.
var testCompareExchange bool

// upload writes what the device lacks: whole buffers that are fresh, else
// the host queue's dirty ranges (coalesced), the params uniform, and the
// data binding when fresh. A large upload of dirty ring ranges goes
// through the mapped staging (upStage.stage) instead of writeBuffer; a fresh
// ring (the first Step, Rebind) keeps writeBuffer, so a page's startup
// creates no staging it may never use again.
func (r *Runner) upload(ctx context.Context) error {
	wq := r.dev.Queue()
	srcs := [3][]byte{host.ControlBuffer: r.q.Control(), host.RingBuffer: r.q.Ring(), host.LogBuffer: r.q.Log()}
	bind := [3]int{host.ControlBuffer: bufControl, host.RingBuffer: bufRing, host.LogBuffer: bufLog}
	for b, src := range srcs {
		dst := r.res.bufs[bind[b]]
		if r.res.fresh[bind[b]] {
			r.writes = append(r.writes[:0], host.ByteRange{Start: 0, End: len(src)})
		} else {
			gap := 0
			if r.current[b] {
				gap = mergeGap
			}
			r.writes = coalesce(r.writes, r.q.Dirty(host.Buffer(b)), gap)
		}
		if b == int(host.RingBuffer) && !r.res.fresh[bufRing] {
			staged, err := r.up.stage(ctx, r.dev, r.lay.upload(), src, r.writes)
			if err != nil {
				return err
			}
			if staged {
				continue
			}
		}
		for _, w := range r.writes {
			if err := wq.WriteBuffer(dst, uint64(w.Start), src[w.Start:w.End]); err != nil {
				return failOn(r.dev, "upload "+host.Buffer(b).String(), err)
			}
		}
	}
	if r.res.fresh[bufData] {
		data := r.opts.Data
		if len(data) == 0 {
			data = zeroWord[:]
		}
		if err := wq.WriteBuffer(r.res.bufs[bufData], 0, data); err != nil {
			return failOn(r.dev, "upload data", err)
		}
	}
	params := r.q.Params(r.opts.Budget)
	if testCompareExchange {
		params.Flags &^= abi.ParamFlagUnlapped
	}
	// The params uniform changes with the epoch, the budget and the
	// unlapped flag, not every frame: a steady state writes it no more.
	if b := params.Bytes(); r.res.fresh[bufParams] || b != r.res.params {
		if err := wq.WriteBuffer(r.res.bufs[bufParams], 0, b[:]); err != nil {
			return failOn(r.dev, "upload params", err)
		}
		r.res.params = b
	}
	r.q.ClearDirty()
	r.res.fresh = [bufCount]bool{}
	return nil
}

// upStage is the ring's upload staging: a MAP_WRITE | COPY_SRC buffer the
// size of the ring (layout.upload), created by the first upload that uses
// it. An upload of dirty ring ranges of at least stagedUploadMin bytes
// (not a fresh buffer's whole ring) is copied from Go
// memory into it while it is mapped (one js.CopyBytesToJS per range, at the
// range's own offset), and the submission's command buffer copies those
// ranges into the ring before the drain. The map for the next upload
// starts right after the submission, so it has resolved by then.
//
// Why: Dawn's writeBuffer of a large ring allocates its staging per call,
// and on the H200 it was most of a 65,536-item drain; the reused, already
// mapped buffer costs the copy alone (bench/results-ring-earlier.md, "Staged
// ring upload" and row 6). The zero value holds nothing.
type upStage struct {
	buf    *webgpu.Buffer
	copies []host.ByteRange // written this step; encode copies them
}

// stage uploads the ring ranges writes of src through the staging (size
// bytes, layout.upload) and reports whether it did; it does not
// (writeBuffer does) when the ring has no staging (size 0) or the ranges
// total under stagedUploadMin.
func (u *upStage) stage(ctx context.Context, dev *webgpu.Device, size uint64, src []byte, writes []host.ByteRange) (bool, error) {
	n := 0
	for _, w := range writes {
		n += w.Len()
	}
	if size == 0 || n < stagedUploadMin {
		return false, nil
	}
	if u.buf != nil && u.buf.Size() != size {
		u.release()
	}
	if u.buf == nil {
		b, err := dev.CreateBuffer(webgpu.BufferDescriptor{Label: "ringscope ring upload", Size: size,
			Usage: webgpu.BufferUsageMapWrite | webgpu.BufferUsageCopySrc})
		if err != nil {
			return false, failOn(dev, "upload ring", err)
		}
		u.buf = b
	}
	if err := u.buf.MapWrite(ctx); err != nil {
		return false, failOn(dev, "upload ring", err)
	}
	for _, w := range writes {
		if err := u.buf.WriteMapped(uint64(w.Start), src[w.Start:w.End]); err != nil {
			u.buf.Unmap()
			return false, failOn(dev, "upload ring", err)
		}
	}
	u.buf.Unmap()
	u.copies = append(u.copies[:0], writes...)
	return true, nil
}

// encode records the copies of this step's staged ring ranges into ring,
// ahead of the drain.
func (u *upStage) encode(enc *webgpu.CommandEncoder, ring *webgpu.Buffer) {
	for _, c := range u.copies {
		enc.CopyBufferToBuffer(u.buf, uint64(c.Start), ring, uint64(c.Start), uint64(c.Len()))
	}
}

// remap, after a submission that copied from the staging, starts its map
// for the next upload.
func (u *upStage) remap(dev *webgpu.Device) error {
	if len(u.copies) == 0 {
		return nil
	}
	u.copies = u.copies[:0]
	if err := u.buf.BeginMapWrite(); err != nil {
		return failOn(dev, "upload ring", err)
	}
	return nil
}

func (u *upStage) release() {
	if u.buf != nil {
		u.buf.Destroy()
	}
	u.buf, u.copies = nil, u.copies[:0]
}
