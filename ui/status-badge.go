package ui

import (
	"strconv"
	"strings"
)

// StatusBadge shows the dashboard status, exactly one of loading, ready,
// "busy: …" (BusyStatus), no-webgpu or "error: …", in an element with
// data-testid="status".
type StatusBadge struct {
	Status string
}

// Class colours the badge by status.
func (c *StatusBadge) Class() string {
	switch {
	case c.Status == StatusReady:
		return "badge badge-ok"
	case c.Status == StatusLoading:
		return "badge badge-info"
	case IsBusy(c.Status):
		return "badge badge-warn"
	case c.Status == StatusNoWebGPU, strings.HasPrefix(c.Status, "error:"):
		return "badge badge-bad"
	}
	return "badge"
}

// Title explains the status.
func (c *StatusBadge) Title() string {
	switch {
	case c.Status == StatusReady:
		return "WebGPU device ready; the megakernel pipeline compiled"
	case c.Status == StatusLoading:
		return "loading the wasm module and requesting a WebGPU adapter"
	case c.Status == StatusNoWebGPU:
		return "this browser exposes no WebGPU adapter (navigator.gpu missing or requestAdapter returned null)"
	case IsBusy(c.Status):
		return c.Status + ". Nothing is read back until the submission completes; past the bound the page gives the device up as a runaway and recovers (docs/OPCODES.md §1)."
	}
	return c.Status
}

// State is the badge's data-state for the base stylesheet: loading, ok,
// warn (busy), no-webgpu or error.
func (c *StatusBadge) State() string {
	switch {
	case c.Status == StatusReady:
		return "ok"
	case IsBusy(c.Status):
		return "warn"
	case c.Status == StatusNoWebGPU:
		return "no-webgpu"
	case strings.HasPrefix(c.Status, "error:"):
		return "error"
	}
	return "loading"
}

// statusBusy starts the status of a page waiting on a submission past the
// busy grace (megakernel.BusyGrace).
const statusBusy = "busy: "

// IsBusy reports whether status is a BusyStatus (or BusyLostStatus).
func IsBusy(status string) bool { return strings.HasPrefix(status, statusBusy) }

// BusyStatus is the status while a submission has been outstanding for
// waited (past the grace): how long, the user opcodes it could run, and
// the bound at which the page gives its device up as a runaway.
func BusyStatus(waitedMs, boundMs float64, opcodes []string) string {
	var b strings.Builder
	b.WriteString(statusBusy + "waiting on the GPU for ")
	b.WriteString(strconv.FormatFloat(waitedMs/1000, 'f', 1, 64))
	b.WriteString(" s (")
	if len(opcodes) > 0 {
		b.WriteString(strings.Join(opcodes, ", "))
		b.WriteString(" in flight; ")
	}
	b.WriteString("a runaway at ")
	b.WriteString(strconv.FormatFloat(boundMs/1000, 'f', -1, 64))
	b.WriteString(" s)")
	return b.String()
}

// BusyLostStatus is the status between a stuck submission's loss (the
// runaway bound gave its device up) and the recovery's verdict.
const BusyLostStatus = statusBusy + "the device was given up as a runaway; recovering on a new device"
