package decode

import (
	"encoding/binary"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// controlWords is a control buffer under construction, as words.
type controlWords []uint32

// newControl returns a v1 control buffer with observable OBSERVABLE words,
// MAGIC, ABI_VERSION, TENANT_BASE and default partitions for slots set.
func newControl(observable int, slots uint32) controlWords {
	c := make(controlWords, abi.ControlWords(uint32(observable)))
	c[abi.CtrlTenantBase] = abi.TenantBaseValue
	c[abi.CtrlMagic] = abi.Magic
	c[abi.CtrlABIVersion] = abi.Version
	off := abi.DefaultPartitions(slots)
	copy(c[abi.CtrlPriorityOffsets:], off[:])
	return c
}

// newLegacyControl returns a vyre control buffer: MAGIC = 0.
func newLegacyControl(observable int, slots uint32) controlWords {
	c := newControl(observable, slots)
	c[abi.CtrlMagic], c[abi.CtrlABIVersion] = 0, 0
	return c
}

func (c controlWords) bytes() []byte { return wordBytes(c...) }

// wordBytes encodes words little-endian.
func wordBytes(ws ...uint32) []byte {
	b := make([]byte, 0, len(ws)*abi.WordBytes)
	for _, w := range ws {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	return b
}

// slot describes one ring slot; unset args are zero.
type slot struct {
	status, op, tenant, prio uint32
	args                     []uint32
}

func (s slot) words() [abi.SlotWords]uint32 {
	var w [abi.SlotWords]uint32
	w[abi.SlotStatus], w[abi.SlotOpcode], w[abi.SlotTenant], w[abi.SlotPriority] = s.status, s.op, s.tenant, s.prio
	copy(w[abi.SlotArg0:], s.args)
	return w
}

// ringBytes encodes slots as a ring buffer.
func ringBytes(slots ...slot) []byte {
	b := make([]byte, 0, len(slots)*abi.SlotBytes)
	for _, s := range slots {
		w := s.words()
		b = append(b, wordBytes(w[:]...)...)
	}
	return b
}

// statusRing is a ring whose slot i has status statuses[i] and opcode 0.
func statusRing(statuses ...uint32) []byte {
	slots := make([]slot, len(statuses))
	for i, st := range statuses {
		slots[i] = slot{status: st}
	}
	return ringBytes(slots...)
}

// window is a ticketed window slot: args = [ticket, class].
func window(status, op, tenant, ticket, class uint32) slot {
	return slot{status: status, op: op, tenant: tenant, prio: abi.PriorityNormal, args: []uint32{ticket, class}}
}

// telemetryOf decodes strictly and panics on error: for vectors whose
// buffers are known good.
func telemetryOf(control controlWords, ring []byte, windowOps ...uint32) RingTelemetry {
	t, err := tryDecodeWindows(control.bytes(), ring, windowOps)
	if err != nil {
		panic(err)
	}
	return t
}

// decodeLenient decodes whatever it can and never fails or panics: a short control
// buffer reads as zeros past its end, a trailing partial word or slot is
// ignored. It is meant for display; use tryDecode to check a dump.
func decodeLenient(control, ring []byte) RingTelemetry {
	return decodeLenientWindows(control, ring, nil)
}

// decodeLenientWindows is the lenient Decode with ticketed windows.
func decodeLenientWindows(control, ring []byte, windowOpcodes []uint32) RingTelemetry {
	var t RingTelemetry
	var scratch DecodeScratch
	slots := uint64(len(ring) / abi.SlotBytes)
	decodeChecked(&t, &scratch, control, ring[:min(slots, maxSlots)*abi.SlotBytes], windowOpcodes)
	return t
}

// tryDecode strictly decodes a control and a ring buffer. It fails, with a
// *DecodeError, only when a buffer has the wrong size: control shorter than
// 160 words or not whole words, ring not whole 64-byte slots.
func tryDecode(control, ring []byte) (RingTelemetry, error) {
	return tryDecodeWindows(control, ring, nil)
}

// tryDecodeWindows is tryDecode that also groups the slots of the
// given opcodes into ticketed windows (RingTelemetry.Windows).
func tryDecodeWindows(control, ring []byte, windowOpcodes []uint32) (RingTelemetry, error) {
	var t RingTelemetry
	var scratch DecodeScratch
	if err := DecodeInto(&t, &scratch, control, ring, windowOpcodes); err != nil {
		return RingTelemetry{}, err
	}
	return t, nil
}

// decodeLog decodes a log buffer; see DecodeLogInto.
func decodeLog(log []byte) (Log, error) {
	var l Log
	if err := DecodeLogInto(&l, log); err != nil {
		return Log{}, err
	}
	return l, nil
}
