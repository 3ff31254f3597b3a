package decode

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ringscope/ringscope/wgsl/abi"
)

func TestPriorityAccountingFromSnapshot(t *testing.T) {
	tel := telemetryOf(newControl(0, 3), statusRing(abi.StatusRequeue, abi.StatusRequeue, abi.StatusDone))
	assert.Equal(t, PriorityRequeueAccounting{RequeueCount: 2}, tel.PriorityAccounting())
}

func TestPriorityAccountingRecord(t *testing.T) {
	var a PriorityRequeueAccounting
	a.RecordRequeue(3)
	a.RecordRequeue(1)
	a.RecordAgedPromotion(abi.PriorityAgeThreshold)
	assert.Equal(t, PriorityRequeueAccounting{RequeueCount: 2, AgedPromotions: 1, MaxPriorityAge: abi.PriorityAgeThreshold}, a)

	full := PriorityRequeueAccounting{RequeueCount: math.MaxUint64, AgedPromotions: math.MaxUint64}
	full.RecordRequeue(0)
	full.RecordAgedPromotion(0)
	assert.Equal(t, uint64(math.MaxUint64), full.RequeueCount, "saturates")
	assert.Equal(t, uint64(math.MaxUint64), full.AgedPromotions, "saturates")
}

func TestDrainRecommendation(t *testing.T) {
	const m = math.MaxUint64
	for _, tc := range []struct {
		name  string
		a     PriorityRequeueAccounting
		want  DrainReason
		label string
	}{
		{"nothing recorded", PriorityRequeueAccounting{}, DrainNone, "none"},
		{"requeue exhausted first", PriorityRequeueAccounting{RequeueCount: m, AgedPromotions: m}, DrainRequeueCounterExhausted, "requeue_counter_exhausted"},
		{"aged exhausted", PriorityRequeueAccounting{RequeueCount: m - 1, AgedPromotions: m}, DrainAgedPromotionCounterExhausted, "aged_promotion_counter_exhausted"},
		{"requeue at the headroom", PriorityRequeueAccounting{RequeueCount: m - PriorityCounterDrainHeadroom}, DrainRequeueCounterNearLimit, "requeue_counter_near_limit"},
		{"requeue just past the headroom", PriorityRequeueAccounting{RequeueCount: m - PriorityCounterDrainHeadroom - 1}, DrainPendingTelemetry, "pending_telemetry"},
		{"aged near the limit", PriorityRequeueAccounting{AgedPromotions: m - 1}, DrainAgedPromotionCounterNearLimit, "aged_promotion_counter_near_limit"},
		{"only an age", PriorityRequeueAccounting{MaxPriorityAge: 1}, DrainPendingTelemetry, "pending_telemetry"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.a.DrainRecommendation()
			assert.Equal(t, tc.want, r.Reason)
			assert.Equal(t, tc.label, r.Reason.String())
			assert.Equal(t, tc.want != DrainNone, r.ShouldDrain)
			assert.Equal(t, m-tc.a.RequeueCount, r.RequeueHeadroom)
			assert.Equal(t, m-tc.a.AgedPromotions, r.AgedPromotionHeadroom)
		})
	}
	assert.Equal(t, "unknown", DrainReason(99).String())
}
