//go:build js && wasm

package jsapi

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/controller"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/workload"
)

// openError names the option behind a runner's refusal as open's caller
// wrote it ("open: workgroupSize = 100: want …"), not by the Go field.
func openError(err error) error {
	var oe *megakernel.OptionError
	if !errors.As(err, &oe) || oe.Field == "" {
		return err
	}
	name := map[string]string{"TraceCapacity": "trace.capacity", "SubmissionTimeout": "submissionTimeoutMs"}[oe.Field]
	if name == "" {
		name = strings.ToLower(oe.Field[:1]) + oe.Field[1:]
	}
	return fmt.Errorf("open: %s = %d: %s", name, oe.Value, oe.Reason)
}

// readOpen reads open's options argument o: the ring's, the kernel's
// (opcodes, buffers) and its data; d are what absent ones take. An
// invalid field is an error naming it, before any GPU work.
func readOpen(o js.Value, d controller.OpenDefaults) (controller.OpenRequest, error) {
	oo, err := ringOptions(o, d)
	if err != nil {
		return oo, err
	}
	if oo.Kernel, err = kernelOption(o); err != nil {
		return oo, err
	}
	if oo.TraceCapacity, err = traceOption(o); err != nil {
		return oo, err
	}
	oo.Data, err = dataOption(o)
	return oo, err
}

// DefaultTraceCapacity is open's trace.capacity when absent.
const DefaultTraceCapacity = 1 << 16

// traceOption reads open's trace, {capacity}: the records a traced drain
// keeps per submission (docs/TRACE.md); 0 (absent) is no tracing.
func traceOption(o js.Value) (uint32, error) {
	v, err := OptProp(o, "open", "trace")
	switch {
	case err != nil:
		return 0, err
	case v.IsUndefined() || v.IsNull():
		return 0, nil
	case TypeName(v) != "object":
		return 0, fmt.Errorf("open: trace must be an object {capacity}, got %s", TypeName(v))
	}
	if err := Known(v, &api.TraceOptions, ""); err != nil {
		return 0, err
	}
	f, ok, err := OptNumber(v, "open: trace", "capacity")
	switch {
	case err != nil:
		return 0, err
	case !ok:
		return DefaultTraceCapacity, nil
	case f != math.Trunc(f) || f < 1 || f > megakernel.MaxTraceCapacity: // NaN and ±Inf too
		// One range for every refusal, the one the runner takes, not a
		// u32's: 0, -1 and 2**40 are all out of it.
		return 0, fmt.Errorf("open: trace.capacity must be an integer 1…%d, got %s", megakernel.MaxTraceCapacity, jsNumber(f))
	}
	return uint32(f), nil
}

// jsNumber prints f as JavaScript would, but never with an exponent:
// 1099511627776, not 1.099511627776e+12.
func jsNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0" // -0 too
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func ringOptions(o js.Value, d controller.OpenDefaults) (controller.OpenRequest, error) {
	const what = "open"
	var oo controller.OpenRequest
	opts := &oo.Options
	if err := Known(o, &api.OpenOptions, ""); err != nil {
		return oo, err
	}
	fields := []struct {
		name string
		dst  *uint32
		def  uint32
	}{
		{"slots", &opts.Slots, uint32(d.Slots)},
		{"tenants", &opts.Tenants, 1},
		{"observable", &opts.Observable, workload.ObservableWords},
		{"logCapacity", &opts.LogCapacity, uint32(d.LogCapacity)},
		{"budget", &opts.Budget, 64},
		{"workgroupSize", &opts.WorkgroupSize, 64},
		{"workerGroups", &opts.WorkerGroups, 0},
	}
	for _, f := range fields {
		v, err := OptUint32(o, what, f.name, f.def)
		if err != nil {
			return oo, err
		}
		*f.dst = v
	}
	mem, err := OptUint64(o, what, "memoryBudgetBytes", d.MemoryBudgetBytes)
	if err != nil {
		return oo, err
	}
	opts.MemoryBudgetBytes = mem
	n, err := OptUint32(o, what, "watchdogIntervals", decode.DefaultStallIntervals)
	switch {
	case err != nil:
		return oo, err
	case n == 0 || n > maxWatchdogIntervals:
		return oo, fmt.Errorf("open: watchdogIntervals must be 1…%d, got %d", maxWatchdogIntervals, n)
	}
	oo.WatchdogIntervals = int(n)
	ms, err := OptUint32(o, what, "submissionTimeoutMs", 0)
	if err != nil {
		return oo, err
	}
	if opts.SubmissionTimeout, err = megakernel.SubmissionTimeoutMs(ms); err != nil {
		return oo, fmt.Errorf("open: %w", err)
	}
	if oo.Readback, err = optReadback(o); err != nil {
		return oo, err
	}
	masks, err := OptUint32Array(o, what, "masks", MaxOptionArray)
	if err != nil {
		return oo, err
	}
	if masks == nil && opts.Tenants == 0 {
		// 0 would open a ring whose every tenant is masked: nothing
		// published would ever run. Masks say so explicitly.
		return oo, errors.New("open: tenants must be 1…29, got 0 (to open a ring with every tenant masked, give masks)")
	}
	if masks != nil {
		opts.Tenants = 0
		opts.Masks = make([]uint32, len(masks))
		for i, m := range masks {
			if m != 0 {
				opts.Masks[i] = host.MaskOn
			}
		}
	}
	if opts.WindowOpcodes, err = OptUint32Array(o, what, "windowOpcodes", MaxOptionArray); err != nil {
		return oo, err
	}
	return oo, nil
}

