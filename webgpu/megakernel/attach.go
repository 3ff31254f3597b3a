package megakernel

import (
	"fmt"
	"github.com/ringscope/ringscope/internal/nocompare"
	"time"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/tasktrace"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// AttachError is a host buffer, or an option, that Attach refuses.
type AttachError struct {
	Field  string // "control", "ring", "log", "trace", "Slots", "WindowOpcodes", …
	Label  string // the buffer's GPUBuffer label, "" when none or not a buffer
	Reason string
}

func (e *AttachError) Error() string {
	what := e.Field
	if e.Label != "" {
		what = fmt.Sprintf("%s buffer %q", e.Field, e.Label)
	} else if e.Field == "control" || e.Field == "ring" || e.Field == "log" {
		what = e.Field + " buffer"
	}
	return "megakernel: attach: " + what + ": " + e.Reason
}

// hostBuffer is what Attach checks of one host buffer.
type hostBuffer struct {
	_ nocompare.T

	field, label string
	size         uint64
	usage        webgpu.BufferUsage
}

// attachGeometry is the shape of an attached ring, read from its buffers.
type attachGeometry struct {
	_ nocompare.T

	slots       uint32
	observable  uint32
	logCapacity uint32
	hasLog      bool
	// traceCapacity is the trace records a frame reads, 0 without a trace.
	traceCapacity uint32
}

// maxAttachSlots bounds an attached ring: the status map and the staging
// arithmetic count slots in u32, as the runner's rings do.
const maxAttachSlots = 1 << 26

// checkAttach validates the host's buffers, the slot count (0: the ring's
// whole slots) and the trace capacity (0: all the trace buffer holds), and
// returns the ring's geometry. Every refusal names the buffer and what it
// lacks.
func checkAttach(control, ring hostBuffer, log, trace *hostBuffer, traceCapacity, slots uint32, windowOpcodes int) (attachGeometry, error) {
	var g attachGeometry
	bufs := []*hostBuffer{&control, &ring}
	for _, b := range []*hostBuffer{log, trace} {
		if b != nil {
			bufs = append(bufs, b)
		}
	}
	for _, b := range bufs {
		if b.usage&webgpu.BufferUsageCopySrc == 0 {
			return g, &AttachError{b.field, b.label, fmt.Sprintf("lacks COPY_SRC usage (usage %#x = %s): ringscope copies it into its own staging, so the host must create it with GPUBufferUsage.COPY_SRC",
				uint32(b.usage), usageNames(b.usage))}
		}
	}
	if trace == nil && traceCapacity > 0 {
		return g, &AttachError{Field: "TraceCapacity", Reason: "given without a trace buffer"}
	}
	if trace != nil {
		held := (max(trace.size, tasktrace.HeaderBytes) - tasktrace.HeaderBytes) / tasktrace.RecordBytes
		most := uint32(min(held, MaxTraceCapacity))
		if traceCapacity == 0 {
			traceCapacity = most
		}
		if traceCapacity == 0 || traceCapacity > most {
			return g, &AttachError{"trace", trace.label, fmt.Sprintf("capacity %d: want 1 … %d, the records of %d bytes (a 16-byte header, 32 bytes a record: docs/TRACE.md §1; at most 4,194,304)",
				traceCapacity, most, trace.size)}
		}
		g.traceCapacity = traceCapacity
	}
	const minControl = abi.ControlMinWords * abi.WordBytes
	switch {
	case control.size%abi.WordBytes != 0:
		return g, &AttachError{"control", control.label, fmt.Sprintf("%d bytes is not a whole number of 4-byte words", control.size)}
	case control.size < minControl:
		return g, &AttachError{"control", control.label, fmt.Sprintf("%d bytes is shorter than the control minimum of %d bytes (%d words, PROTOCOL §2)", control.size, minControl, abi.ControlMinWords)}
	}
	whole := ring.size / abi.SlotBytes
	switch {
	case slots == 0 && ring.size%abi.SlotBytes != 0:
		return g, &AttachError{"ring", ring.label, fmt.Sprintf("%d bytes is not a whole number of %d-byte slots (pass slots to watch a prefix)", ring.size, abi.SlotBytes)}
	case slots == 0 && whole == 0:
		return g, &AttachError{"ring", ring.label, fmt.Sprintf("%d bytes holds no %d-byte slot", ring.size, abi.SlotBytes)}
	case uint64(slots) > whole:
		return g, &AttachError{"Slots", "", fmt.Sprintf("%d slots need %d bytes; the ring buffer %q has %d", slots, uint64(slots)*abi.SlotBytes, ring.label, ring.size)}
	}
	if slots == 0 {
		slots = uint32(min(whole, maxAttachSlots+1))
	}
	if slots > maxAttachSlots {
		return g, &AttachError{"Slots", "", fmt.Sprintf("%d slots: at most %d", slots, maxAttachSlots)}
	}
	if log != nil {
		const head, rec = abi.LogHeaderWords * abi.WordBytes, abi.LogRecordWords * abi.WordBytes
		if log.size < head || (log.size-head)%rec != 0 {
			return g, &AttachError{"log", log.label, fmt.Sprintf("%d bytes is not a log: want %d header bytes and whole %d-byte records (4 + 4 × capacity words)", log.size, head, rec)}
		}
		g.hasLog, g.logCapacity = true, uint32((log.size-head)/rec)
	}
	if windowOpcodes > MaxWindowOpcodes {
		return g, &AttachError{"WindowOpcodes", "", fmt.Sprintf("%d opcodes: at most %d", windowOpcodes, MaxWindowOpcodes)}
	}
	g.slots = slots
	g.observable = uint32(control.size/abi.WordBytes) - abi.ControlMinWords
	return g, nil
}

// resolveAttachReadback picks the mode an attachment runs in, with why:
// ChooseReadback's, and summary needs a ring with STORAGE usage whose
// watched bytes the device can bind.
func resolveAttachReadback(want decode.Readback, software bool, shape SummaryShape, ring hostBuffer, ringBytes uint64, limits webgpu.Limits) (decode.Readback, string) {
	mode, why := ChooseReadback(want, software, int(shape.Depth), int(shape.Width))
	if mode != decode.ReadbackSummary {
		return mode, why
	}
	if ring.usage&webgpu.BufferUsageStorage == 0 {
		return decode.ReadbackFull, fmt.Sprintf("summary readback needs STORAGE usage on the ring buffer %q (usage %#x = %s) to run the reduce pass over it: reading the full ring instead",
			ring.label, uint32(ring.usage), usageNames(ring.usage))
	}
	if bind := min(nonZero(limits.MaxStorageBufferBindingSize), nonZero(limits.MaxBufferSize)); ringBytes > bind {
		return decode.ReadbackFull, fmt.Sprintf("summary readback binds the ring (%d bytes), more than the device's maxStorageBufferBindingSize %d: reading the full ring instead", ringBytes, bind)
	}
	return decode.ReadbackSummary, why
}

// usageNames spells a usage set the way GPUBufferUsage names its flags.
func usageNames(u webgpu.BufferUsage) string {
	names := []struct {
		f webgpu.BufferUsage
		n string
	}{
		{webgpu.BufferUsageMapRead, "MAP_READ"}, {webgpu.BufferUsageMapWrite, "MAP_WRITE"},
		{webgpu.BufferUsageCopySrc, "COPY_SRC"}, {webgpu.BufferUsageCopyDst, "COPY_DST"},
		{webgpu.BufferUsageIndex, "INDEX"}, {webgpu.BufferUsageVertex, "VERTEX"},
		{webgpu.BufferUsageUniform, "UNIFORM"}, {webgpu.BufferUsageStorage, "STORAGE"},
		{webgpu.BufferUsageIndirect, "INDIRECT"}, {webgpu.BufferUsageQueryResolve, "QUERY_RESOLVE"},
	}
	s := ""
	for _, n := range names {
		if u&n.f != 0 {
			if s != "" {
				s += "|"
			}
			s += n.n
		}
	}
	if s == "" {
		return "none"
	}
	return s
}

// AttachTimings are host wall-clock times of the last Step.
type AttachTimings struct {
	// Submit is encoding and queue.submit; Readback the wait for the map
	// and the copy into Go (it includes the host's work queued before the
	// copy); Decode the decoders.
	Submit, Readback, Decode time.Duration
	// Wait is the part of Readback spent awaiting the GPU's Promises (the
	// map, the copy's error scope), when the page's main thread is free
	// for the host: Busy leaves it out.
	Wait time.Duration
}

// Busy is the Step's main-thread time: all of it but the waits.
func (t AttachTimings) Busy() time.Duration {
	return t.Submit + t.Readback - t.Wait + t.Decode
}
