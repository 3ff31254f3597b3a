package session

import "github.com/ringscope/ringscope/wgsl/abi"

// queued is each partition's items published and not yet claimed
// (TAIL − HEAD, modulo 2^32) in a control buffer: what the workload's
// backlog presets top up.
func queued(control []byte) (q [abi.PriorityLevels]uint32) {
	if len(control) < abi.ControlMinWords*abi.WordBytes {
		return q
	}
	for p := range q {
		q[p] = abi.Word(control, abi.CtrlTail+p) - abi.Word(control, abi.CtrlHead+p)
	}
	return q
}
