package session

import "github.com/ringscope/ringscope/decode"

// opcodeEnds is the frame's items ended per opcode, from the runner's
// queue (every opcode, those ≥ 32 too), nil when the frames come from an
// attached ring, whose publishes ringscope does not see. It reuses the
// session's storage: the frame copies it.
func (s *Session) opcodeEnds() []decode.Metric {
	if s.attached != nil || s.runner == nil {
		return nil
	}
	s.ends = s.runner.OpcodeEnds(s.ends[:0])
	s.endMetrics = s.endMetrics[:0]
	for _, e := range s.ends {
		s.endMetrics = append(s.endMetrics, decode.Metric{Opcode: e.Opcode, Count: uint32(e.Count)})
	}
	return s.endMetrics
}
