package megakernel

// A runner's buffers: their byte geometry, and the writes that upload
// their dirty ranges.

import (
	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/abi/spawn"
	"github.com/ringscope/ringscope/wgsl/host"
)

// layout is the byte geometry of a runner's buffers.
type layout struct {
	control, ring, log, data uint64
	// user is the user buffers' bytes (Options.Kernel), all together.
	user uint64
	// The GPU summary's buffers (decode.ReadbackSummary only, else 0): summary,
	// status map and the summary params.
	summary, statusMap, sparams uint64
	// spawn is the spawn state (a spawning kernel's, else 0), counted in
	// user too and read back after the status map.
	spawn uint64
	// trace is an attachment's copy of the host's trace header
	// (attachtrace_js.go), read back with control; 0 for a runner.
	trace uint64
}

func (o *Options) layout() layout {
	data := uint64(len(o.Data))
	if data == 0 {
		data = abi.WordBytes
	}
	l := layout{
		control: uint64(abi.ControlWords(o.Observable)) * abi.WordBytes,
		ring:    uint64(o.Slots) * abi.SlotBytes,
		log:     uint64(abi.LogWords(o.LogCapacity)) * abi.WordBytes,
		data:    data,
	}
	for _, b := range bindBuffers(&o.Kernel) {
		l.user += b.Size
	}
	if o.Kernel.Spawns() {
		l.spawn = spawn.SpawnWords * abi.WordBytes
	}
	if o.Readback == decode.ReadbackSummary {
		sh := o.summaryShape()
		l.summary = abi.SummaryWords(sh.Depth, sh.Width, sh.WindowCapacity) * abi.WordBytes
		l.statusMap = abi.StatusMapWords(o.Slots) * abi.WordBytes
		l.sparams = abi.SummaryParamsWords * abi.WordBytes
	}
	return l
}

// paramsBytes is the size of the params uniform.
const paramsBytes = abi.ParamsWords * abi.WordBytes

// timestampBytes is the two resolved timestamps (the drain pass's begin
// and end, u64 nanoseconds) at the head of a staging buffer.
const timestampBytes = 16

// staging is the size of one MAP_READ staging buffer: timestamps, control,
// log, summary, status map (both empty unless decode.ReadbackSummary), spawn
// state, trace header, then ring, back to back (all whole words), so a
// readback without the ring maps one contiguous range.
func (l layout) staging() uint64 {
	return timestampBytes + l.control + l.log + l.summary + l.statusMap + l.spawn + l.trace + l.ring
}

// controlOffset, logOffset, summaryOffset, statusMapOffset, spawnOffset
// and ringOffset are offsets in a staging buffer; the trace header is
// the trace bytes before the ring.
func (l layout) controlOffset() uint64   { return timestampBytes }
func (l layout) logOffset() uint64       { return timestampBytes + l.control }
func (l layout) summaryOffset() uint64   { return timestampBytes + l.control + l.log }
func (l layout) statusMapOffset() uint64 { return l.summaryOffset() + l.summary }
func (l layout) spawnOffset() uint64     { return l.statusMapOffset() + l.statusMap }
func (l layout) ringOffset() uint64      { return l.spawnOffset() + l.spawn + l.trace }

// stagedUploadMin and stagedUploadMax bound the ring uploads that go
// through a mapped staging buffer (upload_js.go): a ring upload of at
// least stagedUploadMin bytes (below it writeBuffer's own staging is
// cheap), for rings of at most stagedUploadMax bytes (262,144 slots: the
// staging is another ring's worth of memory, so larger rings keep
// writeBuffer).
const (
	stagedUploadMin = 1 << 20
	stagedUploadMax = 16 << 20
)

// upload is the size of the ring's upload staging: the ring's when it is
// between stagedUploadMin and stagedUploadMax bytes, else 0 (none).
func (l layout) upload() uint64 {
	if l.ring < stagedUploadMin || l.ring > stagedUploadMax {
		return 0
	}
	return l.ring
}

// device is the device memory a runner holds: the five bindings, two
// staging buffers (double-buffered readback), the ring's upload staging
// and the timestamp resolve buffer.
func (l layout) device() uint64 {
	return l.control + l.ring + l.log + paramsBytes + l.data + 2*l.staging() + l.upload() + timestampBytes +
		l.summary + l.statusMap + l.sparams + l.user
}

// mergeGap is the largest gap between two dirty ranges that one write
// covers: below a few slots, one writeBuffer call costs more than the
// bytes it rewrites.
const mergeGap = 256

// coalesce appends to dst the write ranges for the sorted dirty ranges:
// ranges closer than gap bytes are merged (the words between are rewritten
// with the host copy's values, which equal the device's only when the
// buffer was read back since the last submission; pass gap 0 otherwise).
func coalesce(dst, dirty []host.ByteRange, gap int) []host.ByteRange {
	dst = dst[:0]
	for _, r := range dirty {
		if r.Len() <= 0 {
			continue
		}
		if n := len(dst); n > 0 && r.Start-dst[n-1].End <= gap {
			dst[n-1].End = max(dst[n-1].End, r.End)
			continue
		}
		dst = append(dst, r)
	}
	return dst
}
