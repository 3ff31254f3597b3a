package examples

import (
	"fmt"
	"strings"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/kerneldef"
)

// Example is one worked example.
type Example struct {
	Name  string // the definition's "example" field and the preset's id
	Title string
	About string // one paragraph: what it computes and how it splits the work
	// Build makes the definition for seed: the same seed, the same inputs.
	Build func(seed uint64) kerneldef.Definition
	// Check recomputes on the host what a run of d's workload produces and
	// compares it with the device's (the user buffers, DONE_COUNT, the
	// opcode's executions, FAULTS).
	Check func(d kerneldef.Definition, rb Readback) Result
}

// Readback is what Check compares, read from the device after the drain.
type Readback struct {
	Buffer func(name string) ([]byte, error)
	Done   uint32 // DONE_COUNT of the generation
	Runs   uint32 // OPCODE_METRICS of the workload's opcode
	Faults uint32 // FAULTS
}

// Result is a check's verdict, said for a person.
type Result struct {
	OK      bool     `json:"ok"`
	Summary string   `json:"summary"`
	Wrong   []string `json:"wrong,omitempty"` // the first differences
}

// maxWrong bounds the differences a Result lists.
const maxWrong = 8

// List is every example, in the panel's order.
var List = []Example{Histogram, GraphStep, BFS, Wavefront}

// Lookup returns the example named name.
func Lookup(name string) (Example, error) {
	var names []string
	for _, e := range List {
		if e.Name == name {
			return e, nil
		}
		names = append(names, e.Name)
	}
	return Example{}, fmt.Errorf("no example %q: the examples are %s", name, strings.Join(names, ", "))
}

// verdict collects differences and the counts every check compares.
type verdict struct {
	wrong []string
	n     int
}

func (v *verdict) differ(format string, args ...any) {
	v.n++
	if len(v.wrong) < maxWrong {
		v.wrong = append(v.wrong, fmt.Sprintf(format, args...))
	}
}

// counts compares the ring's counters with the items the workload made.
func (v *verdict) counts(rb Readback, items, faults int) {
	if int(rb.Done) != items {
		v.differ("DONE_COUNT %d, want %d (one per item: publish the workload once after Apply)", rb.Done, items)
	}
	if int(rb.Runs) != items {
		v.differ("the opcode ran %d times, want %d", rb.Runs, items)
	}
	if int(rb.Faults) != faults {
		v.differ("FAULTS %d, want %d", rb.Faults, faults)
	}
}

func (v *verdict) result(ok string) Result {
	if v.n == 0 {
		return Result{OK: true, Summary: ok}
	}
	return Result{Summary: fmt.Sprintf("%d differences from the host's computation", v.n), Wrong: v.wrong}
}

// readWords reads a user buffer as words, or records why it could not.
func (v *verdict) readWords(rb Readback, name string) ([]uint32, bool) {
	b, err := rb.Buffer(name)
	if err != nil {
		v.differ("%s: %v", name, err)
		return nil, false
	}
	return abi.Words(b), true
}
