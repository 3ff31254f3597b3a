//go:build js && wasm

package megakernel

import "github.com/ringscope/ringscope/wgsl/host"

// OpcodeEnds appends the items that ended DONE or FAULT per opcode in this
// generation, as the readbacks showed them (host.Queue.OpcodeEnds).
func (r *Runner) OpcodeEnds(dst []host.OpcodeCount) []host.OpcodeCount { return r.q.OpcodeEnds(dst) }
