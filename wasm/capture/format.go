package capture

import (
	"fmt"
	"github.com/ringscope/ringscope/internal/nocompare"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// File layout constants (docs/CAPTURE.md). Every integer is little-endian.
const (
	// Magic opens every capture file: 0x89 then "RSCAP\r\n". The high byte
	// and the line ending catch a file that went through a text-mode
	// transfer, as in PNG.
	Magic = "\x89RSCAP\r\n"
	// Version is the newest container version this package writes and
	// reads: version 2 adds ring patches (FlagRingPatch). Encode writes
	// VersionNoPatches when no frame holds one, so that a reader of version
	// 1 still reads such files.
	Version = 2
	// VersionNoPatches is the container version without ring patches.
	VersionNoPatches = 1
	// VersionTasks adds a task section after the frames (tasksection.go):
	// a traced ring's window, and a hang's report. Encode writes it only
	// for a capture that has one.
	VersionTasks = 3
	// FormatName is Header.Format.
	FormatName = "ringscope-capture"
	// FilePrefixBytes is magic (8) + version (4) + header length (4).
	FilePrefixBytes = 16
	// FrameFixedBytes is the fixed part of a frame record, after its
	// length word.
	FrameFixedBytes = 40
	// MaxHeaderBytes bounds the JSON header.
	MaxHeaderBytes = 1 << 20
	// MaxMetaBytes bounds a frame's JSON metadata.
	MaxMetaBytes = 1 << 16
	// MaxFileBytes bounds what an import reads: a page that is handed a
	// file larger than this refuses it before reading it (the recorder
	// itself holds at most 96 MiB).
	MaxFileBytes = 512 << 20
	// MaxWindowOpcodes bounds Header.WindowOpcodes.
	MaxWindowOpcodes = 64
	// MinControlBytes is the smallest control buffer: 160 words.
	MinControlBytes = abi.CtrlObservable * abi.WordBytes
	// SlotBytes is one ring slot.
	SlotBytes = abi.SlotWords * abi.WordBytes
)

// Frame record flags.
const (
	// FlagRing is set when the frame holds the whole ring.
	FlagRing uint32 = 1 << 0
	// FlagRingPatch is set when the frame holds a ring patch (patch.go):
	// the slots that changed since the frame before it, which holds a ring
	// or a patch of the same generation. Version 2 only.
	FlagRingPatch uint32 = 1 << 1
	flagsKnown           = FlagRing | FlagRingPatch
)

// Sources of a capture (Header.Source).
const (
	SourceLive = "live" // recorded by the page's live loop
	SourceDump = "dump" // a bare control + ring dump pair
	SourceHang = "hang" // the hang hunter's state dump and trace window (hang.go)
)

// Header is the capture file's JSON header. The zero value, filled in by
// Encode, is a valid header of a capture with no adapter.
type Header struct {
	// Format is FormatName; Version the container version (Version).
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Ringscope is the version of the ringscope build that wrote the file,
	// free text ("(devel)", a tag, a VCS revision).
	Ringscope string `json:"ringscope"`
	// ABIVersion is the megakernel ABI of the frames (abi.Version).
	ABIVersion uint32 `json:"abiVersion"`
	// Source says where the frames came from: SourceLive or SourceDump.
	Source string `json:"source"`
	// CreatedAt is when the file was written, RFC 3339, or "".
	CreatedAt string `json:"createdAt,omitempty"`
	// WindowOpcodes are the opcodes decoded as ticketed windows.
	WindowOpcodes []uint32 `json:"windowOpcodes"`
	// Adapter describes the WebGPU adapter of a live capture; nil for a dump.
	Adapter *Adapter `json:"adapter,omitempty"`
	// FrameCount is the number of frame records that follow the header.
	FrameCount int `json:"frameCount"`
	// DroppedFrames is how many older frames the recorder evicted before
	// the export (its memory bound).
	DroppedFrames uint64 `json:"droppedFrames"`
	// UserOpcodes name the user opcodes of the kernel that ran
	// (docs/OPCODES.md), so the exports and a replay elsewhere name them.
	UserOpcodes []NamedOpcode `json:"userOpcodes,omitempty"`
	// Coverage says which frames the file holds: Encode computes it from
	// the frames, and Decode does not read it back (the frames say it).
	Coverage *Coverage `json:"coverage,omitempty"`
}

// NamedOpcode is a user opcode's number and name.
type NamedOpcode struct {
	_ nocompare.T

	Opcode uint32 `json:"opcode"`
	Name   string `json:"name"`
}

// UserOpcodeName is the name h gives op, or "".
func (h *Header) UserOpcodeName(op uint32) string {
	for _, n := range h.UserOpcodes {
		if n.Opcode == op {
			return n.Name
		}
	}
	return ""
}

// OpcodeName names op: h's name of a user opcode, else decode.OpcodeName.
func (h *Header) OpcodeName(op uint32) string {
	if n := h.UserOpcodeName(op); n != "" {
		return n
	}
	return decode.OpcodeName(op)
}

// Adapter is the WebGPU adapter a live capture ran on.
type Adapter struct {
	_ nocompare.T

	Vendor       string `json:"vendor"`
	Architecture string `json:"architecture"`
	Device       string `json:"device"`
	Description  string `json:"description"`
	IsFallback   bool   `json:"isFallback"`
	IsCPU        bool   `json:"isCPU"`
}

// Frame is one recorded readback. Control is the whole control buffer
// (≥ 640 bytes, whole words), Ring the ring (whole 64-byte slots) or nil
// when the ring was not read back, Log the log buffer or nil. The zero
// value is not a valid frame (it has no control buffer).
type Frame struct {
	// Seq numbers the page's frames from 1, strictly increasing in a file.
	Seq uint64
	// AtMillis is the page time (performance.now(), ms) of the readback;
	// finite and non-decreasing in a file.
	AtMillis float64
	// Generation is the control buffer's GENERATION word (0 in a legacy
	// dump); Decode checks that they agree.
	Generation uint32
	Control    []byte
	// Ring is the whole ring (FlagRing); Patch, when Ring is nil, the ring
	// as a patch of the frame before it (FlagRingPatch, patch.go). Both nil:
	// the frame carries no ring.
	Ring  []byte
	Patch []byte
	Log   []byte
	Meta  Meta
}

// Meta is a frame's JSON metadata: what the buffers do not hold.
type Meta struct {
	_ nocompare.T

	// Dispatch is the per-dispatch telemetry of the submission this frame
	// read back; nil when the frame was not produced by a dispatch.
	Dispatch *Dispatch `json:"dispatch,omitempty"`
	// Timings are the host-side costs of the frame, in milliseconds.
	Timings frame.Timings `json:"timings"`
	// Published counts items published in this generation so far.
	Published uint64 `json:"published"`
	// Occupancy is the ring's slots by status, on a frame that carries no
	// ring: a compact frame of the recorder's history, counted from the
	// ring it had. nil otherwise (the ring says it).
	Occupancy *Occupancy `json:"occupancy,omitempty"`
	// Spawn is a spawning kernel's spawn telemetry as of this frame
	// (spawn.go); nil for a ring that does not spawn. A compact frame
	// keeps its counters, not its passes' history.
	Spawn *decode.SpawnTelemetry `json:"spawn,omitempty"`
}

// Occupancy is decode.RingOccupancy as a frame's meta writes it: the
// slots of each status, by status value (empty, published, claimed, done,
// wait_io, yield, requeue, fault), unknown last.
type Occupancy decode.RingOccupancy

// OccupancyOf is o as a frame's meta writes it.
func OccupancyOf(o decode.RingOccupancy) Occupancy { return Occupancy(o) }

// Ring is o as decode counts it.
func (o *Occupancy) Ring() decode.RingOccupancy { return decode.RingOccupancy(*o) }

// Capture is a decoded or assembled capture file.
type Capture struct {
	Header Header
	Frames []Frame
	// Verdicts are the live diagnosis's changes over the frames (not
	// written to files: verdict.go).
	Verdicts []Verdict
	// Tasks is the traced drain's window (docs/TRACE.md), nil when the
	// ring was not traced; the trace export draws it, and a version-3
	// file carries it in its task section.
	Tasks *TaskTrace
}

// FormatError reports the first problem of a capture file or dump: the byte
// offset in the file (or in the named dump buffer), the frame (-1 for the
// file prefix and header), the field, and why.
type FormatError struct {
	Offset int64
	Frame  int
	Field  string
	Msg    string
}

func (e *FormatError) Error() string {
	where := "header"
	if e.Frame >= 0 {
		where = fmt.Sprintf("frame %d", e.Frame)
	}
	return fmt.Sprintf("capture: byte %d: %s: %s: %s", e.Offset, where, e.Field, e.Msg)
}

func fail(off int64, frame int, field, format string, args ...any) error {
	return &FormatError{Offset: off, Frame: frame, Field: field, Msg: fmt.Sprintf(format, args...)}
}
