package host

import (
	"errors"
	"fmt"
)

// Reasons an item is refused; an *ItemError wraps one of them, so callers
// branch with errors.Is.
var (
	// ErrOpcode: the opcode is reserved and not publishable (abi.IsPublishable).
	ErrOpcode = errors.New("reserved opcode")
	// ErrTenant: the tenant id is ≥ abi.TenantCount (29).
	ErrTenant = errors.New("invalid tenant")
	// ErrPriority: the priority is > abi.PriorityIdle (4).
	ErrPriority = errors.New("invalid priority")
	// ErrQuota: the tenant's TENANT_QUOTA for this host epoch is used up;
	// it refills at Queue.NewEpoch.
	ErrQuota = errors.New("tenant quota exceeded")
)

// ErrCounterLimit means a TAIL counter reached MaxCounter: the host must
// Reset (bump GENERATION) before publishing more (PROTOCOL §3).
var ErrCounterLimit = errors.New("host: publish counter reached 2^31; Reset the queue")

// ItemError is the refusal of one item of a batch; nothing of the batch was
// written.
type ItemError struct {
	Index int   // index of the first refused item in the batch
	Item  Item  // the refused item
	Err   error // ErrOpcode, ErrTenant, ErrPriority or ErrQuota
}

func (e *ItemError) Error() string {
	var what string
	switch e.Err {
	case ErrOpcode:
		what = fmt.Sprintf("opcode %#x", e.Item.Opcode)
	case ErrTenant:
		what = fmt.Sprintf("tenant %d", e.Item.Tenant)
	case ErrPriority:
		what = fmt.Sprintf("priority %d", e.Item.Priority)
	case ErrQuota:
		what = fmt.Sprintf("tenant %d", e.Item.Tenant)
	}
	return fmt.Sprintf("host: item %d: %v: %s; nothing published", e.Index, e.Err, what)
}

func (e *ItemError) Unwrap() error { return e.Err }

// PartitionFullError is back-pressure: the priority partition has no EMPTY
// or DONE slot for the next item (or no slots at all). Nothing was written;
// drain (submit, Absorb, Requeue) and publish again.
type PartitionFullError struct {
	Priority uint32 // the partition
	Capacity uint32 // its slots, OFF[p+1] − OFF[p]
}

func (e *PartitionFullError) Error() string {
	if e.Capacity == 0 {
		return fmt.Sprintf("host: priority %d partition has no slots; nothing published", e.Priority)
	}
	return fmt.Sprintf("host: priority %d partition is full (%d slots); nothing published, drain and retry", e.Priority, e.Capacity)
}
