package capture

import (
	"errors"
	"github.com/ringscope/ringscope/internal/nocompare"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/diagnose"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// Hang is what the hang hunter kept when the diagnosis first said stalled
// or lost (docs/TRACE.md §7): the frame's verdict, the per-slot state dump
// (Dump: the control buffer, the whole ring and the log of that frame) and
// a report of the tasks each workgroup last claimed and of the slots
// running at the dump. The trace window is the TaskTrace that holds it.
type Hang struct {
	Seq      uint64
	AtMillis float64
	Health   diagnose.Health
	// Causes are the verdict's cause kinds, most explanatory first.
	Causes []diagnose.Kind
	// Workgroups are, per workgroup of the window (ascending), the task it
	// claimed last: the record of the greatest start ticket.
	Workgroups []HangWorkgroup
	// Running are the dump's CLAIMED slots: tasks a lane claimed and did
	// not end. A record lands when its task ends, so which workgroup runs
	// them the trace cannot say.
	Running []HangTask
	// InFlight names the user opcodes the submission in flight could run,
	// for a device lost or a submission stuck (a runaway's suspects; nil
	// otherwise): the user opcodes of the dump's PUBLISHED and CLAIMED
	// slots, which is how the host named them when it submitted, live and
	// in a replay alike.
	InFlight []string
	// Suspects are the dump's slots that hold an InFlight opcode and could
	// run in that submission (PUBLISHED or CLAIMED): a runaway's task is
	// one of them. The dump was read before the submission ran, so its
	// records and CLAIMED slots cannot name the task; these can.
	Suspects []HangTask
	// Dump is the state dump, a hang capture's only frame.
	Dump *Frame
}

// HangWorkgroup is one workgroup's last claimed task.
type HangWorkgroup struct {
	_ nocompare.T

	Workgroup uint32
	Last      HangTask
}

// HangTask names one task: its slot, opcode and status, and for a
// traced one its lane and start ticket.
type HangTask struct {
	Slot, Opcode      uint32
	Name              string
	Status            decode.Status
	Lane, StartTicket uint32
}

// Hunts reports whether the hang hunter keeps a hang at health h.
func Hunts(h diagnose.Health) bool { return h == diagnose.Stalled || h == diagnose.Lost }

// Hunter decides when to keep a hang: at the first frame of each episode
// of stalled or lost health. The zero value waits for the first.
type Hunter struct{ in bool }

// Enter reports whether f starts an episode (its health hunts and the
// frame before's did not).
func (h *Hunter) Enter(f *frame.Frame) bool {
	hunts := f != nil && f.Diagnosis != nil && Hunts(f.Diagnosis.Health)
	enter := hunts && !h.in
	h.in = hunts
	return enter
}

// Hunting reports whether an episode runs (the last frame's health hunts).
func (h *Hunter) Hunting() bool { return h.in }

// NewHang keeps f's verdict and a copy of its buffers, and reports on the
// window t (whose opcode names it uses).
func NewHang(f *frame.Frame, t *TaskTrace) *Hang {
	raw := &f.Raw
	dump := &Frame{Seq: f.Seq, AtMillis: f.AtMillis, Control: slices.Clone(raw.Control), Ring: slices.Clone(raw.Ring),
		Log: slices.Clone(raw.Log), Meta: Meta{Published: raw.Published, Timings: f.Timings.Finite()}}
	if len(raw.Control) >= MinControlBytes {
		dump.Generation = abi.Word(raw.Control, abi.CtrlGeneration)
	}
	var health diagnose.Health
	var causes []diagnose.Kind
	if d := f.Diagnosis; d != nil {
		health = d.Health
		for i := range d.Causes {
			causes = append(causes, d.Causes[i].Kind)
		}
	}
	return newHang(dump, health, causes, t)
}

// inFlightHang reports whether a hang's causes are about a submission in
// flight (a device lost or a submission stuck), whose user opcodes it
// names.
func inFlightHang(causes []diagnose.Kind) bool {
	for _, k := range causes {
		if k == diagnose.DeviceLost || k == diagnose.SubmissionStuck {
			return true
		}
	}
	return false
}

// newHang reports on the window t and the state dump: each workgroup's
// last claimed task, the dump's CLAIMED slots, and for a device lost or a
// submission stuck, the user opcodes in flight and the dump's slots that
// hold them. Both are read from the dump, live and in a replay alike (a
// file keeps the cause kinds, not their evidence, and the evidence lists
// only the first three), so an exported hang replays the report it had.
func newHang(dump *Frame, health diagnose.Health, causes []diagnose.Kind, t *TaskTrace) *Hang {
	h := &Hang{Seq: dump.Seq, AtMillis: dump.AtMillis, Health: health, Causes: causes, Dump: dump}
	// last[w] is 1 + the index of workgroup w's last claimed record.
	var last []int
	for i := range t.Records {
		r := &t.Records[i]
		w := int(r.Workgroup)
		if w >= len(last) {
			last = append(last, make([]int, w+1-len(last))...)
		}
		if j := last[w] - 1; j < 0 || int32(r.Start-t.Records[j].Start) > 0 {
			last[w] = i + 1
		}
	}
	for w, i := range last {
		if i == 0 {
			continue
		}
		r := &t.Records[i-1]
		h.Workgroups = append(h.Workgroups, HangWorkgroup{Workgroup: uint32(w), Last: HangTask{Slot: r.Slot, Opcode: r.Opcode,
			Name: t.OpcodeName(r.Opcode), Status: r.Status, Lane: r.Lane, StartTicket: r.Start}})
	}
	ring := dump.Ring
	for s := 0; s+SlotBytes <= len(ring); s += SlotBytes {
		if decode.Status(abi.Word(ring[s:], abi.SlotStatus)) == decode.StatusClaimed {
			op := abi.Word(ring[s:], abi.SlotOpcode)
			h.Running = append(h.Running, HangTask{Slot: uint32(s / SlotBytes), Opcode: op, Name: t.OpcodeName(op),
				Status: decode.StatusClaimed})
		}
	}
	if inFlightHang(causes) {
		h.InFlight = dumpUserOpcodes(ring, t)
		h.Suspects = suspects(ring, h.InFlight, t)
	}
	return h
}

// runnable reports whether a slot in status s could run in the next
// submission: queued for a claim, or claimed.
func runnable(s decode.Status) bool { return s == decode.StatusPublished || s == decode.StatusClaimed }

// dumpUserOpcodes names the user opcodes of ring's runnable slots, by
// value: what the host names in flight when it submits (the opcodes a
// submission of that ring could run).
func dumpUserOpcodes(ring []byte, t *TaskTrace) []string {
	var seen [abi.UserOpcodeLast - abi.UserOpcodeFirst + 1]bool
	for s := 0; s+SlotBytes <= len(ring); s += SlotBytes {
		op := abi.Word(ring[s:], abi.SlotOpcode)
		if abi.IsUserOpcode(op) && runnable(decode.Status(abi.Word(ring[s:], abi.SlotStatus))) {
			seen[op-abi.UserOpcodeFirst] = true
		}
	}
	var names []string
	for i, ok := range seen {
		if ok {
			names = append(names, t.OpcodeName(abi.UserOpcodeFirst+uint32(i)))
		}
	}
	return names
}

// suspects are ring's runnable slots whose opcode t names as one of
// inFlight.
func suspects(ring []byte, inFlight []string, t *TaskTrace) []HangTask {
	var out []HangTask
	for s := 0; s+SlotBytes <= len(ring) && len(inFlight) > 0; s += SlotBytes {
		st := decode.Status(abi.Word(ring[s:], abi.SlotStatus))
		if !runnable(st) {
			continue
		}
		op := abi.Word(ring[s:], abi.SlotOpcode)
		if name := t.OpcodeName(op); slices.Contains(inFlight, name) {
			out = append(out, HangTask{Slot: uint32(s / SlotBytes), Opcode: op, Name: name, Status: st})
		}
	}
	return out
}

// hangListed is how many tasks a line of the report lists before "… N more".
const hangListed = 8

// SuspectText is the report's line on a runaway's suspects: the opcodes
// in flight and the dump's slots that hold them; "" when the hang is not
// about a submission in flight.
func (h *Hang) SuspectText() string {
	if !inFlightHang(h.Causes) {
		return ""
	}
	if len(h.InFlight) == 0 {
		return "in flight: no user opcode"
	}
	s := "in flight: " + strings.Join(h.InFlight, ", ")
	if len(h.Suspects) == 0 {
		return s + "; no slot of the dump holds them runnable"
	}
	s += "; suspects, the dump's slots that hold them (" + strconv.Itoa(len(h.Suspects)) + "): "
	for i, k := range h.Suspects[:min(len(h.Suspects), hangListed)] {
		if i > 0 {
			s += ", "
		}
		s += "slot " + strconv.FormatUint(uint64(k.Slot), 10) + " " + k.Name + " " + k.Status.String()
	}
	if n := len(h.Suspects) - hangListed; n > 0 {
		s += ", … " + strconv.Itoa(n) + " more"
	}
	return s
}

// HangCapture is a hang's capture file contents: the dump as its only
// frame, the window t (which holds the hang) as its task section, and
// header h's names (adapter, build, user opcodes).
func HangCapture(h Header, t *TaskTrace) *Capture {
	h.Source, h.DroppedFrames = SourceHang, 0
	return &Capture{Header: h, Frames: []Frame{*t.Hang.Dump}, Tasks: t}
}

// ExportHang encodes the hang t holds as a capture file, with the studio's
// header (build, adapter, window opcodes, user opcodes), and names it.
func (s *Studio) ExportHang(t *TaskTrace, now time.Time) ([]byte, string, error) {
	if t == nil || t.Hang == nil || t.Hang.Dump == nil {
		return nil, "", errors.New("export hang: no hang kept")
	}
	s.mu.Lock()
	h := s.header
	s.mu.Unlock()
	if h.WindowOpcodes == nil {
		h.WindowOpcodes = []uint32{}
	}
	h.CreatedAt = now.UTC().Format(time.RFC3339)
	b, err := Encode(HangCapture(h, t))
	return b, "ringscope-hang-" + now.UTC().Format("20060102-150405") + ".rscap", err
}
