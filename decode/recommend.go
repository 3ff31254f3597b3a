package decode

import "errors"

// RecommendLaunch feeds this snapshot into the standard launch policy
// (reference §7.9): FillLaunchRequest, then
// StandardLaunchPolicy().Recommend with no previous topology. A polling loop
// that wants hysteresis calls FillLaunchRequest and Recommend itself, passing
// the last recommendation's Topology.
//
// Errors are Recommend's, or the runtime counters' for an inconsistent
// hand-built snapshot.
func (t *RingTelemetry) RecommendLaunch(req LaunchRequest) (LaunchRecommendation, error) {
	p := StandardLaunchPolicy()
	filled, err := t.FillLaunchRequest(req, p)
	if err != nil {
		return LaunchRecommendation{}, err
	}
	return p.Recommend(filled, nil)
}

// FillLaunchRequest returns req completed with what this snapshot shows,
// by the rules of reference §7.9:
//
//   - GraphNodeCount 0 becomes the ring's total slots, GraphEdgeCount 0 its
//     queue depth, FrontierDensityBps 0 the runtime counters' density;
//   - HotOpcodeCount becomes at least the number of non-zero OPCODE_METRICS
//     words (an opcode that ran at all counts as hot: one snapshot has no
//     time base for a rate);
//   - HotWindowCount becomes at least the number of ticketed windows with
//     Required + Lookahead ≥ p.HotWindowThreshold slots;
//   - RequeueCount grows by the ring's REQUEUE slots (saturating).
//
// vyre overwrote the two hot counts, discarding the caller's; they are
// merged here by taking the larger (reference §11 item 12), which is the
// same for a caller that passes zero. p supplies the window threshold.
func (t *RingTelemetry) FillLaunchRequest(req LaunchRequest, p LaunchPolicy) (LaunchRequest, error) {
	if t == nil {
		return LaunchRequest{}, errors.New("decode: launch request from a nil RingTelemetry; decode a snapshot first")
	}
	counters, err := t.RuntimeCounters()
	if err != nil {
		return LaunchRequest{}, err
	}
	if req.GraphNodeCount == 0 {
		req.GraphNodeCount = counters.TotalSlots
	}
	if req.GraphEdgeCount == 0 {
		req.GraphEdgeCount = counters.QueueDepth
	}
	if req.FrontierDensityBps == 0 {
		req.FrontierDensityBps = counters.FrontierDensityBps
	}

	var hotOps uint32
	for _, m := range t.Control.Metrics {
		if m.Count != 0 {
			hotOps++
		}
	}
	req.HotOpcodeCount = max(req.HotOpcodeCount, hotOps)

	var hotWins uint32
	for _, w := range t.Windows {
		if uint64(w.Required)+uint64(w.Lookahead) >= uint64(p.HotWindowThreshold) {
			hotWins++
		}
	}
	req.HotWindowCount = max(req.HotWindowCount, hotWins)

	req.RequeueCount = plusSat(req.RequeueCount, uint64(t.Occupancy[StatusRequeue]))
	return req, nil
}
