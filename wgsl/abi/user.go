package abi

// User opcodes, user fault codes and user buffers (docs/OPCODES.md): the
// parts of the ABI a user's own WGSL functions plug into.
const (
	// UserOpcodeFirst and UserOpcodeLast bound the opcodes reserved for
	// user functions: 16 values below MetricOpcodes, so OPCODE_METRICS
	// counts every user opcode's executions, and disjoint from every
	// built-in opcode of PROTOCOL §4 (0–7, 0x100, 0x101, the system ranges).
	UserOpcodeFirst uint32 = 0x10
	UserOpcodeLast  uint32 = 0x1F
	// FaultUserFirst is the fault code of user_fault(0): a user function
	// that ends its slot with user_fault(c) faults FaultUserFirst + c, so
	// the log's format word (LogFaultTag | code) carries the user's code.
	FaultUserFirst = 0x100
	// FaultUserCodes is the number of user fault codes, 0 … 0xFEFF: the
	// fault code must fit the 16 bits below LogFaultTag. A larger c is
	// reported as the last one.
	FaultUserCodes = 0xFF00
	// BindingFirstUser is the binding of the first user buffer, after the
	// ABI's five and the summary's three (BindingFirstExtension + 2); user
	// buffer i takes BindingFirstUser + i in group BindGroup.
	BindingFirstUser = BindingFirstExtension + 3
	// DrainStorageBuffers is the storage buffers the drain binds itself
	// (control, ring, log, data): a device's maxStorageBuffersPerShaderStage
	// minus these is the most user buffers a kernel may declare.
	DrainStorageBuffers = 4
)

// IsUserOpcode reports whether op lies in the range reserved for user
// functions.
func IsUserOpcode(op uint32) bool { return op >= UserOpcodeFirst && op <= UserOpcodeLast }
