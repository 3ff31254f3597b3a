package ui

import "strings"

// StatusBadge shows the dashboard status, exactly one of loading, ready,
// no-webgpu or "error: …", in an element with data-testid="status".
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
	}
	return c.Status
}

// State is the badge's data-state for the base stylesheet: loading, ok,
// no-webgpu or error.
func (c *StatusBadge) State() string {
	switch {
	case c.Status == StatusReady:
		return "ok"
	case c.Status == StatusNoWebGPU:
		return "no-webgpu"
	case strings.HasPrefix(c.Status, "error:"):
		return "error"
	}
	return "loading"
}
