//go:build js && wasm

package megakernel

import "github.com/ringscope/ringscope/webgpu"

// clearRingOnReset, at a Reset whose ring buffer stays (same size), clears
// the device's ring to zeros with one small submission instead of
// uploading the host copy's zeroed ring at the next Step
// (host.Queue.RingCleared): a spawning ring is mostly GPU-made, so its
// Reset publishes a root or a few items and the next Step uploads those
// slots alone (bench/results-h200.md row 7's wall side). The submission
// goes ahead of the next Step's writes on the same queue. Where the buffer
// will be made anew, or the submission fails, the whole-ring upload stays.
func clearRingOnReset(r *Runner) {
	ring := r.res.bufs[bufRing]
	if ring == nil || r.res.fresh[bufRing] || ring.Size() != r.lay.ring || r.dev.Err() != nil {
		return
	}
	if clearBuffer(r.dev, ring) == nil {
		_ = r.q.RingCleared() // fails only after a publish; Reset publishes nothing
	}
}

// clearBuffer submits one command buffer that zeroes b.
func clearBuffer(dev *webgpu.Device, b *webgpu.Buffer) error {
	enc, err := dev.CreateCommandEncoder("ringscope clear ring")
	if err != nil {
		return err
	}
	enc.ClearBuffer(b, 0, b.Size())
	cmd, err := enc.Finish()
	if err != nil {
		return err
	}
	return dev.Queue().Submit(cmd)
}
