package decode

import (
	"fmt"
	"strconv"
)

// Topology is the scale-aware dispatch topology the launch policy selects
// (reference §7.4 step 4). The zero value is TopologyEmpty. It encodes as
// its name in JSON and other text formats.
type Topology uint8

// Topologies, in the order of the reference's MegakernelDispatchTopology.
const (
	// TopologyEmpty: nothing is queued.
	TopologyEmpty Topology = iota
	// TopologySparseFrontier: few items are active (or the density is
	// unknown); workers are shed toward the warp floor.
	TopologySparseFrontier
	// TopologyHybridFrontier: between sparse and dense.
	TopologyHybridFrontier
	// TopologyDenseFrontier: most items are active.
	TopologyDenseFrontier
	// TopologyFusedDense: dense, large and hot enough to fuse.
	TopologyFusedDense
	// TopologyMemoryConstrained: device memory pressure is high; workers
	// are shed and hit capacity gets no headroom.
	TopologyMemoryConstrained
)

var topologyNames = []string{
	TopologyEmpty:             "empty",
	TopologySparseFrontier:    "sparse_frontier",
	TopologyHybridFrontier:    "hybrid_frontier",
	TopologyDenseFrontier:     "dense_frontier",
	TopologyFusedDense:        "fused_dense",
	TopologyMemoryConstrained: "memory_constrained",
}

// String returns the topology's name, or Topology(n) for an unknown value.
func (t Topology) String() string { return enumString("Topology", topologyNames, uint8(t)) }

// MarshalText encodes the topology as its name; an unknown value is an error.
func (t Topology) MarshalText() ([]byte, error) {
	return enumMarshal("topology", topologyNames, uint8(t))
}

// UnmarshalText decodes a name written by MarshalText.
func (t *Topology) UnmarshalText(text []byte) error {
	v, err := enumUnmarshal("topology", topologyNames, text)
	if err != nil {
		return err
	}
	*t = Topology(v)
	return nil
}

// QueuePressure classifies the queue length against the lanes launched
// (reference §7.4 step 9). The zero value is PressureEmpty. It encodes as
// its name in JSON and other text formats.
type QueuePressure uint8

// Queue pressures, from idle to overloaded.
const (
	// PressureEmpty: nothing is queued.
	PressureEmpty QueuePressure = iota
	// PressureLight: fewer items than lanes.
	PressureLight
	// PressureBalanced: at least one item per lane, less than SaturatedWaves.
	PressureBalanced
	// PressureSaturated: SaturatedWaves or more items per lane, or requeues.
	PressureSaturated
)

var pressureNames = []string{
	PressureEmpty:     "empty",
	PressureLight:     "light",
	PressureBalanced:  "balanced",
	PressureSaturated: "saturated",
}

// String returns the pressure's name, or QueuePressure(n) for an unknown
// value.
func (q QueuePressure) String() string { return enumString("QueuePressure", pressureNames, uint8(q)) }

// MarshalText encodes the pressure as its name; an unknown value is an error.
func (q QueuePressure) MarshalText() ([]byte, error) {
	return enumMarshal("queue pressure", pressureNames, uint8(q))
}

// UnmarshalText decodes a name written by MarshalText.
func (q *QueuePressure) UnmarshalText(text []byte) error {
	v, err := enumUnmarshal("queue pressure", pressureNames, text)
	if err != nil {
		return err
	}
	*q = QueuePressure(v)
	return nil
}

// ExecutionMode is the route the launch policy picks for the work
// (reference §7.4 step 12). The zero value is ModeInterpreter. It encodes
// as its name in JSON and other text formats.
type ExecutionMode uint8

// Execution modes.
const (
	// ModeInterpreter runs every opcode through the generic megakernel.
	ModeInterpreter ExecutionMode = iota
	// ModeJIT specialises the pipeline for hot opcodes, windows or a long
	// queue.
	ModeJIT
)

var modeNames = []string{
	ModeInterpreter: "interpreter",
	ModeJIT:         "jit",
}

// String returns the mode's name, or ExecutionMode(n) for an unknown value.
func (m ExecutionMode) String() string { return enumString("ExecutionMode", modeNames, uint8(m)) }

// MarshalText encodes the mode as its name; an unknown value is an error.
func (m ExecutionMode) MarshalText() ([]byte, error) {
	return enumMarshal("execution mode", modeNames, uint8(m))
}

// UnmarshalText decodes a name written by MarshalText.
func (m *ExecutionMode) UnmarshalText(text []byte) error {
	v, err := enumUnmarshal("execution mode", modeNames, text)
	if err != nil {
		return err
	}
	*m = ExecutionMode(v)
	return nil
}

func enumString(typ string, names []string, v uint8) string {
	if int(v) < len(names) {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(int(v)) + ")"
}

// enumMarshal refuses unknown values: the policy never produces them, so
// one in output is a bug worth surfacing rather than a name to invent.
func enumMarshal(what string, names []string, v uint8) ([]byte, error) {
	if int(v) < len(names) {
		return []byte(names[v]), nil
	}
	return nil, fmt.Errorf("decode: cannot encode unknown %s %d", what, v)
}

// enumUnmarshal returns the index of a known name, or an error naming the
// accepted ones.
func enumUnmarshal(what string, names []string, text []byte) (uint8, error) {
	for i, n := range names {
		if string(text) == n {
			return uint8(i), nil
		}
	}
	return 0, fmt.Errorf("decode: unknown %s %q (want one of %q)", what, text, names)
}
