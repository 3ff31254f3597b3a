//go:build js && wasm

package controller

import (
	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/settings"
	"github.com/ringscope/ringscope/webgpu/megakernel"
)

// Readback modes of the page (URL parameter readback, the settings form).
//
// Full readback (decode.ReadbackFull) reads the whole ring back every
// frame, 64 bytes per slot. Summary readback (decode.ReadbackSummary) runs
// the GPU's reduce pass and reads back only control, log, the summary and
// the 4-bit status map; the panels draw from the summary's fields
// (occupancy, active counts, windows, the GPU's sketches, the slot map from
// the status map). The host copy of the ring follows the status map (the
// GPU writes only the statuses of the slots it claims: host.Queue.
// AbsorbStatusMap), so the publisher sees the slots the GPU finished and
// Requeue and ReclaimFaults the parked and faulted ones without a ring
// read, the slot inspector shows its slot from it (frame.Frame.HostSlot) and
// a recording takes its ring from it (capture.Studio.Observe). api.RingPolicy reads
// the ring with a frame only when the inspector refreshes a slot kept from
// an older frame. Auto picks full on a CPU or fallback adapter, where the
// reduce pass reads the whole ring on the CPU and summary frames are
// slower (SwiftShader: bench/results.md, row 2), and summary on a GPU
// (megakernel.ChooseReadback).
//
// Rings the embedding API opens (open) run full readback unless its
// readback option asks for summary or auto: drain() and snapshot() of a
// full ring give the embedder every slot of every frame; under summary,
// snapshot() has the summary's fields, and snapshot({slots: true}) and
// drain() every slot (snapshot decodes the host copy; drain's submissions
// read the ring, and with none to make the runner decodes the host copy).

// showReadback shows the ring's readback mode and why in the header.
func (c *Controller) showReadback() {
	rb := c.sess.Readback()
	c.update(func(s *State) { s.Readback, s.ReadbackWhy = rb.Mode, rb.Why }, nil)
}

// summaryReadback sets o to run summary readback, the GPU sketching in the
// shape s asks (the page's live ring and the embedding API's open).
func summaryReadback(o *megakernel.Options, s settings.Settings) {
	o.Readback = decode.ReadbackSummary
	o.Summary = megakernel.SummaryShape{Depth: uint32(s.SketchDepth), Width: uint32(s.SketchWidth)}
}

// readbackFor is whether a ring of settings s runs summary readback on
// this adapter (software: CPU or fallback), with why: the runner's policy,
// megakernel.ChooseReadback. s.Readback is one of decode.PageReadbacks (the
// URL, the form and open checked it).
func readbackFor(s settings.Settings, software bool) (summary bool, why string) {
	mode, why := megakernel.ChooseReadback(s.Readback, software, s.SketchDepth, s.SketchWidth)
	return mode == decode.ReadbackSummary, why
}
