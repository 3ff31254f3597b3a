package abi

// DefaultPartitions returns PRIORITY_OFFSETS for a ring of slots slots, by
// vyre's rule: every level gets slots/5 and NORMAL also gets the remainder.
// The last offset is slots. For 256 slots: [0 51 102 154 205 256].
func DefaultPartitions(slots uint32) [PriorityLevels + 1]uint32 {
	base, rem := slots/PriorityLevels, slots%PriorityLevels
	var off [PriorityLevels + 1]uint32
	for p := 0; p < PriorityLevels; p++ {
		size := base
		if p == PriorityNormal {
			size += rem
		}
		off[p+1] = off[p] + size
	}
	return off
}

// IsSystemOpcode reports whether op lies in a reserved system range.
func IsSystemOpcode(op uint32) bool {
	return op&OpSystemBit != 0 || (op >= OpSystemLow && op <= OpSystemHigh)
}

// IsPublishable reports whether a host may publish op: any user opcode, or
// one of the system opcodes PROTOCOL §4 defines.
func IsPublishable(op uint32) bool {
	if !IsSystemOpcode(op) {
		return true
	}
	switch op {
	case OpYield, OpRequeue, OpWaitIO, OpRaise, OpPrintf, OpShutdown:
		return true
	}
	return false
}

// ControlWords is the length in words of a control buffer with observable
// OBSERVABLE words.
func ControlWords(observable uint32) uint32 { return ControlMinWords + observable }

// LogWords is the length in words of a log buffer holding capacity records.
func LogWords(capacity uint32) uint32 { return LogHeaderWords + LogRecordWords*capacity }
