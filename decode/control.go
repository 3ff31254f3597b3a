package decode

import (
	"fmt"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// controlMinBytes is the size of a control buffer with no observable words.
const controlMinBytes = abi.ControlMinWords * abi.WordBytes

// checkControl reports why control cannot be decoded strictly, or nil.
func checkControl(control []byte) error {
	n := len(control)
	if n%abi.WordBytes != 0 {
		return &DecodeError{Buffer: BufferControl, Offset: n - n%abi.WordBytes, Msg: fmt.Sprintf(
			"control snapshot length %d bytes is not a whole number of %d-byte words", n, abi.WordBytes)}
	}
	if n < controlMinBytes {
		return &DecodeError{Buffer: BufferControl, Offset: n, Msg: fmt.Sprintf(
			"control snapshot of %d bytes is shorter than the %d-byte minimum (%d words); word %d is missing",
			n, controlMinBytes, abi.ControlMinWords, n/abi.WordBytes)}
	}
	return nil
}

// decodeControl fills dst from control, reusing dst's slices. It is lenient:
// missing words read as zero and a trailing partial word is ignored, so the
// strict callers validate first.
func decodeControl(dst *ControlSnapshot, control []byte) {
	// Fixed words are gathered into a zero-padded array once so that the
	// field decoding below never needs a bounds decision.
	var w [abi.ControlMinWords]uint32
	words := len(control) / abi.WordBytes
	for i := 0; i < min(words, abi.ControlMinWords); i++ {
		w[i] = abi.Word(control, i)
	}

	dst.Shutdown = w[abi.CtrlShutdown] != 0
	dst.DoneCount = w[abi.CtrlDoneCount]
	dst.Epoch = w[abi.CtrlEpoch]
	dst.Metrics = dst.Metrics[:0]
	for op, count := range w[abi.CtrlOpcodeMetrics : abi.CtrlOpcodeMetrics+abi.MetricOpcodes] {
		if count != 0 {
			dst.Metrics = append(dst.Metrics, Metric{Opcode: uint32(op), Count: count})
		}
	}
	copy(dst.TenantFairness[:], w[abi.CtrlTenantClaims:])
	copy(dst.PriorityFairness[:], w[abi.CtrlPriorityClaims:])

	dst.TenantBase = w[abi.CtrlTenantBase]
	copy(dst.TenantMasks[:], w[abi.CtrlTenantMask:])
	copy(dst.TenantQuotas[:], w[abi.CtrlTenantQuota:])
	copy(dst.PriorityOffsets[:], w[abi.CtrlPriorityOffsets:])
	dst.Starvation = w[abi.CtrlStarvation]

	dst.Legacy = w[abi.CtrlMagic] == 0
	if dst.Legacy {
		// vyre left words 141–159 unused; whatever they hold means nothing.
		clear(w[abi.LegacyLastWord+1:])
	}
	dst.Magic = w[abi.CtrlMagic]
	dst.ABIVersion = w[abi.CtrlABIVersion]
	dst.Generation = w[abi.CtrlGeneration]
	dst.Dispatches = w[abi.CtrlDispatches]
	dst.Claims = w[abi.CtrlClaims]
	dst.Faults = w[abi.CtrlFaults]
	dst.Denied = w[abi.CtrlDenied]
	dst.BudgetExhausted = w[abi.CtrlBudgetExhausted]
	copy(dst.Heads[:], w[abi.CtrlHead:])
	copy(dst.Tails[:], w[abi.CtrlTail:])

	dst.Observable = dst.Observable[:0]
	if words > abi.CtrlObservable {
		dst.Observable = growUint32(dst.Observable, words-abi.CtrlObservable)
		for i := range dst.Observable {
			dst.Observable[i] = abi.Word(control, abi.CtrlObservable+i)
		}
	}
}

// KnownABI is CheckABI without its error (per frame, allocation-free): a
// legacy vyre dump, or MAGIC and ABI_VERSION of this ABI.
func (c *ControlSnapshot) KnownABI() bool {
	return c.Legacy || (c.Magic == abi.Magic && c.ABIVersion == abi.Version)
}

// CheckABI reports whether c was written by an ABI this package knows: a
// legacy vyre dump, or MAGIC = abi.Magic with ABI_VERSION = abi.Version.
// Decoders do not call it, so a foreign buffer can still be shown; callers
// that act on the v1 words should.
func (c *ControlSnapshot) CheckABI() error {
	if c.KnownABI() {
		return nil
	}
	if c.Magic != abi.Magic {
		return &DecodeError{Buffer: BufferControl, Offset: abi.CtrlMagic * abi.WordBytes, Msg: fmt.Sprintf(
			"control snapshot MAGIC is 0x%08x, want 0x%08x (ABI v%d) or 0 (legacy vyre dump)", c.Magic, abi.Magic, abi.Version)}
	}
	if c.ABIVersion != abi.Version {
		return &DecodeError{Buffer: BufferControl, Offset: abi.CtrlABIVersion * abi.WordBytes, Msg: fmt.Sprintf(
			"control snapshot ABI_VERSION is %d, this decoder reads version %d", c.ABIVersion, abi.Version)}
	}
	return nil
}

// Observed returns OBSERVABLE[i], and false when the buffer has no such word.
func (c *ControlSnapshot) Observed(i uint32) (uint32, bool) {
	if uint64(i) >= uint64(len(c.Observable)) {
		return 0, false
	}
	return c.Observable[i], true
}

// growUint32 returns s resized to n, reusing its storage when it is large enough.
func growUint32(s []uint32, n int) []uint32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]uint32, n)
}
