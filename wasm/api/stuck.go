package api

import (
	"strconv"

	"github.com/ringscope/ringscope/decode"
)

// Stuck is where a ring's active work sits (drain().stuck): the slots
// published, claimed or parked, by tenant, priority and status. It names
// what a drain left behind: a masked tenant's ids in ByTenant, WAIT_IO
// slots in ByStatus.
type Stuck struct {
	// ByTenant and ByPriority hold only the ids with active slots, keyed
	// by the id in decimal (a JS object's keys: stuck.byTenant[1]).
	ByTenant   map[string]uint32
	ByPriority map[string]uint32
	ByStatus   StuckStatus
}

// StuckStatus counts a ring's active slots by status, keyed by the
// status's JSON label (decode.StatusCamel: waitIO), every active status
// present.
type StuckStatus map[string]uint32

// StuckOf is where t's active work sits, from its occupancy and active
// counts (a full decode's or the GPU summary's).
func StuckOf(t *decode.RingTelemetry) Stuck {
	o := &t.Occupancy
	st := Stuck{ByTenant: map[string]uint32{}, ByPriority: map[string]uint32{}, ByStatus: StuckStatus{}}
	for s, n := range o {
		if s := decode.Status(s); s.Active() {
			st.ByStatus[s.Label(decode.StatusCamel)] = n
		}
	}
	for id, n := range t.Active.Tenant {
		if n > 0 {
			st.ByTenant[strconv.Itoa(id)] = n
		}
	}
	for p, n := range t.Active.Priority {
		if n > 0 {
			st.ByPriority[strconv.Itoa(p)] = n
		}
	}
	return st
}
