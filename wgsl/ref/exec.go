package ref

import "github.com/ringscope/ringscope/wgsl/abi"

// fault is a fault code of PROTOCOL §5; 0 means none.
type fault uint32

// runSlot runs the slot claimed at partition p (package doc, "One claimed
// slot").
func (m *machine) runSlot(slot uint32, p int) {
	status := m.slotWord(slot, abi.SlotStatus)
	op := m.slotWord(slot, abi.SlotOpcode).get()
	tenant := m.slotWord(slot, abi.SlotTenant).get()
	switch {
	case status.get() != abi.StatusPublished:
		m.fault(slot, op, abi.FaultBadState)
		return
	case tenant >= abi.TenantCount:
		m.fault(slot, op, abi.FaultBadTenant)
		return
	case m.ctl(abi.CtrlTenantMask+int(tenant)).get() == 0:
		status.set(abi.StatusYield)
		m.ctl(abi.CtrlDenied).add(1)
		m.res.Denied++
		m.res.Yields++
		return
	}
	status.set(abi.StatusClaimed)
	m.ctl(abi.CtrlClaims).add(1)
	m.ctl(abi.CtrlTenantClaims + int(tenant)%abi.TenantSlots).add(1)
	m.ctl(abi.CtrlPriorityClaims + p).add(1)
	if op < abi.MetricOpcodes {
		m.ctl(abi.CtrlOpcodeMetrics + int(op)).add(1)
	}
	var a [abi.SlotArgs]uint32
	for i := range a {
		a[i] = m.slotWord(slot, abi.SlotArg0+i).get()
	}
	end, f := m.execute(slot, op, &a)
	if f != 0 {
		m.fault(slot, op, f)
		return
	}
	status.set(end)
	switch end {
	case abi.StatusDone:
		m.ctl(abi.CtrlDoneCount).add(1)
		m.res.Done++
	case abi.StatusYield:
		m.res.Yields++
	case abi.StatusRequeue:
		m.res.Requeues++
	case abi.StatusWaitIO:
		m.res.WaitIOs++
	}
}

// fault ends slot in FAULT with code f.
func (m *machine) fault(slot, op uint32, f fault) {
	m.slotWord(slot, abi.SlotStatus).set(abi.StatusFault)
	m.ctl(abi.CtrlDoneCount).add(1)
	m.ctl(abi.CtrlFaults).add(1)
	m.res.Faults++
	m.record(abi.LogFaultTag|uint32(f), slot, op, m.epoch)
}

// record appends one log record, or drops it past the capacity.
func (m *machine) record(format, slot, a, b uint32) {
	cursor := cell(m.b.Log[abi.LogCursor*abi.WordBytes:][:abi.WordBytes])
	r := cursor.get()
	cursor.set(r + 1)
	m.res.Records++
	capacity := binary32(m.b.Log[abi.LogCapacity*abi.WordBytes:])
	if uint64(r) >= min(uint64(capacity), m.logRoom) {
		return
	}
	base := (abi.LogHeaderWords + abi.LogRecordWords*int(r)) * abi.WordBytes
	for i, v := range [abi.LogRecordWords]uint32{format, slot, a, b} {
		cell(m.b.Log[base+i*abi.WordBytes:][:abi.WordBytes]).set(v)
	}
}

func binary32(b []byte) uint32 { return cell(b[:abi.WordBytes]).get() }

// canWrite checks a write to control word w.
func (m *machine) canWrite(w uint32) fault {
	if w < abi.CtrlObservable {
		return abi.FaultProtected
	}
	if uint64(w)-abi.CtrlObservable >= m.obs {
		return abi.FaultOutOfBounds
	}
	return 0
}

// canRead checks a read of control word w.
func (m *machine) canRead(w uint32) fault {
	if uint64(w) >= m.words {
		return abi.FaultOutOfBounds
	}
	return 0
}

// canResult checks a write to OBSERVABLE[i].
func (m *machine) canResult(i uint32) fault {
	if uint64(i) >= m.obs {
		return abi.FaultOutOfBounds
	}
	return 0
}

func (m *machine) result(i, v uint32) { m.ctl64(abi.CtrlObservable + uint64(i)).set(v) }