// optReadback reads open's readback: one of decode.PageReadbacks, full
// when absent (drain() and snapshot() give every slot, as before the
// option).
func optReadback(o js.Value) (decode.Readback, error) {
	v, err := OptProp(o, "open", "readback")
	switch {
	case err != nil:
		return 0, err
	case v.IsUndefined() || v.IsNull():
		return decode.ReadbackFull, nil
	case TypeName(v) != "string":
		return 0, fmt.Errorf("open: readback must be a string, one of %s; got %s", decode.ReadbackNames(), TypeName(v))
	}
	name, err := String(v, "open: readback", MaxName)
	if err != nil {
		return 0, err
	}
	mode, ok := decode.ParseReadback(name)
	if !ok || name == "" {
		return 0, fmt.Errorf("open: readback %q: want one of %s", name, decode.ReadbackNames())
	}
	return mode, nil
}

// maxWatchdogIntervals bounds open's watchdogIntervals.
const maxWatchdogIntervals = 1000

// Bounds of what open reads of a kernel before any of it is copied.
const (
	maxKernelOpcodes = int(abi.UserOpcodeLast - abi.UserOpcodeFirst + 1)
	maxKernelBuffers = 64
	// maxUserBufferBytes bounds one buffer's initial bytes as read from JS;
	// the device's own limit (maxStorageBufferBindingSize) is checked after.
	maxUserBufferBytes = 256 << 20
)

// kernelOption reads open's opcodes and buffers:
//
//	opcodes: [{opcode, name, wgsl}]
//	buffers: [{name, access: "read" | "read_write", element?, size?, bytes?, words?}]
//	data: Uint8Array | ArrayBuffer | [u32]   (dataOption)
//
// size defaults to the initial bytes' length; bytes is a Uint8Array or
// ArrayBuffer, words an array of the element type's values (one of the
// two: Words).
func kernelOption(o js.Value) (wgsl.Kernel, error) {
	var k wgsl.Kernel
	ops, err := OptProp(o, "open", "opcodes")
	if err != nil {
		return k, err
	}
	if !ops.IsUndefined() && !ops.IsNull() {
		n, err := Array(ops, "open: opcodes", maxKernelOpcodes)
		if err != nil {
			return k, err
		}
		for i := range n {
			op, err := readOpcode(ops, i)
			if err != nil {
				return k, err
			}
			k.Opcodes = append(k.Opcodes, op)
		}
	}
	bufs, err := OptProp(o, "open", "buffers")
	if err != nil {
		return k, err
	}
	if !bufs.IsUndefined() && !bufs.IsNull() {
		n, err := Array(bufs, "open: buffers", maxKernelBuffers)
		if err != nil {
			return k, err
		}
		for i := range n {
			b, err := readBuffer(bufs, i)
			if err != nil {
				return k, err
			}
			k.Buffers = append(k.Buffers, b)
		}
	}
	return k, nil
}

