package session

import (
	"context"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl/host"
)

// Source is what a frame is read from: ringscope's runner, or a host's
// ring it is attached to. Its View is the decoded telemetry and log, the
// host copies (valid until its next step) and their change ranges, the
// window opcodes, the GPU summary's sketches and the request for a ring
// read; the rest is what only the source knows.
type Source interface {
	View() *megakernel.HostView
	// Published is the items published: since the ring opened (a runner),
	// or as the host's control says (an attachment).
	Published() uint64
	// Pending is the items published and not yet claimed.
	Pending() uint32
	Accounting() decode.PriorityRequeueAccounting
}

// Runner is ringscope's own runner (megakernel.Runner in the page).
type Runner interface {
	Source
	Publish(items []host.Item) (int, error)
	// Warm starts compiling the pipelines the next Step needs.
	Warm(ctx context.Context)
	Step(ctx context.Context) (*megakernel.Epoch, error)
	Drain(ctx context.Context, maxSubmissions int) (decode.MegakernelReport, error)
	Requeue() (host.RequeueStats, error)
	ReclaimFaults() int
	// TrackWaits gives the ring's queue the clock it measures queue
	// waits by (host.Queue.TrackWaits); Waits is what it measured.
	TrackWaits(now func() float64)
	Waits() *host.Waits
	// OpcodeEnds appends the items that ended per opcode in this
	// generation (host.Queue.OpcodeEnds).
	OpcodeEnds(dst []host.OpcodeCount) []host.OpcodeCount
	// SetIOFunc sets the service Requeue answers WAIT_IO slots with (nil:
	// a NOP at once).
	SetIOFunc(io host.IOFunc)
}

// Attached is a host's ring ringscope watches (megakernel.Attachment in
// the page): it steps by copying the host's buffers, never by running
// anything of the host's.
type Attached interface {
	Source
	// Step reads one frame; stepped is false when the host has a watched
	// buffer mapped (no frame this time).
	Step(ctx context.Context) (stepped bool, err error)
	RingRead() bool
	// Summary reports summary readback (the GPU's reduce pass over the
	// host's ring) rather than copies of the whole ring.
	Summary() bool
	BytesPerFrame() uint64
	Timings() megakernel.AttachTimings
}