// first returns the first non-zero fault.
func first(fs ...fault) fault {
	for _, f := range fs {
		if f != 0 {
			return f
		}
	}
	return 0
}

// execute runs opcode op with args a and returns the slot's end status, or
// a fault (with no effect done).
func (m *machine) execute(slot, op uint32, a *[abi.SlotArgs]uint32) (uint32, fault) {
	switch op {
	case abi.OpNop:
	case abi.OpStoreU32:
		if f := m.canWrite(a[1]); f != 0 {
			return 0, f
		}
		m.ctl64(uint64(a[1])).set(a[0])
	case abi.OpAtomicAdd:
		if f := m.canWrite(a[1]); f != 0 {
			return 0, f
		}
		m.ctl64(uint64(a[1])).add(a[0])
	case abi.OpLoadU32:
		if f := first(m.canRead(a[0]), m.canResult(a[1])); f != 0 {
			return 0, f
		}
		m.result(a[1], m.ctl64(uint64(a[0])).get())
	case abi.OpCompareSwap:
		if f := first(m.canWrite(a[0]), m.canResult(a[3])); f != 0 {
			return 0, f
		}
		w := m.ctl64(uint64(a[0]))
		old := w.get()
		if old == a[1] {
			w.set(a[2])
		}
		m.result(a[3], old)
	case abi.OpMemcpy:
		src, dst, n := uint64(a[0]), uint64(a[1]), uint64(a[2])
		switch {
		case src+n > m.words:
			return 0, abi.FaultOutOfBounds
		case dst < abi.CtrlObservable:
			return 0, abi.FaultProtected
		case dst+n > abi.CtrlObservable+m.obs:
			return 0, abi.FaultOutOfBounds
		}
		for i := uint64(0); i < n; i++ {
			m.ctl64(dst + i).set(m.ctl64(src + i).get())
		}
	case abi.OpDFAStep:
		return m.dfaStep(a)
	case abi.OpBatchFence:
		if f := m.canResult(a[2]); f != 0 {
			return 0, f
		}
		m.ctl(abi.CtrlEpoch).add(1)
		m.result(a[2], a[1])
	case abi.OpHash:
		start, n := uint64(a[0]), uint64(a[1])
		if start+n > m.data {
			return 0, abi.FaultOutOfBounds
		}
		if f := m.canResult(a[2]); f != 0 {
			return 0, f
		}
		m.result(a[2], Hash(m.b.Data[start*abi.WordBytes:(start+n)*abi.WordBytes]))
	case abi.OpSpin:
		if a[0] > abi.SpinMaxRounds {
			return 0, abi.FaultOutOfBounds
		}
		if f := m.canResult(a[1]); f != 0 {
			return 0, f
		}
		m.result(a[1], Spin(a[2], a[0]))
	case abi.OpYield:
		return abi.StatusYield, 0
	case abi.OpRequeue:
		return abi.StatusRequeue, 0
	case abi.OpWaitIO:
		return abi.StatusWaitIO, 0
	case abi.OpRaise:
		return 0, abi.FaultUserFault
	case abi.OpPrintf:
		m.record(a[0], slot, a[1], a[2])
	case abi.OpShutdown:
		m.ctl(abi.CtrlShutdown).set(1)
	default:
		f, ok := m.k.User[op]
		if !ok {
			return 0, abi.FaultUnknownOpcode
		}
		st, code := f(&Call{Slot: slot, Args: *a, m: m})
		return st, fault(code)
	}
	return abi.StatusDone, 0
}

// dfaStep runs DFA_STEP (package doc).
func (m *machine) dfaStep(a *[abi.SlotArgs]uint32) (uint32, fault) {
	if f := m.canWrite(a[0]); f != 0 {
		return 0, f
	}
	table, from, n := uint64(a[1]), uint64(a[2]), uint64(a[3])
	if from+n > m.data*abi.WordBytes {
		return 0, abi.FaultOutOfBounds
	}
	state := m.ctl64(uint64(a[0])).get()
	for j := from; j < from+n; j++ {
		b := uint64(m.b.Data[j])
		t := table + 256*uint64(state) + b
		if t >= m.data {
			return 0, abi.FaultOutOfBounds
		}
		state = m.dataWord(t)
	}
	m.ctl64(uint64(a[0])).set(state)
	return abi.StatusDone, 0
}
