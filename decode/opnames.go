package decode

import (
	"fmt"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// OpcodeName returns the PROTOCOL §4 name of a built-in op, USER(0x…) for
// a user opcode and SYS(0x…) for an undefined system one. A kernel's own
// names for its user opcodes are the kernel's (wgsl.Kernel.Name).
func OpcodeName(op uint32) string {
	switch op {
	case abi.OpNop:
		return "NOP"
	case abi.OpStoreU32:
		return "STORE_U32"
	case abi.OpAtomicAdd:
		return "ATOMIC_ADD"
	case abi.OpLoadU32:
		return "LOAD_U32"
	case abi.OpCompareSwap:
		return "COMPARE_SWAP"
	case abi.OpMemcpy:
		return "MEMCPY"
	case abi.OpDFAStep:
		return "DFA_STEP"
	case abi.OpBatchFence:
		return "BATCH_FENCE"
	case abi.OpHash:
		return "HASH"
	case abi.OpSpin:
		return "SPIN"
	case abi.OpYield:
		return "YIELD"
	case abi.OpRequeue:
		return "REQUEUE"
	case abi.OpWaitIO:
		return "WAIT_IO"
	case abi.OpRaise:
		return "RAISE"
	case abi.OpPrintf:
		return "PRINTF"
	case abi.OpShutdown:
		return "SHUTDOWN"
	}
	if abi.IsSystemOpcode(op) {
		return fmt.Sprintf("SYS(0x%X)", op)
	}
	return fmt.Sprintf("USER(0x%X)", op)
}
