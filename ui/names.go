package ui

import (
	"fmt"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// Names are the running kernel's names of its user opcodes (nil: none),
// which the dashboard hands the panels (Dashboard.OpcodeNames).
type Names map[uint32]string

// Opcode returns n's name of a user opcode, else decode.OpcodeName: the
// PROTOCOL §4 name, or USER(0x…) and SYS(0x…) for the unnamed.
func (n Names) Opcode(op uint32) string {
	if name, ok := n[op]; ok {
		return name
	}
	return decode.OpcodeName(op)
}

var priorityNames = [abi.PriorityLevels]string{"CRITICAL", "HIGH", "NORMAL", "LOW", "IDLE"}

// PriorityName returns the name of priority level p (0 CRITICAL … 4 IDLE),
// or P<n>? for a value outside the five levels.
func PriorityName(p uint32) string {
	if p < abi.PriorityLevels {
		return priorityNames[p]
	}
	return fmt.Sprintf("P%d?", p)
}

// StatusOrder lists the slot statuses in display order; the last entry,
// StatusUnknownKey, stands for every unknown raw value.
var StatusOrder = [...]decode.Status{
	decode.StatusEmpty, decode.StatusPublished, decode.StatusClaimed, decode.StatusDone,
	decode.StatusWaitIO, decode.StatusYield, decode.StatusRequeue, decode.StatusFault,
	StatusUnknownKey,
}

// StatusUnknownKey is the status value StatusOrder uses for "any unknown".
const StatusUnknownKey decode.Status = abi.StatusCount

// StatusKey returns the lower-case key of a status used in class names and
// data-testid values: empty, published, claimed, done, wait-io, yield,
// requeue, fault, unknown.
func StatusKey(s decode.Status) string {
	switch s {
	case decode.StatusEmpty:
		return "empty"
	case decode.StatusPublished:
		return "published"
	case decode.StatusClaimed:
		return "claimed"
	case decode.StatusDone:
		return "done"
	case decode.StatusWaitIO:
		return "wait-io"
	case decode.StatusYield:
		return "yield"
	case decode.StatusRequeue:
		return "requeue"
	case decode.StatusFault:
		return "fault"
	}
	return "unknown"
}

// statusMeaning says in words what a slot in each status is doing.
var statusMeaning = [...]string{
	"EMPTY: free slot, nothing published",
	"PUBLISHED: written by the host, waiting for a lane to claim it",
	"CLAIMED: a lane owns it and is running its opcode",
	"DONE: finished; reusable by the publisher",
	"WAIT_IO: parked until the host services its I/O request",
	"YIELD: gave up its turn (or tenant masked); republished at the same priority",
	"REQUEUE: asked to run again; promoted after 32 requeues",
	"FAULT: ended in a fault (see the log for the reason)",
	"UNKNOWN: a STATUS value outside the protocol (kept, not dropped)",
}

// StatusMeaning explains status s in one line (for titles and legends).
func StatusMeaning(s decode.Status) string {
	if s < StatusUnknownKey {
		return statusMeaning[s]
	}
	return statusMeaning[len(statusMeaning)-1]
}

// statusRGBA is the slot-map colour of each status, in StatusOrder order.
// static/dashboard.css declares the same colours as --st-<key> (a test
// checks that they agree).
var statusRGBA = [...][4]byte{
	{0x26, 0x2d, 0x38, 0xff}, // empty
	{0x3b, 0x82, 0xf6, 0xff}, // published
	{0xf5, 0x9e, 0x0b, 0xff}, // claimed
	{0x22, 0xc5, 0x5e, 0xff}, // done
	{0xa8, 0x55, 0xf7, 0xff}, // wait-io
	{0x06, 0xb6, 0xd4, 0xff}, // yield
	{0xec, 0x48, 0x99, 0xff}, // requeue
	{0xef, 0x44, 0x44, 0xff}, // fault
	{0xff, 0xff, 0xff, 0xff}, // unknown
}

// StatusColor returns the RGBA colour of status s on the slot map.
func StatusColor(s decode.Status) [4]byte {
	if s < StatusUnknownKey {
		return statusRGBA[s]
	}
	return statusRGBA[len(statusRGBA)-1]
}

// OccupancyCount returns the counter of o for status s (StatusUnknownKey
// and above read Unknown).
func OccupancyCount(o *decode.RingOccupancy, s decode.Status) uint32 {
	switch s {
	case decode.StatusEmpty:
		return o.Empty
	case decode.StatusPublished:
		return o.Published
	case decode.StatusClaimed:
		return o.Claimed
	case decode.StatusDone:
		return o.Done
	case decode.StatusWaitIO:
		return o.WaitIO
	case decode.StatusYield:
		return o.Yield
	case decode.StatusRequeue:
		return o.Requeue
	case decode.StatusFault:
		return o.Fault
	}
	return o.Unknown
}
