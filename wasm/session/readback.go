package session

import (
	"sync/atomic"

	"github.com/ringscope/ringscope/wasm/api"
)

// readback is the summary-or-full choice of a ring and, under summary,
// when a frame reads the whole ring anyway (api.RingPolicy: the slot
// inspector refreshing a slot kept from an older frame).
type readback struct {
	summary bool
	why     string
	policy  api.RingPolicy
	// ask carries reasons from the UI, which must not wait for the
	// frame in flight, to the next frame.
	ask       atomic.Uint32
	ringReads uint64
	lastBytes uint64
}

func (r *readback) reset(summary bool, why string) {
	r.summary, r.why = summary, why
	r.policy.Reset()
	r.ask.Store(0)
	r.ringReads, r.lastBytes = 0, 0
}

// plan reports whether the next frame reads the whole ring (summary mode;
// a full one always does, and needs no request).
func (r *readback) plan() bool {
	asked := api.RingReason(r.ask.Swap(0))
	if !r.summary {
		return false
	}
	r.policy.Ask(asked)
	read, _ := r.policy.Next()
	return read
}

// stepped records a frame's readback.
func (r *readback) stepped(ringRead bool, bytes uint64) {
	r.policy.Stepped(ringRead)
	if ringRead {
		r.ringReads++
	}
	r.lastBytes = bytes
}
