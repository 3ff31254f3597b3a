package decode

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// TestRuntimeCountersReferenceVector is the vector of reference §5.5.
func TestRuntimeCountersReferenceVector(t *testing.T) {
	c := newControl(0, 4)
	c[abi.CtrlDoneCount] = 7
	c[abi.CtrlTenantClaims+0], c[abi.CtrlTenantClaims+1] = 3, 9
	c[abi.CtrlPriorityClaims+0] = 5
	tel := telemetryOf(c, statusRing(abi.StatusRequeue, abi.StatusDone, abi.StatusPublished, abi.StatusEmpty))
	got, err := tel.RuntimeCounters()
	require.NoError(t, err)
	assert.Equal(t, RuntimeCounters{
		TotalSlots:            4,
		QueueDepth:            2,
		GPUIdleSlots:          1,
		GPUIdlePPM:            250000,
		FrontierDensityBps:    5000,
		OccupancyProxyBps:     7500,
		DrainedSlots:          7,
		UnreclaimedDoneSlots:  1,
		TenantFairnessTotal:   12,
		TenantFairnessSkew:    6,
		PriorityFairnessTotal: 5,
		RequeueSlots:          1,
		FaultSlots:            0,
	}, got)
}

func TestRuntimeCounters(t *testing.T) {
	const m = 0xFFFFFFFF
	for _, tc := range []struct {
		name     string
		occ      RingOccupancy
		tenants  [abi.TenantSlots]uint32
		prios    [abi.PriorityLevels]uint32
		want     RuntimeCounters
		wantFail bool
	}{
		{name: "empty ring", want: RuntimeCounters{}},
		{
			name: "all idle",
			occ:  RingOccupancy{StatusEmpty: 3},
			want: RuntimeCounters{TotalSlots: 3, GPUIdleSlots: 3, GPUIdlePPM: 1_000_000},
		},
		{
			name: "floor divisions",
			occ:  RingOccupancy{StatusEmpty: 1, StatusPublished: 1, StatusFault: 1},
			want: RuntimeCounters{TotalSlots: 3, QueueDepth: 2, GPUIdleSlots: 1, GPUIdlePPM: 333333, FrontierDensityBps: 6666, OccupancyProxyBps: 6666, FaultSlots: 1},
		},
		{
			name:    "single non-zero tenant has no skew",
			occ:     RingOccupancy{StatusDone: 1},
			tenants: [abi.TenantSlots]uint32{0, 0, 5},
			want:    RuntimeCounters{TotalSlots: 1, OccupancyProxyBps: 10000, UnreclaimedDoneSlots: 1, TenantFairnessTotal: 5},
		},
		{
			name:    "fairness totals do not overflow",
			tenants: [abi.TenantSlots]uint32{m, m, 1},
			prios:   [abi.PriorityLevels]uint32{m, m, m, m, m},
			want:    RuntimeCounters{TenantFairnessTotal: 2*m + 1, TenantFairnessSkew: m - 1, PriorityFairnessTotal: 5 * m},
		},
		{name: "hand-built inconsistent occupancy", occ: RingOccupancy{StatusEmpty: m, StatusPublished: 5}, wantFail: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tel := RingTelemetry{Occupancy: tc.occ}
			tel.Control.TenantFairness = tc.tenants
			tel.Control.PriorityFairness = tc.prios
			got, err := tel.RuntimeCounters()
			if tc.wantFail {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "decode: ")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
