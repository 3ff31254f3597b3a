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

// StatusOrder lists the slot statuses in display order, by value; the
// last entry, decode.StatusUnknown, stands for every unknown raw value.
var StatusOrder = func() (order [decode.StatusUnknown + 1]decode.Status) {
	for i := range order {
		order[i] = decode.Status(i)
	}
	return order
}()

// StatusKey returns the key of a status used in class names and
// data-testid values, its decode.StatusKebab label: empty, published,
// claimed, done, wait-io, yield, requeue, fault, unknown.
func StatusKey(s decode.Status) string { return s.Label(decode.StatusKebab) }

// statusMeaning says in words what a slot in each status is doing.
var statusMeaning = [decode.StatusUnknown + 1]string{
	decode.StatusEmpty:     "free slot, nothing published",
	decode.StatusPublished: "written by the host, waiting for a lane to claim it",
	decode.StatusClaimed:   "a lane owns it and is running its opcode",
	decode.StatusDone:      "finished; reusable by the publisher",
	decode.StatusWaitIO:    "parked until the host services its I/O request",
	decode.StatusYield:     "gave up its turn (or tenant masked); republished at the same priority",
	decode.StatusRequeue:   "asked to run again; promoted after 32 requeues",
	decode.StatusFault:     "ended in a fault (see the log for the reason)",
	decode.StatusUnknown:   "a STATUS value outside the protocol (kept, not dropped)",
}

// StatusMeaning explains status s in one line (for titles and legends),
// after its protocol name: "WAIT_IO: parked until …".
func StatusMeaning(s decode.Status) string {
	s = min(s, decode.StatusUnknown)
	return s.Label(decode.StatusProtocol) + ": " + statusMeaning[s]
}

// statusRGBA is the slot-map colour of each status, by value, unknown
// last. static/dashboard.css declares the same colours as --st-<key> (a
// test checks that they agree).
var statusRGBA = [decode.StatusUnknown + 1][4]byte{
	decode.StatusEmpty:     {0x26, 0x2d, 0x38, 0xff},
	decode.StatusPublished: {0x3b, 0x82, 0xf6, 0xff},
	decode.StatusClaimed:   {0xf5, 0x9e, 0x0b, 0xff},
	decode.StatusDone:      {0x22, 0xc5, 0x5e, 0xff},
	decode.StatusWaitIO:    {0xa8, 0x55, 0xf7, 0xff},
	decode.StatusYield:     {0x06, 0xb6, 0xd4, 0xff},
	decode.StatusRequeue:   {0xec, 0x48, 0x99, 0xff},
	decode.StatusFault:     {0xef, 0x44, 0x44, 0xff},
	decode.StatusUnknown:   {0xff, 0xff, 0xff, 0xff},
}

// StatusColor returns the RGBA colour of status s on the slot map.
func StatusColor(s decode.Status) [4]byte { return statusRGBA[min(s, decode.StatusUnknown)] }