func element(arr js.Value, what string, i int, t *api.OptionTable) (js.Value, string, error) {
	field := fmt.Sprintf("%s[%d]", what, i)
	v, err := Get(arr, "open: "+field, i)
	if err != nil {
		return v, field, err
	}
	if TypeName(v) != "object" {
		return v, field, fmt.Errorf("open: %s must be an object, got %s", field, TypeName(v))
	}
	return v, field, Known(v, t, "open: "+field)
}

func readOpcode(ops js.Value, i int) (wgsl.Opcode, error) {
	var op wgsl.Opcode
	e, field, err := element(ops, "opcodes", i, &api.OpcodeOptions)
	if err != nil {
		return op, err
	}
	if op.Value, err = OptUint32(e, "open: "+field, "opcode", 0); err != nil {
		return op, err
	}
	if v, _ := Get(e, "", "opcode"); v.IsUndefined() {
		return op, fmt.Errorf("open: %s.opcode is missing: a number %#x…%#x", field, abi.UserOpcodeFirst, abi.UserOpcodeLast)
	}
	if op.Name, err = stringProp(e, field, "name", wgsl.MaxNameBytes+1); err != nil {
		return op, err
	}
	op.WGSL, err = stringProp(e, field, "wgsl", wgsl.MaxOpcodeSourceBytes+1)
	return op, err
}

func readBuffer(bufs js.Value, i int) (wgsl.Buffer, error) {
	var b wgsl.Buffer
	e, field, err := element(bufs, "buffers", i, &api.BufferOptions)
	if err != nil {
		return b, err
	}
	if b.Name, err = stringProp(e, field, "name", wgsl.MaxNameBytes+1); err != nil {
		return b, err
	}
	access, err := optStringProp(e, field, "access", "read")
	switch {
	case err != nil:
		return b, err
	case access == "read_write":
		b.Access = wgsl.ReadWrite
	case access != "read":
		return b, fmt.Errorf("open: %s.access %q: want \"read\" or \"read_write\"", field, access)
	}
	if b.Element, err = optStringProp(e, field, "element", "u32"); err != nil {
		return b, err
	}
	if b.Init, err = initBytes(e, field, b.Element); err != nil {
		return b, err
	}
	size, err := OptUint64(e, "open: "+field, "size", uint64(len(b.Init)))
	b.Size = size
	return b, err
}

// initBytes reads a buffer's initial contents: bytes (a Uint8Array or
// ArrayBuffer) or words (an array of u32), one of the two, or neither.
func initBytes(e js.Value, field, element string) ([]byte, error) {
	bytes, err := Get(e, "open: "+field+".bytes", "bytes")
	if err != nil {
		return nil, err
	}
	var init []byte
	if !bytes.IsUndefined() && !bytes.IsNull() {
		if init, err = Bytes(bytes, "open: "+field+".bytes", maxUserBufferBytes); err != nil {
			return nil, err
		}
	}
	words, err := OptProp(e, "open: "+field, "words")
	if err != nil || words.IsUndefined() || words.IsNull() {
		return init, err
	}
	if init != nil {
		return nil, fmt.Errorf("open: %s: give bytes or words, not both", field)
	}
	return Words(words, "open: "+field+".words", maxUserBufferBytes/abi.WordBytes, element)
}

// dataOption reads open's data, the contents of the data binding (4) that
// user opcodes read: a Uint8Array or ArrayBuffer, or an array of u32.
func dataOption(o js.Value) ([]byte, error) {
	v, err := OptProp(o, "open", "data")
	if err != nil || v.IsUndefined() || v.IsNull() {
		return nil, err
	}
	if IsArray(v) {
		return Words(v, "open: data", maxUserBufferBytes/abi.WordBytes, "u32")
	}
	return Bytes(v, "open: data", maxUserBufferBytes)
}

// stringProp reads a required string property of at most max bytes.
func stringProp(o js.Value, field, name string, max int) (string, error) {
	v, err := Get(o, "open: "+field+"."+name, name)
	if err != nil {
		return "", err
	}
	return String(v, "open: "+field+"."+name, max)
}

// optStringProp is stringProp with a default for an absent property.
func optStringProp(o js.Value, field, name, def string) (string, error) {
	v, err := Get(o, "open: "+field+"."+name, name)
	if err != nil || v.IsUndefined() || v.IsNull() {
		return def, err
	}
	return String(v, "open: "+field+"."+name, 64)
}
