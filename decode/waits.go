package decode

import "github.com/ringscope/ringscope/internal/nocompare"

import "github.com/ringscope/ringscope/wgsl/abi"

// WaitTimes is what the host measured of queue waits: per tenant and per
// priority, how long items waited from their publish to the frame in
// which their slot ended, and how old the oldest item still waiting is.
// The ring's buffers do not hold publish times, so only the host that
// published (not a decoded dump) can fill it.
type WaitTimes struct {
	_ nocompare.T

	Tenant   [abi.TenantSlots]WaitStats
	Priority [abi.PriorityLevels]WaitStats
}

// WaitStats summarises the waits of one tenant or priority. Times are in
// milliseconds of the page's clock; a zero Count means no item of it
// ended yet (the quantiles are then 0).
type WaitStats struct {
	_ nocompare.T

	// Count is the number of items whose wait ended (DONE or FAULT).
	Count uint64
	// P50, P99 and Max summarise those waits; Sum is their sum (a
	// summary metric's _sum).
	P50, P99, Max, Sum float64
	// Waiting is how many items are queued now; OldestAge the age of the
	// oldest of them (0 when none waits).
	Waiting   uint32
	OldestAge float64
}
