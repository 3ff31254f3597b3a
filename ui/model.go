package ui

// Dashboard statuses: the closed set shown in data-testid="status".
const (
	StatusLoading  = "loading"
	StatusReady    = "ready"
	StatusNoWebGPU = "no-webgpu"
)

// ErrorStatus returns the status text for err: "error: " + its message.
func ErrorStatus(err error) string {
	if err == nil {
		return "error: unknown"
	}
	return "error: " + err.Error()
}

// ReadbackTitle explains the readback modes (the form's and the header's
// tooltip).
const ReadbackTitle = "readback: auto picks full on a CPU or fallback adapter (SwiftShader: the reduce pass reads " +
	"the whole ring on the CPU, so summary frames are slower there: bench/results.md, row 2) and " +
	"summary on a real GPU; summary reads control + log + GPU summary + 4-bit status map each frame " +
	"(half a byte a slot rather than 64: bench/results.md, row 2) and the full ring only on demand (slot inspector, recording, " +
	"back-pressure, parked work); full reads every slot (64 B) each frame"
