package api

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// ErrNotReady is the rejection of a call made before ringscope.ready.
var ErrNotReady = errors.New("ringscope: not ready: await ringscope.ready first (it rejects when the page has no WebGPU)")

// ErrAttached is the rejection of the runner's methods while an attachment
// drives the ring.
var ErrAttached = errors.New("ringscope: an attachment drives the ring (ringscope.attach): open, publish, publishWorkload, setTenantMask, setIOService, setShutdown, drain, readBuffer and checkExample act on ringscope's own runner; call detach() first")

// Named is err as a method's rejection: a state error of the whole page
// (ErrNotReady, ErrAttached) names the method refused, as every other
// rejection does.
func Named(method string, err error) error {
	if (errors.Is(err, ErrNotReady) || errors.Is(err, ErrAttached)) && !strings.HasPrefix(err.Error(), method+": ") {
		return fmt.Errorf("%s: %w", method, err)
	}
	return err
}

// Uint32 checks that a JavaScript number is an unsigned 32-bit integer.
// what names it in the error ("open: slots").
func Uint32(what string, v float64) (uint32, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) || v != math.Trunc(v) || v < 0 || v > math.MaxUint32 {
		return 0, fmt.Errorf("%s must be an integer 0…4294967295, got %v", what, v)
	}
	return uint32(v), nil
}

// uint32Of is Uint32's check without its message.
func uint32Of(v float64) (uint32, bool) {
	if math.IsNaN(v) || math.IsInf(v, 0) || v != math.Trunc(v) || v < 0 || v > math.MaxUint32 {
		return 0, false
	}
	return uint32(v), true
}

// RawItem is a publish item as JavaScript gave it: numbers not yet checked.
// Args holds up to abi.SlotArgs numbers.
type RawItem struct {
	Opcode, Tenant, Priority float64
	Args                     []float64
}

// Item validates one JavaScript item (number i of the batch) into a host
// item. It checks types and ranges; the publisher checks the rest (reserved
// opcodes, room, quotas) for the whole batch.
func Item(i int, raw RawItem) (host.Item, error) {
	var it host.Item
	var err error
	// The field's name is formatted only for its error: a batch of
	// 32,768 items would otherwise format 200,000 names it never shows.
	field := func(name string, arg int, v float64) uint32 {
		if err != nil {
			return 0
		}
		if u, ok := uint32Of(v); ok {
			return u
		}
		if arg >= 0 {
			name = fmt.Sprintf("args[%d]", arg)
		}
		_, err = Uint32(fmt.Sprintf("publish: item %d: %s", i, name), v)
		return 0
	}
	it.Opcode = field("opcode", -1, raw.Opcode)
	it.Tenant = field("tenant", -1, raw.Tenant)
	it.Priority = field("priority", -1, raw.Priority)
	if err != nil {
		return host.Item{}, err
	}
	if len(raw.Args) > abi.SlotArgs {
		return host.Item{}, fmt.Errorf("publish: item %d: %d args; a slot holds at most %d", i, len(raw.Args), abi.SlotArgs)
	}
	for a, v := range raw.Args {
		it.Args[a] = field("", a, v)
	}
	if err != nil {
		return host.Item{}, err
	}
	if it.Tenant >= abi.TenantCount {
		return host.Item{}, fmt.Errorf("publish: item %d: tenant %d is invalid: tenant ids are 0…%d", i, it.Tenant, abi.TenantCount-1)
	}
	if it.Priority > abi.PriorityIdle {
		return host.Item{}, fmt.Errorf("publish: item %d: priority %d is invalid: 0 (CRITICAL) … 4 (IDLE)", i, it.Priority)
	}
	if !abi.IsPublishable(it.Opcode) {
		return host.Item{}, fmt.Errorf("publish: item %d: opcode %#x is a reserved system opcode", i, it.Opcode)
	}
	return it, nil
}

// KnownOpcode reports whether op is an opcode the kernel implements
// (PROTOCOL §4); any other user opcode faults UNKNOWN_OPCODE on the device.
func KnownOpcode(op uint32) bool {
	switch op {
	case abi.OpNop, abi.OpStoreU32, abi.OpAtomicAdd, abi.OpLoadU32, abi.OpCompareSwap, abi.OpMemcpy,
		abi.OpDFAStep, abi.OpBatchFence, abi.OpHash, abi.OpSpin,
		abi.OpYield, abi.OpRequeue, abi.OpWaitIO, abi.OpRaise, abi.OpPrintf, abi.OpShutdown:
		return true
	}
	return false
}

// CheckTenants refuses the first item of a tenant the ring does not run
// (an id ≥ tenants, the ring's RingTenants): its mask word is 0, so the
// kernel would deny it forever. The Kernel panel refuses such a workload
// before publishing it too.
func CheckTenants(items []host.Item, tenants uint32) error {
	for i, it := range items {
		if it.Tenant >= tenants {
			runs := "no tenant"
			switch tenants {
			case 0:
			case 1:
				runs = "tenant 0 only"
			default:
				runs = fmt.Sprintf("tenants 0…%d", tenants-1)
			}
			// The fix covers every item (a workload spreads over its
			// tenants), not just the first refused.
			top := it.Tenant
			for _, later := range items[i+1:] {
				top = max(top, later.Tenant)
			}
			return fmt.Errorf("publish: item %d: tenant %d is not one the ring runs (it runs %s: open({tenants: %d}) runs every tenant these items use); "+
				"its work would wait forever, nothing published", i, it.Tenant, runs, top+1)
		}
	}
	return nil
}

// CheckKnownOpcodes refuses the first item whose opcode the kernel does not
// implement (neither KnownOpcode nor one of the user kernel's, as user
// reports): publishing it can only fault. Callers that want the fault (to
// exercise UNKNOWN_OPCODE) skip this check.
func CheckKnownOpcodes(items []host.Item, user func(op uint32) bool) error {
	for i, it := range items {
		if !KnownOpcode(it.Opcode) && (user == nil || !user(it.Opcode)) {
			return fmt.Errorf("publish: item %d: opcode %#x is unknown: the kernel would fault it UNKNOWN_OPCODE "+
				"(pass {allowUnknownOpcodes: true} to publish it anyway)", i, it.Opcode)
		}
	}
	return nil
}
