package session

import (
	"context"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl/host"
)

// Source is what a frame is read from: ringscope's runner, or a host's
// ring it is attached to. The slices it returns are its host copies,
// valid until its next step.
type Source interface {
	Telemetry() *decode.RingTelemetry
	Log() *decode.Log
	// Sketches fills dst from the GPU summary of the last step (summary
	// readback only).
	Sketches(dst *decode.SketchTelemetry) error
	Accounting() decode.PriorityRequeueAccounting
	Published() uint64
	Pending() uint32
	Control() []byte
	Ring() []byte
	LogBytes() []byte
	// RingChanges are the byte ranges of Ring changed since
	// ClearRingChanges, sorted.
	RingChanges() []host.ByteRange
	ClearRingChanges()
	// DecodeHostRing decodes the host copy of the ring, every slot.
	DecodeHostRing(dst *decode.RingTelemetry, scratch *decode.DecodeScratch) error
	WindowOpcodes() []uint32
}

// Runner is ringscope's own runner (megakernel.Runner in the page).
type Runner interface {
	Source
	Publish(items []host.Item) (int, error)
	// RequestRing asks the next Step to read the whole ring back.
	RequestRing()
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
	RequestRing()
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
