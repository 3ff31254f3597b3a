package webgpu

import (
	"errors"
	"fmt"
	"github.com/ringscope/ringscope/internal/nocompare"
	"strings"
)

// ErrNoWebGPU reports that the environment has no WebGPU: navigator.gpu is
// missing, or requestAdapter resolved to null.
var ErrNoWebGPU = errors.New("webgpu: WebGPU is not available")

// ErrDeviceLost is matched (errors.Is) by every error returned for work on a
// device that has been lost or destroyed. The concrete error is a
// *DeviceLostError carrying the reason.
var ErrDeviceLost = errors.New("webgpu: device lost")

// DeviceLostError is returned by an operation on a lost device.
type DeviceLostError struct {
	Op      string // the operation attempted, e.g. "create buffer"
	Reason  string // GPUDeviceLostInfo.reason: "destroyed" or "unknown"
	Message string // GPUDeviceLostInfo.message
}

func (e *DeviceLostError) Error() string {
	var b strings.Builder
	b.WriteString("webgpu: ")
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	b.WriteString("device lost")
	if e.Reason != "" {
		b.WriteString(" (" + e.Reason + ")")
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	return b.String()
}

// Is makes errors.Is(err, ErrDeviceLost) true.
func (e *DeviceLostError) Is(target error) bool { return target == ErrDeviceLost }

// JSError is a JS exception or Promise rejection reason. It is a cause: the
// operation that met it wraps it ("webgpu: map readback: AbortError: …").
type JSError struct {
	Name    string // the Error's name ("OperationError", "GPUPipelineError"); empty for a non-Error value
	Message string // the Error's message, or String(value) for a non-Error value
	Reason  string // GPUPipelineError.reason ("validation", "internal"), if any
}

func (e *JSError) Error() string {
	msg := strings.TrimSpace(e.Message)
	switch {
	case e.Name != "" && e.Reason != "":
		return e.Name + "(" + e.Reason + "): " + msg
	case e.Name != "":
		return e.Name + ": " + msg
	default:
		return msg
	}
}

// CompilationMessage is one GPUCompilationMessage of a shader module.
type CompilationMessage struct {
	_ nocompare.T

	Type    string // "error", "warning" or "info"
	Line    int    // 1-based line, 0 when unknown
	Column  int    // 1-based column (UTF-16 units), 0 when unknown
	Offset  int    // offset in the source (UTF-16 units)
	Length  int    // length of the span (UTF-16 units)
	Message string
}

func (m CompilationMessage) String() string {
	return fmt.Sprintf("%d:%d: %s: %s", m.Line, m.Column, m.Type, strings.TrimSpace(m.Message))
}

// ShaderError reports a shader module whose compilation info holds errors.
// Messages holds every message (warnings included), in the order the
// implementation gave them.
type ShaderError struct {
	Label    string
	Messages []CompilationMessage
}

// Errors returns the messages of type "error".
func (e *ShaderError) Errors() []CompilationMessage {
	var out []CompilationMessage
	for _, m := range e.Messages {
		if m.Type == "error" {
			out = append(out, m)
		}
	}
	return out
}

func (e *ShaderError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "webgpu: shader module %q", e.Label)
	errs := e.Errors()
	if len(errs) == 0 {
		b.WriteString(": compilation failed")
	}
	for i, m := range errs {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%d:%d: %s", m.Line, m.Column, strings.TrimSpace(m.Message))
	}
	return b.String()
}

// ValidationError is a GPUValidationError taken from an error scope.
type ValidationError struct{ Message string }

func (e *ValidationError) Error() string {
	return "webgpu: validation error: " + strings.TrimSpace(e.Message)
}

// OutOfMemoryError is a GPUOutOfMemoryError taken from an error scope.
type OutOfMemoryError struct{ Message string }

func (e *OutOfMemoryError) Error() string {
	return "webgpu: out of memory: " + strings.TrimSpace(e.Message)
}

// InternalError is a GPUInternalError taken from an error scope.
type InternalError struct{ Message string }

func (e *InternalError) Error() string {
	return "webgpu: internal error: " + strings.TrimSpace(e.Message)
}
