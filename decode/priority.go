package decode

import "math"

// PriorityCounterDrainHeadroom is how close to the u64 maximum a priority
// counter may come before DrainRecommendation asks for a drain.
const PriorityCounterDrainHeadroom = 1024

// PriorityRequeueAccounting tracks requeue and aging pressure (reference
// §5.8): how many requeues and aged promotions the host performed, and the
// greatest requeue age seen. The zero value has recorded nothing.
type PriorityRequeueAccounting struct {
	RequeueCount   uint64
	AgedPromotions uint64
	MaxPriorityAge uint32
}

// PriorityAccounting seeds the accounting from a snapshot: the REQUEUE
// slots it holds; the ring carries no ages or promotions.
func (t *RingTelemetry) PriorityAccounting() PriorityRequeueAccounting {
	return PriorityRequeueAccounting{RequeueCount: uint64(t.Occupancy[StatusRequeue])}
}

// RecordRequeue counts one requeue of a slot requeued age times (saturating).
func (a *PriorityRequeueAccounting) RecordRequeue(age uint32) {
	if a.RequeueCount < math.MaxUint64 {
		a.RequeueCount++
	}
	a.MaxPriorityAge = max(a.MaxPriorityAge, age)
}

// RecordAgedPromotion counts one promotion of a slot, aged age requeues,
// one priority level up (PROTOCOL §3: after abi.PriorityAgeThreshold).
func (a *PriorityRequeueAccounting) RecordAgedPromotion(age uint32) {
	if a.AgedPromotions < math.MaxUint64 {
		a.AgedPromotions++
	}
	a.MaxPriorityAge = max(a.MaxPriorityAge, age)
}

// DrainReason says why the accounting should be drained (read and reset).
type DrainReason uint8

// Drain reasons, in the order DrainRecommendation tests them.
const (
	DrainNone DrainReason = iota
	DrainRequeueCounterExhausted
	DrainAgedPromotionCounterExhausted
	DrainRequeueCounterNearLimit
	DrainAgedPromotionCounterNearLimit
	DrainPendingTelemetry
)

var drainLabels = [...]string{
	DrainNone:                          "none",
	DrainRequeueCounterExhausted:       "requeue_counter_exhausted",
	DrainAgedPromotionCounterExhausted: "aged_promotion_counter_exhausted",
	DrainRequeueCounterNearLimit:       "requeue_counter_near_limit",
	DrainAgedPromotionCounterNearLimit: "aged_promotion_counter_near_limit",
	DrainPendingTelemetry:              "pending_telemetry",
}

// String returns the snake_case label of r.
func (r DrainReason) String() string {
	if int(r) < len(drainLabels) {
		return drainLabels[r]
	}
	return "unknown"
}

// DrainFix is the operator advice of every drain recommendation.
const DrainFix = "Fix: drain the priority scheduler telemetry (read, then reset the counters) before they saturate at u64::MAX."

// DrainRecommendation is the verdict of PriorityRequeueAccounting.DrainRecommendation.
type DrainRecommendation struct {
	Reason                DrainReason
	ShouldDrain           bool
	RequeueHeadroom       uint64 // u64 max − RequeueCount
	AgedPromotionHeadroom uint64 // u64 max − AgedPromotions
}

// DrainRecommendation reports whether and why the counters should be
// drained: the first of exhausted, near the limit (headroom ≤
// PriorityCounterDrainHeadroom), or merely non-zero.
func (a PriorityRequeueAccounting) DrainRecommendation() DrainRecommendation {
	r := DrainRecommendation{
		RequeueHeadroom:       math.MaxUint64 - a.RequeueCount,
		AgedPromotionHeadroom: math.MaxUint64 - a.AgedPromotions,
	}
	switch {
	case r.RequeueHeadroom == 0:
		r.Reason = DrainRequeueCounterExhausted
	case r.AgedPromotionHeadroom == 0:
		r.Reason = DrainAgedPromotionCounterExhausted
	case r.RequeueHeadroom <= PriorityCounterDrainHeadroom:
		r.Reason = DrainRequeueCounterNearLimit
	case r.AgedPromotionHeadroom <= PriorityCounterDrainHeadroom:
		r.Reason = DrainAgedPromotionCounterNearLimit
	case a.RequeueCount != 0 || a.AgedPromotions != 0 || a.MaxPriorityAge != 0:
		r.Reason = DrainPendingTelemetry
	}
	r.ShouldDrain = r.Reason != DrainNone
	return r
}
